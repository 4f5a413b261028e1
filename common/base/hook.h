/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOOK_H
#define HOOK_H

/*
 * User-configured commands (tree.<name>.check, tree.<name>.build): run
 * with /bin/sh -c in dir, standard output sent to our standard error (so
 * our stdout stays the command's output), input (may be NULL: then
 * /dev/null) fed on standard input; a command that does not read it is
 * fine. env holds extra "NAME=value" entries (NULL-terminated, may be
 * NULL). Started as every program is (run-command.h: posix_spawn, no copy
 * of a large queue's page tables for each patch a check runs on).
 *
 * Returns the command's exit status (0 success, 1..255 failure, 128+n
 * killed by signal n); 127 when it could not change to dir or run
 * /bin/sh ("cannot change to '<dir>'", "cannot run '/bin/sh'",
 * reported); -1 when no process could be made (reported).
 */

#include <stddef.h>

int hook_run(const char *cmd, const char *dir, const char *input, size_t len,
	     const char *const *env);

#endif
