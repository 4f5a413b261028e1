/* SPDX-License-Identifier: GPL-2.0-only */
#include "wrapper.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static void *check_alloc(void *p, size_t size)
{
	if (!p && size)
		die("out of memory, allocating %zu bytes", size);
	return p;
}

void *xmalloc(size_t size)
{
	return check_alloc(malloc(size ? size : 1), size);
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check_alloc(calloc(nmemb ? nmemb : 1, size ? size : 1), st_mult(nmemb, size));
}

void *xrealloc(void *ptr, size_t size)
{
	return check_alloc(realloc(ptr, size ? size : 1), size);
}

char *xstrdup(const char *s)
{
	return xmemdup(s, strlen(s));
}

char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
	const char *nul = memchr(s, '\0', n);

	return xmemdup(s, nul ? (size_t)(nul - s) : n);
}

/* Copies n bytes and adds a NUL, so the copy is also a C string. */
void *xmemdup(const void *p, size_t n)
{
	char *ret = xmalloc(st_add(n, 1));

	memcpy(ret, p, n);
	ret[n] = '\0';
	return ret;
}

size_t st_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b)
		die("size overflow: %zu + %zu", a, b);
	return a + b;
}

size_t st_mult(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b)
		die("size overflow: %zu * %zu", a, b);
	return a * b;
}

/*
 * The one loop of read_in_full() and pread_in_full(): read() from the file
 * offset when off is negative, else pread() from off on.
 */
static ssize_t read_until_done(int fd, char *p, size_t count, off_t off)
{
	size_t total = 0;

	while (total < count) {
		ssize_t n = off < 0 ? read(fd, p + total, count - total) :
			pread(fd, p + total, count - total, off + (off_t)total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		total += n;
	}
	return total;
}

ssize_t read_in_full(int fd, void *buf, size_t count)
{
	return read_until_done(fd, buf, count, -1);
}

ssize_t pread_in_full(int fd, void *buf, size_t count, off_t off)
{
	if (off < 0) {
		errno = EINVAL;
		return -1;
	}
	return read_until_done(fd, buf, count, off);
}

ssize_t write_in_full(int fd, const void *buf, size_t count)
{
	const char *p = buf;
	size_t total = 0;

	while (total < count) {
		ssize_t n = write(fd, p + total, count - total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n) {
			errno = ENOSPC;
			return -1;
		}
		total += n;
	}
	return total;
}

int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return error_errno("cannot open directory '%s'", dir);
	/* EINVAL: a file system that cannot sync directories (nothing to do). */
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = error_errno("cannot sync directory '%s'", dir);
	close(fd);
	return ret;
}

void write_or_die(int fd, const void *buf, size_t count)
{
	if (write_in_full(fd, buf, count) < 0) {
		if (errno == EPIPE)
			exit(EXIT_FATAL);
		die_errno("write error");
	}
}

int write_or_error(int fd, const void *buf, size_t count)
{
	if (write_in_full(fd, buf, count) >= 0)
		return 0;
	if (errno != EPIPE)
		error_errno("write error");
	return -1;
}

int env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") && strcasecmp(v, "false") && strcasecmp(v, "no") &&
	       strcasecmp(v, "off");
}
