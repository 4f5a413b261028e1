/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef COMMIT_GRAPH_H
#define COMMIT_GRAPH_H

/*
 * Our own reader of git's commit-graph files, so that commit walks get
 * parents, commit dates and generation numbers without reading commit
 * objects. Debian's libgit2 1.5 does not read generation-v2 data.
 *
 * Reads $GIT_DIR/objects/info/commit-graph, or when that file is absent
 * the chain listed in objects/info/commit-graphs/commit-graph-chain
 * (graph-<hash>.graph files, oldest base first), as git does. Only
 * SHA-1 graphs of format version 1 are read.
 *
 * Positions are global over the chain: the commits of the base layer
 * come first. Every chunk size and every position read from a file is
 * checked against the file's size, so a truncated or corrupt graph gives
 * an error, never an out-of-bounds read.
 *
 * Generation numbers: corrected commit dates (GDA2/GDO2) when every layer
 * has them, else topological levels from CDAT, as git reads them. Either
 * kind is strictly greater for a commit than for each of its parents.
 */

#include <stddef.h>
#include <stdint.h>

#define COMMIT_GRAPH_HASH_LEN 20

struct commit_graph;

/*
 * Opens the graph of objects_dir ("<gitdir>/objects"). Returns 0 and
 * sets *out (NULL when the repository has no commit-graph), or -1 with
 * an error reported when a graph exists but cannot be read.
 */
int commit_graph_open(struct commit_graph **out, const char *objects_dir);
void commit_graph_free(struct commit_graph *g);

/* Opens one graph file (no chain). 0 and *out (NULL when missing), or -1. */
int commit_graph_open_file(struct commit_graph **out, const char *path);

/* Number of commits over all layers, and of layers. */
uint32_t commit_graph_nr(const struct commit_graph *g);
unsigned commit_graph_layers(const struct commit_graph *g);
/* 2 when corrected commit dates are used, 1 for topological levels. */
int commit_graph_generation_version(const struct commit_graph *g);

/* Sets *pos and returns 1 when oid (20 raw bytes) is in the graph, else 0. */
int commit_graph_find(const struct commit_graph *g, const unsigned char *oid, uint32_t *pos);
/* The raw object id at pos. */
const unsigned char *commit_graph_oid(const struct commit_graph *g, uint32_t pos);

struct commit_graph_entry {
	int64_t date;		/* committer timestamp */
	uint64_t generation;	/* see above */
};

/*
 * Fills e for the commit at pos and appends its parents' positions to
 * *parents (an ALLOC_GROW array with *nr used of *alloc), first parent
 * first. Returns 0, or -1 with an error reported when the graph is corrupt.
 */
int commit_graph_read(const struct commit_graph *g, uint32_t pos,
		      struct commit_graph_entry *e,
		      uint32_t **parents, size_t *nr, size_t *alloc);

/*
 * Writing: a single-file graph (OIDF, OIDL, CDAT, EDGE; topological
 * levels as generations; the trailing checksum is left zero, so git
 * must not be pointed at it). commits[] is sorted by oid, parents are
 * positions in it. Written to a temporary file and renamed. 0 or -1.
 */
struct commit_graph_commit {
	const unsigned char *oid;
	int64_t date;
	uint32_t level;
	uint32_t nr_parents;
	const uint32_t *parents;
};

int commit_graph_write_file(const char *path, const struct commit_graph_commit *commits,
			    uint32_t nr);

#endif
