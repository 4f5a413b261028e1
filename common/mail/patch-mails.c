#include <stdlib.h>
#include <string.h>

#include "mailinfo.h"
#include "patch-mails.h"
#include "patch.h"
#include "select.h"
#include "source.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

/* Every message as read: where its bytes are, what it says of itself. */
struct read_state {
	struct strbuf all;
	struct patch_mail_ref *refs;
	size_t nr, alloc;
	unsigned char *bad;
	struct strvec subjects, clean;	/* raw and cleaned subjects */
	struct mail_kinds *mk;
};

/*
 * Does a mail without a git or unified diff hold a diff format we refuse
 * (an ed script, a context diff)? Then it is a patch that cannot apply:
 * kept, so that applying it stops and says why, never stepped over.
 */
static int refused_diff(const struct raw_mail *raw, struct patch_mail *pm)
{
	static const struct mailinfo_opts full = { .quoted_cr = MAILINFO_QUOTED_CR_WARN, .quiet = 1 };
	struct strbuf body = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	if (!patch_mail_parse(pm, raw, &full)) {
		strbuf_addbuf(&body, &pm->message);
		strbuf_addbuf(&body, &pm->patch);
		ret = patch_find_unsupported(body.buf, body.len, &why);
	}
	strbuf_release(&body);
	strbuf_release(&why);
	return ret;
}

static void add_message(struct read_state *rs, const struct raw_mail *raw, struct patch_mail *pm)
{
	static const struct mailinfo_opts mopts = {
		.quoted_cr = MAILINFO_QUOTED_CR_WARN, .headers_and_paths_only = 1, .quiet = 1,
	};
	struct mail_facts f;
	time_t when = 0;
	int bad = patch_mail_parse(pm, raw, &mopts) < 0;

	ALLOC_GROW(rs->refs, rs->nr + 1, rs->alloc);
	rs->bad = xrealloc(rs->bad, rs->alloc);
	rs->refs[rs->nr].off = rs->all.len;
	rs->refs[rs->nr].len = raw->len;
	rs->refs[rs->nr].number = raw->number;
	rs->refs[rs->nr].origin = raw->origin;
	rs->bad[rs->nr] = bad;
	strbuf_add(&rs->all, raw->buf, raw->len);
	strvec_push(&rs->subjects, pm->raw_subject.buf);
	strvec_push(&rs->clean, pm->subject.buf);
	if (pm->date.len && select_parse_date(pm->date.buf, &when) < 0)
		when = 0;
	mail_facts_from(&f, pm, when);
	if (!bad && !f.has_patch && !f.is_reply) {
		int refused = refused_diff(raw, pm);

		/* pm was parsed again, whatever the answer: f pointed into what it freed */
		mail_facts_from(&f, pm, when);
		f.has_patch = refused;
	}
	mail_kinds_add(rs->mk, &f);
	rs->nr++;
}

static void keep(struct patch_mails *pms, const struct read_state *rs, size_t i)
{
	struct patch_mail_ref *r;

	ALLOC_GROW(pms->v, pms->nr + 1, pms->alloc);
	r = &pms->v[pms->nr++];
	*r = rs->refs[i];	/* its bytes stay where they were read: rs->all becomes pms->bytes */
}

static void say_skip(const struct patch_mails_opts *opts, const char *what, const char *subject)
{
	if (opts->say)
		say(opts->say, "Skipping %s: %s", what, subject);
}

/* The patches in apply order, the rest stepped over. */
static void choose(struct patch_mails *pms, const struct read_state *rs,
		   const struct patch_mails_opts *opts)
{
	for (size_t i = 0; i < rs->nr; i++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, i);
		size_t r;

		if (rs->bad[i]) {
			keep(pms, rs, i);	/* it stops whoever applies it, where git am would */
			continue;
		}
		pms->counts[c->kind]++;
		if (c->kind != MAIL_PATCH) {
			say_skip(opts, mail_kind_name(c->kind), rs->subjects.v[i]);
			continue;
		}
		if (c->parent != MAIL_NONE && mail_kinds_at(rs->mk, c->parent)->replaced_by == i)
			continue;	/* a partial reroll: applied in place of the patch it replaces */
		if (c->replaced_by == MAIL_NONE) {
			keep(pms, rs, i);
			continue;
		}
		/* replaced: its newest replacement goes here */
		pms->counts[MAIL_PATCH]--;
		pms->superseded++;
		say_skip(opts, "superseded patch", rs->subjects.v[i]);
		for (r = c->replaced_by; mail_kinds_at(rs->mk, r)->replaced_by != MAIL_NONE;
		     r = mail_kinds_at(rs->mk, r)->replaced_by) {
			pms->counts[MAIL_PATCH]--;
			pms->superseded++;
			say_skip(opts, "superseded patch", rs->subjects.v[r]);
		}
		keep(pms, rs, r);
	}
}

static void warn_incomplete(const struct read_state *rs)
{
	struct strbuf ranges = STRBUF_INIT;
	size_t ns = mail_kinds_series_count(rs->mk);

	for (size_t s = 0; s < ns; s++) {
		const struct mail_series *ms = mail_kinds_series(rs->mk, s);

		strbuf_reset(&ranges);
		if (mail_kinds_missing(rs->mk, s, &ranges))
			warning("%s: message %zu: series '%s' v%d is incomplete: missing %s of %d",
				rs->refs[ms->first].origin, rs->refs[ms->first].number,
				rs->clean.v[ms->first], ms->version, ranges.buf, ms->total);
	}
	strbuf_release(&ranges);
}

int patch_mails_read(struct patch_mails *pms, const char *const *args, size_t nargs,
		     const struct patch_mails_opts *opts)
{
	struct read_state rs = { STRBUF_INIT, NULL, 0, 0, NULL, STRVEC_INIT, STRVEC_INIT, NULL };
	struct mail_source *src;
	struct patch_mail pm;
	struct raw_mail raw;
	int rc, ret = 0;

	if (source_open(&src, args, nargs, opts->source_flags) < 0)
		return RESULT_FATAL;
	if (opts->cfg && source_configure(src, opts->cfg) < 0) {
		source_close(src);
		return RESULT_FATAL;
	}
	rs.mk = mail_kinds_new();
	patch_mail_init(&pm);
	while ((rc = source_next(src, &raw)) != 0) {
		if (rc < 0) {
			ret = source_oversized(src) ? RESULT_NO : RESULT_FATAL;
			break;
		}
		add_message(&rs, &raw, &pm);
	}
	source_close(src);
	patch_mail_release(&pm);
	if (!ret) {
		mail_kinds_run(rs.mk);
		choose(pms, &rs, opts);
		{
			struct strbuf tmp = pms->bytes;	/* the read bytes move, not copied */

			pms->bytes = rs.all;
			rs.all = tmp;
		}
		if (!opts->quiet)
			warn_incomplete(&rs);
	}
	strbuf_release(&rs.all);
	free(rs.refs);
	free(rs.bad);
	strvec_clear(&rs.subjects);
	strvec_clear(&rs.clean);
	mail_kinds_free(rs.mk);
	return ret;
}

void patch_mails_skipped(const struct patch_mails *pms, struct strbuf *out)
{
	size_t start = out->len;

	strbuf_addstr(out, " (");
	mail_kind_skipped_summary(out, pms->counts, pms->superseded);
	if (out->len == start + 2)
		strbuf_setlen(out, start);
	else
		strbuf_addstr(out, " skipped)");
}

void patch_mails_release(struct patch_mails *pms)
{
	strbuf_release(&pms->bytes);
	free(pms->v);
	memset(pms, 0, sizeof(*pms));
	strbuf_init(&pms->bytes, 0);
}
