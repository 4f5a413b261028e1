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
 *	struct prefetch *pf = prefetch_start(repo, &tree, mails, nr, 1);
 *	...	prefetch_take(pf, path, &oid, &content) ... prefetch_passed(pf, k) ...
 *	prefetch_stop(pf);
 */

#include <git2.h>

#include "strbuf.h"

struct prefetch;

/* One mail of the series: its bytes (only read by prefetch_start()). */
struct prefetch_mail {
	const char *buf;
	size_t len;
};

/*
 * Starts reading, from tree, the pre-images named in mails[0..nr), in
 * that order; mails[i] is mail number first_number + i for
 * prefetch_passed(). NULL when there is nothing to read or no thread can
 * be had (the caller reads as usual).
 */
struct prefetch *prefetch_start(git_repository *repo, const git_oid *tree,
				const struct prefetch_mail *mails, size_t nr, size_t first_number);

/*
 * 1 and the content of path in out when it was read and is the blob
 * oid; 0 otherwise (out untouched). Waits only for a read in progress.
 */
int prefetch_take(struct prefetch *pf, const char *path, const git_oid *oid, struct strbuf *out);

/* Mail number mail is done: what was read for it and not taken is dropped. */
void prefetch_passed(struct prefetch *pf, size_t mail);

/* Stops the thread and frees everything; NULL is fine. */
void prefetch_stop(struct prefetch *pf);

#endif
