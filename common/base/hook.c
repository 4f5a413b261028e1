/* SPDX-License-Identifier: GPL-2.0-only */
#include "hook.h"
#include "run-command.h"

int hook_run(const char *cmd, const char *dir, const char *input, size_t len,
	     const char *const *env)
{
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	struct run_opts o = {
		.argv = argv, .env = env, .input = input, .len = len, .dir = dir, .out_to_err = 1,
	};

	return run_command_opts(&o);
}
