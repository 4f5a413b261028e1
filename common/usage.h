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
 */

#include <stdarg.h>

enum maint_exit {
	EXIT_OK = 0,		/* success */
	EXIT_NO = 1,		/* a negative answer: nothing selected, does not apply */
	EXIT_TEMPFAIL = 75,	/* temporary failure, safe to retry (EX_TEMPFAIL) */
	EXIT_FATAL = 128,	/* bad input, I/O, configuration */
	EXIT_USAGE = 129,	/* bad command line */
};

#define NORETURN __attribute__((noreturn))
#define PRINTF(f, a) __attribute__((format(printf, f, a)))

/* The program's name as invoked, e.g. "git-maint-queue", for messages. */
extern const char *maint_progname;

void report(const char *prefix, const char *fmt, va_list ap);

NORETURN PRINTF(1, 2) void die(const char *fmt, ...);
/* die() with ": <strerror(errno)>" appended. */
NORETURN PRINTF(1, 2) void die_errno(const char *fmt, ...);
/* die() with a chosen exit code (e.g. EXIT_TEMPFAIL). */
NORETURN PRINTF(2, 3) void die_code(int code, const char *fmt, ...);
PRINTF(1, 2) int error(const char *fmt, ...);
PRINTF(1, 2) int error_errno(const char *fmt, ...);
PRINTF(1, 2) void warning(const char *fmt, ...);

/* A bug in git-maint itself: aborts so sanitizers and core dumps see it. */
NORETURN PRINTF(3, 4) void bug_fl(const char *file, int line, const char *fmt, ...);
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/*
 * Test-only crash points: when GIT_MAINT_TEST_CRASH_AT equals point,
 * the process kills itself with SIGKILL, so tests can prove that a
 * command interrupted at that step loses nothing.
 */
void crash_point(const char *point);

#endif
