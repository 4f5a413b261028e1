#ifndef OBJWRITE_H
#define OBJWRITE_H

/*
 * Batched object writes: while a batch is open, every object written to
 * the repository (blobs and trees by the apply engine, commits, notes)
 * is kept in memory (libgit2's mempack backend, added to the object
 * database with the highest priority, so reads see them too) and
 * objwrite_flush() writes them all as one pack file (through the
 * object database's pack writer: temporary files, then renamed into
 * objects/pack/), instead of one loose file per object.
 *
 * Nothing written in a batch is visible to other processes before the
 * flush; a process killed before it leaves no trace in the repository.
 * Refs may point at the objects only after objwrite_flush() returned 0.
 */

#include <git2.h>

struct objwrite {
	git_repository *repo;
	git_odb *odb;
	git_odb_backend *mempack;	/* owned by odb once added */
	int dirty;
};

#define OBJWRITE_INIT { NULL, NULL, NULL, 0 }

int objwrite_begin(struct objwrite *ow, git_repository *repo);
/* Writes everything queued so far as one pack; a no-op when nothing is queued. */
int objwrite_flush(struct objwrite *ow);
/* Forgets what was not flushed (the objects were never written). */
void objwrite_end(struct objwrite *ow);

#endif
