/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef COMMIT_STORE_H
#define COMMIT_STORE_H

/*
 * The commits a history walk touches, each with a small integer id,
 * its parents (as ids, first parent first), its committer date and its
 * generation number. Commits come from the commit-graph when it holds
 * them (no object is read) and otherwise from libgit2. A store lives for
 * a whole process, so a batch of queries parses each commit once.
 *
 * Ids below commit_store_graph_nr() are commit-graph positions; the
 * others are commits read through libgit2, whose generation is
 * COMMIT_GEN_INFINITY (unknown), as in git.
 */

#include <git2.h>
#include <stdint.h>

struct strbuf;

#define COMMIT_GEN_INFINITY UINT64_MAX

struct commit_graph;
struct commit_store;

/*
 * Creates a store over repo (commit-store-odb.c, the only part that uses
 * libgit2). When use_graph is set, the repository's
 * commit-graph is read (a graph that cannot be read is reported with a
 * warning and then ignored). When the repository has none (or it is not
 * used) and cache_path is not NULL, our own cache file written by
 * commit_store_write_cache() is read in its place: it gives the same
 * parents, dates and (topological-level) generations, but git does not
 * know it, so commit_store_graph_is_cache() tells callers that must
 * behave as git does without a graph.
 */
int commit_store_new(struct commit_store **out, git_repository *repo, int use_graph,
		     const char *cache_path);
int commit_store_graph_is_cache(const struct commit_store *s);

/*
 * How commits outside the graph are read: read() appends the commit
 * object's text to text and returns 0, or -1 with an error reported.
 * free(ctx) is called when the store is freed.
 */
struct commit_store_reader {
	int (*read)(void *ctx, const git_oid *oid, struct strbuf *text);
	void (*free)(void *ctx);
	void *ctx;
};

/* A store over graph (NULL for none; the store owns it), reading other commits with reader. */
struct commit_store *commit_store_new_with(struct commit_graph *graph, int graph_is_cache,
					   const struct commit_store_reader *reader);

/*
 * A store that reads no object: over the commit-graph of objects_dir
 * ("<gitdir>/objects"), or when there is none over our cache file at
 * cache_path (if not NULL). Returns 0, or 1 when neither can be read
 * (nothing reported unless a graph is corrupt). commit_store_parse()
 * then answers COMMIT_STORE_MISSING for commits outside the graph.
 */
int commit_store_new_graph_only(struct commit_store **out, const char *objects_dir,
				const char *cache_path);
#define COMMIT_STORE_MISSING (-2)
/* Commits read from the object database so far (not from a graph). */
uint32_t commit_store_odb_reads(const struct commit_store *s);

/*
 * Writes every commit reachable from roots to path, in commit-graph
 * format, for commit_store_new(). Commits are immutable, so the file
 * never becomes wrong; it only lacks commits made after it. 0 or -1.
 */
int commit_store_write_cache(struct commit_store *s, const uint32_t *roots, size_t nr,
			     const char *path);
void commit_store_free(struct commit_store *s);

/* The graph in use, or NULL; and how many ids it covers (0 without one). */
const struct commit_graph *commit_store_graph(const struct commit_store *s);
uint32_t commit_store_graph_nr(const struct commit_store *s);

/*
 * The id of the commit oid, created on first use. Does not read the
 * object; commit_store_parse() does, and fails when it is no commit.
 */
uint32_t commit_store_id(struct commit_store *s, const git_oid *oid);
/* Whether oid is a commit in the graph (sets *id), without creating anything. */
int commit_store_in_graph(struct commit_store *s, const git_oid *oid, uint32_t *id);

/*
 * Loads parents, date and generation of id if not done yet. 0 or -1, or
 * COMMIT_STORE_MISSING (nothing reported) in a store without objects.
 */
int commit_store_parse(struct commit_store *s, uint32_t id);

/* Accessors; id must have been parsed. */
const git_oid *commit_store_oid(const struct commit_store *s, uint32_t id);
int64_t commit_store_date(const struct commit_store *s, uint32_t id);
uint64_t commit_store_generation(const struct commit_store *s, uint32_t id);
uint32_t commit_store_nr_parents(const struct commit_store *s, uint32_t id);
const uint32_t *commit_store_parents(const struct commit_store *s, uint32_t id);

/* Number of ids handed out so far (ids are 0..n-1, some unused). */
uint32_t commit_store_size(const struct commit_store *s);

/*
 * Zeroed arrays indexed by commit id (one entry of size bytes per id).
 * Walks touch ids all over such arrays (graph positions follow object
 * ids, not history), so they are backed by transparent huge pages where
 * the kernel allows: a few faults instead of one per 4 KiB page touched.
 * nr_alloc is set to the entries allocated (at least nr).
 */
void *commit_store_array_alloc(size_t nr, size_t size, size_t *nr_alloc);
/* Grows a to hold nr entries (new ones zeroed); a may move. */
void *commit_store_array_grow(void *a, size_t nr, size_t size, size_t *nr_alloc);
void commit_store_array_free(void *a, size_t size, size_t nr_alloc);

#endif
