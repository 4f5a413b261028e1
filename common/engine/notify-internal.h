/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NOTIFY_INTERNAL_H
#define NOTIFY_INTERNAL_H

/*
 * Shared by the two halves of the notify engine (notify.h): notify.c
 * (each commit's mail, sending, the journal) and notify-commits.c (which
 * commits, which branch and tree they are announced as, and which the
 * --after-push remotes already have). Not for other modules.
 */

#include <git2.h>

#include "compose.h"
#include "config.h"
#include "journal.h"
#include "mailer.h"
#include "mbox-write.h"
#include "notify.h"
#include "state.h"
#include "strbuf.h"
#include "strvec.h"

struct notify {
	git_repository *repo;
	const struct maint_config *cfg;
	const struct notify_opts *o;
	/* who we are */
	struct compose_addr me;
	struct strvec ourselves;	/* e-mails never copied */
	struct strvec exclude;		/* notify.exclude */
	struct compose_addrs extra_cc;	/* notify.cc */
	size_t max_cc;			/* notify.max-cc: of the mail's own Cc, at most */
	/* where the commits land, for the text */
	char *tree, *branch;
	const char *repo_url, *commit_url;
	struct strbuf tmpl, revert_tmpl;
	/* output */
	struct mailer_conf mc;
	struct mailer *mailer;
	struct strbuf server;
	struct journal journal;
	struct mbox_writer mbox;
	struct state_lock lock;
	/* --after-push */
	struct remote_tips {
		char *name;
		git_oid *tips;
		size_t nr, alloc;
	} *remotes;
	size_t nremotes;
	int abbrev;		/* core.abbrev, else 12 */
	/* the mail whose data went and whose answer is to come (smtp_set_settle()) */
	struct notify_in_flight {
		git_oid id;
		char short_id[GIT_OID_HEXSZ + 1];
		struct strbuf subject, to;	/* for the "Sent" line */
		struct journal_entry e;		/* its record but for Reply */
		/* held: a mail with more transactions to come, whose answer the sender waits for */
		int hold;
		enum smtp_status st;
		struct strbuf reply;
	} flight;
	/* what happened */
	size_t sent, refused, pending;
	int went;		/* the last outcome: the mail went */
	int broken;		/* the server went away: the rest waits */
	int settle_failed;	/* a mail's outcome could not be recorded: stop */
};

struct oid_list {
	git_oid *v;
	size_t nr, alloc;
};

/*
 * The branch named in the mails (n->branch, its public branch) and its
 * tree (n->tree, with tree.<name>.url and commit-url): --branch, the
 * range's only end when it is a local branch, or the current branch.
 */
void notify_choose_branch(struct notify *n);

/* The commits to consider, oldest first (see notify.h). -1 reported. */
int notify_collect_commits(struct notify *n, struct oid_list *l);

/* Reads the remote-tracking branches of each --after-push remote. -1 reported. */
int notify_load_remotes(struct notify *n);
/* The first --after-push remote that lacks commit id, or NULL. */
const char *notify_missing_on(struct notify *n, const git_oid *id);
void notify_remotes_release(struct notify *n);

#endif
