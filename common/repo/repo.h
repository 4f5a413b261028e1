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
 */
void repo_global_init(void);
void repo_global_shutdown(void);

/*
 * Opens the repository the way git does: $GIT_DIR if set, else searched
 * upwards from the current directory. Returns -1 (with an error
 * reported) when there is none.
 */
int repo_open(git_repository **out);

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
