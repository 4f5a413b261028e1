/* SPDX-License-Identifier: GPL-2.0-only */
#include "hook.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The command's environment: ours, each "NAME=value" of env in place of NAME. */
static void hook_env(struct strvec *out, const char *const *env)
{
	for (char **e = environ; *e; e++) {
		size_t n = strcspn(*e, "=");
		size_t i;

		for (i = 0; env && env[i]; i++)
			if (!strncmp(env[i], *e, n) && env[i][n] == '=')
				break;
		if (!env || !env[i])
			strvec_push(out, *e);
	}
	for (size_t i = 0; env && env[i]; i++)
		strvec_push(out, env[i]);
}

/*
 * Starts the command: 0, or what hook_run() returns when it cannot (the
 * error reported): -1 when no process could be made, 127 when the child
 * could not change to dir or run /bin/sh (as when the child of fork()
 * reported it and exited 127). posix_spawn(), not fork(): the command
 * starts without a copy of our page tables, which for a queue holding a
 * large series cost more than the command itself (a 26 MB queue: ~70 ms
 * a fork on a virtual machine, for each patch a check runs on).
 */
static int hook_spawn(pid_t *pid, const char *cmd, const char *dir, int in[2],
		      const char *const *env)
{
	const char *argv[] = { "sh", "-c", cmd, NULL };
	posix_spawn_file_actions_t fa;
	struct strvec envp = STRVEC_INIT;
	struct stat st;
	int rc;

	hook_env(&envp, env);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	if (in[0] != 0) {
		posix_spawn_file_actions_adddup2(&fa, in[0], 0);
		posix_spawn_file_actions_addclose(&fa, in[0]);
	}
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	if (dir)
		posix_spawn_file_actions_addchdir_np(&fa, dir);
	rc = posix_spawn(pid, "/bin/sh", &fa, NULL, (char *const *)argv, (char *const *)envp.v);
	posix_spawn_file_actions_destroy(&fa);
	strvec_clear(&envp);
	if (!rc)
		return 0;
	errno = rc;
	/* no process (fork() failed, before): -1 */
	if (rc == EAGAIN || rc == ENOMEM)
		return error_errno("cannot run '%s'", cmd);
	/* the child's own failures, as the child reported them: exit 127 */
	if (dir && (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)))
		error_errno("cannot change to '%s'", dir);
	else
		error_errno("cannot run '/bin/sh'");
	return 127;
}

int hook_run(const char *cmd, const char *dir, const char *input, size_t len,
	     const char *const *env)
{
	int in[2];
	pid_t pid;
	int status, rc;
	void (*old_pipe)(int);

	if (pipe(in) < 0)
		return error_errno("cannot run '%s'", cmd);
	fflush(NULL);
	report_flush();
	rc = hook_spawn(&pid, cmd, dir, in, env);
	if (rc) {
		close(in[0]);
		close(in[1]);
		return rc;
	}
	close(in[0]);
	/* The command may not read its input: its going away is not our error. */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	if (input && len && write_in_full(in[1], input, len) < 0 && errno != EPIPE)
		error_errno("cannot write to '%s'", cmd);
	close(in[1]);
	signal(SIGPIPE, old_pipe);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error_errno("cannot wait for '%s'", cmd);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}
