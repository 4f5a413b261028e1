/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DESCRIBE_H
#define DESCRIBE_H

/*
 * Naming a commit by the tags that contain it, exactly as
 * `git describe --contains` (git 2.39's name-rev --tags --name-only
 * --no-undefined --peel-tag) does, and finding the first release that
 * contains a commit.
 *
 * git's rules, which describe_contains() reproduces:
 *  - Tips are the tags (every ref under refs/ with all), filtered by
 *    the match/exclude globs; a tag object is peeled to its commit
 *    (names end in "^0" there) and its date is the innermost tag's
 *    tagger date; a lightweight tag's date is its commit's date.
 *  - A name is (date, distance): following a first parent costs 1 and
 *    adds "~N", following parent n >= 2 costs 65535 and adds "^n"; a name
 *    with "~N" counts another 65535 when compared. Between two tag names
 *    the older date wins, then the shorter distance; a tag beats a non-tag;
 *    between non-tags the shorter distance wins, then the older date; on a
 *    full tie the name found first stays. Tips are applied oldest first,
 *    each by a depth-first walk (first parent first).
 *  - Commits older than the named commit are not walked: with a
 *    commit-graph holding the commit, those of smaller generation; else
 *    those committed more than a day before it.
 *
 * How it is fast (see describe.c): the winning name comes from the
 * oldest-dated tips that reach the commit, and only the commits between
 * them and the commit can carry it. So the tips are tried in date order
 * with a memoised reachability walk bounded by the cutoff above, and
 * git's walk is replayed on that small part of the history only.
 */

#include <git2.h>

#include "strbuf.h"
#include "strvec.h"

struct describe_options {
	int all;			/* every ref, not only tags (git describe --all) */
	const struct strvec *match;	/* globs on tag names; none = all tags */
	const struct strvec *exclude;	/* globs on tag names */
	int use_graph;			/* read the commit-graph (if core.commitGraph allows) */
	int use_cache;			/* keep peeled tags in $GIT_DIR/maint/describe-peel */
};

struct describer;
struct repo_files;

int describer_new(struct describer **out, git_repository *repo,
		  const struct describe_options *opts);

/*
 * A describer that reads no object and does not use libgit2: commits
 * come from the commit-graph (or our cache of it), refs from
 * repo-files.h, annotated tags from the peel cache. Whatever needs more
 * makes describer_resolve(), describe_contains() or describe_release()
 * return DESCRIBE_FALLBACK without a message; the caller then asks a
 * describer_new() one, whose answers are git's. Returns 0, or 1 when
 * the repository has no graph or the options need objects (nothing
 * reported). files must outlive the describer.
 */
int describer_new_files(struct describer **out, struct repo_files *files,
			const struct describe_options *opts);
#define DESCRIBE_FALLBACK (-2)
void describer_free(struct describer *d);

/*
 * Resolves a commit-ish (full hex ids take a fast path) to the commit
 * to describe. Returns 0, or -1 with an error reported.
 */
int describer_resolve(struct describer *d, const char *rev, git_oid *out);

/*
 * Appends the name of commit to out. Returns 0, 1 when no tip contains
 * the commit (out unchanged), -1 on error.
 */
int describe_contains(struct describer *d, const git_oid *commit, struct strbuf *out);

/*
 * Appends the first release containing commit: among the tags whose
 * names match one of match (default "v[0-9]*") and none of exclude
 * (default "*-rc*"), the lowest in version order (natural_cmp in strbuf.h) that
 * contains the commit, by the same containment test as
 * describe_contains(). Returns 0, 1 when there is none, -1 on error.
 */
int describe_release(struct describer *d, const git_oid *commit,
		     const struct strvec *match, const struct strvec *exclude,
		     struct strbuf *out);

/*
 * Version order of two tag names: runs of digits compare as numbers,
 * everything else byte by byte ("v2.9" < "v2.10" < "v2.10.1" < "v3").
 */

#endif
