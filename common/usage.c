#include "usage.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *maint_progname = "git-maint";

void report(const char *prefix, const char *fmt, va_list ap)
{
	/* One buffered write per message, so lines from parallel processes do not interleave. */
	char msg[4096];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);

	if (n < 0)
		n = 0;
	fprintf(stderr, "%s%s\n", prefix, msg);
	fflush(stderr);
}

static NORETURN void die_va(int code, const char *fmt, va_list ap)
{
	report("fatal: ", fmt, ap);
	exit(code);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_va(EXIT_FATAL, fmt, ap);
}

void die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	die_va(code, fmt, ap);
}

static void report_errno(const char *prefix, int err, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s%s: %s\n", prefix, buf, strerror(err));
	fflush(stderr);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report_errno("fatal: ", err, fmt, ap);
	va_end(ap);
	exit(EXIT_FATAL);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report_errno("error: ", err, fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	char prefix[256];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	report(prefix, fmt, ap);
	va_end(ap);
	abort();
}

void crash_point(const char *point)
{
	const char *want = getenv("GIT_MAINT_TEST_CRASH_AT");

	if (want && !strcmp(want, point))
		raise(SIGKILL);
}
