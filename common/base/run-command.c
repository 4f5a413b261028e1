/* SPDX-License-Identifier: GPL-2.0-only */
#include "run-command.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void NORETURN child(const char *const *argv, int in, int out)
{
	int null = in < 0 ? open("/dev/null", O_RDONLY) : -1;

	if ((in >= 0 ? dup2(in, 0) : dup2(null, 0)) < 0 || (out >= 0 && dup2(out, 1) < 0))
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], (char *const *)argv);
	error_errno("cannot run '%s'", argv[0]);
	_exit(127);
}

/* Feeds input and drains output at the same time: either may exceed a pipe's buffer. */
static int pump(int to, const char *input, size_t len, int from, struct strbuf *out)
{
	size_t done = 0;
	char buf[4096];

	while (to >= 0 || from >= 0) {
		struct pollfd pfd[2];
		int n = 0, rc;

		if (to >= 0)
			pfd[n++] = (struct pollfd){ to, POLLOUT, 0 };
		if (from >= 0)
			pfd[n++] = (struct pollfd){ from, POLLIN, 0 };
		rc = poll(pfd, n, -1);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return error_errno("cannot wait for a child process");
		for (int i = 0; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == to) {
				ssize_t w = write(to, input + done, len - done);

				if (w < 0 && errno == EINTR)
					continue;
				/* A program that does not read its input is not our error. */
				if (w < 0 || (done += w) == len) {
					close(to);
					to = -1;
				}
			} else {
				ssize_t r = read(from, buf, sizeof(buf));

				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0) {
					close(from);
					from = -1;
				} else {
					strbuf_add(out, buf, r);
				}
			}
		}
	}
	return 0;
}

int run_command(const char *const *argv, const char *input, size_t len, struct strbuf *out)
{
	int in[2] = { -1, -1 }, outp[2] = { -1, -1 };
	void (*old_pipe)(int);
	pid_t pid;
	int status, ret;

	if ((input && pipe(in) < 0) || (out && pipe(outp) < 0)) {
		error_errno("cannot run '%s'", argv[0]);
		goto fail;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error_errno("cannot run '%s'", argv[0]);
		goto fail;
	}
	if (!pid) {
		if (in[1] >= 0)
			close(in[1]);
		if (outp[0] >= 0)
			close(outp[0]);
		child(argv, in[0], outp[1]);
	}
	if (in[0] >= 0)
		close(in[0]);
	if (outp[1] >= 0)
		close(outp[1]);
	old_pipe = signal(SIGPIPE, SIG_IGN);
	ret = pump(input && len ? in[1] : -1, input, len, out ? outp[0] : -1, out);
	signal(SIGPIPE, old_pipe);
	if (input && !len)
		close(in[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_errno("cannot wait for '%s'", argv[0]);
	if (ret < 0)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (outp[i] >= 0)
			close(outp[i]);
	}
	return -1;
}

static int executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int find_program(struct strbuf *out, const char *name)
{
	const char *path = getenv("PATH");
	char self[4096];
	ssize_t n;

	while (path && *path) {
		const char *end = strchrnul(path, ':');

		strbuf_setlen(out, 0);
		if (end > path)
			strbuf_add(out, path, end - path);
		else
			strbuf_addch(out, '.');
		strbuf_addf(out, "/%s", name);
		if (executable(out->buf))
			return 0;
		path = *end ? end + 1 : end;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			strbuf_setlen(out, 0);
			strbuf_add(out, self, slash - self);
			strbuf_addf(out, "/%s", name);
			if (executable(out->buf))
				return 0;
		}
	}
	strbuf_setlen(out, 0);
	return -1;
}

int find_part_program(struct strbuf *out, const char *name)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			strbuf_setlen(out, 0);
			strbuf_addf(out, "%s/%s", self, name);
			if (executable(out->buf))
				return 0;
			strbuf_setlen(out, 0);
			strbuf_addf(out, "%s/../libexec/git-maint/%s", self, name);
			if (executable(out->buf))
				return 0;
		}
	}
	return find_program(out, name);
}
