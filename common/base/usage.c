/* SPDX-License-Identifier: GPL-2.0-only */
#include "usage.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The message of fmt, control characters neutralised, with suffix; its length. */
static size_t format_message(char *msg, size_t size, const char *fmt, va_list ap, const char *suffix)
{
	int n = vsnprintf(msg, size, fmt, ap);
	size_t len;

	if (n < 0)
		n = 0;
	len = (size_t)n < size ? (size_t)n : size - 1;
	len = neutralise_controls(msg, len);
	n = snprintf(msg + len, size - len, "%s", suffix);
	return n < 0 ? len : len + ((size_t)n < size - len ? (size_t)n : size - len - 1);
}

/* One buffered write per message, so lines from parallel processes do not interleave. */
static void vwrite_line(FILE *fp, const char *prefix, const char *fmt, va_list ap, const char *suffix)
{
	char msg[4096];
	size_t len = format_message(msg, sizeof(msg), fmt, ap, suffix);

	fprintf(fp, "%s%.*s\n", prefix, (int)len, msg);
	fflush(fp);
}

/*
 * The error held back (see report_hold_errors() in usage.h): its text
 * and the hints given after it, printed once the program's end tells
 * "fatal: " from "error: ", or as "error: " before anything else reaches
 * stderr. Only the process that set holding up holds (a forked child
 * prints at once: it may leave by _exit() or exec()), and a mutex keeps
 * two threads' messages whole.
 */
static struct {
	pthread_mutex_t lock;
	pid_t pid;		/* the process that holds; 0: holding is off */
	int held;
	char msg[4096];
	size_t len;
	char hints[4096];
	size_t hints_len;
} held = { PTHREAD_MUTEX_INITIALIZER };

static void write_hints(const char *hints, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(hints + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - hints) : len;

		fprintf(stderr, "hint: %.*s\n", (int)(end - i), hints + i);
		i = end + 1;
	}
}

/*
 * Prints the held error, if any, with prefix; the caller holds the lock.
 * A child forked while one was held has a copy of it: the parent prints it.
 */
static void release_held(const char *prefix)
{
	if (!held.held)
		return;
	held.held = 0;
	if (held.pid != getpid())
		return;
	fprintf(stderr, "%s%.*s\n", prefix, (int)held.len, held.msg);
	write_hints(held.hints, held.hints_len);
	fflush(stderr);
}

void report_flush(void)
{
	pthread_mutex_lock(&held.lock);
	release_held("error: ");
	pthread_mutex_unlock(&held.lock);
}

void report_release(int status)
{
	pthread_mutex_lock(&held.lock);
	release_held(status == EXIT_FATAL ? "fatal: " : "error: ");
	pthread_mutex_unlock(&held.lock);
}

/* on_exit(): the held error made the program fail when it exits 128, as git's die() would. */
static void release_at_exit(int status, void *unused)
{
	(void)unused;
	report_release(status);
}

void report_hold_errors(void)
{
	held.pid = getpid();
	on_exit(release_at_exit, NULL);
}

/* error() and error_errno(): held back where holding is on, else printed. */
static void report_error(const char *fmt, va_list ap, const char *suffix)
{
	pthread_mutex_lock(&held.lock);
	release_held("error: ");
	if (held.pid && held.pid == getpid()) {
		held.len = format_message(held.msg, sizeof(held.msg), fmt, ap, suffix);
		held.hints_len = 0;
		held.held = 1;
	} else {
		vwrite_line(stderr, "error: ", fmt, ap, suffix);
	}
	pthread_mutex_unlock(&held.lock);
}

void report(const char *prefix, const char *fmt, va_list ap)
{
	report_flush();
	vwrite_line(stderr, prefix, fmt, ap, "");
}

void say(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	if (fp == stderr)
		report_flush();
	va_start(ap, fmt);
	vwrite_line(fp, "", fmt, ap, "");
	va_end(ap);
}

void advise(const char *fmt, ...)
{
	char msg[4096];
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	len = format_message(msg, sizeof(msg), fmt, ap, "");
	va_end(ap);
	pthread_mutex_lock(&held.lock);
	if (held.held && held.hints_len + len + 1 < sizeof(held.hints)) {
		/* the hints of the held error stay after it */
		memcpy(held.hints + held.hints_len, msg, len);
		held.hints_len += len;
		held.hints[held.hints_len++] = '\n';
	} else {
		release_held("error: ");
		write_hints(msg, len);
		fflush(stderr);
	}
	pthread_mutex_unlock(&held.lock);
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

void die_errno(const char *fmt, ...)
{
	char suffix[256];
	va_list ap;

	snprintf(suffix, sizeof(suffix), ": %s", strerror(errno));
	report_flush();
	va_start(ap, fmt);
	vwrite_line(stderr, "fatal: ", fmt, ap, suffix);
	va_end(ap);
	exit(EXIT_FATAL);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_error(fmt, ap, "");
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	char suffix[256];
	va_list ap;

	snprintf(suffix, sizeof(suffix), ": %s", strerror(err));
	va_start(ap, fmt);
	report_error(fmt, ap, suffix);
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

	if (want && !strcmp(want, point)) {
		report_flush();
		raise(SIGKILL);
	}
}
