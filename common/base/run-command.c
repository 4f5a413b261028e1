/* SPDX-License-Identifier: GPL-2.0-only */
#include "run-command.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* 1 when an entry of env ("NAME=value" or "NAME") names the variable var[0..n). */
static int env_names(const char *const *env, const char *var, size_t n)
{
	for (; *env; env++)
		if (!strncmp(*env, var, n) && ((*env)[n] == '=' || !(*env)[n]))
			return 1;
	return 0;
}

/*
 * The child's environment (run_opts.env): ours without the variables env
 * names, then env's "NAME=value" entries that no later entry names again.
 * The strings stay ours and env's: free the array alone.
 */
static const char **child_env(const char *const *env)
{
	size_t nr = 0, n;
	const char **v;

	for (char **e = environ; *e; e++)
		nr++;
	for (const char *const *e = env; *e; e++)
		nr++;
	v = xcalloc(nr + 1, sizeof(*v));
	nr = 0;
	for (char **e = environ; *e; e++)
		if (!env_names(env, *e, strcspn(*e, "=")))
			v[nr++] = *e;
	for (const char *const *e = env; *e; e++) {
		n = strcspn(*e, "=");
		if ((*e)[n] == '=' && !env_names(e + 1, *e, n))
			v[nr++] = *e;
	}
	return v;
}

/* What the child does before it runs the program: its descriptors and directory. */
static int child_actions(posix_spawn_file_actions_t *fa, const struct run_opts *o, int in,
			 int out, int err)
{
	int rc = 0;

	if (in >= 0)
		rc = posix_spawn_file_actions_adddup2(fa, in, 0);
	else if (!o->interactive)
		rc = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (!rc && out >= 0)
		rc = posix_spawn_file_actions_adddup2(fa, out, 1);
	if (!rc && err >= 0)
		rc = posix_spawn_file_actions_adddup2(fa, err, 2);
	if (!rc && o->out_to_err)
		rc = posix_spawn_file_actions_adddup2(fa, 2, 1);
	if (!rc && o->dir)
		rc = posix_spawn_file_actions_addchdir_np(fa, o->dir);
	return rc;
}

/* SIGPIPE at its default in the child, whatever ours is (we ignore it while we pump). */
static int child_attr(posix_spawnattr_t *attr)
{
	sigset_t dfl;
	int rc = posix_spawnattr_init(attr);

	if (rc)
		return rc;
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	rc = posix_spawnattr_setsigdefault(attr, &dfl);
	if (!rc)
		rc = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGDEF);
	if (rc)
		posix_spawnattr_destroy(attr);
	return rc;
}

/* 0 when dir is a directory we may enter, else -1 with errno saying why not. */
static int enterable(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return access(dir, X_OK);
}

/*
 * Reports why o's program did not start (errno rc): -1 when no process
 * was made, else 127 (what the child could not do, as a shell says it).
 */
static int spawn_failed(const struct run_opts *o, int rc)
{
	errno = rc;
	if (rc == EAGAIN || rc == ENOMEM)
		return error_errno("cannot run '%s'", o->argv[0]);
	if (o->dir && enterable(o->dir) < 0) {
		error_errno("cannot change to '%s'", o->dir);
	} else {
		errno = rc;
		error_errno("cannot run '%s'", o->argv[0]);
	}
	return 127;
}

/*
 * Starts o's program, the one way git-maint starts one (run-command.h),
 * with in, out and err (-1: see run_opts) as its standard input, output
 * and error. 0 with *pid, or what run_command_opts() returns when the
 * program does not start (reported).
 */
static int spawn(pid_t *pid, const struct run_opts *o, int in, int out, int err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	const char **envp = NULL;
	int rc;

	if (o->out_to_err && out >= 0)
		BUG("run_opts.out_to_err with a pipe for its standard output");
	rc = posix_spawn_file_actions_init(&fa);
	if (rc)
		return spawn_failed(o, rc);
	rc = child_actions(&fa, o, in, out, err);
	if (!rc)
		rc = child_attr(&attr);
	if (!rc) {
		if (o->env)
			envp = child_env(o->env);
		/* what we wrote comes before what it writes */
		fflush(NULL);
		report_flush();
		rc = posix_spawnp(pid, o->argv[0], &fa, &attr, (char *const *)o->argv,
				  envp ? (char *const *)envp : environ);
		posix_spawnattr_destroy(&attr);
		free(envp);
	}
	posix_spawn_file_actions_destroy(&fa);
	return rc ? spawn_failed(o, rc) : 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Appends what can be read from *fd to out; closes it at the end. */
static void drain(int *fd, struct strbuf *out)
{
	char buf[4096];
	ssize_t r = read(*fd, buf, sizeof(buf));

	if (r < 0 && errno == EINTR)
		return;
	if (r <= 0)
		close_fd(fd);
	else
		strbuf_add(out, buf, r);
}

/*
 * Feeds input to *to and drains *from into out and *errfd into err at the
 * same time (any may exceed a pipe's buffer), each closed and set to -1
 * when done. *to does not block: a write of all that is left would wait
 * for a child that waits for us to read its output.
 */
static int pump(int *to, const char *input, size_t len, int *from, struct strbuf *out,
		int *errfd, struct strbuf *err)
{
	size_t done = 0;
	int fl = *to >= 0 ? fcntl(*to, F_GETFL) : 0;

	if (fl < 0 || (*to >= 0 && fcntl(*to, F_SETFL, fl | O_NONBLOCK) < 0))
		return error_errno("cannot write to a child process");
	while (*to >= 0 || *from >= 0 || *errfd >= 0) {
		struct pollfd pfd[3];
		int n = 0, rc;

		if (*to >= 0)
			pfd[n++] = (struct pollfd){ *to, POLLOUT, 0 };
		if (*from >= 0)
			pfd[n++] = (struct pollfd){ *from, POLLIN, 0 };
		if (*errfd >= 0)
			pfd[n++] = (struct pollfd){ *errfd, POLLIN, 0 };
		rc = poll(pfd, n, -1);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return error_errno("cannot wait for a child process");
		for (int i = 0; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == *to) {
				ssize_t w = write(*to, input + done, len - done);

				if (w < 0 && (errno == EINTR || errno == EAGAIN))
					continue;
				/* A program that does not read its input is not our error. */
				if (w < 0 || (done += w) == len)
					close_fd(to);
			} else if (pfd[i].fd == *from) {
				drain(from, out);
			} else {
				drain(errfd, err);
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

/* Our pipe to or from the child when want: 0 (pipe -1s when not wanted), or -1 reported. */
static int child_pipe(int p[2], int want, const char *name)
{
	if (want && pipe2(p, O_CLOEXEC) < 0)
		return error_errno("cannot run '%s'", name);
	return 0;
}

int run_command_opts(const struct run_opts *o)
{
	int in[2] = { -1, -1 }, outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	void (*old_pipe)(int), (*old_int)(int) = SIG_DFL, (*old_quit)(int) = SIG_DFL;
	pid_t pid;
	int ret, status;

	if (child_pipe(in, !!o->input, o->argv[0]) || child_pipe(outp, !!o->out, o->argv[0]) ||
	    child_pipe(errp, !!o->err, o->argv[0])) {
		ret = -1;
		goto out;
	}
	ret = spawn(&pid, o, in[0], outp[1], errp[1]);
	/* the child's ends are its own */
	close_fd(&in[0]);
	close_fd(&outp[1]);
	close_fd(&errp[1]);
	if (ret)
		goto out;
	if (o->interactive) {
		old_int = signal(SIGINT, SIG_IGN);
		old_quit = signal(SIGQUIT, SIG_IGN);
	}
	if (!o->len)
		close_fd(&in[1]);
	old_pipe = signal(SIGPIPE, SIG_IGN);
	ret = pump(&in[1], o->input, o->len, &outp[0], o->out, &errp[0], o->err);
	signal(SIGPIPE, old_pipe);
	/* a child whose pipes we could not pump is still waited for */
	close_fd(&in[1]);
	close_fd(&outp[0]);
	close_fd(&errp[0]);
	status = wait_child(pid, o->argv[0]);
	if (o->interactive) {
		signal(SIGINT, old_int);
		signal(SIGQUIT, old_quit);
	}
	if (ret >= 0)
		ret = status;
out:
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&outp[0]);
	close_fd(&outp[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	return ret;
}

int run_command(const char *const *argv, const char *input, size_t len, struct strbuf *out)
{
	struct run_opts o = { .argv = argv, .input = input, .len = len, .out = out };

	return run_command_opts(&o);
}

int start_command(struct child_process *cp, const struct run_opts *o, unsigned pipes)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int rc;

	if (o->input || o->out || o->err || o->interactive)
		BUG("start_command() pumps no input or output");
	rc = child_pipe(in, pipes & CHILD_PIPE_IN, o->argv[0]);
	if (!rc)
		rc = child_pipe(out, pipes & CHILD_PIPE_OUT, o->argv[0]);
	if (!rc)
		rc = spawn(&cp->pid, o, in[0], out[1], -1);
	close_fd(&in[0]);
	close_fd(&out[1]);
	if (rc) {
		close_fd(&in[1]);
		close_fd(&out[0]);
		cp->pid = -1;
		return -1;
	}
	cp->in = in[1];
	cp->out = out[0];
	return 0;
}

int finish_command(struct child_process *cp)
{
	int status;

	close_fd(&cp->in);
	close_fd(&cp->out);
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
