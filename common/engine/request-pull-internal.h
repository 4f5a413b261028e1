/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REQUEST_PULL_INTERNAL_H
#define REQUEST_PULL_INTERNAL_H

/*
 * Shared by the two halves of the request-pull engine (request-pull.h):
 * request-pull.c (what, where, to whom; the tag; the push and the check;
 * the runs and the state) and request-pull-mail.c (the mail: composed,
 * sent once through notify's mailer and journal, or written as the dry
 * run's mbox). Not for other modules.
 */

#include <git2.h>

#include "request-pull.h"
#include "state.h"
#include "strbuf.h"
#include "template.h"

/* One run: what request-pull.c resolved (or --continue read back). */
struct rp {
	git_repository *repo;
	const struct maint_config *cfg;
	int send, quiet, verbose, timeout, sign;
	struct state_lock lock;
	char *tree, *public, *remote, *url, *tag, *tag_ref, *to, *cc, *dir;
	char *version;		/* the upstream's latest tag, once asked (version_known) */
	int version_known;
	git_oid upstream, tip, tag_oid;
	struct strbuf tagbuf;	/* the tag object's text */
	int tag_exists;		/* refs/tags/<tag> holds tag_oid already */
};

#define RP_INIT { .lock = STATE_LOCK_INIT, .tagbuf = STRBUF_INIT }

/* "refs/heads/usb-next" -> "usb-next", "refs/tags/x" -> "x"; anything else as it is. */
const char *request_pull_short_ref(const char *ref);

/*
 * The placeholders of request-pull's three templates (template.h's
 * syntax): the tag's name (tree.<name>.tag-format), its message
 * (tree.<name>.tag-template) and the mail's greeting (tree.<name>.greeting).
 */
enum { PV_TREE, PV_BRANCH, PV_TAG, PV_UPSTREAM, PV_VERSION, PV_DATE, PV_SHORTLOG, PV_SUBJECT, PV_ME,
       PV_TO_NAME, PV_NR };

/* Every placeholder's value; the greeting's own (subject, me, to-name) set by the mail half. */
struct request_pull_vars {
	struct template_var v[PV_NR];
	struct strbuf date, shortlog;
};

#define REQUEST_PULL_VARS_INIT { .date = STRBUF_INIT, .shortlog = STRBUF_INIT }

/*
 * The values tmpl[0..len) uses (the others empty): the upstream's
 * description and the shortlog are made only for a template naming
 * them. 0, or -1 reported.
 */
int request_pull_vars_fill(struct request_pull_vars *pv, struct rp *rp, const char *tmpl, size_t len);
void request_pull_vars_release(struct request_pull_vars *pv);

/* Step 5: the mail sent once (the journal decides). */
enum maint_result request_pull_mail_once(struct rp *rp);

/* The dry run: the mail as an mbox on standard output. */
enum maint_result request_pull_dry_run(struct rp *rp);

#endif
