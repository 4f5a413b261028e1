/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The request-pull engine: see request-pull.h for the steps, the state
 * and the results.
 */
#include "request-pull.h"
#include "compose.h"
#include "ident.h"
#include "journal.h"
#include "mail.h"
#include "mailer.h"
#include "mbox-write.h"
#include "objwrite.h"
#include "push.h"
#include "refstep.h"
#include "repo.h"
#include "request-pull-text.h"
#include "strbuf.h"
#include "tag-sign.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STATE_NAME "request-pull"

struct rp {
	git_repository *repo;
	const struct maint_config *cfg;
	int send, quiet, verbose, timeout, sign;
	struct state_lock lock;
	char *tree, *public, *remote, *url, *tag, *tag_ref, *to, *cc, *dir;
	git_oid upstream, tip, tag_oid;
	struct strbuf tagbuf;	/* the tag object's text */
	int tag_exists;		/* refs/tags/<tag> holds tag_oid already */
};

#define RP_INIT { .lock = STATE_LOCK_INIT, .tagbuf = STRBUF_INIT }

static void rp_release(struct rp *rp)
{
	state_lock_release(&rp->lock);
	free(rp->tree);
	free(rp->public);
	free(rp->remote);
	free(rp->url);
	free(rp->tag);
	free(rp->tag_ref);
	free(rp->to);
	free(rp->cc);
	free(rp->dir);
	strbuf_release(&rp->tagbuf);
}

static const char *short_ref(const char *ref)
{
	const char *s = ref;

	if (!skip_prefix(ref, "refs/heads/", &s))
		skip_prefix(ref, "refs/tags/", &s);
	return s;
}

static char *abbrev(char buf[GIT_OID_HEXSZ + 1], const git_oid *id)
{
	git_oid_tostr(buf, 13, id);
	return buf;
}

/* ---- 1. what, where, to whom ---- */

/* The first word of a space-separated list, or NULL. */
static char *first_word(const char *s)
{
	size_t n;

	if (!s)
		return NULL;
	s += strspn(s, " \t");
	n = strcspn(s, " \t");
	return n ? xstrndup(s, n) : NULL;
}

static const char *tree_get(const struct rp *rp, const char *key)
{
	return rp->tree ? config_get(rp->cfg, "tree", rp->tree, key) : NULL;
}

/* The public branch and its tree: a tree's work branch stands for its public branch. */
static int resolve_branch(struct rp *rp, const char *name)
{
	const char *tree = config_tree_for_branch(rp->cfg, name), *pub = NULL, *dash;
	struct strbuf ref = STRBUF_INIT;
	int exists = 0;

	if (tree)
		pub = config_get(rp->cfg, "tree", tree, "public");
	if (!pub)
		pub = name;
	/* no [tree]: the article's naming, usb-next is in tree "usb" */
	dash = strrchr(pub, '-');
	rp->tree = tree ? xstrdup(tree) : dash && dash != pub ? xstrndup(pub, dash - pub) : xstrdup(pub);
	strbuf_addf(&ref, "refs/heads/%s", pub);
	rp->public = strbuf_detach(&ref, NULL);
	if (!git_reference_is_valid_name(rp->public))
		return error("'%s' is not a valid branch name", pub);
	if (refstep_read(rp->repo, rp->public, &rp->tip, &exists) < 0)
		return -1;
	if (!exists)
		return error("no branch '%s' to ask to pull", pub);
	return 0;
}

static int resolve_remote(struct rp *rp)
{
	struct strbuf key = STRBUF_INIT;
	char *push_url = NULL;

	rp->remote = first_word(tree_get(rp, "remote"));
	if (!rp->remote)
		rp->remote = xstrdup("origin");
	if (push_remote_url(rp->cfg, rp->remote, &push_url))
		return error("no remote '%s' to push the tag to; add it with 'git remote add' "
			     "(or set tree.%s.remote)", rp->remote, rp->tree);
	if (tree_get(rp, "url")) {
		rp->url = xstrdup(tree_get(rp, "url"));
	} else {
		strbuf_addf(&key, "remote.%s.url", rp->remote);
		rp->url = config_git_string(rp->cfg, key.buf);
		if (!rp->url)
			rp->url = xstrdup(push_url);
	}
	strbuf_release(&key);
	free(push_url);
	return 0;
}

static int resolve_upstream(struct rp *rp)
{
	const char *name = tree_get(rp, "upstream");
	git_object *obj = NULL, *peeled = NULL;
	int ret = -1;

	if (!name)
		name = "master";
	if (git_revparse_single(&obj, rp->repo, name) < 0) {
		git_error_clear();
		return error("no upstream '%s' to ask to pull into; set tree.%s.upstream", name, rp->tree);
	}
	if (!lg2_check(git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT), "'%s' is not a commit", name)) {
		git_oid_cpy(&rp->upstream, git_object_id(peeled));
		ret = 0;
	}
	git_object_free(peeled);
	git_object_free(obj);
	return ret;
}

/* The latest tag reachable from the upstream: "v6.2-rc2" for %(version). */
static int upstream_version(struct rp *rp, struct strbuf *out)
{
	git_describe_options dopts = GIT_DESCRIBE_OPTIONS_INIT;
	git_describe_format_options fopts = GIT_DESCRIBE_FORMAT_OPTIONS_INIT;
	git_describe_result *res = NULL;
	git_commit *c = NULL;
	git_buf buf = GIT_BUF_INIT;
	int ret = -1;

	dopts.describe_strategy = GIT_DESCRIBE_TAGS;
	fopts.abbreviated_size = 0;
	if (!lg2_check(git_commit_lookup(&c, rp->repo, &rp->upstream), "cannot read the upstream") &&
	    !lg2_check(git_describe_commit(&res, (git_object *)c, &dopts),
		       "%%(version): no tag on the upstream") &&
	    !lg2_check(git_describe_format(&buf, res, &fopts), "%%(version): cannot name the upstream")) {
		strbuf_add(out, buf.ptr, buf.size);
		ret = 0;
	}
	git_buf_dispose(&buf);
	git_describe_result_free(res);
	git_commit_free(c);
	return ret;
}

/* tree.<name>.tag-format: %(tree), %(branch), %(version), %(date) (YYYYMMDD), %%. */
static int expand_tag_format(struct rp *rp, const char *fmt, struct strbuf *out)
{
	while (*fmt) {
		const char *end;

		if (*fmt != '%') {
			strbuf_addch(out, *fmt++);
			continue;
		}
		if (fmt[1] == '%') {
			strbuf_addch(out, '%');
			fmt += 2;
			continue;
		}
		end = fmt[1] == '(' ? strchr(fmt, ')') : NULL;
		if (end && !strncmp(fmt, "%(tree)", end + 1 - fmt)) {
			strbuf_addstr(out, rp->tree);
		} else if (end && !strncmp(fmt, "%(branch)", end + 1 - fmt)) {
			strbuf_addstr(out, short_ref(rp->public));
		} else if (end && !strncmp(fmt, "%(version)", end + 1 - fmt)) {
			if (upstream_version(rp, out) < 0)
				return -1;
		} else if (end && !strncmp(fmt, "%(date)", end + 1 - fmt)) {
			time_t now = time(NULL);
			struct tm tm;
			char d[16];

			strftime(d, sizeof(d), "%Y%m%d", gmtime_r(&now, &tm));
			strbuf_addstr(out, d);
		} else {
			return error("tree.%s.tag-format: unknown placeholder at '%s' "
				     "(%%(tree), %%(branch), %%(version), %%(date))", rp->tree, fmt);
		}
		fmt = end + 1;
	}
	return 0;
}

static int resolve_tag(struct rp *rp, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *fmt = tree_get(rp, "tag-format");

	if (name)
		strbuf_addstr(&sb, name);
	else if (!fmt)
		return error("no tag name: give --tag <name>, or set tree.%s.tag-format", rp->tree);
	else if (expand_tag_format(rp, fmt, &sb) < 0)
		goto fail;
	rp->tag = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "refs/tags/%s", rp->tag);
	rp->tag_ref = strbuf_detach(&sb, NULL);
	if (!*rp->tag || !git_reference_is_valid_name(rp->tag_ref))
		return error("'%s' is not a valid tag name", rp->tag);
	return 0;
fail:
	strbuf_release(&sb);
	return -1;
}

/* --to/--cc, else the tree's: one comma-separated list. */
static char *recipients(const struct rp *rp, const struct strvec *given, const char *key)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < given->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", given->v[i]);
	if (!given->nr && tree_get(rp, key))
		strbuf_addstr(&sb, tree_get(rp, key));
	return strbuf_detach(&sb, NULL);
}

static int resolve(struct rp *rp, const struct request_pull_opts *o)
{
	char *head = NULL;
	int ret;

	if (!o->branch && !(head = repo_current_branch(rp->repo)))
		return error("HEAD is not on a branch; name the public branch to ask to pull");
	ret = resolve_branch(rp, o->branch ? o->branch : head);
	free(head);
	if (ret < 0 || resolve_remote(rp) < 0 || resolve_upstream(rp) < 0 || resolve_tag(rp, o->tag) < 0)
		return -1;
	rp->to = recipients(rp, &o->to, "upstream-to");
	rp->cc = recipients(rp, &o->cc, "upstream-cc");
	if (!*rp->to)
		return error("nobody to ask: give --to <address>, or set tree.%s.upstream-to", rp->tree);
	return 0;
}

/* ---- 2. the tag ---- */

static int tag_message(struct strbuf *out, const struct rp *rp, const struct request_pull_opts *o)
{
	if (o->message) {
		strbuf_addstr(out, o->message);
	} else if (o->message_file) {
		ssize_t n = !strcmp(o->message_file, "-") ? strbuf_read_fd(out, 0, 0)
							  : strbuf_read_file(out, o->message_file, 0);

		if (n < 0)
			return error_errno("cannot read the tag message from '%s'", o->message_file);
		if (memchr(out->buf, '\0', out->len))
			return error("the tag message in '%s' holds a NUL byte", o->message_file);
	} else {
		strbuf_addf(out, "%s updates for %s\n", rp->tree, rp->tag);
	}
	return 0;
}

/*
 * An existing refs/tags/<tag>: 1 when it is an annotated tag of the tip
 * (taken as it is, its text in tagbuf), 0 when there is none, -1 when
 * it is something else (reported).
 */
static int existing_tag(struct rp *rp)
{
	git_odb *odb = NULL;
	git_odb_object *obj = NULL;
	git_tag *tag = NULL;
	git_oid id;
	char a[GIT_OID_HEXSZ + 1];
	int exists = 0, ret = -1;

	if (refstep_read(rp->repo, rp->tag_ref, &id, &exists) < 0 || !exists)
		return exists ? -1 : 0;
	if (git_tag_lookup(&tag, rp->repo, &id) < 0) {
		git_error_clear();
		return error("tag '%s' exists and is not an annotated tag; choose another name", rp->tag);
	}
	if (git_tag_target_type(tag) != GIT_OBJECT_COMMIT || !git_oid_equal(git_tag_target_id(tag), &rp->tip)) {
		error("tag '%s' exists and points at %s, not at the tip of '%s'; choose another name",
		      rp->tag, abbrev(a, git_tag_target_id(tag)), short_ref(rp->public));
		goto out;
	}
	if (lg2_check(git_repository_odb(&odb, rp->repo), "cannot open the object database") < 0 ||
	    lg2_check(git_odb_read(&obj, odb, &id), "cannot read tag '%s'", rp->tag) < 0)
		goto out;
	strbuf_add(&rp->tagbuf, git_odb_object_data(obj), git_odb_object_size(obj));
	git_oid_cpy(&rp->tag_oid, &id);
	rp->tag_exists = 1;
	ret = 1;
out:
	git_odb_object_free(obj);
	git_odb_free(odb);
	git_tag_free(tag);
	return ret;
}

/* The tag's text in tagbuf, signed when asked and sending; its id in tag_oid. */
static int build_tag(struct rp *rp, const struct request_pull_opts *o)
{
	struct strbuf msg = STRBUF_INIT, tagger = STRBUF_INIT, committer = STRBUF_INIT;
	struct tag_sign_conf sc = TAG_SIGN_CONF_INIT;
	int ret = -1;

	if (tag_message(&msg, rp, o) < 0 || ident_committer(&tagger, rp->cfg) < 0 ||
	    tag_sign_buffer(&rp->tagbuf, &rp->tip, rp->tag, tagger.buf, msg.buf) < 0)
		goto out;
	if (rp->sign && (ident_committer_name_email(&committer, rp->cfg) < 0 ||
			 tag_sign_conf_load(&sc, rp->cfg, committer.buf) < 0))
		goto out;
	if (rp->sign && rp->send && tag_sign(&rp->tagbuf, &sc) < 0)
		goto out;
	if (objwrite_hash(&rp->tag_oid, GIT_OBJECT_TAG, rp->tagbuf.buf, rp->tagbuf.len) < 0)
		goto out;
	if (!rp->send && !rp->quiet)
		say(stderr, "would tag the tip of '%s' (%.12s) as '%s'%s", short_ref(rp->public),
		    git_oid_tostr_s(&rp->tip), rp->tag,
		    !rp->sign ? ", unsigned" : sc.format == TAG_SIGN_SSH ? ", signed with ssh" :
		    sc.format == TAG_SIGN_X509 ? ", signed with x509" : ", signed with openpgp");
	ret = 0;
out:
	tag_sign_conf_release(&sc);
	strbuf_release(&msg);
	strbuf_release(&tagger);
	strbuf_release(&committer);
	return ret;
}

static int save_state(struct rp *rp, const char *crash_label)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!state_dir_exists(rp->dir) && state_dir_create(rp->dir) < 0)
		return error("cannot create '%s'", rp->dir);
	state_kv_add(&sb, "tree", rp->tree);
	state_kv_add(&sb, "public", rp->public);
	state_kv_add_oid(&sb, "tip", &rp->tip);
	state_kv_add_oid(&sb, "upstream", &rp->upstream);
	state_kv_add(&sb, "remote", rp->remote);
	state_kv_add(&sb, "url", rp->url);
	state_kv_add(&sb, "tag", rp->tag);
	state_kv_add_oid(&sb, "tag-object", &rp->tag_oid);
	state_kv_add(&sb, "to", rp->to);
	state_kv_add(&sb, "cc", rp->cc);
	state_kv_addf(&sb, "timeout", "%d", rp->timeout);
	ret = state_write(rp->dir, "state", &sb, crash_label);
	strbuf_release(&sb);
	return ret;
}

static int step_write_object(void *data)
{
	struct rp *rp = data;
	git_oid id;

	if (objwrite_object(NULL, rp->repo, &id, rp->tagbuf.buf, rp->tagbuf.len, GIT_OBJECT_TAG) < 0)
		return -1;
	if (!git_oid_equal(&id, &rp->tag_oid))
		return error("BUG: the tag was written as %s", git_oid_tostr_s(&id));
	return 0;
}

static int step_save_state(void *data, enum refstep_phase phase, const char *crash_label)
{
	return phase == REFSTEP_STARTED ? save_state(data, crash_label) : 0;
}

static void tag_step(struct rp *rp, struct refstep *step, struct refstep_move *move,
		     struct strbuf *reflog)
{
	strbuf_addf(reflog, "maint-request-pull: tag %s", short_ref(rp->public));
	memset(move, 0, sizeof(*move));
	move->ref = rp->tag_ref;
	move->has_old = 0;
	git_oid_cpy(&move->new, &rp->tag_oid);
	move->reflog = reflog->buf;
	memset(step, 0, sizeof(*step));
	step->repo = rp->repo;
	step->lock = &rp->lock;
	step->name = "request-pull-tag";
	step->moves = move;
	step->nr = 1;
	step->write_objects = step_write_object;
	step->save_state = step_save_state;
	step->data = rp;
}

/* The tag made (or found), and the state naming it. */
static int make_tag(struct rp *rp)
{
	struct refstep step;
	struct refstep_move move;
	struct strbuf reflog = STRBUF_INIT;
	char a[GIT_OID_HEXSZ + 1];
	int ret;

	if (rp->tag_exists) {
		ret = save_state(rp, NULL);
		if (!ret && !rp->quiet)
			say(stderr, "tag '%s' (%s) already tags '%s'", rp->tag, abbrev(a, &rp->tag_oid),
			    short_ref(rp->public));
		return ret;
	}
	tag_step(rp, &step, &move, &reflog);
	ret = refstep_run(&step);
	if (!ret && !rp->quiet)
		say(stderr, "tagged '%s' as '%s' (%s)", short_ref(rp->public), rp->tag,
		    abbrev(a, &rp->tag_oid));
	strbuf_release(&reflog);
	return ret;
}

/* ---- 3, 4. the push and the check ---- */

static void fill_push_opts(const struct rp *rp, struct push_opts *po, const char *ref)
{
	memset(po, 0, sizeof(*po));
	po->remote = rp->remote;
	po->ref = ref;
	po->timeout = rp->timeout;
	po->cfg = rp->cfg;
	po->quiet = rp->quiet;
}

static enum maint_result push_failed(const struct rp *rp, const struct push_result *res)
{
	error("push to '%s': %s (%s)", rp->remote, push_outcome_name(res->outcome), res->reason.buf);
	if (push_outcome_result(res->outcome) == RESULT_TEMPFAIL)
		advise("once '%s' can be reached, 'git maint-request-pull --continue' pushes the tag "
		       "and mails the pull request", rp->remote);
	return push_outcome_result(res->outcome);
}

static enum maint_result other_tag(const struct rp *rp, const git_oid *theirs, const char *outcome)
{
	char a[GIT_OID_HEXSZ + 1];

	error("'%s' has another tag '%s' (%s); %s", rp->remote, rp->tag, abbrev(a, theirs), outcome);
	advise("a published tag is not replaced: tag again under another name");
	return RESULT_NO;
}

static enum maint_result push_tag(struct rp *rp)
{
	struct push_opts po;
	struct push_result res = PUSH_RESULT_INIT;
	struct push_conn *conn = NULL;
	enum maint_result ret = RESULT_OK;

	fill_push_opts(rp, &po, rp->tag_ref);
	if (push_connect(&conn, rp->repo, &po, &res) < 0) {
		ret = push_failed(rp, &res);
	} else if (res.has_remote_old && git_oid_equal(&res.remote_old, &rp->tag_oid)) {
		push_close(conn);
		if (!rp->quiet)
			say(stderr, "%s: tags/%s up to date", rp->remote, rp->tag);
	} else if (res.has_remote_old) {
		push_close(conn);
		ret = other_tag(rp, &res.remote_old, "nothing was mailed");
	} else if (push_update(conn, &rp->tag_oid, &res) < 0) {
		ret = push_failed(rp, &res);
	} else if (!rp->quiet) {
		say(stderr, "%s: tags/%s created", rp->remote, rp->tag);
	}
	push_result_release(&res);
	if (ret == RESULT_OK)
		crash_point("request-pull-pushed");
	return ret;
}

/* The remote's value of ref: RESULT_OK with *has and *oid set. */
static enum maint_result ask_remote(struct rp *rp, const char *ref, git_oid *oid, int *has)
{
	struct push_opts po;
	struct push_result res = PUSH_RESULT_INIT;
	struct push_conn *conn = NULL;
	enum maint_result ret = RESULT_OK;

	fill_push_opts(rp, &po, ref);
	if (push_connect(&conn, rp->repo, &po, &res) < 0) {
		ret = push_failed(rp, &res);
	} else {
		*has = res.has_remote_old;
		git_oid_cpy(oid, &res.remote_old);
		push_close(conn);
	}
	push_result_release(&res);
	return ret;
}

static enum maint_result check_remote(struct rp *rp)
{
	git_oid oid;
	int has = 0;
	char a[GIT_OID_HEXSZ + 1];
	enum maint_result r = ask_remote(rp, rp->tag_ref, &oid, &has);

	if (r != RESULT_OK)
		return r;
	if (!has) {
		error("'%s' does not have the tag '%s' after the push; nothing was mailed", rp->remote, rp->tag);
		return RESULT_NO;
	}
	if (!git_oid_equal(&oid, &rp->tag_oid))
		return other_tag(rp, &oid, "nothing was mailed");
	if ((r = ask_remote(rp, rp->public, &oid, &has)) != RESULT_OK)
		return r;
	if (!has || (!git_oid_equal(&oid, &rp->tip) &&
		     git_graph_descendant_of(rp->repo, &oid, &rp->tip) != 1)) {
		git_error_clear();
		error("'%s' does not have '%s' at %s (%s); nothing was mailed", rp->remote,
		      short_ref(rp->public), abbrev(a, &rp->tip), has ? "it holds something else" : "no such branch");
		advise("publish the branch first (git maint-publish), then 'git maint-request-pull --continue'");
		return RESULT_NO;
	}
	return RESULT_OK;
}

/*
 * Before anything changes here: a remote that has another tag of that
 * name is a refusal, one that cannot be reached a reason to try later.
 */
static enum maint_result remote_free_for_tag(struct rp *rp)
{
	git_oid oid;
	int has = 0;
	enum maint_result r = ask_remote(rp, rp->tag_ref, &oid, &has);

	if (r != RESULT_OK || !has || (rp->tag_exists && git_oid_equal(&oid, &rp->tag_oid)))
		return r;
	return other_tag(rp, &oid, "nothing was changed");
}

/* ---- 5. the mail ---- */

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

static const char greeting[] = "Hi,\n\nplease pull the %s changes below.\n\nThanks,\n%s\n\n";

/* The whole message in pm->msg. 0, or -1 reported. */
static int compose_pull(struct rp *rp, struct pull_mail *pm)
{
	struct request_pull_text rpt = { &rp->upstream, &rp->tip, rp->url, rp->tag, NULL, 0 };
	struct strbuf seed = STRBUF_INIT, why = STRBUF_INIT;
	const char *msg, *nl;
	size_t len;
	int ret = -1;

	if (sender(rp, pm) < 0)
		return -1;
	msg = tag_sign_message(rp->tagbuf.buf, rp->tagbuf.len, &len);
	rpt.message = msg;
	rpt.message_len = len;
	nl = memchr(msg, '\n', len);
	strbuf_addstr(&pm->subject, "[GIT PULL] ");
	strbuf_add(&pm->subject, msg, nl ? (size_t)(nl - msg) : len);
	strbuf_addf(&pm->body, greeting, rp->tree,
		    pm->from_name.len ? pm->from_name.buf : pm->from_email.buf);
	if (request_pull_format(&pm->body, rp->repo, &rpt) < 0)
		goto out;
	strbuf_addf(&seed, "request-pull\n%s", git_oid_tostr_s(&rp->tag_oid));
	if (compose_message_id(&pm->message_id, seed.buf, seed.len,
			       strchr(pm->from_email.buf, '@') ? strchr(pm->from_email.buf, '@') + 1
							       : "localhost") < 0) {
		error("cannot make a Message-ID");
		goto out;
	}
	pm->mail.from.name = pm->from_name.buf;
	pm->mail.from.email = pm->from_email.buf;
	add_list(&pm->mail.to, &pm->rcpt, rp->to);
	add_list(&pm->mail.cc, &pm->rcpt, rp->cc);
	if (!pm->mail.to.nr) {
		error("no address in '%s' to send the pull request to", rp->to);
		goto out;
	}
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

static enum maint_result mail_once(struct rp *rp)
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

/* ---- the runs ---- */

static enum maint_result publish_and_mail(struct rp *rp)
{
	enum maint_result r;

	if ((r = push_tag(rp)) != RESULT_OK || (r = check_remote(rp)) != RESULT_OK ||
	    (r = mail_once(rp)) != RESULT_OK)
		return r;
	return state_dir_remove(rp->dir) < 0 ? RESULT_FATAL : RESULT_OK;
}

static enum maint_result dry_run(struct rp *rp)
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

static int state_missing(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	int r = state_read(dir, "state", &sb);

	strbuf_release(&sb);
	return r == 1;
}

static enum maint_result lock_and_check(struct rp *rp, int want_state)
{
	enum maint_result r = state_lock_acquire(&rp->lock, rp->repo);
	int in_progress;

	if (r != RESULT_OK)
		return r;
	rp->dir = state_dir_path(rp->repo, STATE_NAME);
	in_progress = state_dir_exists(rp->dir);
	if (in_progress < 0)
		return error("'%s' is not a directory; remove it", rp->dir);
	if (in_progress && !want_state && state_missing(rp->dir)) {
		/* killed before its state was written: it had made nothing (the tag's ref comes after) */
		if (state_dir_remove(rp->dir) < 0)
			return RESULT_FATAL;
		in_progress = 0;
	}
	if (in_progress && !want_state) {
		error("a pull request is in progress (%s)", rp->dir);
		advise("'git maint-request-pull --continue' finishes it, '--abort' forgets it");
		return RESULT_FATAL;
	}
	if (!in_progress && want_state)
		return error("no pull request in progress");
	return RESULT_OK;
}

enum maint_result request_pull_start(git_repository *repo, const struct maint_config *cfg,
				     const struct request_pull_opts *o)
{
	struct rp rp = RP_INIT;
	enum maint_result ret = RESULT_FATAL;
	int found;

	rp.repo = repo;
	rp.cfg = cfg;
	rp.send = o->send;
	rp.sign = o->sign;
	rp.quiet = o->quiet;
	rp.verbose = o->verbose;
	rp.timeout = o->timeout;
	if (o->send && (ret = lock_and_check(&rp, 0)) != RESULT_OK)
		goto out;
	ret = RESULT_FATAL;
	if (resolve(&rp, o) < 0)
		goto out;
	found = existing_tag(&rp);
	if (found < 0) {
		ret = RESULT_NO;
		goto out;
	}
	/* signing may ask for a passphrase: not for a tag the remote would refuse */
	if (o->send && (ret = remote_free_for_tag(&rp)) != RESULT_OK)
		goto out;
	ret = RESULT_FATAL;
	if (!found && build_tag(&rp, o) < 0)
		goto out;
	if (!o->send)
		ret = dry_run(&rp);
	else if (make_tag(&rp) == 0)
		ret = publish_and_mail(&rp);
out:
	rp_release(&rp);
	return ret;
}

/* What --continue needs, from the state. */
static int load_state(struct rp *rp)
{
	struct strbuf sb = STRBUF_INIT;
	const char *what = "request-pull state";
	long timeout = 60;
	int ret = -1;

	if (state_read(rp->dir, "state", &sb) != 0) {
		error("the pull request's state is missing or damaged; --abort forgets it");
		goto out;
	}
	rp->tree = state_kv_get(&sb, "tree");
	rp->public = state_kv_get(&sb, "public");
	rp->remote = state_kv_get(&sb, "remote");
	rp->url = state_kv_get(&sb, "url");
	rp->tag = state_kv_get(&sb, "tag");
	rp->to = state_kv_get(&sb, "to");
	rp->cc = state_kv_get(&sb, "cc");
	if (!rp->tree || !rp->public || !rp->remote || !rp->url || !rp->tag || !rp->to || !rp->cc) {
		error("%s lacks a field; --abort forgets it", what);
		goto out;
	}
	if (state_kv_get_oid(&sb, what, "tip", &rp->tip, NULL) < 0 ||
	    state_kv_get_oid(&sb, what, "upstream", &rp->upstream, NULL) < 0 ||
	    state_kv_get_oid(&sb, what, "tag-object", &rp->tag_oid, NULL) < 0 ||
	    state_kv_get_long(&sb, what, "timeout", &timeout, NULL) < 0)
		goto out;
	rp->timeout = (int)timeout;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "refs/tags/%s", rp->tag);
	rp->tag_ref = strbuf_detach(&sb, NULL);
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

/* The tag step, finished if a run stopped inside it; the tag's text read back. */
static int finish_tag(struct rp *rp)
{
	struct refstep step;
	struct refstep_move move;
	struct strbuf reflog = STRBUF_INIT;
	git_odb *odb = NULL;
	git_odb_object *obj = NULL;
	int ret;

	tag_step(rp, &step, &move, &reflog);
	step.write_objects = NULL;
	ret = refstep_finish(&step);
	strbuf_release(&reflog);
	if (ret < 0)
		return -1;
	ret = -1;
	if (!lg2_check(git_repository_odb(&odb, rp->repo), "cannot open the object database") &&
	    !lg2_check(git_odb_read(&obj, odb, &rp->tag_oid), "cannot read tag '%s'", rp->tag)) {
		strbuf_add(&rp->tagbuf, git_odb_object_data(obj), git_odb_object_size(obj));
		ret = 0;
	}
	git_odb_object_free(obj);
	git_odb_free(odb);
	return ret;
}

enum maint_result request_pull_continue(git_repository *repo, const struct maint_config *cfg,
					const struct request_pull_opts *o)
{
	struct rp rp = RP_INIT;
	enum maint_result ret;

	rp.repo = repo;
	rp.cfg = cfg;
	rp.send = 1;
	rp.quiet = o->quiet;
	rp.verbose = o->verbose;
	if ((ret = lock_and_check(&rp, 1)) != RESULT_OK)
		goto out;
	ret = RESULT_FATAL;
	if (load_state(&rp) < 0 || finish_tag(&rp) < 0)
		goto out;
	ret = publish_and_mail(&rp);
out:
	rp_release(&rp);
	return ret;
}

enum maint_result request_pull_abort(git_repository *repo)
{
	struct rp rp = RP_INIT;
	enum maint_result ret;

	rp.repo = repo;
	if ((ret = lock_and_check(&rp, 1)) == RESULT_OK)
		ret = state_dir_remove(rp.dir) < 0 ? RESULT_FATAL : RESULT_OK;
	rp_release(&rp);
	return ret;
}
