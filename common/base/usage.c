/* SPDX-License-Identifier: GPL-2.0-only */
#include "usage.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *maint_progname = "git-maint";

static void (*cmd_return[8])(void);
static size_t cmd_return_nr;

void at_cmd_return(void (*fn)(void))
{
	if (cmd_return_nr == sizeof(cmd_return) / sizeof(cmd_return[0]))
		BUG("too many at_cmd_return() functions");
	cmd_return[cmd_return_nr++] = fn;
}

void run_cmd_return(void)
{
	while (cmd_return_nr)
		cmd_return[--cmd_return_nr]();
}

size_t control_char_len(const char *s, size_t left)
{
	unsigned char c = s[0];

	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c == 0xc2 && left >= 2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f)
		return 2;	/* a C1 control in UTF-8 (CSI is U+009B) */
	return 0;
}

/* Every control character of buf[0..len) but those in keep becomes '?'; returns the new length. */
static size_t neutralise(char *buf, size_t len, const char *keep)
{
	size_t out = 0;

	for (size_t i = 0; i < len; i++) {
		size_t n = control_char_len(buf + i, len - i);

		if (!n || (n == 1 && buf[i] && strchr(keep, buf[i]))) {
			buf[out++] = buf[i];
		} else {
			buf[out++] = '?';
			i += n - 1;
		}
	}
	return out;
}

size_t neutralise_controls(char *buf, size_t len)
{
	return neutralise(buf, len, "\t\n");
}

size_t neutralise_field(char *buf, size_t len)
{
	return neutralise(buf, len, "");
}

/* One buffered write per message, so lines from parallel processes do not interleave. */
static void vwrite_line(FILE *fp, const char *prefix, const char *fmt, va_list ap, const char *suffix)
{
	char msg[4096];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	size_t len;

	if (n < 0)
		n = 0;
	len = (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1;
	len = neutralise_controls(msg, len);
	fprintf(fp, "%s%.*s%s\n", prefix, (int)len, msg, suffix);
	fflush(fp);
}

void report(const char *prefix, const char *fmt, va_list ap)
{
	vwrite_line(stderr, prefix, fmt, ap, "");
}

void say(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwrite_line(fp, "", fmt, ap, "");
	va_end(ap);
}

void advise(const char *fmt, ...)
{
	char msg[4096];
	va_list ap;
	int n;
	size_t len;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	len = (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1;
	len = neutralise_controls(msg, len);
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(msg + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - msg) : len;

		fprintf(stderr, "hint: %.*s\n", (int)(end - i), msg + i);
		i = end + 1;
	}
	fflush(stderr);
}

int result_exit_code(enum maint_result result)
{
	switch (result) {
	case RESULT_OK:
		return EXIT_OK;
	case RESULT_NO:
		return EXIT_NO;
	case RESULT_TEMPFAIL:
		return EXIT_TEMPFAIL;
	default:
		return EXIT_FATAL;
	}
}

enum maint_result result_worse(enum maint_result a, enum maint_result b)
{
	static const int rank[] = { 0, 2, 1 };	/* OK, NO, TEMPFAIL */

	if (a < 0 || b < 0)
		return RESULT_FATAL;
	return rank[a] >= rank[b] ? a : b;
}

enum maint_result result_from_exit_code(int code)
{
	switch (code) {
	case EXIT_OK:
		return RESULT_OK;
	case EXIT_NO:
		return RESULT_NO;
	case EXIT_TEMPFAIL:
		return RESULT_TEMPFAIL;
	default:
		return RESULT_FATAL;
	}
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
	char suffix[256];

	snprintf(suffix, sizeof(suffix), ": %s", strerror(err));
	vwrite_line(stderr, prefix, fmt, ap, suffix);
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

int fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("fatal: ", fmt, ap);
	va_end(ap);
	return -1;
}

int fatal_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report_errno("fatal: ", err, fmt, ap);
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
