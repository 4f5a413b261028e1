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
 * makes it). A patch whose change reached the branch in another shape
 * (another context, squashed with another, a copy the commit's diff
 * shows as a creation) has another patch id: applied_index_find_change()
 * then looks for the commit that brought the change in.
 */

#include <git2.h>
#include <stddef.h>

/*
 * How far back a lookup walks by default: the newest commits of the
 * branch (queue.applied-depth).
 */
#define APPLIED_DEPTH 1000

struct applied_index;
struct maint_config;
struct patch_set;

/*
 * queue.applied-depth into out: APPLIED_DEPTH when unset, SIZE_MAX for 0
 * (no limit). -1 when it is not a number (reported, naming where it is
 * set).
 */
int applied_depth_config(const struct maint_config *cfg, size_t *out);

/*
 * An index of the commits of tip (back to stop, NULL for none), the
 * newest depth of them (0: all): nothing is read yet. The repository
 * must outlive it.
 */
struct applied_index *applied_index_new(git_repository *repo, const git_oid *tip, const git_oid *stop,
					size_t depth);
/* Takes NULL. */
void applied_index_free(struct applied_index *ai);

/*
 * The commit holding the patch text[0..len) (a mail, or a diff), into
 * out: 1 when found, 0 when not (or the text has no diff), -1 on an
 * error (reported).
 */
int applied_index_find(struct applied_index *ai, const char *text, size_t len, git_oid *out);

/*
 * For a patch applied at tip (apply_patch_is_applied()) that
 * applied_index_find() did not find: the commit that brought its change
 * in, by the resulting trees (a squash, a copy). Among the same commits
 * (merges left out), newest first, those that change one of ps's files
 * are tried: the first at whose parent ps is not applied is the one (1,
 * into out) when it changes every file of ps and ps is applied at it;
 * else no single commit brought the change (0: it came in pieces, or by
 * a merge). Each commit tried costs one or two apply checks of the
 * patch's files. 0 too when the walk reaches the depth; -1 on an error
 * (reported).
 */
int applied_index_find_change(struct applied_index *ai, const struct patch_set *ps, git_oid *out);

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
