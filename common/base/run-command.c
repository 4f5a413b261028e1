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

static void NORETURN child(const struct run_opts *o, int in, int out, int err)
{
	if (in < 0 && !o->interactive && (in = open("/dev/null", O_RDONLY)) < 0)
		_exit(127);
	if ((in >= 0 && dup2(in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0) ||
	    (err >= 0 && dup2(err, 2) < 0))
		_exit(127);
	for (const char *const *e = o->env; e && *e; e++)
		if (strchr(*e, '=') ? putenv((char *)*e) : unsetenv(*e))
			_exit(127);
	signal(SIGPIPE, SIG_DFL);
	execvp(o->argv[0], (char *const *)o->argv);
	error_errno("cannot run '%s'", o->argv[0]);
	_exit(127);
}

/* Appends what can be read from *fd to out; closes it at the end. */
static void drain(int *fd, struct strbuf *out)
{
	char buf[4096];
	ssize_t r = read(*fd, buf, sizeof(buf));

	if (r < 0 && errno == EINTR)
		return;
	if (r <= 0) {
		close(*fd);
		*fd = -1;
	} else {
		strbuf_add(out, buf, r);
	}
}

/* Feeds input and drains output and errors at the same time: any may exceed a pipe's buffer. */
static int pump(int to, const char *input, size_t len, int from, struct strbuf *out, int errfd,
		struct strbuf *err)
{
	size_t done = 0;

	while (to >= 0 || from >= 0 || errfd >= 0) {
		struct pollfd pfd[3];
		int n = 0, rc;

		if (to >= 0)
			pfd[n++] = (struct pollfd){ to, POLLOUT, 0 };
		if (from >= 0)
			pfd[n++] = (struct pollfd){ from, POLLIN, 0 };
		if (errfd >= 0)
			pfd[n++] = (struct pollfd){ errfd, POLLIN, 0 };
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
			} else if (pfd[i].fd == from) {
				drain(&from, out);
			} else {
				drain(&errfd, err);
			}
		}
	}
	return 0;
}

/* Its exit status (0..255), 128+n when killed by signal n, or -1 reported. */
static int wait_child(pid_t pid, const char *name)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_errno("cannot wait for '%s'", name);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
}

int run_command_opts(const struct run_opts *o)
{
	int in[2] = { -1, -1 }, outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	const char *name = o->argv[0];
	void (*old_pipe)(int), (*old_int)(int) = SIG_DFL, (*old_quit)(int) = SIG_DFL;
	pid_t pid;
	int status, ret;

	if ((o->input && pipe(in) < 0) || (o->out && pipe(outp) < 0) || (o->err && pipe(errp) < 0)) {
		error_errno("cannot run '%s'", name);
		goto fail;
	}
	fflush(NULL);
	report_flush();
	pid = fork();
	if (pid < 0) {
		error_errno("cannot run '%s'", name);
		goto fail;
	}
	if (!pid) {
		if (in[1] >= 0)
			close(in[1]);
		if (outp[0] >= 0)
			close(outp[0]);
		if (errp[0] >= 0)
			close(errp[0]);
		child(o, in[0], outp[1], errp[1]);
	}
	if (in[0] >= 0)
		close(in[0]);
	if (outp[1] >= 0)
		close(outp[1]);
	if (errp[1] >= 0)
		close(errp[1]);
	if (o->interactive) {
		old_int = signal(SIGINT, SIG_IGN);
		old_quit = signal(SIGQUIT, SIG_IGN);
	}
	old_pipe = signal(SIGPIPE, SIG_IGN);
	ret = pump(o->input && o->len ? in[1] : -1, o->input, o->len, outp[0], o->out, errp[0], o->err);
	signal(SIGPIPE, old_pipe);
	if (o->input && !o->len)
		close(in[1]);
	status = wait_child(pid, name);
	if (o->interactive) {
		signal(SIGINT, old_int);
		signal(SIGQUIT, old_quit);
	}
	return ret < 0 ? -1 : status;
fail:
	close_pair(in);
	close_pair(outp);
	close_pair(errp);
	return -1;
}

int run_command(const char *const *argv, const char *input, size_t len, struct strbuf *out)
{
	struct run_opts o = { argv, NULL, input, len, out, NULL };

	return run_command_opts(&o);
}

int start_command(struct child_process *cp, const char *const *argv, const char *const *unset)
{
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC) < 0)
		return error_errno("cannot run '%s'", argv[0]);
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		return error_errno("cannot run '%s'", argv[0]);
	}
	fflush(NULL);
	cp->pid = fork();
	if (cp->pid < 0) {
		error_errno("cannot run '%s'", argv[0]);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return -1;
	}
	if (!cp->pid) {
		/* names without '=' are unset in the child (run_opts.env) */
		struct run_opts o = { argv, unset, NULL, 0, NULL, NULL };

		close(in[1]);
		close(out[0]);
		child(&o, in[0], out[1], -1);
	}
	close(in[0]);
	close(out[1]);
	cp->in = in[1];
	cp->out = out[0];
	return 0;
}

int finish_command(struct child_process *cp)
{
	int status;

	if (cp->in >= 0)
		close(cp->in);
	if (cp->out >= 0)
		close(cp->out);
	cp->in = cp->out = -1;
	if (cp->pid <= 0)
		return -1;
	status = wait_child(cp->pid, "a child process");
	cp->pid = -1;
	return status;
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
