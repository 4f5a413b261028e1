/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PUBLISH_H
#define PUBLISH_H

/*
 * The publish engine behind git-maint-publish(1): the article's do.sh as
 * one command. From the work branch (work-next) to the public branch
 * (usb-next), then to every remote, then to the authors:
 *
 *   1. plan: the commits public..work, checked as configured
 *      (common/engine/precheck.h: sign-offs, Fixes: tags) and built when asked
 *      (the tree's build command, in the work tree, the work branch
 *      checked out): a failure stops with nothing changed (RESULT_NO).
 *      Then a fast-forward when the public branch is an ancestor of the
 *      work branch, otherwise a merge
 *      commit built in memory (git_merge_commits(): no work tree, no
 *      index, and no object is written until the step), "Merge branch
 *      'work-next' into usb-next"; a conflict stops with nothing changed
 *      (RESULT_NO, the paths listed). A public branch that already holds
 *      the work branch is "up to date" and only the pushes remain.
 *   2. the first remote is asked for its copy of the public branch before
 *      anything changes here: a copy the new tip does not descend from
 *      (the public server moved on) is refused (RESULT_NO), an
 *      unreachable or silent server is RESULT_TEMPFAIL, a refused login
 *      RESULT_FATAL, each with nothing changed.
 *   3. the guarded step (common/repo/refstep.h, crash points publish-*) moves
 *      the public branch with an old-value check and a reflog line, the
 *      state written first. The public branch is never checked out and
 *      never rewound: nothing here resets or forces it.
 *   4. the push to each remote in order (common/repo/push.h), each result
 *      named; every remote is tried even when one fails.
 *   5. once every remote has the new tip: git-maint-notify --send
 *      [--revert] --after-push <remote>... <before>..<after> as a child,
 *      the repository lock released while it runs (notify takes it
 *      itself); --revert (unless notify-reverts is off) has a revert of
 *      an announced commit announced in that commit's thread.
 *
 * State, in $GIT_DIR/maint/publish/state (common/repo/state.h), written before
 * the step and after each push and kept until everything is done, so
 * that --continue pushes only to the remotes still missing and then
 * notifies:
 *
 *   work, public   the two branches (full ref names); tree: its name
 *   before, after  the public branch before and after the step
 *   kind           fast-forward, merge or up-to-date
 *   remotes        every remote, in push order, space-separated
 *   pushed         those that have 'after'
 *   notify         1 while notify is still to run
 *   reverts        1: notify with --revert
 *   timeout, quiet the options of the run
 *
 * Results (usage.h): RESULT_OK; RESULT_NO (a check failed, a conflict,
 * a remote refused the update, or notify reported refused mails);
 * RESULT_TEMPFAIL (a remote unreachable or timed out, notify asked to be
 * retried: --continue later); RESULT_FATAL (reported). With several
 * remotes failing the worst counts: fatal, then refused, then temporary.
 */

#include <git2.h>

#include "config.h"
#include "state.h"
#include "strvec.h"
#include "usage.h"

struct publish_opts {
	const char *tree;	/* the [tree "<name>"], or NULL */
	const char *work;	/* "refs/heads/work-next" */
	const char *public;	/* "refs/heads/usb-next" */
	struct strvec remotes;	/* in push order */
	int notify;
	int notify_reverts;	/* notify with --revert: a revert answers the reverted commit's mail */
	int dry_run;
	int quiet;
	int timeout;		/* seconds a remote may stay silent */
	int check_signoff;	/* common/engine/precheck.h */
	int check_fixes;
	const char *build_cmd;	/* run in the work tree before anything changes, or NULL */
	int color;		/* colour the --dry-run plan (color.h) */
};

#define PUBLISH_OPTS_INIT { NULL, NULL, NULL, STRVEC_INIT, 1, 1, 0, 0, 60, 0, 0, NULL, 0 }

/* Starts a publish; refuses when one is in progress or a queue is stopped. */
enum maint_result publish_start(git_repository *repo, const struct maint_config *cfg,
				struct state_lock *lock, const struct publish_opts *opts);

/* --continue: finishes the step, pushes to the remotes still missing, notifies. */
enum maint_result publish_continue(git_repository *repo, const struct maint_config *cfg,
				   struct state_lock *lock, int quiet);

/*
 * --abort: forgets the pushes and the notification still to do. Moves no
 * ref: a public branch is never rewound.
 */
enum maint_result publish_abort(git_repository *repo);

/* 1 when a publish (or a damaged publish state directory) is in progress. */
int publish_in_progress(git_repository *repo);

/*
 * The push a publish in progress recorded: 1 with *tip set when its state
 * names remote among those that have the public branch's new tip (they
 * took the push, or had it already), else 0. For notify's --after-push,
 * which publish runs while its state says so: the record holds even when
 * the remote has no remote-tracking branch (a write-only backup).
 */
int publish_recorded_push(git_repository *repo, const char *remote, git_oid *tip);

#endif
