/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The series walker (see series-walk.h): reading the patches of the
 * inputs, and the one loop that takes each from its mail to a verdict.
 */
#include "series-walk.h"
#include "applied.h"
#include "mail.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

enum maint_result walk_read(struct walk *w, const char *const *args, size_t nargs,
			    const struct walk_read_opts *o)
{
	struct patch_mails_opts pmo = { 0 };
	enum maint_result rc;

	pmo.source = o->source;
	pmo.cfg = o->cfg;
	pmo.say = o->say;
	pmo.quiet = o->quiet;
	pmo.review = o->review;
	pmo.trailers = o->trailers;
	pmo.versions = o->versions;
	pmo.series = o->series;
	pmo.attest = o->attest;
	if ((rc = patch_mails_read(&w->pms, args, nargs, &pmo)) != RESULT_OK)
		return rc;
	w->nr = w->pms.nr;
	w->v = xcalloc(w->nr + 1, sizeof(*w->v));
	for (size_t i = 0; i < w->nr; i++) {
		w->v[i].number = w->pms.v[i].number;
		w->v[i].origin = w->pms.v[i].origin;
		w->v[i].series = w->pms.v[i].series;
		w->v[i].k = w->pms.v[i].k;
		w->v[i].total = w->pms.v[i].total;
	}
	return RESULT_OK;
}

void walk_release(struct walk *w)
{
	patch_mails_release(&w->pms);
	free(w->v);
	w->v = NULL;
	w->nr = 0;
}

int walk_get(const struct walk *w, size_t i, struct strbuf *buf)
{
	return patch_mails_get(&w->pms, &w->pms.v[i], buf, NULL);
}

/*
 * Why patch p has no diff we can apply, into err: a diff format we
 * refuse, else "no patch found" (unless the diff parser said more).
 */
static void explain_no_diff(const struct walk_patch *p, const char *origin, struct strbuf *err)
{
	struct strbuf body = STRBUF_INIT, why = STRBUF_INIT;

	if (p->decoded) {
		strbuf_addbuf(&body, &p->pm.message);
		strbuf_addbuf(&body, &p->pm.patch);
	}
	if (patch_find_unsupported(body.buf, body.len, &why)) {
		strbuf_reset(err);
		strbuf_addf(err, "%s: %s", origin, why.buf);
	} else if (!err->len) {
		strbuf_addf(err, "%s: %s", origin, p->decoded ? "no patch found" : "the mail cannot be decoded");
	}
	strbuf_release(&body);
	strbuf_release(&why);
}

/*
 * Patch p's diff, parsed into ps, applied to the session, the verdict in
 * p->res (which points into ps: the caller disposes of ps after reading
 * it). -1 on an error of our own.
 */
static int apply_one(struct walk_run *r, struct walk_patch *p, const char *origin, struct patch_set *ps)
{
	struct patch_parse_opts popts = PATCH_PARSE_OPTS_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	p->already_applied = 0;
	p->applied_as_found = 0;
	popts.origin = origin;
	popts.p_value = r->p_value;
	popts.max_binary = r->max_binary;
	popts.borrow = 1;	/* p->pm outlives ps (walk_one()) */
	if (p->decoded && p->pm.patch.len &&
	    !patch_parse(ps, p->pm.patch.buf, p->pm.patch.len, &popts, &err)) {
		apply_session_set_label(r->session, p->pm.subject.buf);
		ret = apply_patch(r->session, ps, &p->res);
		if (!ret && !p->res.ok && !p->res.conflicts &&
		    (ret = apply_patch_is_applied(r->session, ps)) > 0) {
			p->already_applied = 1;
			ret = 0;
			if (r->applied) {
				ret = applied_index_find(r->applied, p->pm.patch.buf, p->pm.patch.len,
							 &p->applied_as);
				if (!ret)
					ret = applied_index_find_change(r->applied, ps, &p->applied_as);
				p->applied_as_found = ret > 0;
				ret = ret < 0 ? -1 : 0;
			}
		}
	} else {
		explain_no_diff(p, origin, &err);
		apply_result_set_error(&p->res, err.buf);
	}
	strbuf_release(&err);
	return ret;
}

/* What hooks->after reads of p's mail kept (walk_hooks.after_reads), the rest released. */
static void keep_for_after(enum walk_after_reads reads, struct walk_patch *p, struct strbuf *scratch)
{
	struct strbuf header = STRBUF_INIT;

	if (reads == WALK_AFTER_MAIL)
		return;
	if (reads == WALK_AFTER_HEADER)
		strbuf_add(&header, p->buf, mail_header_len(p->buf, p->len));
	strbuf_release(scratch);
	*scratch = header;	/* moved */
	p->buf = reads == WALK_AFTER_HEADER ? scratch->buf : NULL;
	p->len = scratch->len;
}

/* Patch i of v, from its mail to the after hook. */
static int walk_one(struct walk_run *r, const struct walk_mail *v, size_t i, struct walk_patch *p,
		    struct strbuf *scratch, struct strbuf *origin)
{
	struct raw_mail raw = { 0 };
	struct mailinfo_opts mopts = r->mopts;
	struct patch_set ps = PATCH_SET_INIT;
	int rc;

	p->i = i;
	p->mail = &v[i];
	strbuf_reset(scratch);
	if (r->hooks->mail(r->data, i, scratch, &p->buf, &p->len) < 0)
		return -1;
	strbuf_reset(origin);
	strbuf_addf(origin, "%s: message %zu", v[i].origin, v[i].number);
	raw.buf = p->buf;
	raw.len = p->len;
	raw.origin = v[i].origin;
	raw.number = v[i].number;
	if (r->quiet)
		mopts.quiet = 1;
	p->decoded = mailinfo_parse(&p->pm, &raw, &mopts) == 0;
	if (r->hooks->before && (rc = r->hooks->before(r->data, p)))
		return rc;
	keep_for_after(r->hooks->after_reads, p, scratch);
	rc = apply_one(r, p, origin->buf, &ps);
	if (!rc)
		rc = r->hooks->after(r->data, p);
	patch_set_dispose(&ps);
	return rc;
}

int walk_run(struct walk_run *r, const struct walk_mail *v, size_t first, size_t end)
{
	struct strbuf scratch = STRBUF_INIT, origin = STRBUF_INIT;
	struct walk_patch p;
	int ret = 0;

	memset(&p, 0, sizeof(p));
	mailinfo_init(&p.pm);
	for (size_t i = first; !ret && i < end; i++) {
		ret = walk_one(r, v, i, &p, &scratch, &origin);
		apply_result_dispose(&p.res);
	}
	mailinfo_release(&p.pm);
	strbuf_release(&scratch);
	strbuf_release(&origin);
	return ret;
}
