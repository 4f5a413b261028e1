/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef OBJWRITE_H
#define OBJWRITE_H

/*
 * Batched object writes: while a batch is open, every object written to
 * the repository (blobs and trees by the apply engine, commits, notes)
 * is kept in memory (an object database backend of ours, added with the
 * highest priority, so reads see them too) and objwrite_flush() writes
 * exactly those objects as one pack file (packwrite.h) with its index,
 * written here (whole objects, no deltas, zlib's fastest level: what
 * git's loose objects cost, in one file; temporary files, fsync, renamed
 * into objects/pack/), instead of one loose file per object; the new pack is
 * registered with the object database at once.
 *
 * Nothing written in a batch is visible to other processes before the
 * flush; a process killed before it leaves no trace in the repository.
 * Refs may point at the objects only after objwrite_flush() returned 0.
 */

#include <git2.h>


struct memstore;

struct objwrite {
	git_repository *repo;
	git_odb *odb;
	struct memstore *store;	/* owned by odb once added */
};

#define OBJWRITE_INIT { NULL, NULL, NULL }

/*
 * The id git gives an object of type with content data[0..len), computed
 * by libgit2 with collision detection (sha1dc; see sha1.h for the other
 * SHA-1). -1 (reported: "cannot hash <type> object: <libgit2's reason>",
 * e.g. "SHA1 collision attack detected") when the content carries a
 * collision attack, or libgit2 cannot hash it.
 */
int objwrite_hash(git_oid *out, git_object_t type, const void *data, size_t len);

int objwrite_begin(struct objwrite *ow, git_repository *repo);
/*
 * Writes an object into the batch (out: its id) unless the object
 * database already has it. The existence check does not rescan the pack
 * directory on a miss (libgit2's own write does, on every miss): an
 * object only in a pack that appeared since we last looked is packed
 * again, harmlessly.
 */
int objwrite_put(struct objwrite *ow, git_oid *out, const void *data, size_t len,
		 git_object_t type);

/* objwrite_put() when ow is not NULL, else a plain write into repo's object database. */
int objwrite_object(struct objwrite *ow, git_repository *repo, git_oid *out, const void *data,
		    size_t len, git_object_t type);

/*
 * objwrite_object() of data's bytes, data released on success: the batch
 * takes data's buffer instead of a copy (a big blob the caller is done
 * with is not held twice until the flush).
 */
struct strbuf;
int objwrite_object_move(struct objwrite *ow, git_repository *repo, git_oid *out, struct strbuf *data,
			 git_object_t type);

/* Bytes of object contents written and not yet flushed. */
size_t objwrite_pending(const struct objwrite *ow);

/* Writes everything queued so far as one pack; a no-op when nothing is queued. */
int objwrite_flush(struct objwrite *ow);
/*
 * Forgets what was not flushed (the objects were never written). The
 * empty store stays in the repository's object database: free the
 * repository rather than write more objects through it.
 */
void objwrite_end(struct objwrite *ow);

#endif
