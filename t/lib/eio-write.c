/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A write() fault injector for tests (reliability case 23), loaded with
 * LD_PRELOAD: a write to a file whose path has $EIO_WRITE_PATH as whole
 * components (see fails())
 * fails with EIO, as a failing disk would make it. Built by the test
 * that uses it (t0451), not part of the product.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int fails(int fd)
{
	const char *want = getenv("EIO_WRITE_PATH");
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (!want || !*want || fd <= 2)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	/*
	 * Whole components only ("f3" is .../f3 or .../f3/..., "maint/queue"
	 * .../maint/queue/...): a substring would also hit a random temporary
	 * name like .git/objects/pack/tmp_pack_f3Xa1b and fail the wrong write.
	 */
	for (const char *p = path; (p = strstr(p, want)); p++) {
		size_t len = strlen(want);

		if ((p == path || p[-1] == '/') && (p[len] == '\0' || p[len] == '/'))
			return 1;
	}
	return 0;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (fails(fd)) {
		errno = EIO;
		return -1;
	}
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, count);
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	static ssize_t (*real)(int, const struct iovec *, int);

	if (fails(fd)) {
		errno = EIO;
		return -1;
	}
	if (!real)
		real = (ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "writev");
	return real(fd, iov, iovcnt);
}
