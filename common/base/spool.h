/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SPOOL_H
#define SPOOL_H

/*
 * An append-only temporary file of byte strings, for keeping messages
 * out of memory between reading and writing them in another order.
 * The file is created unlinked in $TMPDIR (or /tmp), so nothing is left
 * behind whatever happens to the process; it is read back with pread(),
 * never mapped, so it does not count towards the process's memory.
 */

#include <sys/types.h>

#include "strbuf.h"

struct spool {
	int fd;
	off_t size;
};
#define SPOOL_INIT { -1, 0 }

int spool_open(struct spool *s);
/* Appends buf[0..len) and sets *off to where it starts; opens the spool if needed. */
int spool_add(struct spool *s, const void *buf, size_t len, off_t *off);
/* Replaces out with the len bytes at off. */
int spool_read(struct spool *s, off_t off, size_t len, struct strbuf *out);
/* Takes a spool that was never opened. */
void spool_close(struct spool *s);

#endif
