/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RUN_COMMAND_H
#define RUN_COMMAND_H

/*
 * Running another program: never through a shell (but for the user's
 * editor, editor.h, a shell command as git runs it), never with a secret
 * in its arguments or environment (what it must know goes through its
 * standard input, a pipe). For user-configured shell commands see
 * common/base/hook.h.
 *
 * The programs git-maint runs this way: git-maint-notify (from publish),
 * `git credential fill|approve|reject` (git's credential protocol: how
 * the user's configured credential helpers are asked), and `git
 * receive-pack <dir>` for a push to a repository on this machine (git's
 * push protocol, as git push runs it there, hooks and all): the uses of
 * the git program, each where its protocol is the interface.
 */

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

/*
 * Runs argv[0] (searched on PATH unless it holds a '/') with argv,
 * input[0..len) on its standard input (none when input is NULL: /dev/null),
 * its standard output appended to out (inherited when out is NULL), its
 * standard error inherited. Input and output are interleaved, so neither
 * size is limited.
 *
 * Returns the exit status (0..255; 127 when the program was not found,
 * reported), 128+n when it was killed by signal n, or -1 (reported) when
 * it could not be started.
 */
int run_command(const char *const *argv, const char *input, size_t len, struct strbuf *out);

/* run_command() with more said about the child. */
struct run_opts {
	const char *const *argv;
	const char *const *env;	/* "NAME=value" set, "NAME" unset in the child; NULL: none */
	const char *input;	/* as run_command()'s */
	size_t len;
	struct strbuf *out;	/* as run_command()'s */
	struct strbuf *err;	/* its standard error appended here; NULL: inherited */
	/*
	 * An editor: no input means our standard input (the terminal), not
	 * /dev/null, and while it runs SIGINT and SIGQUIT are ignored here,
	 * so the ^C meant for it does not kill us behind it (as git does).
	 */
	int interactive;
};

int run_command_opts(const struct run_opts *o);

/*
 * A program we talk with through its standard input and output (a local
 * git-receive-pack: git's protocol): started with both as pipes (in: we
 * write, out: we read; close-on-exec), standard error inherited, the
 * environment variables named in unset (NULL-ended, or NULL) removed.
 */
struct child_process {
	pid_t pid;
	int in, out;
};

#define CHILD_PROCESS_INIT { -1, -1, -1 }

/* 0, or -1 reported. */
int start_command(struct child_process *cp, const char *const *argv, const char *const *unset);

/* Closes our ends of its pipes, then waits for it: its status as run_command() gives it. */
int finish_command(struct child_process *cp);

/*
 * Finds a git-maint program: on PATH first (as git finds git-maint-*),
 * else next to the running program (/proc/self/exe), so an unpacked
 * build works without PATH. 0 with the path in out, -1 (nothing
 * reported) when there is none.
 */
int find_program(struct strbuf *out, const char *name);

/*
 * Finds a part of a git-maint command (a git-maint-<cmd>--<part>
 * program, which make install puts in libexec/git-maint): next to the
 * running program (the build), then in ../libexec/git-maint/ from it,
 * then on PATH. 0 with the path in out, -1 (nothing reported) when
 * there is none.
 */
int find_part_program(struct strbuf *out, const char *name);

#endif
