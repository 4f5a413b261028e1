/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREFETCH_H
#define PREFETCH_H

/*
 * Reading ahead the files a series will patch: a second thread reads,
 * from a tree, the blobs of the paths the mails name as pre-images
 * ("--- a/<path>" lines), in the order the series first touches them,
 * while the apply engine works on earlier patches. Reading a file of a
 * large repository means inflating a chain of deltas; that is most of a
 * queue's work once everything else is done in memory.
 *
 * Only a guess: the engine asks prefetch_take() for (path, blob id) and
 * reads the blob itself when the answer is no (another path, another
 * id, not read yet). At most PREFETCH_BYTES of contents wait at a time.
 *
 *	struct prefetch *pf = prefetch_new(bytes);
 *	for (each mail, in order) prefetch_add_mail(pf, buf, len, number);
 *	pf = prefetch_start(pf, repo, &tree);
 *	...	prefetch_take(pf, path, &oid, &content) ... prefetch_passed(pf, k) ...
 *	prefetch_stop(pf);
 *
 * The mails are given one at a time (and not kept): the caller need not
 * hold the series in memory.
 */

#include <git2.h>

#include "strbuf.h"

struct prefetch;

/* A prefetch for mails of bytes bytes in all (it sizes the table of paths). */
struct prefetch *prefetch_new(size_t bytes);

/* The pre-images one mail names (number: for prefetch_passed()), after those of the mails before. */
void prefetch_add_mail(struct prefetch *pf, const char *buf, size_t len, size_t number);

/*
 * Starts reading, from tree, the pre-images the mails named, in that
 * order. NULL when there is nothing to read or no thread can be had
 * (pf is freed; the caller reads as usual).
 */
struct prefetch *prefetch_start(struct prefetch *pf, git_repository *repo, const git_oid *tree);

/*
 * 1 and the content of path in out when it was read and is the blob
 * oid; 0 otherwise (out untouched). Waits only for a read in progress.
 */
int prefetch_take(struct prefetch *pf, const char *path, const git_oid *oid, struct strbuf *out);

/* Mail number mail is done: what was read for it and not taken is dropped. */
void prefetch_passed(struct prefetch *pf, size_t mail);

/* Stops the thread (if started) and frees everything; NULL is fine. */
void prefetch_stop(struct prefetch *pf);

#endif
