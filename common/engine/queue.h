/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef QUEUE_H
#define QUEUE_H

/*
 * The queue engine behind git-maint-queue(1): applies a series of patch
 * mails to a branch in memory (common/repo/apply.h), makes the commits git
 * am -s would make (common/repo/commit.h), writes the objects as packs (one
 * per QUEUE_FLUSH_BYTES of them, common/repo/objwrite.h), moves the branch
 * once with an old-value check and a reflog line, updates the index and
 * work tree for the changed paths when the branch is checked out
 * (common/repo/worktree.h, from the post-images still in memory), and records
 * each commit's mail in refs/notes/maint. The pre-images of a series are
 * read ahead by a second thread (common/engine/prefetch.h).
 *
 * Resumable state lives in $GIT_DIR/maint/queue/ (common/repo/state.h):
 *
 *   mails    the series as read (each mail "<length>\n<bytes>\n"),
 *            written once before anything else happens, from the
 *            input's spool a mail at a time, and read a mail at a
 *            time (state_file_read()): the series is never in memory
 *   state    "key value" lines: branch, orig (tip before the queue),
 *            base and tip (the branch moves from base to tip in the step
 *            in progress; equal when none is), notes-orig/-base/-tip
 *            (the same for refs/notes/maint), next and last (patches
 *            next..last are still to be applied, 1-based), stopped
 *            (why we stopped: patch, check, build), sync (the branch is
 *            checked out here), and the options of the run (scissors
 *            among them: a state without it means off)
 *   patch    the mail of the patch we stopped at, for the user to read
 *            (--show-current) or edit before --continue
 *   conflict the paths a -3 merge with conflicts left in the work tree
 *            and index for the user (one per line), put back by --skip
 *            and --abort
 *
 * A step (the whole series, or each patch with build-each, or the patches
 * before one that fails) is the guarded repository step of
 * common/repo/refstep.h: objects written (pack), state written naming
 * base and tip, branch moved base -> tip, notes ref moved, work tree
 * updated, state written with base = tip. A process killed anywhere in it
 * leaves a state from which --continue finishes the step (the ref is at
 * base or at tip, nothing else is possible) or --abort goes back to
 * orig, so no patch is lost or applied twice. --abort moves the branch
 * and the notes ref back in a step of its own.
 *
 * Crash points (GIT_MAINT_TEST_CRASH_AT): queue-after-read,
 * queue-objects-written, queue-state-write (temporary state file
 * written, not renamed), queue-before-ref, queue-after-ref, each also as
 * <point>:<n> for the step ending with patch n (several steps with
 * build-each or a stop); queue-abort-before-ref, queue-abort-after-ref.
 *
 * The caller holds the repository lock (common/repo/state.h) for
 * queue_start(), queue_continue() and queue_abort().
 */

#include <git2.h>

#include "config.h"
#include "source.h"
#include "state.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"

struct review_opts;

struct queue_opts {
	int signoff;
	int fuzz;
	int three_way;
	int quiet;
	char *link_mask;	/* "https://lore.kernel.org/r/%s" or NULL */
	char *check_cmd;
	int check_stop;		/* check-failure = stop */
	char *build_cmd;
	int build_each;
	int scissors;		/* drop the body above a scissors line, as git am --scissors */
	/* the follow-ups' trailers to carry (common/mail/review.h), read at the start; NULL: none */
	const struct review_opts *review;
	struct source_opts source;	/* how the mail is read; its size limit bounds binary patches */
	/* --series: the series to queue (numbers or Message-IDs); NULL or none: the input's only one */
	const struct strvec *series;
	/*
	 * --attest=<policy> (common/mail/attest.h); NULL: attest.policy.
	 * Every patch is judged before anything is applied; "Applying:"
	 * lines and carried trailers show the verdicts. Kept in the queue's
	 * state, so --continue marks the rest under the same policy.
	 */
	char *attest;
	/*
	 * --base: "auto" or a commit (the caller's string): a series whose
	 * base (its base-commit, or this commit) the branch lacks is
	 * refused before anything is written. NULL: only a warning.
	 */
	const char *base;
};

#define QUEUE_OPTS_INIT { 0 }

void queue_opts_release(struct queue_opts *opts);

/*
 * The engine returns an enum maint_result (usage.h): RESULT_OK (done),
 * RESULT_NO (a patch, check or build failed: state kept), RESULT_TEMPFAIL
 * (index.lock held by git: nothing changed) or RESULT_FATAL (reported).
 */

/*
 * Starts queueing the mails of args[0..nargs) (common/mail/source.h rules) on
 * branch (a full ref name, which must exist). Refuses when a queue is in
 * progress.
 */
enum maint_result queue_start(git_repository *repo, const struct maint_config *cfg,
			      const struct state_lock *lock, const char *branch,
			      const char *const *args, size_t nargs, const struct queue_opts *opts);

/* --continue (skip 0) and --skip (skip 1). */
enum maint_result queue_continue(git_repository *repo, const struct maint_config *cfg,
				 const struct state_lock *lock, int skip, int quiet);

/* --abort: the branch back to where it was before the queue, state removed. */
enum maint_result queue_abort(git_repository *repo, const struct maint_config *cfg,
			      const struct state_lock *lock);

/*
 * --show-trailers: what queue_start() would put in each commit's trailer
 * block, for the mails of args[0..nargs) with opts, appended to out;
 * nothing is applied, locked or written. Per patch: "Patch <k>/<n>:
 * <subject>", the block's lines (the patch's own trailers, the
 * follow-ups' carried ones, Link:, Signed-off-by:) indented by four
 * blanks, then the follow-ups' trailers not carried as review_format()
 * lists them ("    ! Reviewed-by: ... (<sender>, not the sender's
 * address)"). Then those given to patches the newest version dropped,
 * after "Not carried (given to patches the newest version dropped):".
 * Text from mail is as it came: the caller neutralises it.
 */
enum maint_result queue_show_trailers(git_repository *repo, const struct maint_config *cfg,
				      const char *const *args, size_t nargs,
				      const struct queue_opts *opts, struct strbuf *out);

/* --show-current: the mail of the patch the queue stopped at, to out. */
int queue_show_current(git_repository *repo, struct strbuf *out);

/* 1 when a queue (or a damaged queue state directory) is in progress. */
int queue_in_progress(git_repository *repo);

#endif
