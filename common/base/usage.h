/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef USAGE_H
#define USAGE_H

/*
 * Messages and exit codes shared by every git-maint command.
 *
 * All diagnostics go through one function (report()) so they look the
 * same everywhere: "fatal: ", "error: " or "warning: ", lower case,
 * user input quoted '%s', to stderr. Stdout carries only a command's
 * output.
 *
 * common/ functions report with error() and return its -1; only
 * commands call die().
 *
 * "fatal: " is what a program that exits 128 says, as git's die() does,
 * though the error that made it fail was reported deep in common/ with
 * error(), before anyone knew it would end the program. So a program
 * (main.c: report_hold_errors()) holds its last error back: the message
 * waits until the program exits, and is printed then with "fatal: " when
 * the exit code is 128 (EXIT_FATAL), "error: " otherwise. The hints
 * advise() gives after it wait with it and follow it. Anything else that
 * reaches stderr first (another error, a warning, a line of say() on
 * stderr, a progress line, a child process: report_flush()) prints the
 * held one first, as "error: ", so the order on stderr is always the
 * order of the calls. This is the only place that decides the prefix.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum maint_exit {
	EXIT_OK = 0,		/* success */
	EXIT_NO = 1,		/* a negative answer: nothing selected, does not apply */
	EXIT_TEMPFAIL = 75,	/* temporary failure, safe to retry (EX_TEMPFAIL) */
	EXIT_FATAL = 128,	/* bad input, I/O, configuration */
	EXIT_USAGE = 129,	/* bad command line */
};

/*
 * What a function in common/ returns when "it worked" and "it failed" are
 * not enough: every function that decides ok / no / try later / fatal is
 * declared to return this type, never a plain int whose 1 could mean two
 * things. Commands turn it into an exit code with result_exit_code(), the
 * one place where results become exit codes; result_from_exit_code() is
 * the one place where a child's exit code becomes a result again.
 */
enum maint_result {
	RESULT_FATAL = -1,	/* reported with error(): exit 128 */
	RESULT_OK = 0,
	RESULT_NO = 1,		/* a negative answer (does not apply, stopped, refused): exit 1 */
	RESULT_TEMPFAIL = 2,	/* nothing changed, safe to retry (lock held, 4xx, unreachable): exit 75 */
};

/* RESULT_* (any negative value counting as RESULT_FATAL) to EXIT_*. */
int result_exit_code(enum maint_result result);

/*
 * The result a child git-maint program (or any program keeping our exit
 * codes) reported with its exit code: 0 RESULT_OK, 1 RESULT_NO, 75
 * RESULT_TEMPFAIL, anything else (128, a signal as run_command() gives it,
 * -1 for a child that could not run) RESULT_FATAL.
 */
enum maint_result result_from_exit_code(int code);

/*
 * The worse of two results, for a run of several tries (one per remote,
 * one per input): RESULT_FATAL, then RESULT_NO (refused: retrying will
 * not help), then RESULT_TEMPFAIL, then RESULT_OK.
 */
enum maint_result result_worse(enum maint_result a, enum maint_result b);

#define NORETURN __attribute__((noreturn))
#define PRINTF(f, a) __attribute__((format(printf, f, a)))

/* The program's name as invoked, e.g. "git-maint-queue", for messages. */
extern const char *maint_progname;

/*
 * Writes prefix, the formatted message and a newline to stderr in one
 * write. Every control character of the message other than tab and
 * newline becomes '?' (as git's vreportf does): messages quote subjects,
 * names and paths from mail, and those must never drive the terminal.
 */
void report(const char *prefix, const char *fmt, va_list ap);

/*
 * The one definition of a control character, which text from mail,
 * patches and refs may never carry to a terminal: the length of the one
 * at s[0..left) (C0 including tab and newline, DEL: 1; the C1 range
 * U+0080..U+009F in UTF-8: 2), or 0.
 */
size_t control_char_len(const char *s, size_t left);

/*
 * Replaces in place, from buf[0..len), every control character (C0 but
 * tab and newline, DEL, and the C1 range U+0080..U+009F of UTF-8) by '?'.
 * Returns the new length (C1 characters take two bytes, '?' one).
 */
size_t neutralise_controls(char *buf, size_t len);

/*
 * neutralise_controls() for one field of a one-line record (a listing's
 * subject, a ref name, an error's detail): tab and newline become '?'
 * too, so the record stays one line and its fields stay apart.
 */
size_t neutralise_field(char *buf, size_t len);

/*
 * A line of a command's running commentary ("Applying: <subject>") on
 * fp: formatted, control characters neutralised, newline added. Text
 * from mail printed as it goes goes through here, not printf().
 */
PRINTF(2, 3) void say(FILE *fp, const char *fmt, ...);

/*
 * A hint after an error or a stop, as git's advise(): each line of the
 * formatted text on stderr after "hint: " (after the held error, if one
 * is held).
 */
PRINTF(1, 2) void advise(const char *fmt, ...);

NORETURN PRINTF(1, 2) void die(const char *fmt, ...);
/* die() with ": <strerror(errno)>" appended. */
NORETURN PRINTF(1, 2) void die_errno(const char *fmt, ...);
/* die() with a chosen exit code (e.g. EXIT_TEMPFAIL). */
NORETURN PRINTF(2, 3) void die_code(int code, const char *fmt, ...);
/* "error: " (or "fatal: ", see above): held back in a program, printed at once elsewhere. */
PRINTF(1, 2) int error(const char *fmt, ...);
PRINTF(1, 2) int error_errno(const char *fmt, ...);
PRINTF(1, 2) void warning(const char *fmt, ...);

/* A bug in git-maint itself: aborts so sanitizers and core dumps see it. */
NORETURN PRINTF(3, 4) void bug_fl(const char *file, int line, const char *fmt, ...);
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/*
 * From now on this process holds its last error back (see above); from
 * main() of the programs. A forked child prints its errors at once.
 */
void report_hold_errors(void);
/*
 * Prints the held error now, as "error: ". Before anything reaches stderr
 * other than through these functions: before a fork() (the child's output
 * would come first), an exec() (it would be lost), a progress line, a
 * prompt.
 */
void report_flush(void);
/*
 * Prints the held error with the prefix the exit status gives it: for an
 * exit handler that must see it out before the program's end (the pager's,
 * pager.h, which closes stderr).
 */
void report_release(int status);

/*
 * fn runs when the program's cmd_main() returns to the common main()
 * (main.c), not after die() or exit(): how code that set a library up on
 * first use (libgit2, repo.h) shuts it down, without main() knowing it.
 * The last registered runs first; at most 8.
 */
void at_cmd_return(void (*fn)(void));
/* Runs what at_cmd_return() registered (main.c). */
void run_cmd_return(void);

/*
 * Test-only crash points: when GIT_MAINT_TEST_CRASH_AT equals point,
 * the process kills itself with SIGKILL, so tests can prove that a
 * command interrupted at that step loses nothing.
 */
void crash_point(const char *point);

#endif
