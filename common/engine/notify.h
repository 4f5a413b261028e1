/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NOTIFY_H
#define NOTIFY_H

/*
 * The notify engine: tell each author that their patch was applied, in
 * the thread of the mail it came from, exactly once.
 *
 * Which commits: the revision ranges given (git's syntax, "A..B",
 * "^A B"; each must exclude something), or commit ids one per line on
 * stdin, or by default the current work branch's commits that its public
 * branch lacks. Merges are left out; commits are taken oldest first.
 *
 * The branch and tree named in the mail: --branch, else the range's
 * only positive end when it is a local branch, else the current branch;
 * a branch is mapped to its tree and public branch by [tree "<name>"],
 * else by the article's naming (work-next publishes to the one
 * <tree>-next branch; usb-next is in tree "usb").
 *
 * Each mail (compose.h makes it):
 *   From      notify.from, else sendemail.from, else user.name <user.email>
 *   To        the patch's author: the From of the mail the commit came
 *             from (refs/notes/maint, notes.h), else the commit's author
 *   Cc        that mail's To and Cc, and notify.cc; never the To, our
 *             own addresses (From, user.email, the envelope sender) or
 *             notify.exclude's
 *   Subject   "Re: <that mail's subject>"; without a mail, a fresh
 *             thread: 'Applied "<commit subject>" to <branch>'
 *   threading In-Reply-To that mail's Message-ID, References its
 *             In-Reply-To and Message-ID
 *   Message-ID compose_message_id() of the commit and the thread, so
 *             the same mail sent twice has the same id
 *   body      notify.template (or the default), %(...) placeholders
 *             (template.h): tree, branch, subject, commit, short, url
 *             (tree.<name>.commit-url with %s the commit id), author,
 *             author-name, date (of the mail, else of the commit), repo
 *             (tree.<name>.url), me; and for reverts reverted,
 *             reverted-short, reverted-subject, reason
 * A commit whose author is ourselves, without a mail to answer, gets no
 * mail. A value that fails compose's checks (a CR, LF or NUL in a name,
 * an address that is not one) makes that one mail refused and reported.
 *
 * With revert set, a commit that reverts ("This reverts commit <id>.")
 * a commit whose notification went out is announced as a reply to that
 * notification, to the same people, quoting the revert's reason, with
 * notify.revert-template.
 *
 * Without send, nothing goes out and nothing is written: the mails are
 * an mbox on standard output (From_ line "From <commit> Mon Sep 17
 * 00:00:00 2001", as git format-patch). With send, they go through
 * mailer.h, each recorded in the journal (journal.h) right after the
 * server's answer; commits already in the journal are left out, so a
 * rerun sends only what is missing. The password is looked up (and the
 * server reached) only when there is a mail to send: a rerun with nothing
 * left needs neither. The journal is written under a lock
 * ($GIT_COMMON_DIR/maint-notify.lock): a second run at the same time is
 * refused (RESULT_TEMPFAIL).
 *
 * retry_refused: only the commits whose mail the journal records as
 * refused ("failed") are mailed, again (the cause fixed: an address, a
 * server's policy); the others are left alone. Without a range or
 * --stdin, every refused commit in the journal, oldest first. The new
 * record replaces the note; the notes' history keeps the refused one.
 *
 * after_push: only commits that every named remote has (a
 * remote-tracking branch refs/remotes/<remote>/<name> contains them, as after
 * git push or fetch, or the push a publish in progress recorded,
 * publish_recorded_push() in publish.h) are mailed; the others wait for a
 * later run.
 *
 * The engine is in two files: notify-commits.c (which commits, branch,
 * remotes) and notify.c (the mails, sending, the journal), sharing
 * notify-internal.h.
 *
 * Result: RESULT_OK when every mail went (or had gone) out;
 * RESULT_TEMPFAIL when some wait for a later run (a 4xx, a lost
 * connection, a timeout, a commit not yet on a remote), the rest having
 * been sent and recorded; RESULT_NO when some were refused (5xx, bad
 * values) and none wait; RESULT_FATAL (reported) for a setup problem
 * (configuration, TLS, AUTH, password, repository), after which nothing
 * more is sent.
 */

#include <git2.h>

#include "config.h"
#include "strvec.h"
#include "usage.h"

struct notify_opts {
	int send;
	int use_stdin;			/* commit ids on stdin instead of revs */
	const char **revs;		/* revision ranges */
	size_t nrevs;
	struct strvec after_push;	/* remotes */
	int revert;
	int retry_refused;		/* only the commits whose mail was refused, again */
	const char *branch;		/* NULL: see above */
	int quiet;
	int verbose;			/* 1: the SMTP protocol trace (AUTH redacted) */
};

#define NOTIFY_OPTS_INIT { 0, 0, NULL, 0, STRVEC_INIT }

enum maint_result notify_run(git_repository *repo, const struct maint_config *cfg,
			     const struct notify_opts *o);

/* The default templates (Documentation/git-maint-notify.adoc shows them). */
extern const char notify_default_template[];
extern const char notify_default_revert_template[];

#endif
