/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TREE_CHANGES_H
#define TREE_CHANGES_H

/*
 * The files that differ between two trees, listed as `git diff -M`
 * (git 2.39) lists them: in path order, a deleted file that renames.h
 * pairs with an added one shown once, at the added file's place, as a
 * rename with git's score. libgit2 compares the trees (its own rename
 * search, whose scores are not git's, is not used); the pairing and the
 * scores are renames.h's, the sizes and contents it asks for come from
 * the object database here.
 *
 * As git: a file whose type changes (a file that becomes a symbolic
 * link) is one change, not a deletion and an addition; empty files take
 * part; diff.renameLimit bounds the scoring step, and when it is passed,
 * renames of the same content and the same file name are still found
 * and the warning git gives is given.
 */

#include <git2.h>

struct tree_change {
	size_t delta;			/* its index in diff */
	const git_diff_delta *d;	/* the change; for a rename, the added file */
	const git_diff_delta *from;	/* a rename's deleted file, else NULL */
	int score;			/* a rename's, 0..RENAME_SCORE_MAX */
};

struct tree_changes {
	git_diff *diff;
	struct tree_change *v;
	size_t nr;
};
#define TREE_CHANGES_INIT { NULL, NULL, 0 }

/*
 * The changes from tree a to tree b (either may be NULL: empty), renames
 * scored within rename_limit (diff.renameLimit: RENAME_LIMIT_DEFAULT
 * unless the user set it). 0, or -1 reported.
 */
int tree_changes_find(struct tree_changes *out, git_repository *repo, git_tree *a, git_tree *b,
		      int rename_limit);

void tree_changes_release(struct tree_changes *tc);

#endif
