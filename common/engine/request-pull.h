/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ENGINE_REQUEST_PULL_H
#define ENGINE_REQUEST_PULL_H

/*
 * The request-pull engine behind git-maint-request-pull(1): the upstream
 * half of the loop (request-pull.c; the mail, step 5 and the dry run's
 * mbox, in request-pull-mail.c). A tag on the public branch's tip, pushed to the
 * public remote, seen there, and one "[GIT PULL]" mail to the upstream
 * maintainer, in these steps:
 *
 *   1. resolve: the public branch (given, else the current branch's
 *      tree's), its tree, the remote (tree.<name>.remote's first, else
 *      origin), the public URL (tree.<name>.url, else the remote's URL),
 *      the upstream (tree.<name>.upstream, else "master"), the tag name
 *      (--tag, else tree.<name>.tag-format), the recipients (--to,
 *      tree.<name>.upstream-to; --cc, tree.<name>.upstream-cc)
 *   2. the remote is asked for refs/tags/<tag> before anything changes
 *      here: another tag of that name there is a refusal (RESULT_NO), an
 *      unreachable remote RESULT_TEMPFAIL, nothing changed either way.
 *      Then the tag: an annotated tag of the branch's tip (tag-sign.h),
 *      its message -m, -F, else tree.<name>.tag-template expanded, then
 *      edited when edit is set ($GIT_DIR/TAG_EDITMSG, as git tag -a; an
 *      empty message stops here, nothing made), signed unless sign is 0; a tag of that name already pointing at
 *      the tip is taken as it is (a rerun), one pointing elsewhere is
 *      refused (RESULT_NO). The object is written, then the state
 *      ($GIT_DIR/maint/request-pull/state), then refs/tags/<tag>, in a
 *      guarded step (refstep.h, crash points request-pull-tag-*)
 *   3. the push of refs/tags/<tag> to the remote (push.h, as publish
 *      pushes; never forced): a remote holding another tag of that name
 *      is a refusal (RESULT_NO)        crash point request-pull-pushed
 *   4. the check: the remote is asked again for the tag and the branch;
 *      unless it holds exactly our tag object, and a branch value that
 *      is the tip or descends from it, nothing is mailed (RESULT_NO)
 *   5. the mail (compose.h, mailer.h: notify's SMTP settings, password
 *      and journal): From notify.from, else sendemail.from, else the
 *      committer; Subject "[GIT PULL] <the tag message's first line>";
 *      the body the greeting (tree.<name>.greeting), then
 *      request-pull.h's text. The journal
 *      (journal.h, refs/notes/maint-notify) keeps one record per tag
 *      object, kind "pull <tag>": a tag already recorded as sent is not
 *      mailed again. The Message-ID depends only on the tag object, so
 *      the one mail a crash between the server's answer and the record
 *      can send twice carries the same id      crash point request-pull-sent
 *   6. the state is removed.
 *
 * Without send (a dry run) nothing is written, signed, pushed or sent:
 * the tag that would be made is described on stderr and the mail is an
 * mbox on stdout (From_ line "From <tip> Mon Sep 17 00:00:00 2001").
 *
 * --continue reads the state and does 2-6 again for the same tag, each
 * step finding what an interrupted run already did; --abort removes
 * the state (the tag stays: a tag that may have been published is not
 * taken back).
 *
 * Results: RESULT_OK mailed (or mailed before); RESULT_NO a refusal
 * (tag elsewhere, remote holds another tag or lacks ours, the server
 * refused the mail); RESULT_TEMPFAIL the remote or the SMTP server
 * could not be reached, or a lock is held (--continue later);
 * RESULT_FATAL reported.
 */

#include <git2.h>

#include "config.h"
#include "msg.h"
#include "state.h"
#include "strvec.h"
#include "usage.h"

struct request_pull_opts {
	const char *branch;	/* the public branch (short name), or NULL: the current branch's */
	const char *tag;	/* the tag's name, or NULL: tree.<name>.tag-format */
	const char *message;	/* the tag's message, or NULL: message_file, else the tag template */
	const char *message_file;
	int edit;		/* the message handed to the editor first (editor.h), as git tag -e */
	int sign;		/* 0: an unsigned annotated tag */
	struct strvec to, cc;	/* the recipients, else the tree's */
	int send;
	int timeout;		/* seconds a remote may stay silent */
	int quiet;
	int verbose;		/* the SMTP conversation */
	enum msg_cleanup cleanup;	/* how the tag's message is cleaned, as git tag --cleanup */
};

#define REQUEST_PULL_OPTS_INIT { NULL, NULL, NULL, NULL, 0, 1, STRVEC_INIT, STRVEC_INIT, 0, 60, 0, 0, \
				 MSG_CLEANUP_STRIP }

enum maint_result request_pull_start(git_repository *repo, const struct maint_config *cfg,
				     const struct request_pull_opts *o);
/* --continue: quiet and verbose from o, the rest from the state. */
enum maint_result request_pull_continue(git_repository *repo, const struct maint_config *cfg,
					const struct request_pull_opts *o);
enum maint_result request_pull_abort(git_repository *repo);

#endif
