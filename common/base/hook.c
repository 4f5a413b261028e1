/* SPDX-License-Identifier: GPL-2.0-only */
#include "hook.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int hook_run(const char *cmd, const char *dir, const char *input, size_t len,
	     const char *const *env)
{
	int in[2];
	pid_t pid;
	int status;
	void (*old_pipe)(int);

	if (pipe(in) < 0)
		return error_errno("cannot run '%s'", cmd);
	fflush(NULL);
	report_flush();
	pid = fork();
	if (pid < 0) {
		close(in[0]);
		close(in[1]);
		return error_errno("cannot run '%s'", cmd);
	}
	if (!pid) {
		close(in[1]);
		if (dup2(in[0], 0) < 0 || dup2(2, 1) < 0)
			_exit(127);
		close(in[0]);
		if (dir && chdir(dir) < 0) {
			error_errno("cannot change to '%s'", dir);
			_exit(127);
		}
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		error_errno("cannot run '/bin/sh'");
		_exit(127);
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
