/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DESCRIBE_INTERNAL_H
#define DESCRIBE_INTERNAL_H

/*
 * Shared by describe.c (the naming walk, and the source that reads the
 * repository's files) and describe-lg2.c (the source that reads it
 * through libgit2). Split so that a program using only the files source
 * is not linked with libgit2. Not for other users: see describe.h.
 */

#include "describe.h"

struct commit_store;
struct peel_cache;
struct repo_files;
struct describer;

/*
 * Where tips are peeled and names resolved. Each returns
 * DESCRIBE_FALLBACK when it cannot answer for certain (files source).
 */
struct describe_source {
	/*
	 * Peels oid (the target of ref refname) to a commit: 0 and *id (a
	 * store id), *deref (a tag object was peeled) and, when one was,
	 * *taggerdate of the innermost; 1 when it names no commit; -1 on error.
	 */
	int (*peel)(struct describer *d, const git_oid *oid, const char *refname,
		    uint32_t *id, int *deref, int64_t *taggerdate);
	/* git's refs_ref_exists(): 1 or 0 (or DESCRIBE_FALLBACK). */
	int (*ref_exists)(struct describer *d, const char *name);
	/* describer_resolve() */
	int (*resolve)(struct describer *d, const char *rev, git_oid *out);
	/* reads objects, so also writes our caches */
	int reads_objects;
};

struct tip {
	char *refname;		/* full ref name */
	git_oid oid;		/* what the ref points at */
	char *display;		/* name used in output, made on first use */
	uint32_t commit;	/* valid when is_commit */
	int64_t taggerdate;
	int64_t commit_date;
	unsigned peeled : 1, is_commit : 1, from_tag : 1, deref : 1;
};

struct node_state {
	uint32_t reach_epoch;
	uint32_t name_epoch;
	uint8_t reach;
	uint8_t from_tag;
	int generation;
	int distance;
	int64_t taggerdate;
	const char *tip_name;
};

struct frame {
	uint32_t id;
	uint32_t next;
	int found;
};

struct describer {
	const struct describe_source *src;
	git_repository *repo;		/* libgit2 source */
	struct repo_files *files;	/* files source */
	char *maint_dir;		/* $GIT_COMMON_DIR/maint, for our caches */
	struct commit_store *store;
	struct peel_cache *cache;	/* NULL when not used */
	char *graph_cache_path;		/* our commit-graph cache, or NULL */
	int all;

	struct tip *tips;		/* all refs, by name */
	size_t tips_nr;
	size_t *order;			/* describe tips, in git's application order */
	size_t order_nr;
	int order_ready;
	const struct strvec *match, *exclude;

	struct node_state *state;
	size_t state_alloc;
	uint32_t epoch;

	/* the query in progress */
	uint32_t target;
	int gen_mode;
	uint64_t gen_cutoff;
	int64_t date_cutoff;
	struct strvec names;		/* tip_name strings of this query */

	struct frame *stack;
	size_t stack_nr, stack_alloc;
	uint32_t *lifo;
	size_t lifo_nr, lifo_alloc;
	uint32_t *pushed;
	size_t pushed_nr, pushed_alloc;

	char **contains_cache;		/* per commit id, "" = none */
	size_t contains_cache_alloc;
};

/* A describer with opts, no tips or store yet (describer_free() takes it). */
struct describer *describer_alloc(const struct describe_options *opts,
				  const struct describe_source *src, const char *commondir);
/* Sorts the tips by ref name, as git applies equally dated ones. */
void describer_sort_tips(struct describer *d);

#endif
