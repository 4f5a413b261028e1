#ifndef OBJWRITE_H
#define OBJWRITE_H

/*
 * Batched object writes: while a batch is open, every object written to
 * the repository (blobs and trees by the apply engine, commits, notes)
 * is kept in memory (an object database backend of ours, added with the
 * highest priority, so reads see them too) and objwrite_flush() writes
 * exactly those objects as one pack file (libgit2's pack builder, then
 * its indexer: temporary files, fsync, renamed into objects/pack/), instead
 * of one loose file per object; the new pack is registered with the
 * object database at once.
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

int objwrite_begin(struct objwrite *ow, git_repository *repo);
/*
 * Writes an object straight into the batch (out: its id), skipping the
 * object database's existence check (which rescans the pack directory
 * on every miss); an object that already exists is simply packed again.
 */
int objwrite_put(struct objwrite *ow, git_oid *out, const void *data, size_t len,
		 git_object_t type);

/* Writes everything queued so far as one pack; a no-op when nothing is queued. */
int objwrite_flush(struct objwrite *ow);
/*
 * Forgets what was not flushed (the objects were never written). The
 * empty store stays in the repository's object database: free the
 * repository rather than write more objects through it.
 */
void objwrite_end(struct objwrite *ow);

#endif
