/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RUN_COMMAND_H
#define RUN_COMMAND_H

/*
 * Running another program. This file is the one place that starts one:
 * every program git-maint runs (git, gpg, git-maint-notify, the user's
 * editor, pager and check/build commands, hook.h, the libgit2 part of
 * describe-contains) is started by spawn() in run-command.c, with
 * posix_spawnp(), never fork(). fork() copies the page tables of the
 * process, and each page it writes afterwards faults again: from a queue
 * holding a 26 MB series that cost ~70 ms a child on a virtual machine,
 * more than the check command it ran. (Replacing ourselves with exec(), as
 * describe-contains and --help do, starts nothing; push.c's worker is a
 * fork() that runs our own code, no program.)
 *
 * One exception is left: the sendmail-compatible program of
 * sendemail.smtpServer (mailer.c) has a posix_spawn() of its own, because
 * all it says is its reply to the mail: why it did not start, its output
 * and its standard error together (bounded), and whether it exited or was
 * killed (a signal may be retried, an exit status of 128 and more not),
 * none of which run_opts can give back yet.
 *
 * What the child gets: its arguments (argv[0] searched on our PATH unless
 * it holds a '/'; a file without "#!" is not handed to the shell, as
 * execvp() would), our environment with run_opts.env applied (one merge,
 * here), SIGPIPE at its default whatever ours is, our other signal
 * dispositions as exec leaves them, and only the descriptors we do not
 * mark close-on-exec: the pipes made here are, on both ends, so a child
 * holds only its own standard input, output and error.
 *
 * Never through a shell but for the user's commands, which are shell
 * commands as git runs them (editor.h, pager.h, hook.h: argv "/bin/sh",
 * "-c", ...); never with a secret in the arguments or environment (what
 * the child must know goes through its standard input, a pipe).
 *
 * The git program runs where its protocol is the interface: `git
 * credential fill|approve|reject` (how the user's configured credential
 * helpers are asked), and `git receive-pack <dir>` for a push to a
 * repository on this machine (git's push protocol, hooks and all).
 */

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

/*
 * Runs argv[0] with argv, input[0..len) on its standard input (none when
 * input is NULL: /dev/null), its standard output appended to out
 * (inherited when out is NULL), its standard error inherited. Input and
 * output are interleaved, so neither size is limited.
 *
 * Returns the exit status (0..255), 128+n when it was killed by signal n;
 * 127 when it could not be run (not found, not executable, or the
 * directory of run_opts.dir missing: reported, "cannot run '<argv[0]>'"
 * or "cannot change to '<dir>'", as a shell says 127); -1 (reported)
 * when no process could be made (no pipe, no memory, too many
 * processes).
 */
int run_command(const char *const *argv, const char *input, size_t len, struct strbuf *out);

/* run_command() with more said about the child. */
struct run_opts {
	const char *const *argv;
	/*
	 * Applied to our environment in order, for the child only: "NAME=value"
	 * sets NAME, "NAME" unsets it. NULL: ours as it is.
	 */
	const char *const *env;
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
	const char *dir;	/* it runs in this directory; NULL: ours */
	/*
	 * Its standard output goes where its standard error goes (ours, or
	 * err), as the user's check and build commands run (hook.h), so our
	 * standard output stays our own. Not with out.
	 */
	int out_to_err;
};

int run_command_opts(const struct run_opts *o);

/*
 * A program we talk with as it runs (a local git-receive-pack: git's
 * protocol; the pager; the libgit2 part of describe-contains): its
 * standard input a pipe we write to (in) and, when asked, its standard
 * output a pipe we read (out); the rest as run_opts says, but for input,
 * len, out and err (which run_command_opts() alone pumps: BUG here) and
 * interactive. Our ends are close-on-exec: no other child holds them.
 */
struct child_process {
	pid_t pid;
	int in, out;	/* our ends of its pipes, or -1 */
};

#define CHILD_PROCESS_INIT { -1, -1, -1 }

enum child_pipes {
	CHILD_PIPE_IN = 1,	/* its standard input from cp->in; else /dev/null */
	CHILD_PIPE_OUT = 2,	/* its standard output to cp->out; else inherited */
};

/*
 * 0 with cp set, or -1 reported (as run_command_opts() reports it: a
 * program not found is known here, not at finish_command()).
 */
int start_command(struct child_process *cp, const struct run_opts *o, unsigned pipes);

/*
 * Closes our ends of its pipes that are still open, then waits for it:
 * its status as run_command() gives it (-1 when none was started).
 */
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
