/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef APPLIED_H
#define APPLIED_H

/*
 * Which commit of a branch holds a patch that is already applied there:
 * the commit whose patch id (git patch-id --stable, common/mail/patch-id.h)
 * is the patch's, as `git cherry` and `git rebase` match a commit
 * already upstream.
 *
 * The branch's commits are read newest first (git's default order: by
 * date, parents after children), merges and the commits at or behind
 * stop (the series' base, when known) left out, at most
 * APPLIED_DEPTH of them. Their ids are computed when a lookup needs them
 * and once per index: a lookup goes on from where the last one stopped,
 * keeping every id it computed. So a run that finds nothing already
 * applied costs nothing, and one that does costs one diff per commit
 * walked, each at most once, whatever the number of patches.
 *
 * Each commit's diff is libgit2's (against its first parent, 3 lines of
 * context, the indent heuristic, renames found, as git format-patch
 * makes it). A patch
 * whose change reached the branch in another shape (another context, a
 * conflict resolved, squashed with another) has another patch id and is
 * not found: the caller still knows it is applied (apply.h,
 * apply_patch_is_applied()), not where.
 */

#include <git2.h>
#include <stddef.h>

/* How far back a lookup walks: the newest commits of the branch. */
#define APPLIED_DEPTH 1000

struct applied_index;

/*
 * An index of the commits of tip (back to stop, NULL for none): nothing
 * is read yet. The repository must outlive it.
 */
struct applied_index *applied_index_new(git_repository *repo, const git_oid *tip, const git_oid *stop);
/* Takes NULL. */
void applied_index_free(struct applied_index *ai);

/*
 * The commit holding the patch text[0..len) (a mail, or a diff), into
 * out: 1 when found, 0 when not (or the text has no diff), -1 on an
 * error (reported).
 */
int applied_index_find(struct applied_index *ai, const char *text, size_t len, git_oid *out);

/*
 * The commit a series names as its base ("base-commit: <id>"), into
 * out: 1 when the repository has it, 0 when not (or base is not a full
 * object id; nothing said), -1 on an error (reported).
 */
int applied_base_lookup(git_repository *repo, const char *base, git_oid *out);

/*
 * Does tip hold the commit a series names as its base ("base-commit:
 * <id>", which b4 and git format-patch --base write): is it tip or one
 * of its ancestors? 1 yes; 0 no, or the repository has no such commit,
 * or base is not a full object id; -1 on an error (reported).
 */
int applied_base_held(git_repository *repo, const git_oid *tip, const char *base);

#endif
