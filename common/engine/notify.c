/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The notify engine (see notify.h): which commits, to whom, with what
 * text, and the journal of what went out.
 */
#include "notify-internal.h"
#include "commit.h"
#include "hashmap.h"
#include "ident.h"
#include "mail.h"
#include "notes.h"
#include "quote.h"
#include "repo.h"
#include "template.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

const char notify_default_template[] =
	"Hi %(author-name),\n"
	"\n"
	"This is a note to let you know that your patch\n"
	"\n"
	"\t%(subject)\n"
	"\n"
	"was added to the %(branch) branch of the %(tree) tree as commit %(short).\n"
	"It can be seen at %(url)\n"
	"The tree is at %(repo)\n"
	"\n"
	"Thank you,\n"
	"%(me)\n";

const char notify_default_revert_template[] =
	"Hi %(author-name),\n"
	"\n"
	"Your patch\n"
	"\n"
	"\t%(reverted-subject)\n"
	"\n"
	"(commit %(reverted-short) in the %(branch) branch of the %(tree) tree)\n"
	"was reverted by commit %(short), \"%(subject)\":\n"
	"%(url)\n"
	"\n"
	"%(reason)\n"
	"\n"
	"%(me)\n";

static const char *const placeholder_names[] = {
	"tree", "branch", "subject", "commit", "short", "url", "author", "author-name", "date",
	"repo", "me", "reverted", "reverted-short", "reverted-subject", "reason", NULL
};

/*
 * Transactions for one mail, when the server takes only so many
 * recipients in each (452): recipients still left after that are left
 * out, reported (reliability case 52).
 */
#define NOTIFY_ROUNDS_MAX 20

/* notify.max-cc: a thank-you copies at most this many of its mail's Cc (notify.cc's on top) */
#define NOTIFY_MAX_CC_DEFAULT 100
#define NOTIFY_MAX_CC_LIMIT 1000

enum { V_TREE, V_BRANCH, V_SUBJECT, V_COMMIT, V_SHORT, V_URL, V_AUTHOR, V_AUTHOR_NAME, V_DATE,
       V_REPO, V_ME, V_REVERTED, V_REVERTED_SHORT, V_REVERTED_SUBJECT, V_REASON, V_NR };


/* ---- small helpers ---- */

/*
 * "Name <email>", "<email>" or "email" (one address per note line, as
 * queue writes them) into name and email: the last <...> ending the
 * value is the address. Surrounding double quotes of the name go.
 */
static int split_address(const char *v, struct strbuf *name, struct strbuf *email)
{
	size_t len = strlen(v);
	const char *lt;

	strbuf_reset(name);
	strbuf_reset(email);
	while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
		len--;
	if (len && v[len - 1] == '>' && (lt = memrchr(v, '<', len))) {
		strbuf_add(email, lt + 1, v + len - 1 - (lt + 1));
		strbuf_add(name, v, lt - v);
		strbuf_trim(name);
		if (name->len >= 2 && name->buf[0] == '"' && name->buf[name->len - 1] == '"') {
			strbuf_remove(name, name->len - 1, 1);
			strbuf_remove(name, 0, 1);
		}
	} else {
		strbuf_add(email, v, len);
		strbuf_trim(email);
	}
	return email->len ? 0 : -1;
}

/* Adds every address of a comma-separated list (a config value) to l. */
static void add_address_list(struct compose_addrs *l, const char *list)
{
	struct strvec v = STRVEC_INIT;
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;

	mail_parse_address_list(&v, list, strlen(list));
	for (size_t i = 0; i < v.nr; i++)
		if (!split_address(v.v[i], &name, &email))
			compose_addrs_add(l, name.buf, email.buf);
	strvec_clear(&v);
	strbuf_release(&name);
	strbuf_release(&email);
}

static int is_ourselves(const struct notify *n, const char *email)
{
	for (size_t i = 0; i < n->ourselves.nr; i++)
		if (!strcasecmp(n->ourselves.v[i], email))
			return 1;
	return 0;
}

static void drop_unwanted(const struct notify *n, struct compose_mail *m)
{
	for (size_t i = 0; i < m->to.nr; i++)
		compose_addrs_remove(&m->cc, m->to.v[i].email);
	for (size_t i = 0; i < n->ourselves.nr; i++)
		compose_addrs_remove(&m->cc, n->ourselves.v[i]);
	for (size_t i = 0; i < n->exclude.nr; i++)
		compose_addrs_remove(&m->cc, n->exclude.v[i]);
}

/*
 * The Cc of a thank-you, picked in one pass however many the mail had
 * (reliability case 51): each address once (ASCII case ignored, a set of
 * those seen), none of the To's, ours or notify.exclude's; an address compose
 * would refuse (a UTF-8 domain, a quoted local part, a control character
 * in the name) is left out, not the mail; of the mail's own at most
 * notify.max-cc, in the mail's order (To before Cc, so its lists first),
 * notify.cc's on top. What was left out is counted for one warning.
 */
struct cc_pick {
	struct compose_addrs *cc;
	struct hashmap seen;	/* lower-cased addresses taken or never to take */
	struct strbuf key;
	size_t max, taken, over, odd;
	struct strbuf first_odd;
};

#define CC_PICK_INIT { NULL, HASHMAP_INIT, STRBUF_INIT, 0, 0, 0, 0, STRBUF_INIT }

/* 1 when email was seen before (now it has been). */
static int cc_seen(struct cc_pick *p, const char *email)
{
	int added;

	strbuf_reset(&p->key);
	strbuf_addstr_lower(&p->key, email);
	hashmap_put(&p->seen, p->key.buf, p->key.len, &added);
	return !added;
}

static void cc_pick_init(struct cc_pick *p, const struct notify *n, struct compose_mail *m)
{
	p->cc = &m->cc;
	p->max = n->max_cc;
	for (size_t i = 0; i < m->to.nr; i++)
		cc_seen(p, m->to.v[i].email);
	for (size_t i = 0; i < n->ourselves.nr; i++)
		cc_seen(p, n->ourselves.v[i]);
	for (size_t i = 0; i < n->exclude.nr; i++)
		cc_seen(p, n->exclude.v[i]);
	for (size_t i = 0; i < m->cc.nr; i++)
		cc_seen(p, m->cc.v[i].email);
}

/* capped: one of the mail's own, counted against notify.max-cc */
static void cc_pick(struct cc_pick *p, const char *name, const char *email, int capped)
{
	const char *why;

	if (cc_seen(p, email))
		return;
	if (compose_check_email(email, &why) < 0 || compose_check_text(name, strlen(name), &why) < 0) {
		if (!p->odd++)
			quote_field(&p->first_odd, email, strlen(email));
		return;
	}
	if (capped && p->taken >= p->max) {
		p->over++;
		return;
	}
	p->taken += capped;
	compose_addrs_append(p->cc, name, email);
}

/* The mail's "Name <email>" lines (a note's To or Cc). */
static void cc_pick_lines(struct cc_pick *p, const struct strvec *v)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;

	for (size_t i = 0; i < v->nr; i++)
		if (!split_address(v->v[i], &name, &email))
			cc_pick(p, name.buf, email.buf, 1);
	strbuf_release(&name);
	strbuf_release(&email);
}

/* The warnings, naming the commit; and p released. */
static void cc_pick_finish(struct cc_pick *p, const char *short_id)
{
	if (p->odd)
		warning("%s: %zu Cc address%s left out as not plain local@domain ('%s'%s)", short_id,
			p->odd, p->odd > 1 ? "es" : "", p->first_odd.buf, p->odd > 1 ? ", ..." : "");
	if (p->over)
		warning("%s: %zu more Cc address%s left out: at most %zu are copied (notify.max-cc)",
			short_id, p->over, p->over > 1 ? "es" : "", p->max);
	hashmap_release(&p->seen);
	strbuf_release(&p->key);
	strbuf_release(&p->first_odd);
}

/* The time of sending: GIT_COMMITTER_DATE when set (as for commits), else now. */
static void now(long long *when, int *tz)
{
	const char *env = getenv("GIT_COMMITTER_DATE");
	struct tm tm;
	time_t t;

	if (env && *env && !parse_date(env, when, tz))
		return;
	t = time(NULL);
	localtime_r(&t, &tm);
	*when = t;
	*tz = (int)(tm.tm_gmtoff / 60);
}

/* ---- the commit's text ---- */

struct commit_info {
	git_oid id;
	char hex[GIT_OID_HEXSZ + 1];
	char short_id[GIT_OID_HEXSZ + 1];
	struct strbuf message;		/* UTF-8 */
	struct strbuf subject;		/* first paragraph, one line */
	struct strbuf author_name, author_email, author_date;
};

#define COMMIT_INFO_INIT { { { 0 } }, { 0 }, { 0 }, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
			   STRBUF_INIT, STRBUF_INIT }

static void commit_info_release(struct commit_info *ci)
{
	strbuf_release(&ci->message);
	strbuf_release(&ci->subject);
	strbuf_release(&ci->author_name);
	strbuf_release(&ci->author_email);
	strbuf_release(&ci->author_date);
}

/* git's summary: the first paragraph, its lines joined by spaces. */
static void summary(struct strbuf *out, const char *msg)
{
	while (*msg == '\n')
		msg++;
	while (*msg && *msg != '\n') {
		const char *nl = strchrnul(msg, '\n');

		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_add(out, msg, nl - msg);
		msg = *nl ? nl + 1 : nl;
	}
	strbuf_trim(out);
}

/*
 * abbrev: hex digits of the short id. Not git_object_short_id(): proving
 * an id unique lists and stats a loose object directory per commit,
 * which for a thousand mails (in a repository of many loose objects)
 * costs more than the mails; at 12 digits, as the kernel
 * writes them, a collision is not a practical worry.
 */
static int commit_info_load(struct commit_info *ci, git_commit *c, int abbrev)
{
	const char *enc = git_commit_message_encoding(c);
	const char *msg = git_commit_message_raw(c);
	const git_signature *a = git_commit_author(c);

	git_oid_cpy(&ci->id, git_commit_id(c));
	git_oid_tostr(ci->hex, sizeof(ci->hex), &ci->id);
	snprintf(ci->short_id, sizeof(ci->short_id), "%.*s", abbrev, ci->hex);
	if (!enc || mail_charset_is_utf8(enc) ||
	    mail_convert(&ci->message, msg, strlen(msg), enc, "UTF-8") < 0) {
		strbuf_reset(&ci->message);
		strbuf_addstr(&ci->message, msg);
	}
	summary(&ci->subject, ci->message.buf);
	strbuf_addstr(&ci->author_name, a->name);
	strbuf_addstr(&ci->author_email, a->email);
	compose_date(&ci->author_date, a->when.time, a->when.offset);
	return 0;
}

/* The fields of the queue's note (notes.h) this needs. */
struct record {
	int found;
	struct strbuf message_id, from, date, subject, in_reply_to;
	struct strvec to, cc;
};

#define RECORD_INIT { 0, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
		      STRVEC_INIT, STRVEC_INIT }

static void record_release(struct record *r)
{
	strbuf_release(&r->message_id);
	strbuf_release(&r->from);
	strbuf_release(&r->date);
	strbuf_release(&r->subject);
	strbuf_release(&r->in_reply_to);
	strvec_clear(&r->to);
	strvec_clear(&r->cc);
}

static int record_read(struct record *r, git_repository *repo, const git_oid *id)
{
	struct strbuf note = STRBUF_INIT;
	const char *p;
	int rc = notes_read(&note, repo, id);

	if (rc)
		return rc < 0 ? -1 : 0;
	r->found = 1;
	for (p = note.buf; *p;) {
		const char *nl = strchrnul(p, '\n'), *v;
		size_t vlen;

#define FIELD(k) (skip_iprefix(p, k ": ", &v) && v <= nl)
		if (FIELD("Message-ID") || FIELD("From") || FIELD("Date") || FIELD("Subject") ||
		    FIELD("In-Reply-To") || FIELD("To") || FIELD("Cc")) {
			vlen = nl - v;
			if (!strncasecmp(p, "Message-ID", 10))
				strbuf_add(&r->message_id, v, vlen);
			else if (!strncasecmp(p, "From", 4))
				strbuf_add(&r->from, v, vlen);
			else if (!strncasecmp(p, "Date", 4))
				strbuf_add(&r->date, v, vlen);
			else if (!strncasecmp(p, "Subject", 7))
				strbuf_add(&r->subject, v, vlen);
			else if (!strncasecmp(p, "In-Reply-To", 11))
				strbuf_add(&r->in_reply_to, v, vlen);
			else if (!strncasecmp(p, "To", 2))
				strvec_push_mem(&r->to, v, vlen);
			else
				strvec_push_mem(&r->cc, v, vlen);
		}
#undef FIELD
		p = *nl ? nl + 1 : nl;
	}
	strbuf_release(&note);
	return 0;
}

/* ---- reverts ---- */

/* The commit a revert's message names ("This reverts commit <40 hex>."), if any. */
static int reverted_commit(const char *msg, git_oid *out)
{
	const char *p = strstr(msg, "This reverts commit ");

	if (!p)
		return 0;
	p += strlen("This reverts commit ");
	return strspn(p, "0123456789abcdef") >= GIT_OID_HEXSZ && !git_oid_fromstrn(out, p, GIT_OID_HEXSZ);
}

/* The revert's reason: its body without the "This reverts" line and the trailers, quoted. */
static void revert_reason(struct strbuf *out, const char *msg)
{
	struct strbuf body = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT;
	size_t start = 0, end = 0, first, last;
	const char *p;

	strbuf_addstr(&body, msg);
	msg_trailer_block(body.buf, body.len, NULL, &start, &end);
	if (start < end)
		strbuf_setlen(&body, start);
	p = strstr(body.buf, "\n\n");	/* past the subject */
	strbuf_remove(&body, 0, p ? (size_t)(p + 2 - body.buf) : body.len);
	for (const char *l = body.buf; *l;) {
		const char *nl = strchrnul(l, '\n');

		if (!starts_with(l, "This reverts commit "))
			strvec_push_mem(&lines, l, nl - l);
		l = *nl ? nl + 1 : nl;
	}
	for (first = 0; first < lines.nr && !*lines.v[first]; first++)
		;
	for (last = lines.nr; last > first && !*lines.v[last - 1]; last--)
		;
	for (size_t i = first; i < last; i++)
		if (*lines.v[i])
			strbuf_addf(out, "> %s\n", lines.v[i]);
		else
			strbuf_addstr(out, ">\n");
	strbuf_rtrim(out);
	strvec_clear(&lines);
	strbuf_release(&body);
}

/* ---- setting up: who we are, where the commits land, the templates ---- */

/*
 * notify.max-cc, at most NOTIFY_MAX_CC_LIMIT: more recipients than that
 * could overflow a sendmail program's argument list (they are its
 * arguments, as send-email gives them).
 */
static int load_max_cc(struct notify *n)
{
	const char *v = config_get(n->cfg, "notify", NULL, "max-cc");
	char *end;
	unsigned long max;

	n->max_cc = NOTIFY_MAX_CC_DEFAULT;
	if (!v)
		return 0;
	errno = 0;
	max = strtoul(v, &end, 10);
	if (!*v || *end || errno || *v == '-' || max > NOTIFY_MAX_CC_LIMIT)
		return error("bad notify.max-cc '%s': expected a number from 0 to %d", v,
			     NOTIFY_MAX_CC_LIMIT);
	n->max_cc = max;
	return 0;
}

static int load_identity(struct notify *n)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT, sb = STRBUF_INIT;
	const char *v;
	int configured, ret = -1;

	if (mailer_from(&sb, n->cfg, &configured) < 0)
		goto out;
	if (split_address(sb.buf, &name, &email) < 0 && configured) {
		error("bad From address '%s' (notify.from or sendemail.from)", sb.buf);
		goto out;
	}
	n->me.name = strbuf_detach(&name, NULL);
	n->me.email = strbuf_detach(&email, NULL);
	strvec_push(&n->ourselves, n->me.email);
	strbuf_reset(&sb);
	if (ident_committer_name_email(&sb, n->cfg) == 0 && !split_address(sb.buf, &name, &email))
		strvec_push(&n->ourselves, email.buf);
	if ((v = config_get(n->cfg, "notify", NULL, "cc")))
		add_address_list(&n->extra_cc, v);
	if (load_max_cc(n) < 0)
		goto out;
	if ((v = config_get(n->cfg, "notify", NULL, "exclude"))) {
		struct compose_addrs ex = COMPOSE_ADDRS_INIT;

		add_address_list(&ex, v);
		for (size_t i = 0; i < ex.nr; i++)
			strvec_push(&n->exclude, ex.v[i].email);
		compose_addrs_release(&ex);
	}
	ret = 0;
out:
	strbuf_release(&name);
	strbuf_release(&email);
	strbuf_release(&sb);
	return ret;
}

/* ---- one mail ---- */

struct outgoing {
	struct compose_mail mail;
	struct strbuf subject, message_id, in_reply_to, body, kind;
};

#define OUTGOING_INIT { COMPOSE_MAIL_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
			STRBUF_INIT }

static void outgoing_release(struct outgoing *og)
{
	compose_mail_release(&og->mail);
	strbuf_release(&og->subject);
	strbuf_release(&og->message_id);
	strbuf_release(&og->in_reply_to);
	strbuf_release(&og->body);
	strbuf_release(&og->kind);
}

static void add_addresses(struct compose_addrs *l, const struct strvec *v)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;

	for (size_t i = 0; i < v->nr; i++)
		if (!split_address(v->v[i], &name, &email))
			compose_addrs_add(l, name.buf, email.buf);
	strbuf_release(&name);
	strbuf_release(&email);
}

static void reply_subject(struct strbuf *out, const char *subject)
{
	const char *rest;

	if (!skip_iprefix(subject, "re:", &rest))
		strbuf_addstr(out, "Re: ");
	strbuf_addstr(out, subject);
}

/* The parts every mail has, once the thread and recipients are known. */
static int finish_mail(struct notify *n, struct outgoing *og, const char *kind,
		       const struct commit_info *ci, const char *tmpl, const struct template_var *vars)
{
	struct strbuf seed = STRBUF_INIT;

	og->mail.from = n->me;
	og->mail.subject = og->subject.buf;
	og->mail.in_reply_to = og->in_reply_to.len ? og->in_reply_to.buf : NULL;
	now(&og->mail.date, &og->mail.tz);
	strbuf_addstr(&og->kind, kind);
	strbuf_addf(&seed, "%s\n%s\n%s", kind, ci->hex, og->in_reply_to.buf);
	compose_message_id(&og->message_id, seed.buf, seed.len, n->me.email);
	strbuf_release(&seed);
	og->mail.message_id = og->message_id.buf;
	template_expand(&og->body, tmpl, strlen(tmpl), vars, V_NR);
	og->mail.body = og->body.buf;
	og->mail.body_len = og->body.len;
	drop_unwanted(n, &og->mail);
	return 0;
}

static void common_vars(struct notify *n, struct template_var *vars, const struct commit_info *ci,
			struct strbuf *url)
{
	static const char *const names[V_NR] = {
		"tree", "branch", "subject", "commit", "short", "url", "author", "author-name", "date",
		"repo", "me", "reverted", "reverted-short", "reverted-subject", "reason"
	};
	const char *pct;

	for (size_t i = 0; i < V_NR; i++) {
		vars[i].name = names[i];
		vars[i].value = NULL;
	}
	if (n->commit_url && (pct = strstr(n->commit_url, "%s")))
		strbuf_addf(url, "%.*s%s%s", (int)(pct - n->commit_url), n->commit_url, ci->hex, pct + 2);
	else if (n->commit_url)
		strbuf_addstr(url, n->commit_url);
	vars[V_TREE].value = n->tree;
	vars[V_BRANCH].value = n->branch;
	vars[V_SUBJECT].value = ci->subject.buf;
	vars[V_COMMIT].value = ci->hex;
	vars[V_SHORT].value = ci->short_id;
	vars[V_URL].value = url->buf;
	vars[V_REPO].value = n->repo_url;
	vars[V_ME].value = *n->me.name ? n->me.name : n->me.email;
}

/* 1: no mail for this commit (our own patch); 0: og is ready; -1: reported. */
static int build_applied(struct notify *n, struct outgoing *og, const struct commit_info *ci,
			 const struct record *rec)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT, url = STRBUF_INIT;
	struct strbuf author = STRBUF_INIT, greet = STRBUF_INIT;
	struct template_var vars[V_NR];
	struct cc_pick pick = CC_PICK_INIT;
	int ret = 1;

	if (!rec->found || split_address(rec->from.buf, &name, &email) < 0) {
		strbuf_reset(&name);
		strbuf_reset(&email);
		strbuf_addbuf(&name, &ci->author_name);
		strbuf_addbuf(&email, &ci->author_email);
	}
	if (is_ourselves(n, email.buf))
		goto out;
	compose_addrs_add(&og->mail.to, name.buf, email.buf);
	cc_pick_init(&pick, n, &og->mail);
	if (rec->found) {
		cc_pick_lines(&pick, &rec->to);
		cc_pick_lines(&pick, &rec->cc);
		reply_subject(&og->subject, rec->subject.len ? rec->subject.buf : ci->subject.buf);
		if (rec->message_id.len) {
			strbuf_addbuf(&og->in_reply_to, &rec->message_id);
			if (rec->in_reply_to.len)
				strvec_push(&og->mail.references, rec->in_reply_to.buf);
			strvec_push(&og->mail.references, rec->message_id.buf);
		}
	} else {
		strbuf_addf(&og->subject, "Applied \"%s\" to %s", ci->subject.buf, n->branch);
	}
	for (size_t i = 0; i < n->extra_cc.nr; i++)
		cc_pick(&pick, n->extra_cc.v[i].name, n->extra_cc.v[i].email, 0);
	cc_pick_finish(&pick, ci->short_id);
	common_vars(n, vars, ci, &url);
	strbuf_addf(&author, "%s <%s>", name.buf, email.buf);
	compose_greeting_name(&greet, name.buf, email.buf);
	vars[V_AUTHOR].value = author.buf;
	vars[V_AUTHOR_NAME].value = greet.buf;
	vars[V_DATE].value = rec->date.len ? rec->date.buf : ci->author_date.buf;
	ret = finish_mail(n, og, "applied", ci, n->tmpl.buf, vars);
out:
	strbuf_release(&name);
	strbuf_release(&email);
	strbuf_release(&url);
	strbuf_release(&author);
	strbuf_release(&greet);
	return ret;
}

/* A reply to our notification jr of the reverted commit rc. 0 or -1 (reported). */
static int build_revert(struct notify *n, struct outgoing *og, const struct commit_info *ci,
			const struct commit_info *rc, const struct journal_entry *jr)
{
	struct strbuf url = STRBUF_INIT, reason = STRBUF_INIT, kind = STRBUF_INIT;
	struct strbuf author = STRBUF_INIT, greet = STRBUF_INIT;
	struct template_var vars[V_NR];
	int ret;

	add_addresses(&og->mail.to, &jr->to);
	add_addresses(&og->mail.cc, &jr->cc);
	reply_subject(&og->subject, jr->subject.len ? jr->subject.buf : rc->subject.buf);
	strbuf_addbuf(&og->in_reply_to, &jr->message_id);
	for (const char *p = jr->references.buf; *p;) {
		size_t len = strcspn(p, " ");

		if (len)
			strvec_push_mem(&og->mail.references, p, len);
		p += len + (p[len] == ' ');
	}
	strvec_push(&og->mail.references, jr->message_id.buf);
	revert_reason(&reason, ci->message.buf);
	common_vars(n, vars, ci, &url);
	if (og->mail.to.nr) {
		strbuf_addf(&author, "%s <%s>", og->mail.to.v[0].name, og->mail.to.v[0].email);
		compose_greeting_name(&greet, og->mail.to.v[0].name, og->mail.to.v[0].email);
	}
	vars[V_AUTHOR].value = author.buf;
	vars[V_AUTHOR_NAME].value = greet.buf;
	vars[V_DATE].value = ci->author_date.buf;
	vars[V_REVERTED].value = rc->hex;
	vars[V_REVERTED_SHORT].value = rc->short_id;
	vars[V_REVERTED_SUBJECT].value = rc->subject.buf;
	vars[V_REASON].value = reason.buf;
	strbuf_addf(&kind, "revert %s", rc->hex);
	ret = finish_mail(n, og, kind.buf, ci, n->revert_tmpl.buf, vars);
	strbuf_release(&url);
	strbuf_release(&reason);
	strbuf_release(&kind);
	strbuf_release(&author);
	strbuf_release(&greet);
	return ret;
}

/* ---- sending and recording ---- */

static void format_addrs(struct strvec *out, const struct compose_addrs *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		if (*l->v[i].name)
			strvec_pushf(out, "%s <%s>", l->v[i].name, l->v[i].email);
		else
			strvec_push(out, l->v[i].email);
	}
}

/* og's record for the journal, but for its status and the server's reply. */
static void entry_of(struct notify *n, const struct outgoing *og, struct journal_entry *e)
{
	journal_entry_release(e);
	strbuf_addbuf(&e->kind, &og->kind);
	strbuf_addbuf(&e->message_id, &og->message_id);
	strbuf_addbuf(&e->subject, &og->subject);
	format_addrs(&e->to, &og->mail.to);
	format_addrs(&e->cc, &og->mail.cc);
	for (size_t i = 0; i < og->mail.references.nr; i++) {
		if (i)
			strbuf_addch(&e->references, ' ');
		strbuf_addstr(&e->references, og->mail.references.v[i]);
	}
	compose_date(&e->date, og->mail.date, og->mail.tz);
	strbuf_addbuf(&e->server, &n->server);
}

static int write_entry(struct notify *n, const git_oid *id, struct journal_entry *e,
		       enum journal_status status, const char *reply)
{
	e->status = status;
	strbuf_reset(&e->reply);
	strbuf_addstr(&e->reply, reply);
	return journal_write(&n->journal, id, e);
}

static int record_result(struct notify *n, const struct commit_info *ci, const struct outgoing *og,
			 enum journal_status status, const char *reply)
{
	struct journal_entry e = JOURNAL_ENTRY_INIT;
	int ret;

	entry_of(n, og, &e);
	ret = write_entry(n, &ci->id, &e, status, reply);
	journal_entry_release(&e);
	return ret;
}

static void envelope(const struct outgoing *og, struct strvec *rcpt)
{
	for (size_t i = 0; i < og->mail.to.nr; i++)
		strvec_push(rcpt, og->mail.to.v[i].email);
	for (size_t i = 0; i < og->mail.cc.nr; i++)
		strvec_push(rcpt, og->mail.cc.v[i].email);
}

/*
 * What became of a mail given to the server (id, its record e but for
 * reply, and for a status when it went: sent or partial; what to call it
 * in messages): said, counted, recorded. first: its first transaction
 * (a later one, for the recipients a 452 left, is not another mail).
 * 0 or -1 (fatal, reported).
 */
static int outcome(struct notify *n, const git_oid *id, const char *short_id, const char *subject,
		   const char *to, struct journal_entry *e, enum smtp_status st, const char *reply,
		   int first)
{
	struct strbuf point = STRBUF_INIT;
	int ret = 0;

	n->went = st == SMTP_SENT;
	switch (st) {
	case SMTP_SENT:
		/* a crash here, before the journal has it: the rerun sends this one transaction again */
		strbuf_addf(&point, "notify-sent-%zu", n->sent + first);
		crash_point(point.buf);
		if (write_entry(n, id, e, e->status == JOURNAL_PARTIAL ? JOURNAL_PARTIAL : JOURNAL_SENT,
				reply) < 0) {
			ret = -1;
			break;
		}
		n->sent += first;
		if (!n->o->quiet && first)
			say(stderr, "Sent %s %s (to %s)", short_id, subject, to);
		break;
	case SMTP_REFUSED:
		error("%s: the server refused the mail: %s", short_id, reply);
		n->refused++;
		ret = write_entry(n, id, e, JOURNAL_FAILED, reply);
		break;
	case SMTP_DEFERRED:
		error("%s: the server deferred the mail: %s", short_id, reply);
		n->pending++;
		break;
	case SMTP_BROKEN:
		error("%s: not sent: %s", short_id, reply);
		n->pending++;
		n->broken = 1;
		break;
	case SMTP_FATAL:
		ret = error("cannot send through %s: %s", n->server.buf, reply);
		if (starts_with(reply, "530") && !n->mc.user)
			advise("the server wants AUTH: set sendemail.smtpUser (or smtp.user) and store\n"
			       "the password with 'git maint-notify --store-password'");
		break;
	case SMTP_IN_FLIGHT:
		ret = error("BUG: a mail in flight has no outcome yet");
		break;
	}
	strbuf_release(&point);
	return ret;
}

/*
 * The answer to the mail in flight (smtp_settle_fn): its outcome; or,
 * held (a transaction of a mail that has more to come), kept for the
 * caller, who waits for it.
 */
static int settled(void *arg, enum smtp_status st, const char *reply)
{
	struct notify *n = arg;
	struct notify_in_flight *f = &n->flight;

	if (f->hold) {
		f->st = st;
		strbuf_reset(&f->reply);
		strbuf_addstr(&f->reply, reply);
		return 0;
	}
	if (outcome(n, &f->id, f->short_id, f->subject.buf, f->to.buf, &f->e, st, reply, 1) < 0) {
		n->settle_failed = 1;
		return -1;
	}
	return 0;
}

static void in_flight_release(struct notify_in_flight *f)
{
	strbuf_release(&f->subject);
	strbuf_release(&f->to);
	strbuf_release(&f->reply);
	journal_entry_release(&f->e);
}

/* A recipient the mail goes without: recorded with the server's reply, and told. */
static void left_out(struct journal_entry *e, const char *short_id, const char *addr,
		     const char *reply)
{
	warning("%s: not sent to '%s': %s", short_id, addr, reply);
	strvec_pushf(&e->refused, "%s %s", addr, reply);
}

/*
 * The recipients of a transaction that went (r), into the record e:
 * those the server refused, or deferred but for a 452, are left out
 * (reliability case 52: the mail goes without them, they are not asked
 * again); a 452's go to later for another transaction when more may
 * follow (more), else they are left out too. e's status: partial when
 * later has any.
 */
static void sort_recipients(const struct smtp_rcpts *r, const char *short_id, int more,
			    struct journal_entry *e, struct strvec *later)
{
	strvec_clear(&e->pending);
	for (size_t i = 0; i < r->addr->nr; i++) {
		if (r->st[i] == SMTP_RCPT_ACCEPTED)
			continue;
		if (r->st[i] == SMTP_RCPT_LATER && more) {
			strvec_push(later, r->addr->v[i]);
			strvec_push(&e->pending, r->addr->v[i]);
		} else {
			left_out(e, short_id, r->addr->v[i],
				 *r->reply.v[i] ? r->reply.v[i] : "not asked");
		}
	}
	e->status = later->nr ? JOURNAL_PARTIAL : JOURNAL_SENT;
}

/*
 * One transaction of ci's mail msg to rcpt, the first required of whom
 * must take it; e is its record (what earlier transactions left in
 * it kept). Sent, recorded, told; later gets the recipients for another
 * transaction (a 452), when there is to be one. With PIPELINING the
 * answer of a mail sent in one transaction comes with the next mail's
 * first commands (settled() records it then), or at the end of the run
 * (send_all()); one with more to come is settled now, as its record
 * must be written before the next transaction goes. 0 or -1 (fatal,
 * reported).
 */
static int send_round(struct notify *n, const struct commit_info *ci, const struct outgoing *og,
		      const struct strbuf *msg, const struct strvec *rcpt, size_t required,
		      size_t round, struct journal_entry *e, struct strvec *later)
{
	const char *from = n->mc.envelope_sender ? n->mc.envelope_sender : n->me.email;
	const char *to = og->mail.to.nr ? og->mail.to.v[0].email : "";
	struct notify_in_flight *f = &n->flight;
	struct strbuf reply = STRBUF_INIT;
	struct smtp_rcpts r;
	enum smtp_status st;
	size_t mark;
	int ret = 0;

	smtp_rcpts_init(&r, rcpt, required);
	st = mailer_send(n->mailer, from, &r, msg->buf, msg->len, &reply);
	mark = e->refused.nr;
	if (st == SMTP_SENT || st == SMTP_IN_FLIGHT)
		sort_recipients(&r, ci->short_id, round + 1 < NOTIFY_ROUNDS_MAX, e, later);
	if (st == SMTP_IN_FLIGHT && !round && !later->nr) {
		git_oid_cpy(&f->id, &ci->id);
		memcpy(f->short_id, ci->short_id, sizeof(f->short_id));
		strbuf_reset(&f->subject);
		strbuf_addbuf(&f->subject, &ci->subject);
		strbuf_reset(&f->to);
		strbuf_addstr(&f->to, to);
		journal_entry_release(&f->e);
		f->e = *e;	/* taken over */
		*e = (struct journal_entry)JOURNAL_ENTRY_INIT;
		goto out;
	}
	if (st == SMTP_IN_FLIGHT) {
		f->hold = 1;
		ret = mailer_settle(n->mailer);
		f->hold = 0;
		st = f->st;
		strbuf_reset(&reply);
		strbuf_addbuf(&reply, &f->reply);
	}
	if (ret < 0 || (st == SMTP_FATAL && n->settle_failed)) {
		ret = -1;	/* the mail before could not be recorded: said, and this one did not go */
	} else if (round && (st == SMTP_REFUSED || st == SMTP_DEFERRED)) {
		/* the rest of a mail that went: none of them took it, none is asked again */
		strvec_clear(&e->pending);
		strvec_clear(later);
		while (e->refused.nr > mark)
			strvec_pop(&e->refused);
		for (size_t i = 0; i < rcpt->nr; i++)
			left_out(e, ci->short_id, rcpt->v[i], *r.reply.v[i] ? r.reply.v[i] : reply.buf);
		e->status = JOURNAL_SENT;
		st = SMTP_SENT;
		strbuf_reset(&reply);
		strbuf_addbuf(&reply, &e->reply);
		ret = outcome(n, &ci->id, ci->short_id, ci->subject.buf, to, e, st, reply.buf, 0);
	} else {
		ret = outcome(n, &ci->id, ci->short_id, ci->subject.buf, to, e, st, reply.buf, !round);
	}
	if (!n->went)
		strvec_clear(later);
out:
	smtp_rcpts_release(&r);
	strbuf_release(&reply);
	return ret;
}

/*
 * Sends og's mail msg: to all its recipients, the To first (its refusal
 * refuses the mail), in as many transactions as the server wants (452),
 * NOTIFY_ROUNDS_MAX at most; or, for a mail the journal has as partial
 * (before), to its pending recipients only. 0 or -1 (fatal, reported).
 */
static int send_one(struct notify *n, const struct commit_info *ci, const struct outgoing *og,
		    const struct strbuf *msg, const struct journal_entry *before)
{
	struct strvec rcpt = STRVEC_INIT, later = STRVEC_INIT;
	struct journal_entry e = JOURNAL_ENTRY_INIT;
	size_t required = og->mail.to.nr, round = 0;
	int ret = 0;

	/* the password and the handle only when there is a mail to send */
	if (!n->mailer) {
		if (mailer_open(&n->mailer, &n->mc) != RESULT_OK)
			return -1;
		mailer_set_settle(n->mailer, settled, n);
	}
	entry_of(n, og, &e);
	if (before) {
		for (size_t i = 0; i < before->pending.nr; i++)
			strvec_push(&rcpt, before->pending.v[i]);
		for (size_t i = 0; i < before->refused.nr; i++)
			strvec_push(&e.refused, before->refused.v[i]);
		strbuf_addbuf(&e.reply, &before->reply);
		required = 0;
		round = 1;
	} else {
		envelope(og, &rcpt);
	}
	for (;; round++) {
		struct strvec t;

		ret = send_round(n, ci, og, msg, &rcpt, required, round, &e, &later);
		if (ret < 0 || !later.nr)
			break;
		t = rcpt;
		rcpt = later;
		later = t;
		strvec_clear(&later);
		required = 0;
	}
	strvec_clear(&rcpt);
	strvec_clear(&later);
	journal_entry_release(&e);
	return ret;
}

/*
 * Composes og and sends it (or writes it to the mbox); before: its
 * record when it is partial (its rest is sent). 0 or -1 (fatal).
 */
static int deliver(struct notify *n, const struct commit_info *ci, struct outgoing *og,
		   const struct journal_entry *before)
{
	struct strbuf msg = STRBUF_INIT, why = STRBUF_INIT, from_line = STRBUF_INIT;
	int ret = 0;

	/* the rest of a mail: the same mail, Date included */
	if (before && before->date.len)
		parse_date(before->date.buf, &og->mail.date, &og->mail.tz);
	if (compose_message(&msg, &og->mail, &why) < 0) {
		error("%s: not sent: %s", ci->short_id, why.buf);
		n->refused++;
		if (n->o->send) {
			strbuf_reset(&from_line);
			strbuf_addf(&from_line, "not sent: %s", why.buf);
			ret = record_result(n, ci, og, JOURNAL_FAILED, from_line.buf);
		}
	} else if (!n->o->send) {
		strbuf_addf(&from_line, "From %s Mon Sep 17 00:00:00 2001", ci->hex);
		if (mbox_writer_add(&n->mbox, from_line.buf, msg.buf, msg.len) < 0)
			ret = -1;
	} else {
		ret = send_one(n, ci, og, &msg, before);
	}
	strbuf_release(&msg);
	strbuf_release(&why);
	strbuf_release(&from_line);
	return ret;
}

/* With --revert: the announced commit ci reverts, and our mail about it. 1 when there is one. */
static int announced_revert(struct notify *n, const struct commit_info *ci, struct commit_info *rc,
			    struct journal_entry *jr)
{
	git_commit *c = NULL;
	git_oid id;
	int ret;

	if (!n->o->revert || !reverted_commit(ci->message.buf, &id))
		return 0;
	ret = journal_read(&n->journal, &id, jr);
	if (ret || jr->status == JOURNAL_FAILED || !jr->message_id.len)
		return ret < 0 ? -1 : 0;
	if (lg2_check(git_commit_lookup(&c, n->repo, &id), "cannot read the reverted commit of %s",
		      ci->hex) < 0)
		return -1;
	commit_info_load(rc, c, n->abbrev);
	git_commit_free(c);
	return 1;
}

/* One commit: mailed, refused, waiting or left alone. 0 or -1 (fatal). */
static int notify_commit(struct notify *n, const git_oid *id)
{
	struct commit_info ci = COMMIT_INFO_INIT, rc = COMMIT_INFO_INIT;
	struct journal_entry je = JOURNAL_ENTRY_INIT, jr = JOURNAL_ENTRY_INIT;
	struct record rec = RECORD_INIT;
	struct outgoing og = OUTGOING_INIT;
	git_commit *c = NULL;
	const char *missing;
	int ret = -1, r, partial;

	if (lg2_check(git_commit_lookup(&c, n->repo, id), "cannot read a commit") < 0)
		goto out;
	ret = 0;
	if (git_commit_parentcount(c) > 1)
		goto out;
	commit_info_load(&ci, c, n->abbrev);
	r = journal_read(&n->journal, id, &je);
	partial = r == 0 && je.status == JOURNAL_PARTIAL && !n->o->retry_refused;
	if (r < 0 || (n->o->retry_refused ? r > 0 || je.status != JOURNAL_FAILED : r == 0 && !partial)) {
		ret = r < 0 ? -1 : 0;
		goto out;	/* mailed (or refused) before; with retry_refused: not refused */
	}
	if (n->nremotes && (missing = notify_missing_on(n, id))) {
		if (!n->o->quiet)
			say(stderr, "Waiting: %s %s is not on '%s' yet", ci.short_id, ci.subject.buf, missing);
		n->pending++;
		goto out;
	}
	r = announced_revert(n, &ci, &rc, &jr);
	if (r > 0) {
		r = build_revert(n, &og, &ci, &rc, &jr);
	} else if (r == 0) {
		if (record_read(&rec, n->repo, id) < 0)
			r = -1;
		else
			r = build_applied(n, &og, &ci, &rec);
	}
	if (r < 0)
		ret = -1;
	else if (r == 0)
		ret = deliver(n, &ci, &og, partial ? &je : NULL);
	else if (n->o->verbose)
		say(stderr, "Skipping %s %s: your own commit", ci.short_id, ci.subject.buf);
out:
	git_commit_free(c);
	commit_info_release(&ci);
	commit_info_release(&rc);
	journal_entry_release(&je);
	journal_entry_release(&jr);
	record_release(&rec);
	outgoing_release(&og);
	return ret;
}

/* ---- the run ---- */

static int setup(struct notify *n)
{
	char *abbrev = config_git_string(n->cfg, "core.abbrev");
	const char *why;

	n->abbrev = abbrev ? atoi(abbrev) : 0;
	if (n->abbrev < 4 || n->abbrev > GIT_OID_HEXSZ)
		n->abbrev = 12;
	free(abbrev);
	if (load_identity(n) < 0 ||
	    template_load(&n->tmpl, n->cfg, "notify", NULL, "template", notify_default_template,
			  placeholder_names) < 0 ||
	    template_load(&n->revert_tmpl, n->cfg, "notify", NULL, "revert-template",
			  notify_default_revert_template, placeholder_names) < 0)
		return -1;
	notify_choose_branch(n);
	if (notify_load_remotes(n) < 0)
		return -1;
	if (!n->o->send)
		return 0;
	if (mailer_conf_load(&n->mc, n->cfg, n->me.email) < 0)
		return -1;
	n->mc.verbose = n->o->verbose;
	mailer_describe(&n->server, &n->mc);
	if (n->mc.envelope_sender) {
		if (compose_check_email(n->mc.envelope_sender, &why) < 0)
			return error("the envelope sender '%s' %s", n->mc.envelope_sender, why);
		strvec_push(&n->ourselves, n->mc.envelope_sender);
	}
	return 0;
}

/* The journal, read once the lock (when sending) is ours. */
static enum maint_result open_journal(struct notify *n)
{
	struct strbuf committer = STRBUF_INIT;
	enum maint_result ret = RESULT_FATAL;

	if (n->o->send) {
		enum maint_result r = state_lock_acquire_named(&n->lock, n->repo, "maint-notify.lock");

		if (r != RESULT_OK)
			return r;
	}
	if (ident_committer(&committer, n->cfg) == 0 &&
	    journal_open(&n->journal, n->repo, committer.buf, n->o->send ? &n->lock : NULL) == 0)
		ret = RESULT_OK;
	strbuf_release(&committer);
	return ret;
}

static void release(struct notify *n)
{
	free(n->me.name);
	free(n->me.email);
	strvec_clear(&n->ourselves);
	strvec_clear(&n->exclude);
	compose_addrs_release(&n->extra_cc);
	free(n->tree);
	free(n->branch);
	strbuf_release(&n->tmpl);
	strbuf_release(&n->revert_tmpl);
	mailer_close(n->mailer);
	mailer_conf_release(&n->mc);
	strbuf_release(&n->server);
	in_flight_release(&n->flight);
	journal_release(&n->journal);
	notify_remotes_release(n);
	state_lock_release(&n->lock);
}

static enum maint_result result(const struct notify *n)
{
	if (n->pending) {
		advise("%zu mail%s waiting: run again later to send %s", n->pending,
		       n->pending == 1 ? " is" : "s are", n->pending == 1 ? "it" : "them");
		return RESULT_TEMPFAIL;
	}
	if (n->refused && n->o->send)
		advise("once the cause is fixed, 'git maint-notify --send --retry-refused' sends the refused mails again");
	return n->refused ? RESULT_NO : RESULT_OK;
}

static enum maint_result send_all(struct notify *n, const struct oid_list *commits)
{
	size_t i;
	int fatal = 0;

	for (i = 0; i < commits->nr && !n->broken && !fatal; i++)
		if (notify_commit(n, &commits->v[i]) < 0)
			fatal = 1;
	/* the last mail's answer, whatever stopped the run, before the journal is folded */
	if (mailer_settle(n->mailer) < 0 || fatal)
		return RESULT_FATAL;
	/* the server went away: what was not tried waits for the next run */
	for (; i < commits->nr; i++) {
		struct journal_entry je = JOURNAL_ENTRY_INIT;
		git_commit *c = NULL;
		int r = journal_read(&n->journal, &commits->v[i], &je);

		if ((r > 0 || (!r && je.status == JOURNAL_PARTIAL)) && !git_commit_lookup(&c, n->repo, &commits->v[i]) && git_commit_parentcount(c) <= 1)
			n->pending++;
		git_commit_free(c);
		journal_entry_release(&je);
		if (r < 0)
			return RESULT_FATAL;
	}
	return result(n);
}

/* --retry-refused without a range: every commit the journal records as refused. */
static int all_refused(const struct notify_opts *o)
{
	return o->retry_refused && !o->nrevs && !o->use_stdin;
}

struct dated {
	git_oid id;
	git_time_t when;
};

static int older_first(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;

	return x->when < y->when ? -1 : x->when > y->when;
}

/* The refused commits of the journal, oldest (by committer date) first, as a walk gives them. */
static int refused_commits(struct notify *n, struct oid_list *l)
{
	struct dated *d;
	int ret = 0;

	if (journal_refused(&n->journal, &l->v, &l->nr, &l->alloc) < 0)
		return -1;
	d = xcalloc(l->nr ? l->nr : 1, sizeof(*d));
	for (size_t i = 0; i < l->nr && !ret; i++) {
		git_commit *c = NULL;

		git_oid_cpy(&d[i].id, &l->v[i]);
		ret = lg2_check(git_commit_lookup(&c, n->repo, &l->v[i]), "cannot read commit %s",
				git_oid_tostr_s(&l->v[i]));
		if (!ret)
			d[i].when = git_commit_time(c);
		git_commit_free(c);
	}
	qsort(d, l->nr, sizeof(*d), older_first);
	for (size_t i = 0; i < l->nr; i++)
		git_oid_cpy(&l->v[i], &d[i].id);
	free(d);
	return ret < 0 ? -1 : 0;
}

enum maint_result notify_run(git_repository *repo, const struct maint_config *cfg,
			     const struct notify_opts *o)
{
	struct notify n = { .repo = repo, .cfg = cfg, .o = o, .lock = STATE_LOCK_INIT,
			    .ourselves = STRVEC_INIT, .exclude = STRVEC_INIT,
			    .extra_cc = COMPOSE_ADDRS_INIT, .tmpl = STRBUF_INIT,
			    .revert_tmpl = STRBUF_INIT, .mc = MAILER_CONF_INIT, .server = STRBUF_INIT,
			    .journal = JOURNAL_INIT,
			    .flight = { .subject = STRBUF_INIT, .to = STRBUF_INIT, .reply = STRBUF_INIT,
					.e = JOURNAL_ENTRY_INIT } };
	struct oid_list commits = { NULL, 0, 0 };
	enum maint_result ret = RESULT_FATAL, r;

	/* notes trees cached, commits not: memory does not grow with the mails */
	if (repo_tune(REPO_USE_NOTES) < 0)
		return RESULT_FATAL;
	if (setup(&n) < 0 || (!all_refused(o) && notify_collect_commits(&n, &commits) < 0))
		goto out;
	if ((r = open_journal(&n)) != RESULT_OK) {
		ret = r;
		goto out;
	}
	if (all_refused(o) && refused_commits(&n, &commits) < 0)
		goto out;
	if (o->send) {
		ret = send_all(&n, &commits);
		/* whatever stopped the run, what went out is in the notes before we go */
		if (journal_flush(&n.journal) < 0)
			ret = RESULT_FATAL;
	} else {
		mbox_writer_init(&n.mbox, 1, MBOX_O);
		ret = send_all(&n, &commits);
		if (mbox_writer_finish(&n.mbox) < 0)
			ret = RESULT_FATAL;
	}
out:
	free(commits.v);
	release(&n);
	return ret;
}
