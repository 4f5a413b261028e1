/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The request-pull engine's mail (request-pull.h, step 5): the greeting
 * and git request-pull's text, sent once through notify's mailer and
 * journal, or written as the dry run's mbox.
 */
#include "request-pull-internal.h"
#include "compose.h"
#include "ident.h"
#include "journal.h"
#include "mail.h"
#include "mailer.h"
#include "mbox-write.h"
#include "renames.h"
#include "repo.h"
#include "request-pull-text.h"
#include "tag-sign.h"
#include "template.h"
#include "wrapper.h"

#include <string.h>
#include <time.h>

static const char *const greeting_names[] = {
	"tree", "branch", "tag", "upstream", "version", "subject", "me", "to-name", NULL
};

static const char default_greeting[] =
	"Hi,\n"
	"\n"
	"please pull the %(tree) changes below.\n"
	"\n"
	"Thanks,\n"
	"%(me)\n";

struct pull_mail {
	struct compose_mail mail;
	struct strbuf from_name, from_email, subject, message_id, body, msg;
	struct strvec rcpt;
};

#define PULL_MAIL_INIT { COMPOSE_MAIL_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
			 STRBUF_INIT, STRBUF_INIT, STRVEC_INIT }

static void pull_mail_release(struct pull_mail *pm)
{
	compose_addrs_release(&pm->mail.to);
	compose_addrs_release(&pm->mail.cc);
	compose_mail_release(&pm->mail);
	strbuf_release(&pm->from_name);
	strbuf_release(&pm->from_email);
	strbuf_release(&pm->subject);
	strbuf_release(&pm->message_id);
	strbuf_release(&pm->body);
	strbuf_release(&pm->msg);
	strvec_clear(&pm->rcpt);
}

/* The From, as notify's (mailer_from()). */
static int sender(const struct rp *rp, struct pull_mail *pm)
{
	struct strbuf sb = STRBUF_INIT;
	struct mail_address a = MAIL_ADDRESS_INIT;
	int configured, ret = -1;

	if (mailer_from(&sb, rp->cfg, &configured) < 0)
		goto out;
	if (mail_parse_address(&a, sb.buf, sb.len) < 0) {
		error("bad From address '%s'", sb.buf);
		goto out;
	}
	strbuf_addbuf(&pm->from_name, &a.name);
	strbuf_addbuf(&pm->from_email, &a.email);
	ret = 0;
out:
	mail_address_release(&a);
	strbuf_release(&sb);
	return ret;
}

static void add_list(struct compose_addrs *l, struct strvec *rcpt, const char *list)
{
	struct strvec v = STRVEC_INIT;

	mail_parse_address_list(&v, list, strlen(list));
	for (size_t i = 0; i < v.nr; i++) {
		struct mail_address a = MAIL_ADDRESS_INIT;

		if (!mail_parse_address(&a, v.v[i], strlen(v.v[i])) &&
		    compose_addrs_add(l, a.name.buf, a.email.buf))
			strvec_push(rcpt, a.email.buf);
		mail_address_release(&a);
	}
	strvec_clear(&v);
}

/*
 * The greeting (tree.<name>.greeting, else the default) expanded, its
 * trailing blank lines dropped, then one blank line before the text;
 * nothing for a greeting that expands to nothing. 0, or -1 reported.
 */
static int add_greeting(struct pull_mail *pm, struct rp *rp, const char *subject)
{
	struct strbuf tmpl = STRBUF_INIT, to_name = STRBUF_INIT;
	struct request_pull_vars pv = REQUEST_PULL_VARS_INIT;
	const struct compose_addr *to = &pm->mail.to.v[0];
	size_t start = pm->body.len;
	int ret = -1;

	if (template_load(&tmpl, rp->cfg, "tree", rp->tree, "greeting", default_greeting,
			  greeting_names) < 0 ||
	    request_pull_vars_fill(&pv, rp, tmpl.buf, tmpl.len) < 0)
		goto out;
	compose_greeting_name(&to_name, to->name, to->email);
	pv.v[PV_SUBJECT].value = subject;
	pv.v[PV_ME].value = pm->from_name.len ? pm->from_name.buf : pm->from_email.buf;
	pv.v[PV_TO_NAME].value = to_name.buf;
	template_expand(&pm->body, tmpl.buf, tmpl.len, pv.v, PV_NR);
	strbuf_rtrim(&pm->body);
	if (pm->body.len > start)
		strbuf_addstr(&pm->body, "\n\n");
	else
		strbuf_setlen(&pm->body, start);
	ret = 0;
out:
	strbuf_release(&tmpl);
	strbuf_release(&to_name);
	request_pull_vars_release(&pv);
	return ret;
}

/* The whole message in pm->msg. 0, or -1 reported. */
static int compose_pull(struct rp *rp, struct pull_mail *pm)
{
	struct request_pull_text rpt = { &rp->upstream, &rp->tip, rp->url, rp->tag, NULL, 0, DIFFSTAT_OPTS_INIT };
	struct strbuf seed = STRBUF_INIT, why = STRBUF_INIT;
	const char *msg, *nl;
	size_t len;
	int ret = -1;

	if (sender(rp, pm) < 0 ||
	    config_git_int(rp->cfg, "diff.renameLimit", RENAME_LIMIT_DEFAULT, &rpt.diffstat.rename_limit) < 0)
		return -1;
	rpt.diffstat.quote_path = config_git_bool(rp->cfg, "core.quotePath", 1);
	msg = tag_sign_message(rp->tagbuf.buf, rp->tagbuf.len, &len);
	rpt.message = msg;
	rpt.message_len = len;
	nl = memchr(msg, '\n', len);
	strbuf_addstr(&pm->subject, "[GIT PULL] ");
	strbuf_add(&pm->subject, msg, nl ? (size_t)(nl - msg) : len);
	add_list(&pm->mail.to, &pm->rcpt, rp->to);
	add_list(&pm->mail.cc, &pm->rcpt, rp->cc);
	if (!pm->mail.to.nr) {
		error("no address in '%s' to send the pull request to", rp->to);
		goto out;
	}
	if (add_greeting(pm, rp, pm->subject.buf + strlen("[GIT PULL] ")) < 0 ||
	    request_pull_format(&pm->body, rp->repo, &rpt) < 0)
		goto out;
	strbuf_addf(&seed, "request-pull\n%s", git_oid_tostr_s(&rp->tag_oid));
	compose_message_id(&pm->message_id, seed.buf, seed.len, pm->from_email.buf);
	pm->mail.from.name = pm->from_name.buf;
	pm->mail.from.email = pm->from_email.buf;
	pm->mail.subject = pm->subject.buf;
	pm->mail.message_id = pm->message_id.buf;
	pm->mail.date = time(NULL);
	pm->mail.tz = 0;
	pm->mail.body = pm->body.buf;
	pm->mail.body_len = pm->body.len;
	if (compose_message(&pm->msg, &pm->mail, &why) < 0) {
		error("cannot make the mail: %s", why.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&seed);
	strbuf_release(&why);
	return ret;
}

static void journal_entry_of(const struct rp *rp, const struct pull_mail *pm, const char *server,
			     struct journal_entry *e)
{
	strbuf_addf(&e->kind, "pull %s", rp->tag);
	strbuf_addbuf(&e->message_id, &pm->message_id);
	strbuf_addbuf(&e->subject, &pm->subject);
	for (size_t i = 0; i < pm->mail.to.nr; i++)
		strvec_push(&e->to, pm->mail.to.v[i].email);
	for (size_t i = 0; i < pm->mail.cc.nr; i++)
		strvec_push(&e->cc, pm->mail.cc.v[i].email);
	compose_date(&e->date, pm->mail.date, pm->mail.tz);
	strbuf_addstr(&e->server, server);
}

/* Sends pm through the configured server, the journal (open, ours) recording the outcome. */
static enum maint_result send_mail(struct rp *rp, struct pull_mail *pm, struct journal *j)
{
	struct mailer_conf mc = MAILER_CONF_INIT;
	struct mailer *m = NULL;
	struct strbuf reply = STRBUF_INIT, server = STRBUF_INIT;
	struct journal_entry e = JOURNAL_ENTRY_INIT;
	struct smtp_rcpts rcpts;
	enum maint_result ret = RESULT_FATAL;
	enum smtp_status st;

	if (mailer_conf_load(&mc, rp->cfg, pm->from_email.buf) < 0)
		goto out;
	mc.verbose = rp->verbose;
	mailer_describe(&server, &mc);
	if (mailer_open(&m, &mc) != RESULT_OK)
		goto out;
	/* a pull request goes to all its recipients or to none */
	smtp_rcpts_init(&rcpts, &pm->rcpt, pm->rcpt.nr);
	st = mailer_send(m, mc.envelope_sender ? mc.envelope_sender : pm->from_email.buf, &rcpts,
			 pm->msg.buf, pm->msg.len, &reply);
	smtp_rcpts_release(&rcpts);
	journal_entry_of(rp, pm, server.buf, &e);
	strbuf_addbuf(&e.reply, &reply);
	switch (st) {
	case SMTP_SENT:
		/* a crash here, before the journal has it: the rerun sends this one mail again */
		crash_point("request-pull-sent");
		e.status = JOURNAL_SENT;
		if (journal_write(j, &rp->tag_oid, &e) < 0)
			goto out;
		if (!rp->quiet)
			say(stderr, "Sent %s (to %s)", pm->subject.buf, rp->to);
		ret = RESULT_OK;
		break;
	case SMTP_REFUSED:
		error("the server refused the pull request: %s", reply.buf);
		e.status = JOURNAL_FAILED;
		ret = journal_write(j, &rp->tag_oid, &e) < 0 ? RESULT_FATAL : RESULT_NO;
		break;
	case SMTP_DEFERRED:
	case SMTP_BROKEN:
		error("the pull request was not sent: %s", reply.buf);
		advise("'git maint-request-pull --continue' sends it later");
		ret = RESULT_TEMPFAIL;
		break;
	default:
		error("cannot send through %s: %s", server.buf, reply.buf);
		break;
	}
out:
	journal_entry_release(&e);
	mailer_close(m);
	mailer_conf_release(&mc);
	strbuf_release(&reply);
	strbuf_release(&server);
	return ret;
}

enum maint_result request_pull_mail_once(struct rp *rp)
{
	struct state_lock nlock = STATE_LOCK_INIT;
	struct journal j = JOURNAL_INIT;
	struct journal_entry e = JOURNAL_ENTRY_INIT;
	struct pull_mail pm = PULL_MAIL_INIT;
	struct strbuf committer = STRBUF_INIT;
	enum maint_result ret = state_lock_acquire_named(&nlock, rp->repo, "maint-notify.lock");
	int r;

	if (ret != RESULT_OK)
		goto out;
	ret = RESULT_FATAL;
	if (ident_committer(&committer, rp->cfg) < 0 ||
	    journal_open(&j, rp->repo, committer.buf, &nlock) < 0 ||
	    (r = journal_read(&j, &rp->tag_oid, &e)) < 0)
		goto out;
	if (!r && e.status == JOURNAL_SENT) {
		if (!rp->quiet)
			say(stderr, "the pull request for '%s' went out already (%s)", rp->tag, e.message_id.buf);
		ret = RESULT_OK;
	} else if (!r && e.status == JOURNAL_FAILED) {
		error("the server refused the pull request for '%s' before: %s", rp->tag, e.reply.buf);
		ret = RESULT_NO;
	} else if (compose_pull(rp, &pm) == 0) {
		ret = send_mail(rp, &pm, &j);
	}
	if (journal_flush(&j) < 0)
		ret = RESULT_FATAL;
out:
	journal_entry_release(&e);
	journal_release(&j);
	state_lock_release(&nlock);
	pull_mail_release(&pm);
	strbuf_release(&committer);
	return ret;
}

enum maint_result request_pull_dry_run(struct rp *rp)
{
	struct pull_mail pm = PULL_MAIL_INIT;
	struct mbox_writer w;
	struct strbuf from_line = STRBUF_INIT;
	enum maint_result ret = RESULT_FATAL;

	mbox_writer_init(&w, 1, MBOX_O);
	strbuf_addf(&from_line, "From %s Mon Sep 17 00:00:00 2001", git_oid_tostr_s(&rp->tip));
	if (!compose_pull(rp, &pm) && !mbox_writer_add(&w, from_line.buf, pm.msg.buf, pm.msg.len))
		ret = RESULT_OK;
	if (mbox_writer_finish(&w) < 0)
		ret = RESULT_FATAL;
	strbuf_release(&from_line);
	pull_mail_release(&pm);
	return ret;
}

