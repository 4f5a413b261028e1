/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPO_FILES_H
#define REPO_FILES_H

/*
 * A repository read straight from its files, without libgit2: where its
 * git directory is, its refs (packed-refs and loose refs under refs/)
 * and which objects an abbreviated id can name. It serves fast paths
 * that must give git's answer or none: repo_files_open() accepts only
 * plain layouts, the lookups answer "unknown" rather than guess, and
 * nothing here prints. On "unknown" the caller does the work through
 * libgit2 (repo.h), which reports errors as usual.
 *
 * Plain means: found as git finds it (gitdir_discover(), gitdir.h) as a
 * ".git" directory or a bare repository owned by us; no commondir, gitfile,
 * alternates, shallow, grafts or replace refs; none of the environment
 * variables that move parts of a repository or add config; and no config
 * file mentioning a key that changes how objects are named or walked
 * (includes, extensions, core.commitGraph, core.disambiguate ...).
 */

#include <git2.h>
#include <stddef.h>

struct repo_files;

struct repo_ref {
	const char *name;	/* full name: "refs/tags/v1.0" */
	git_oid oid;		/* what it points at (symbolic refs resolved) */
};

/* 0 and *out, or 1 when the repository is not plain (nothing reported). */
int repo_files_open(struct repo_files **out);
void repo_files_free(struct repo_files *rf);

/* The git directory, ending in '/'. */
const char *repo_files_gitdir(const struct repo_files *rf);

/*
 * The refs under refs/, sorted by name, loose refs over packed ones;
 * symbolic refs resolved, dangling ones left out (as git iterates).
 */
const struct repo_ref *repo_files_refs(const struct repo_files *rf, size_t *nr);

/*
 * Whether git's refs_ref_exists(name) would be true: 1 or 0, or -1 when
 * it cannot be told from what was read (a root-level file, say).
 */
int repo_files_ref_exists(const struct repo_files *rf, const char *name);

/*
 * Resolves rev as git's get_oid() does, for the cases that need no
 * object: a full hex id, a ref name by git's dwim rules (HEAD included)
 * that matches exactly one rule, or an abbreviated hex id (4 or more
 * digits, no ref of that name) that names exactly one object in the
 * packs and loose objects. Returns 0 and *oid (not peeled), or 1 when
 * the answer is not certain this way.
 */
int repo_files_resolve(struct repo_files *rf, const char *rev, git_oid *oid);

#endif
