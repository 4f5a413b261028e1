/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef WRAPPER_H
#define WRAPPER_H

/*
 * Allocation and system-call wrappers. Allocation failure is fatal
 * (exit 128) rather than something every caller re-checks; sizes are
 * computed with overflow checks so hostile input cannot wrap them.
 */

#include <stddef.h>
#include <sys/types.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
/* A copy of s, or NULL for NULL (an optional string kept beyond its owner). */
char *xstrdup_or_null(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);

/* a + b and a * b, dying on overflow. */
size_t st_add(size_t a, size_t b);
size_t st_mult(size_t a, size_t b);

/* Grow array x (with nr used, alloc allocated) to hold at least n items. */
#define ALLOC_GROW(x, n, alloc) \
	do { \
		if ((n) > (alloc)) { \
			size_t alloc_grow_want_ = (alloc) < 16 ? 16 : st_add((alloc), (alloc) / 2); \
			if (alloc_grow_want_ < (n)) \
				alloc_grow_want_ = (n); \
			(alloc) = alloc_grow_want_; \
			(x) = xrealloc((x), st_mult(sizeof(*(x)), (alloc))); \
		} \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* read()/write() until done, retrying on EINTR; -1 on error. */
ssize_t read_in_full(int fd, void *buf, size_t count);
ssize_t write_in_full(int fd, const void *buf, size_t count);
/* pread() until done, retrying on EINTR: the bytes read (fewer at the end of the file), or -1. */
ssize_t pread_in_full(int fd, void *buf, size_t count, off_t off);

/* fsync() a directory, so that a rename into it lasts; -1 (reported) on error. */
int fsync_dir(const char *dir);

/*
 * Write all of buf to stdout; on EPIPE or another error, die quietly the
 * way git does when its reader went away.
 */
void write_or_die(int fd, const void *buf, size_t count);
/*
 * The same for common/: 0, or -1 with "fatal: write error: <why>"
 * reported (write_or_die()'s words), or nothing on EPIPE (the reader
 * went away); the caller ends the command.
 */
int write_or_error(int fd, const void *buf, size_t count);

/* git's git_env_bool(name, 0): set, and not "", "0", "false", "no" or "off". */
int env_true(const char *name);

#endif
