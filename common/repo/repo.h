/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPO_H
#define REPO_H

/*
 * The libgit2 boundary. This is the only file that reads
 * git_error_last(): every failing libgit2 call is turned into one
 * "error: <what we tried>: <libgit2's reason>" line by lg2_error(),
 * right after the call, before anything else can overwrite it.
 *
 * Usage:
 *	if (lg2_check(git_reference_lookup(&ref, repo, name),
 *		      "cannot read ref '%s'", name))
 *		goto cleanup;
 */

#include <git2.h>

#include "strbuf.h"
#include "usage.h"

/*
 * If rc < 0, reports fmt + libgit2's last error and returns -1;
 * otherwise returns rc unchanged.
 */
PRINTF(2, 3) int lg2_check(int rc, const char *fmt, ...);

/*
 * For code that passes libgit2's reason on instead of reporting it (the
 * push worker of common/repo/push.c sends it to its parent): appends the last
 * error's message to msg ("unknown libgit2 error" when there is none) and
 * returns its class (GIT_ERROR_NET, ...; GIT_ERROR_NONE when none). Call
 * it right after the failing call, as lg2_check().
 */
int lg2_last_error(struct strbuf *msg);

/*
 * libgit2 is set up on first use, not at start-up: its setup loads the
 * TLS certificate store (about 8 ms), which a command answering from
 * files it reads itself (mbox-split, describe-contains with a
 * commit-graph) need not pay. repo_open() calls repo_global_init(); so
 * must any other code that calls libgit2 before a repository is open.
 * Both are idempotent; repo_global_init() has repo_global_shutdown() run
 * when cmd_main() returns (at_cmd_return(), usage.h).
 *
 * libgit2's process-wide settings (git_libgit2_opts()) are set here and
 * nowhere else. repo_global_init() sets what every command wants: what
 * libgit2 writes for us (refs, the index, packs; objwrite.h) is fsync'ed
 * before the call returns, as git does before a ref names new objects.
 * A command then says how it uses the objects (repo_tune()), and repo.c
 * picks the caches that fit.
 */
void repo_global_init(void);
void repo_global_shutdown(void);

enum repo_use {
	/*
	 * queue: each tree of a series is walked once, and a series makes
	 * many small packs: a 4 MiB object cache (not libgit2's 256 MiB),
	 * pack windows of 1 MiB, at most 8 MiB of them mapped.
	 */
	REPO_USE_SERIES,
	/*
	 * notify: two notes trees (bigger than the 4 KiB libgit2 caches
	 * trees up to) are looked up once per commit, commits are read once
	 * each: trees up to 64 KiB cached, commits not, 1 MiB in all; the
	 * journal adds a pack every 256 mails: pack windows of 1 MiB, at
	 * most 8 MiB of them mapped (not every pack whole). So memory does
	 * not grow with the number of mails past libgit2's own bound on
	 * delta bases (16 MiB a pack, not settable).
	 */
	REPO_USE_NOTES,
	/* dry-apply: objects are only read, as git reads them, without re-hashing each */
	REPO_USE_READ_ONLY,
	/*
	 * Each object is read (or made) once and kept by the caller
	 * (describe's commit store, the fuzzers): no object cache, which
	 * would only hold a second copy of each.
	 */
	REPO_USE_NO_CACHE,
};

/* Sets libgit2's caches for use (repo_global_init() first). -1 reported. */
int repo_tune(enum repo_use use);

/*
 * libgit2 checks that every object an index entry names exists (strict
 * object creation, on by default): off while code that has just written
 * or read each blob adds them (worktree.c's sync), on again after.
 */
void repo_check_index_objects(int on);

/*
 * The certificates libgit2's https trusts, instead of the system's: a
 * file of them, a directory of them, or both (NULL: not that one), as
 * git's http.sslCAInfo and http.sslCAPath; both NULL: the system's, whose
 * parsing repo_global_init() left to this call (repo.c says why).
 * Process-wide (the push worker calls it for its one https connection).
 * 0, or libgit2's error code with git_error_last() set (nothing reported:
 * a failed push is reported by its caller).
 */
int repo_trust_certificates(const char *file, const char *dir);

/*
 * Opens the repository gitdir_discover() (common/base/gitdir.h) finds,
 * by git's rules: $GIT_DIR if set, else searched upwards from the
 * current directory, honouring $GIT_CEILING_DIRECTORIES and
 * $GIT_DISCOVERY_ACROSS_FILESYSTEM; the work tree is $GIT_WORK_TREE when
 * set. So every command, with libgit2 or without it, agrees about
 * whether there is a repository and which one: libgit2's own discovery
 * is never used. Returns -1 (with an error reported: "not a git
 * repository") when there is none.
 */
int repo_open(git_repository **out);

/*
 * repo_open() for a command that works with or without a repository:
 * 0 with *out NULL when there is none; -1 (reported) when the one found
 * cannot be opened.
 */
int repo_open_if_any(git_repository **out);

/*
 * Opens the repository at path as it is, without discovery (path is
 * the repository or its work tree): for a repository named by the
 * configuration, not the one the command runs in (patatt's ref: key
 * sources, common/repo/attest-keys.h). Nothing is reported: -1 when
 * there is none there.
 */
int repo_open_path(git_repository **out, const char *path);

/* Like repo_open() but dies with "not a git repository". */
git_repository *repo_open_or_die(void);

/*
 * Resolves a revision (commit-ish) to a commit. One that names nothing
 * is "not a valid revision '<rev>'", with the branches most like it as
 * hints (repo_advise_similar_branches()).
 */
int repo_lookup_commit(git_commit **out, git_repository *repo, const char *rev);

/*
 * "Did you mean": the local branches most like typed (similar.h), as
 * hints after an error about it ("hint: the most similar branch is" and
 * a line for each); nothing when none is close.
 */
void repo_advise_similar_branches(git_repository *repo, const char *typed);

/* The short name of HEAD's branch ("work-next"), or NULL when detached/unborn. Caller frees. */
char *repo_current_branch(git_repository *repo);

#endif
