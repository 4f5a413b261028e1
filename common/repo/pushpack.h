/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PUSHPACK_H
#define PUSHPACK_H

/*
 * The pack a push sends: the objects of the new tip's history that the
 * remote lacks, found as git push finds them, written as a stream
 * (packwrite.h) to a file, before any connection waits for it.
 *
 * Which objects. The commits: the tip's history less what the remote's
 * advertised refs reach (a revwalk hiding every advertised id that is a
 * commit here, or a tag of one). Their trees and blobs: each commit,
 * oldest first, has its tree compared with its parents' trees path by
 * path, descending only where they differ. An entry equal to a parent's
 * entry at the same path is reachable from that parent, which the remote
 * has or the pack brings (by induction over the commits), so it is
 * skipped with everything under it. The cost follows what the commits
 * change, not the size of the tree nor the number of refs the remote
 * has (libgit2 1.5's push walks the whole tree of every commit an
 * advertised ref names: see the closing note of issue 23 for figures).
 * A root commit brings its whole tree; gitlinks (submodules) are not
 * objects of this repository; an object found twice goes once. A tip
 * that is an annotated tag (a pull request's) brings the tag object too,
 * and the commit it names is the tip of the walk.
 *
 * Deltas. A tree or blob whose path held an object of the same kind in
 * the commit's first parent (or, that failing, another parent) is
 * written as a delta against that older version (delta.h) when the delta
 * is less than half its size: OFS_DELTA when the older version is in the
 * pack already (an earlier commit's; REF_DELTA when the server did not
 * offer ofs-delta), REF_DELTA when it is not, which by
 * the induction above means the remote has it (a thin pack, completed
 * by the server's index-pack; not when the server advertised "no-thin":
 * opts->thin 0; nor for an object under PUSHPACK_THIN_MIN_SIZE, which goes
 * whole: each thin base costs the server a read of it through its own
 * delta chain, up to 50 deep, ~1 ms even for a tree of 500 bytes, while
 * the bytes a small object's delta saves are a few hundred; see the
 * closing note of issue 23 for the figures). Chains stop at
 * PUSHPACK_MAX_DEPTH, as git's pack.depth.
 * Commits go whole. Deflated at zlib's default level, as git's packs.
 *
 * What it does not do: search other candidate bases (a renamed or new
 * file goes whole), or reuse the deltas of the local packs (each object
 * is read whole and compared again). So a push of a long history to an
 * empty remote costs more than git push; the pushes publish makes (the
 * day's commits onto a branch the remote has) do not.
 */

#include <git2.h>
#include <stdint.h>

#define PUSHPACK_MAX_DEPTH 50
/* Objects smaller than this (bytes, whole) are never thin deltas. */
#define PUSHPACK_THIN_MIN_SIZE 8192

struct pushpack_opts {
	const git_oid *haves;	/* the ids the remote advertised (refs and peeled tags) */
	size_t nr_haves;
	int thin;		/* deltas against objects the remote has may be sent */
	int ofs;		/* OFS_DELTA may be sent (the server offered ofs-delta); else REF_DELTA */
	/* Called every so often while the pack is made (a sign of life), or NULL. */
	void (*progress)(void *data);
	void *data;
};

struct pushpack_stats {
	uint32_t commits, objects;	/* in the pack: commits, and every object */
	uint32_t ofs_deltas, thin_deltas;
	uint64_t bytes;			/* of the pack */
};

/*
 * Writes to fd (path names it in messages) the pack that brings tip to
 * a remote that has opts->haves. 0 with st filled in, or -1 reported.
 */
int pushpack_write(git_repository *repo, const git_oid *tip, const struct pushpack_opts *opts,
		   int fd, const char *path, struct pushpack_stats *st);

#endif
