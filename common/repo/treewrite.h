/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TREEWRITE_H
#define TREEWRITE_H

/*
 * A tree kept in memory for many successive writes (queue writes one
 * tree per patch): directories are read from the object database the
 * first time a change reaches them and stay loaded; a write serialises
 * and hashes only the directories changed since the last write, reusing
 * the ids of the others. Trees are written the way git's index writes
 * them: entries in git's order (a directory sorts as if its name ended
 * in '/'), file modes normalised (100644, 100755, 120000), directories
 * left empty by removals dropped.
 *
 * Cost: a change costs the depth of its path (plus a merge of the
 * directory when it is written), whatever the size of the directory,
 * when a directory's new entries come in git's order (sorted paths);
 * one out of order merges the entries added so far.
 *
 *	struct treewrite *tw;
 *	treewrite_new(&tw, repo, &base_tree);	// NULL: the empty tree
 *	treewrite_remove(tw, "drivers/old.c");
 *	treewrite_upsert(tw, "drivers/usb/new.c", GIT_FILEMODE_BLOB, &blob);
 *	treewrite_write(tw, ow, &tree);		// ow: common/repo/objwrite.h, or NULL
 *	treewrite_free(tw);
 */

#include <git2.h>

struct objwrite;
struct treewrite;

int treewrite_new(struct treewrite **out, git_repository *repo, const git_oid *base);
void treewrite_free(struct treewrite *tw);

/*
 * Sets path to the blob (or link, or gitlink) id with mode, creating
 * the directories leading to it. A file in the way of a leading
 * directory, or a directory where the file goes, is an error.
 */
int treewrite_upsert(struct treewrite *tw, const char *path, unsigned mode, const git_oid *oid);

/* Removes path (a file); nothing happens when there is none. */
int treewrite_remove(struct treewrite *tw, const char *path);

/*
 * Writes the changed directories (through ow when not NULL, see
 * objwrite_put(), else into the object database) and gives the root
 * tree's id.
 */
int treewrite_write(struct treewrite *tw, struct objwrite *ow, git_oid *out);

#endif
