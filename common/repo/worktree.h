/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef WORKTREE_H
#define WORKTREE_H

/*
 * Keeping the index and work tree in step when queue or publish moves the
 * branch that is checked out: only the paths that differ between the old
 * and the new tree are looked at and written, once per ref move.
 */

#include <git2.h>

#include "config.h"
#include "strvec.h"

/*
 * Whether refname ("refs/heads/work-next") is the branch HEAD of this
 * repository's work tree points to: 1 yes, 0 no (or a bare repository),
 * 2 it is checked out in another worktree of the repository (error
 * reported: we cannot update that work tree), -1 error.
 */
int worktree_branch_state(git_repository *repo, const char *refname);

/* Adds every path that differs between trees a and b (a may be NULL for the empty tree). */
int tree_changed_paths(struct strvec *out, git_repository *repo, const git_oid *a, const git_oid *b);

/*
 * 0 when none of paths has changes in the index (against HEAD) or in the
 * work tree, and no untracked file (ignored ones included) is in the way
 * of writing them (see worktree_sync); 1 when some do (error reported,
 * each path listed); -1 error.
 */
int worktree_check_clean(git_repository *repo, const struct strvec *paths, const char *doing);

/*
 * Whether worktree_sync(repo, from, to, paths, 1, ...) would refuse
 * because of untracked files in the way (see worktree_sync): 0 no, 1 yes
 * (error reported, listing them, "by <doing>"), -1 error. Lets a caller
 * look before it moves a ref.
 */
int worktree_check_untracked(git_repository *repo, const struct maint_config *cfg,
			     const git_oid *from, const git_oid *to, const struct strvec *paths,
			     const char *doing);

/*
 * Where the contents to write may already be in memory (the apply
 * engine's post-images): get() gives 1 and the bytes of blob oid at path
 * when it has them, else 0 (the blob is read from the repository).
 */
struct worktree_content {
	int (*get)(void *data, const char *path, const git_oid *oid, const char **buf, size_t *len);
	void *data;
};

/*
 * Updates the index and work tree for paths from tree from to tree to,
 * refusing (-1, reported) to overwrite local changes; with force, the
 * paths the index tracks are overwritten whatever they hold (finishing
 * an interrupted update, or going back as git am --abort does).
 * Forced or not, nothing the index does not track is removed or
 * replaced, as git refuses to (untracked and ignored files alike): a
 * file at one of the paths, a file or symbolic link where a directory
 * leading to one must be, a file inside a directory where one goes
 * (empty directories are removed). With force, the one exception is a
 * file holding the very blob tree from or to has there: what an update
 * interrupted before it wrote the index left. Files are written as
 * git's checkout writes them (smudge filters from the attributes, core.symlinks)
 * and their index entries get the stat data of what was written.
 * content may be NULL.
 */
int worktree_sync(git_repository *repo, const struct maint_config *cfg, const git_oid *from,
		  const git_oid *to, const struct strvec *paths, int force,
		  const struct worktree_content *content);

/* A path as a stopped patch leaves it for the user (git am -3 with conflicts). */
struct worktree_file {
	const char *path;
	int deleted;
	unsigned mode;
	git_oid oid;		/* the blob (index stage 0) when not conflicted */
	const char *data;	/* the bytes for the work tree, or NULL: the blob's */
	size_t len;
	int conflicted;
	git_oid stages[3];	/* base, ours, theirs (index stages 1, 2, 3) when conflicted */
};

/*
 * Writes files into the work tree and index (removals first), replacing
 * what the index tracks there, as git am -3 leaves a patch whose merge
 * conflicted; refuses (-1, reported) when untracked files are in the way,
 * as worktree_sync does.
 */
int worktree_write_files(git_repository *repo, const struct maint_config *cfg,
			 const struct worktree_file *files, size_t nr);

#endif
