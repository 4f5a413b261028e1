/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The request-pull engine: see request-pull.h for the steps, the state
 * and the results. The mail (step 5, and the dry run's mbox) is in
 * request-pull-mail.c.
 */
#include "request-pull-internal.h"
#include "editor.h"
#include "ident.h"
#include "msg.h"
#include "objwrite.h"
#include "push.h"
#include "refstep.h"
#include "repo.h"
#include "request-pull-text.h"
#include "strbuf.h"
#include "tag-sign.h"
#include "template.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STATE_NAME "request-pull"

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
	free(rp->version);
	strbuf_release(&rp->tagbuf);
}

const char *request_pull_short_ref(const char *ref)
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

static const char *upstream_name(const struct rp *rp)
{
	const char *name = tree_get(rp, "upstream");

	return name ? name : "master";
}

static int resolve_upstream(struct rp *rp)
{
	const char *name = upstream_name(rp);
	git_object *obj = NULL, *peeled = NULL;
	int ret = -1;

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

/*
 * The latest tag reachable from the upstream ("v6.2-rc2"), for
 * %(version): asked once. 0 with *out set (NULL: the upstream has no
 * tag), or -1 reported.
 */
static int upstream_version(struct rp *rp, const char **out)
{
	git_describe_options dopts = GIT_DESCRIBE_OPTIONS_INIT;
	git_describe_format_options fopts = GIT_DESCRIBE_FORMAT_OPTIONS_INIT;
	git_describe_result *res = NULL;
	git_commit *c = NULL;
	git_buf buf = GIT_BUF_INIT;
	int ret = -1, r;

	if (rp->version_known) {
		*out = rp->version;
		return 0;
	}
	dopts.describe_strategy = GIT_DESCRIBE_TAGS;
	fopts.abbreviated_size = 0;
	if (lg2_check(git_commit_lookup(&c, rp->repo, &rp->upstream), "cannot read the upstream") < 0)
		goto out;
	r = git_describe_commit(&res, (git_object *)c, &dopts);
	if (r < 0) {
		struct strbuf why = STRBUF_INIT;

		/* libgit2's ways of saying "no tag" are this class (or ENOTFOUND) */
		if (lg2_last_error(&why) == GIT_ERROR_DESCRIBE || r == GIT_ENOTFOUND)
			ret = 0;
		else
			error("%%(version): cannot describe the upstream: %s", why.buf);
		strbuf_release(&why);
		git_error_clear();
	} else if (!lg2_check(git_describe_format(&buf, res, &fopts), "%%(version): cannot name the upstream")) {
		rp->version = xstrndup(buf.ptr, buf.size);
		ret = 0;
	}
	rp->version_known = !ret;
	*out = rp->version;
out:
	git_buf_dispose(&buf);
	git_describe_result_free(res);
	git_commit_free(c);
	return ret;
}

/* The placeholders (request-pull-internal.h), and which the tag's name and message take. */
static const char *const pv_names[PV_NR] = {
	"tree", "branch", "tag", "upstream", "version", "date", "shortlog", "subject", "me", "to-name"
};
static const char *const tag_format_names[] = { "tree", "branch", "version", "date", NULL };
static const char *const tag_template_names[] = {
	"tree", "branch", "tag", "upstream", "version", "shortlog", NULL
};
static const char default_tag_template[] =
	"%(tree) updates for %(tag)\n"
	"\n"
	"Changes on top of %(version):\n"
	"\n"
	"%(shortlog)";

void request_pull_vars_release(struct request_pull_vars *pv)
{
	strbuf_release(&pv->date);
	strbuf_release(&pv->shortlog);
}

int request_pull_vars_fill(struct request_pull_vars *pv, struct rp *rp, const char *tmpl, size_t len)
{
	for (size_t i = 0; i < PV_NR; i++) {
		pv->v[i].name = pv_names[i];
		pv->v[i].value = NULL;
	}
	pv->v[PV_TREE].value = rp->tree;
	pv->v[PV_BRANCH].value = request_pull_short_ref(rp->public);
	pv->v[PV_TAG].value = rp->tag;
	pv->v[PV_UPSTREAM].value = upstream_name(rp);
	if (template_uses(tmpl, len, "version") && upstream_version(rp, &pv->v[PV_VERSION].value) < 0)
		return -1;
	if (template_uses(tmpl, len, "date")) {
		time_t now = time(NULL);
		struct tm tm;
		char d[16];

		strftime(d, sizeof(d), "%Y%m%d", gmtime_r(&now, &tm));
		strbuf_addstr(&pv->date, d);
		pv->v[PV_DATE].value = pv->date.buf;
	}
	if (template_uses(tmpl, len, "shortlog")) {
		if (request_pull_shortlog(&pv->shortlog, rp->repo, &rp->upstream, &rp->tip) < 0)
			return -1;
		pv->v[PV_SHORTLOG].value = pv->shortlog.buf;
	}
	return 0;
}

/* tree.<name>.tag-format expanded into out. 0, or -1 reported. */
static int expand_tag_format(struct rp *rp, const char *fmt, struct strbuf *out)
{
	struct request_pull_vars pv = REQUEST_PULL_VARS_INIT;
	struct strbuf source = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&source, "tree.%s.tag-format", rp->tree);
	if (template_check(fmt, strlen(fmt), tag_format_names, source.buf) < 0 ||
	    request_pull_vars_fill(&pv, rp, fmt, strlen(fmt)) < 0)
		goto out;
	if (template_uses(fmt, strlen(fmt), "version") && !pv.v[PV_VERSION].value) {
		error("%s: %%(version): no tag on the upstream '%s'", source.buf, upstream_name(rp));
		goto out;
	}
	template_expand(out, fmt, strlen(fmt), pv.v, PV_NR);
	ret = 0;
out:
	strbuf_release(&source);
	request_pull_vars_release(&pv);
	return ret;
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

/* The tag template (tree.<name>.tag-template, else the default) expanded into out. */
static int tag_template(struct strbuf *out, struct rp *rp)
{
	struct strbuf tmpl = STRBUF_INIT;
	struct request_pull_vars pv = REQUEST_PULL_VARS_INIT;
	int ret = -1;

	if (template_load(&tmpl, rp->cfg, "tree", rp->tree, "tag-template", default_tag_template,
			  tag_template_names) == 0 &&
	    request_pull_vars_fill(&pv, rp, tmpl.buf, tmpl.len) == 0) {
		template_expand(out, tmpl.buf, tmpl.len, pv.v, PV_NR);
		ret = 0;
	}
	strbuf_release(&tmpl);
	request_pull_vars_release(&pv);
	return ret;
}

/* The message before any editing: -m, -F, else the template. */
static int tag_message(struct strbuf *out, struct rp *rp, const struct request_pull_opts *o)
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
	} else if (tag_template(out, rp) < 0) {
		return -1;
	}
	return 0;
}

/* $GIT_DIR/TAG_EDITMSG, where git tag has the message edited. */
static void edit_path(struct strbuf *out, const struct rp *rp)
{
	strbuf_addf(out, "%sTAG_EDITMSG", git_repository_path(rp->repo));
}

/* The comment lines git tag -a puts after the message (ours say where the first line goes). */
static void edit_comments(struct strbuf *file, const struct rp *rp, enum msg_cleanup mode, char c)
{
	strbuf_addf(file, "\n%c\n%c Write a message for tag:\n%c   %s\n", c, c, c, rp->tag);
	if (mode == MSG_CLEANUP_STRIP)
		strbuf_addf(file, "%c Lines starting with '%c' will be ignored.\n", c, c);
	else
		strbuf_addf(file, "%c Lines starting with '%c' will be kept; you may remove them"
			    " yourself if you want to.\n", c, c);
	strbuf_addf(file, "%c The tag is of '%s'; its first line follows \"[GIT PULL] \" in the\n"
		    "%c mail to %s. An empty message stops here.\n",
		    c, request_pull_short_ref(rp->public), c, rp->to);
}

/*
 * The message in msg handed to the editor as git tag -a hands it over
 * (the file in the git directory, git's comment lines after it), and
 * read back, cleaned as mode says (comments stripped by default). An
 * empty message is the user giving up: -1 reported, nothing made.
 */
static int edit_message(struct strbuf *msg, const struct rp *rp, enum msg_cleanup mode, char comment)
{
	struct strbuf path = STRBUF_INIT, file = STRBUF_INIT;
	int fd, ret = -1;

	edit_path(&path, rp);
	strbuf_addbuf(&file, msg);
	msg_stripspace(&file);
	edit_comments(&file, rp, mode, comment);
	fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 || write_in_full(fd, file.buf, file.len) < 0) {
		error_errno("cannot write '%s'", path.buf);
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (close(fd) < 0) {
		error_errno("cannot write '%s'", path.buf);
		goto out;
	}
	if (editor_launch(rp->cfg, path.buf) < 0) {
		error("the tag message has been left in '%s'; nothing was tagged", path.buf);
		goto out;
	}
	strbuf_reset(msg);
	if (strbuf_read_file(msg, path.buf, 0) < 0) {
		error_errno("cannot read '%s'", path.buf);
		goto out;
	}
	msg_cleanup(msg, mode, comment);
	if (!msg->len) {
		unlink(path.buf);
		error("no tag message; nothing was tagged, pushed or mailed");
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&file);
	return ret;
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
		      rp->tag, abbrev(a, git_tag_target_id(tag)), request_pull_short_ref(rp->public));
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
	int ret = -1, edited = 0;
	char comment;

	if (msg_comment_char(&comment, rp->cfg) < 0 || tag_message(&msg, rp, o) < 0 ||
	    (o->edit && edit_message(&msg, rp, o->cleanup, comment) < 0))
		goto out;
	edited = o->edit;
	if (ident_committer(&tagger, rp->cfg) < 0 ||
	    tag_sign_buffer(&rp->tagbuf, &rp->tip, rp->tag, tagger.buf, msg.buf, o->cleanup, comment) < 0)
		goto out;
	if (rp->sign && (ident_committer_name_email(&committer, rp->cfg) < 0 ||
			 tag_sign_conf_load(&sc, rp->cfg, committer.buf) < 0))
		goto out;
	if (rp->sign && rp->send && tag_sign(&rp->tagbuf, &sc) < 0)
		goto out;
	if (objwrite_hash(&rp->tag_oid, GIT_OBJECT_TAG, rp->tagbuf.buf, rp->tagbuf.len) < 0)
		goto out;
	if (!rp->send && !rp->quiet)
		say(stderr, "would tag the tip of '%s' (%.12s) as '%s'%s", request_pull_short_ref(rp->public),
		    git_oid_tostr_s(&rp->tip), rp->tag,
		    !rp->sign ? ", unsigned" : sc.format == TAG_SIGN_SSH ? ", signed with ssh" :
		    sc.format == TAG_SIGN_X509 ? ", signed with x509" : ", signed with openpgp");
	ret = 0;
out:
	/* the message edited stays where git tag leaves it until the tag is made */
	if (edited) {
		struct strbuf path = STRBUF_INIT;

		edit_path(&path, rp);
		if (!ret)
			unlink(path.buf);
		else
			error("the tag message has been left in '%s'", path.buf);
		strbuf_release(&path);
	}
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
	strbuf_addf(reflog, "maint-request-pull: tag %s", request_pull_short_ref(rp->public));
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
			    request_pull_short_ref(rp->public));
		return ret;
	}
	tag_step(rp, &step, &move, &reflog);
	ret = refstep_run(&step);
	if (!ret && !rp->quiet)
		say(stderr, "tagged '%s' as '%s' (%s)", request_pull_short_ref(rp->public), rp->tag,
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
		      request_pull_short_ref(rp->public), abbrev(a, &rp->tip), has ? "it holds something else" : "no such branch");
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

/* ---- the runs ---- */

static enum maint_result publish_and_mail(struct rp *rp)
{
	enum maint_result r;

	if ((r = push_tag(rp)) != RESULT_OK || (r = check_remote(rp)) != RESULT_OK ||
	    (r = request_pull_mail_once(rp)) != RESULT_OK)
		return r;
	return state_dir_remove(rp->dir) < 0 ? RESULT_FATAL : RESULT_OK;
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
		ret = request_pull_dry_run(&rp);
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
