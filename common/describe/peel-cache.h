/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PEEL_CACHE_H
#define PEEL_CACHE_H

/*
 * An on-disk cache of what each ref target peels to, kept in
 * $GIT_DIR/maint/describe-peel, so that naming one commit does not read
 * every tag object of the repository.
 *
 * It is keyed by object id, and what an object peels to (the commit a
 * tag object finally names, the innermost tagger date, the commit's
 * date) is part of the object's content: an entry can never become wrong.
 * A tag that moves or is deleted simply stops being looked up; saving
 * with prune set drops entries no longer looked up. A file that cannot
 * be parsed is ignored (and rewritten); one that cannot be written is
 * not an error: the cache only saves time.
 *
 * Format: a header line, then one line per object:
 *	<oid> <commit-oid or -> <tagger-date> <commit-date> <deref 0|1>
 */

#include <git2.h>
#include <stdint.h>

struct peel_entry {
	git_oid oid;		/* the ref's target */
	git_oid commit;		/* what it peels to, when is_commit */
	int64_t taggerdate;	/* innermost tag's tagger date (0 without tagger), or commit date */
	int64_t commit_date;
	unsigned is_commit : 1;	/* 0: peels to a tree or blob */
	unsigned deref : 1;	/* 1: at least one tag object was peeled */
	unsigned used : 1;
};

struct peel_cache;

/* Loads path (a missing or unreadable file gives an empty cache). */
struct peel_cache *peel_cache_load(const char *path);
void peel_cache_free(struct peel_cache *c);

/* The entry for oid (marked used), or NULL. */
const struct peel_entry *peel_cache_get(struct peel_cache *c, const git_oid *oid);
/* Adds an entry (marked used). */
void peel_cache_put(struct peel_cache *c, const struct peel_entry *e);

/*
 * Writes the cache back if it changed (or, with prune, if it holds
 * entries not used this time), atomically. Never reports an error.
 */
void peel_cache_save(struct peel_cache *c, int prune);

#endif
