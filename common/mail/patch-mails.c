/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>

#include "attest.h"
#include "mailinfo.h"
#include "patch-mails.h"
#include "attest.h"
#include "review.h"
#include "patch.h"
#include "select.h"
#include "source.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

/* Every message as read: where its bytes are, what it says of itself. */
struct read_state {
	struct spool *spool;	/* the bytes of the messages that may be needed again */
	int store_all;		/* the follow-ups are read again (review): every message */
	struct patch_mail_ref *refs;
	size_t nr, alloc;
	unsigned char *bad;
	char **base;		/* the "base-commit:" each names, or NULL */
	struct strvec subjects, clean;	/* raw and cleaned subjects */
	struct strvec ids;	/* Message-IDs, without <> */
	struct mail_kinds *mk;
	size_t *unit;		/* per series of the mail core: its series in pms->series, MAIL_NONE */
	struct skipped {
		size_t i;
		int superseded;	/* a patch of an older version, or one a partial reroll replaces */
	} *skips;
	size_t skips_nr, skips_alloc;
	int selected;		/* only the series opts->series names are kept */
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

	if (!mailinfo_parse(pm, raw, &full)) {
		strbuf_addbuf(&body, &pm->message);
		strbuf_addbuf(&body, &pm->patch);
		ret = patch_find_unsupported(body.buf, body.len, &why);
	}
	strbuf_release(&body);
	strbuf_release(&why);
	return ret;
}

/* The commit id of git format-patch's "From <id> Mon Sep 17 00:00:00 2001" line, else "". */
static void from_line_commit(char out[41], const struct raw_mail *raw)
{
	out[0] = '\0';
	if (!raw->from_line || raw->from_line_len < 45 || memcmp(raw->from_line, "From ", 5))
		return;
	for (int i = 0; i < 40; i++)
		if (hex_digit((unsigned char)raw->from_line[5 + i]) < 0)
			return;
	memcpy(out, raw->from_line + 5, 40);
	out[40] = '\0';
}

/*
 * The commit a "base-commit: <id>" line names (git format-patch --base
 * and b4 write one, in the cover letter or after a single patch's diff):
 * a full object id (40 or 64 hex digits), else NULL.
 */
static char *find_base_commit(const struct raw_mail *raw)
{
	static const char key[] = "\nbase-commit: ";
	const char *p = raw->buf, *end = raw->buf + raw->len;

	while ((p = memmem(p, end - p, key, sizeof(key) - 1))) {
		const char *id = p + sizeof(key) - 1;
		size_t n = 0;

		while (id + n < end && hex_digit((unsigned char)id[n]) >= 0)
			n++;
		if ((n == 40 || n == 64) && (id + n == end || id[n] == '\n' || id[n] == '\r' || id[n] == ' '))
			return xstrndup(id, n);
		p = id;
	}
	return NULL;
}

/*
 * Reads raw's facts into rs; its bytes go to the spool when they may be
 * needed again: a patch (or a mail that might be one: a refused diff, an
 * unreadable mail) may be applied or compared, and with a review every
 * message is parsed again. -1 when the spool cannot be written (reported).
 */
static int add_message(struct read_state *rs, const struct raw_mail *raw, struct patch_mail *pm)
{
	static const struct mailinfo_opts mopts = {
		.quoted_cr = MAILINFO_QUOTED_CR_WARN, .headers_and_paths_only = 1, .quiet = 1,
	};
	struct mail_facts f;
	time_t when = 0;
	int bad = mailinfo_parse(pm, raw, &mopts) < 0;

	ALLOC_GROW(rs->refs, rs->nr + 1, rs->alloc);
	rs->bad = xrealloc(rs->bad, rs->alloc);
	rs->base = xrealloc(rs->base, st_mult(rs->alloc, sizeof(*rs->base)));
	rs->base[rs->nr] = find_base_commit(raw);
	rs->refs[rs->nr].off = -1;
	rs->refs[rs->nr].len = raw->len;
	rs->refs[rs->nr].number = raw->number;
	rs->refs[rs->nr].origin = raw->origin;
	from_line_commit(rs->refs[rs->nr].commit, raw);
	rs->bad[rs->nr] = bad;
	strvec_push(&rs->subjects, pm->raw_subject.buf);
	strvec_push(&rs->clean, pm->subject.buf);
	strvec_push(&rs->ids, pm->message_id.buf);
	if (pm->date.len && select_parse_date(pm->date.buf, &when) < 0)
		when = 0;
	mail_facts_from(&f, pm, when);
	if (!bad && !f.has_patch && !f.is_reply) {
		int refused = refused_diff(raw, pm);

		/* pm was parsed again, whatever the answer: f pointed into what it freed */
		mail_facts_from(&f, pm, when);
		f.has_patch = refused;
	}
	if ((bad || f.has_patch || rs->store_all) &&
	    spool_add(rs->spool, raw->buf, raw->len, &rs->refs[rs->nr].off) < 0)
		return -1;
	mail_kinds_add(rs->mk, &f);
	rs->nr++;
	return 0;
}

static void keep(struct patch_mails *pms, const struct read_state *rs, size_t i)
{
	struct patch_mail_ref *r;

	ALLOC_GROW(pms->v, pms->nr + 1, pms->alloc);
	r = &pms->v[pms->nr++];
	*r = rs->refs[i];	/* its bytes stay in the spool, which becomes pms's */
	r->index = i;
}

/* A patch of a series a newer full posting of it supersedes. */
static int older_version(const struct read_state *rs, const struct mail_class *c)
{
	return c->series != MAIL_NONE && mail_kinds_series(rs->mk, c->series)->superseded;
}

/* A message stepped over: said (and counted) once the series to keep are known. */
static void skip(struct read_state *rs, size_t i, int superseded)
{
	ALLOC_GROW(rs->skips, rs->skips_nr + 1, rs->skips_alloc);
	rs->skips[rs->skips_nr].i = i;
	rs->skips[rs->skips_nr++].superseded = superseded;
}

/* The patches in apply order, the rest stepped over (skip()). */
static void choose(struct patch_mails *pms, struct read_state *rs)
{
	for (size_t i = 0; i < rs->nr; i++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, i);
		size_t r;

		if (rs->bad[i]) {
			keep(pms, rs, i);	/* it stops whoever applies it, where git am would */
			continue;
		}
		if (c->kind != MAIL_PATCH) {
			skip(rs, i, 0);
			continue;
		}
		if (c->replaces != MAIL_NONE)
			continue;	/* a partial reroll: applied in place of the patch it replaces */
		if (older_version(rs, c)) {
			skip(rs, i, 1);
			continue;
		}
		if (c->replaced_by == MAIL_NONE) {
			keep(pms, rs, i);
			continue;
		}
		/* replaced: its newest replacement goes here */
		skip(rs, i, 1);
		for (r = c->replaced_by; mail_kinds_at(rs->mk, r)->replaced_by != MAIL_NONE;
		     r = mail_kinds_at(rs->mk, r)->replaced_by)
			skip(rs, r, 1);
		keep(pms, rs, r);
	}
}

/* ---- series ---- */

static int cmp_ref(const void *a_, const void *b_)
{
	const struct patch_mail_ref *a = a_, *b = b_;

	if (a->series != b->series)
		return a->series < b->series ? -1 : 1;
	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Per series of pms: the cover letter of its newest posting, else MAIL_NONE. */
static size_t *find_covers(const struct patch_mails *pms, const struct read_state *rs)
{
	size_t *cover = xmalloc(st_mult(pms->series_nr + 1, sizeof(*cover)));

	for (size_t u = 0; u < pms->series_nr; u++)
		cover[u] = MAIL_NONE;
	for (size_t i = 0; i < rs->nr; i++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, i);
		size_t u;

		if (c->kind != MAIL_COVER || c->series == MAIL_NONE ||
		    mail_kinds_series(rs->mk, c->series)->superseded ||
		    (u = rs->unit[c->series]) == MAIL_NONE)
			continue;
		if (cover[u] == MAIL_NONE || c->version > mail_kinds_at(rs->mk, cover[u])->version)
			cover[u] = i;
	}
	return cover;
}

/* What series u (its patches in place in pms->v) is called and based on. */
static void describe_series(struct patch_series *ps, const struct patch_mails *pms,
			    const struct read_state *rs, size_t cover)
{
	const struct patch_mail_ref *v = pms->v + ps->first;
	size_t named, distinct = 0;

	for (size_t j = 0; j < ps->nr; j++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, v[j].index);

		if (c->version > ps->version || !j) {
			ps->version = c->version;
			ps->total = v[j].total;
		}
	}
	for (size_t j = 0; j < ps->nr; j++)
		if (v[j].total == ps->total && v[j].k >= 1 && v[j].k <= ps->total &&
		    (!j || v[j].k != v[j - 1].k))
			distinct++;
	ps->missing = ps->total > 0 && (size_t)ps->total > distinct ? ps->total - distinct : 0;
	named = cover != MAIL_NONE ? cover : v[0].index;
	ps->subject = xstrdup(rs->clean.v[named]);
	ps->message_id = xstrdup(rs->ids.v[named]);
	if (cover != MAIL_NONE && rs->base[cover])
		ps->base_commit = xstrdup(rs->base[cover]);
	for (size_t j = 0; !ps->base_commit && j < ps->nr; j++)
		if (rs->base[v[j].index])
			ps->base_commit = xstrdup(rs->base[v[j].index]);
}

/*
 * The patches kept, grouped into series (mail_kinds_units()) and put in
 * the order of their own numbers. A kept message the mail core put in
 * no series (one the parser refused) stays after the patch before it in
 * the inputs, in its series; at the start, it is a series of its own,
 * after the others. rs->unit maps the mail core's series to ours.
 */
static void group_series(struct patch_mails *pms, struct read_state *rs)
{
	size_t ns = mail_kinds_series_count(rs->mk), nu, extra, *renumber, *cover, alloc = 0;

	rs->unit = xmalloc(st_mult(ns + 1, sizeof(*rs->unit)));
	nu = mail_kinds_units(rs->mk, rs->unit);
	extra = nu;
	for (size_t j = 0; j < pms->nr; j++) {
		struct patch_mail_ref *r = &pms->v[j];
		const struct mail_class *c = mail_kinds_at(rs->mk, r->index);

		r->k = c->k;
		r->total = c->total;
		if (!r->total)
			r->k = r->total = 1;
		if (c->series != MAIL_NONE && rs->unit[c->series] != MAIL_NONE) {
			r->series = rs->unit[c->series];
		} else if (j) {
			/* a mail the parser refused stays where it was: it stops that series */
			r->series = pms->v[j - 1].series;
			r->k = pms->v[j - 1].k;
			r->total = pms->v[j - 1].total;
		} else {
			r->series = extra++;
		}
	}
	if (pms->nr)
		qsort(pms->v, pms->nr, sizeof(*pms->v), cmp_ref);
	/* numbers without a patch kept (none, but for safety) are given up */
	renumber = xmalloc(st_mult(extra + 1, sizeof(*renumber)));
	for (size_t u = 0; u < extra; u++)
		renumber[u] = MAIL_NONE;
	for (size_t j = 0; j < pms->nr; j++) {
		struct patch_mail_ref *r = &pms->v[j];
		size_t u = r->series;

		if (renumber[u] == MAIL_NONE) {
			ALLOC_GROW(pms->series, pms->series_nr + 1, alloc);
			memset(&pms->series[pms->series_nr], 0, sizeof(*pms->series));
			pms->series[pms->series_nr].first = j;
			renumber[u] = pms->series_nr++;
		}
		r->series = renumber[u];
		pms->series[r->series].nr++;
	}
	for (size_t s = 0; s < ns; s++)
		if (rs->unit[s] != MAIL_NONE)
			rs->unit[s] = renumber[rs->unit[s]];
	cover = find_covers(pms, rs);
	for (size_t u = 0; u < pms->series_nr; u++)
		describe_series(&pms->series[u], pms, rs, cover[u]);
	free(cover);
	free(renumber);
}

/* The series message i belongs to: its own, else that of what it answers; MAIL_NONE. */
static size_t series_of_message(const struct read_state *rs, size_t i)
{
	for (size_t steps = 0; i != MAIL_NONE && steps <= rs->nr; steps++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, i);

		if (c->series != MAIL_NONE)
			return rs->unit[c->series];
		i = c->parent;
	}
	return MAIL_NONE;
}

/* The series a --series value names: "<n>" or a Message-ID; MAIL_NONE. "all": pms->series_nr. */
static size_t named_series(const struct patch_mails *pms, const struct read_state *rs, const char *name)
{
	const char *id = name;
	size_t len;
	char *end;
	unsigned long n = strtoul(name, &end, 10);

	if (*name >= '0' && *name <= '9' && !*end)
		return n >= 1 && n <= pms->series_nr ? n - 1 : MAIL_NONE;
	if (!strcmp(name, "all"))
		return pms->series_nr;
	skip_prefix(id, "id:", &id);
	len = strlen(id);
	if (len > 2 && id[0] == '<' && id[len - 1] == '>') {
		id++;
		len -= 2;
	}
	for (size_t i = 0; i < rs->nr; i++)
		if (strlen(rs->ids.v[i]) == len && !memcmp(rs->ids.v[i], id, len))
			return series_of_message(rs, i);
	return MAIL_NONE;
}

/*
 * Keeps the series named: -1 (reported, with the series there are) when
 * one is not there. rs->unit follows (MAIL_NONE for a series dropped).
 */
static int keep_named_series(struct patch_mails *pms, struct read_state *rs,
			     const struct strvec *names)
{
	unsigned char *keep = xcalloc(pms->series_nr + 1, 1);
	size_t *renumber = xmalloc(st_mult(pms->series_nr + 1, sizeof(*renumber)));
	size_t nv = 0, ns = 0;
	int ret = 0;

	for (size_t i = 0; i < names->nr; i++) {
		size_t u = named_series(pms, rs, names->v[i]);

		if (u == MAIL_NONE) {
			struct strbuf list = STRBUF_INIT;

			ret = error("no series '%s' in the input; it holds %zu:", names->v[i], pms->series_nr);
			patch_mails_list_series(pms, &list);
			if (list.len)
				say(stderr, "%.*s", (int)list.len - 1, list.buf);
			strbuf_release(&list);
			break;
		}
		if (u == pms->series_nr)
			memset(keep, 1, pms->series_nr);
		else
			keep[u] = 1;
	}
	for (size_t u = 0; !ret && u < pms->series_nr; u++) {
		struct patch_series ps = pms->series[u];

		renumber[u] = MAIL_NONE;
		if (!keep[u]) {
			free(ps.subject);
			free(ps.message_id);
			free(ps.base_commit);
			continue;
		}
		renumber[u] = ns;
		for (size_t j = 0; j < ps.nr; j++) {
			pms->v[nv] = pms->v[ps.first + j];
			pms->v[nv++].series = ns;
		}
		ps.first = nv - ps.nr;
		pms->series[ns++] = ps;
	}
	if (!ret) {
		pms->nr = nv;
		pms->series_nr = ns;
		for (size_t s = 0; s < mail_kinds_series_count(rs->mk); s++)
			if (rs->unit[s] != MAIL_NONE)
				rs->unit[s] = renumber[rs->unit[s]];
		rs->selected = 1;
	}
	free(keep);
	free(renumber);
	return ret;
}

/*
 * The messages stepped over, said ("Skipping reply: Re: ...") and
 * counted; with a selection, only those of the series kept.
 */
static void say_skipped(struct patch_mails *pms, const struct read_state *rs, FILE *say_to)
{
	for (size_t j = 0; j < rs->skips_nr; j++) {
		size_t i = rs->skips[j].i;
		const struct mail_class *c = mail_kinds_at(rs->mk, i);

		if (rs->selected && series_of_message(rs, i) == MAIL_NONE)
			continue;
		if (rs->skips[j].superseded)
			pms->superseded++;
		else
			pms->counts[c->kind]++;
		if (say_to)
			say(say_to, "Skipping %s: %s",
			    rs->skips[j].superseded ? "superseded patch" : mail_kind_name(c->kind),
			    rs->subjects.v[i]);
	}
}

void patch_mails_name(struct strbuf *out, const struct patch_mail_ref *ref)
{
	strbuf_addf(out, "%d/%d", ref->k, ref->total);
}

void patch_mails_list_series(const struct patch_mails *pms, struct strbuf *out)
{
	for (size_t u = 0; u < pms->series_nr; u++) {
		const struct patch_series *ps = &pms->series[u];

		strbuf_addf(out, "  %zu: %s (v%d, %zu patch%s)", u + 1, ps->subject,
			    ps->version > 0 ? ps->version : 1, ps->nr, ps->nr == 1 ? "" : "es");
		if (*ps->message_id)
			strbuf_addf(out, " <%s>", ps->message_id);
		strbuf_addch(out, '\n');
	}
}

/* The follow-ups' trailers, read first: a mailbox without any needs no more. */
static int any_trailer(const struct read_state *rs, const struct patch_mails *pms,
		       struct strbuf *buf)
{
	struct trailer_list tl = TRAILER_LIST_INIT;
	int found = 0;

	for (size_t i = 0; i < rs->nr && !found; i++) {
		if (mail_kinds_at(rs->mk, i)->kind != MAIL_FOLLOWUP)
			continue;
		if (patch_mails_get(pms, &rs->refs[i], buf, NULL) < 0) {
			found = -1;
			break;
		}
		trailers_of_reply(&tl, buf->buf, buf->len);
		found = tl.nr > 0;
	}
	trailer_list_release(&tl);
	return found;
}

/*
 * What the follow-ups give each patch kept (common/mail/review.h), every
 * message read back from the spool one at a time. -1 on a hashing or
 * spool read failure (reported).
 */
static int collect_review(struct patch_mails *pms, const struct read_state *rs,
			  const struct patch_mails_opts *opts)
{
	static const struct mailinfo_opts full = { .quoted_cr = MAILINFO_QUOTED_CR_WARN, .quiet = 1 };
	static const struct mailinfo_opts heads = {
		.quoted_cr = MAILINFO_QUOTED_CR_WARN, .headers_and_paths_only = 1, .quiet = 1,
	};
	struct strbuf buf = STRBUF_INIT, mark = STRBUF_INIT;
	struct attest_verdict v = ATTEST_VERDICT_INIT;
	int reviewed = any_trailer(rs, pms, &buf), ret = 0;
	size_t *applied = xmalloc(st_mult(pms->nr + 1, sizeof(size_t)));
	struct patch_mail pm;

	pms->review = review_new();
	mailinfo_init(&pm);
	for (size_t i = 0; i < rs->nr && reviewed >= 0; i++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, i);
		size_t family = c->series != MAIL_NONE ? mail_kinds_series(rs->mk, c->series)->family : MAIL_NONE;
		struct raw_mail raw;
		struct review_msg m;

		if (patch_mails_get(pms, &rs->refs[i], &buf, &raw) < 0) {
			reviewed = -1;
			break;
		}
		/* without trailers in the follow-ups, a message's kind and place are all it takes */
		mailinfo_parse(&pm, &raw, reviewed && c->kind == MAIL_PATCH ? &full : &heads);
		if (!reviewed)
			strbuf_reset(&pm.patch);
		if (review_msg_from_mail(&m, c, family, &pm, raw.buf, reviewed ? raw.len : 0, raw.number,
					 opts->trailers) < 0)
			ret = -1;
		if (reviewed && opts->attest && c->kind == MAIL_FOLLOWUP) {
			if (attest_check(opts->attest, &raw, &v) < 0)
				ret = -1;
			strbuf_reset(&mark);
			if (v.verdict != 'N') {
				attest_format(&mark, &v);
				m.attest = mark.buf;
			}
		}
		review_add(pms->review, &m);
	}
	for (size_t j = 0; j < pms->nr; j++)
		applied[j] = pms->v[j].index;
	if (reviewed < 0)
		ret = -1;
	else
		review_collect(pms->review, applied, pms->nr, opts->review);
	mailinfo_release(&pm);
	strbuf_release(&buf);
	strbuf_release(&mark);
	attest_verdict_release(&v);
	free(applied);
	return ret;
}

static int cmp_k(const void *a_, const void *b_, void *mk_)
{
	const struct patch_mail_ref *a = a_, *b = b_;
	const struct mail_kinds *mk = mk_;
	int ka = mail_kinds_at(mk, a->index)->k, kb = mail_kinds_at(mk, b->index)->k;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The patches of series s (the older version), by number. */
static void old_patches(struct patch_mails_versions *pv, const struct read_state *rs, size_t s)
{
	size_t alloc = 0;

	for (size_t i = 0; i < rs->nr; i++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, i);

		if (c->series != s || c->kind != MAIL_PATCH)
			continue;
		ALLOC_GROW(pv->old, pv->old_nr + 1, alloc);
		pv->old[pv->old_nr] = rs->refs[i];
		pv->old[pv->old_nr++].index = i;
	}
	qsort_r(pv->old, pv->old_nr, sizeof(*pv->old), cmp_k, rs->mk);
}

/* The cover letter subject of the newest version, else its first patch's. */
static const char *version_subject(const struct read_state *rs, const struct patch_mails *pms,
				   const struct patch_mails_versions *pv)
{
	size_t first = pms->v[pv->new[0]].index;
	size_t s = mail_kinds_at(rs->mk, first)->series;

	for (size_t i = 0; i < rs->nr; i++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, i);

		if (c->kind == MAIL_COVER && c->series == s)
			return rs->clean.v[i];
	}
	return rs->clean.v[first];
}

/*
 * Per family whose patches kept are of a version newer than one of its
 * full postings: those patches, and the newest such older posting.
 */
static void find_versions(struct patch_mails *pms, const struct read_state *rs)
{
	size_t ns = mail_kinds_series_count(rs->mk), alloc = 0;
	int *newest = xcalloc(ns + 1, sizeof(*newest));
	size_t *older = xmalloc(st_mult(ns + 1, sizeof(*older)));

	for (size_t f = 0; f < ns; f++)
		older[f] = MAIL_NONE;
	for (size_t j = 0; j < pms->nr; j++) {
		const struct mail_class *c = mail_kinds_at(rs->mk, pms->v[j].index);
		size_t f;

		if (c->series == MAIL_NONE)
			continue;
		f = mail_kinds_series(rs->mk, c->series)->family;
		if (c->version > newest[f])
			newest[f] = c->version;
	}
	for (size_t s = 0; s < ns; s++) {
		const struct mail_series *ms = mail_kinds_series(rs->mk, s);
		size_t f = ms->family;

		if (!ms->partial && ms->version < newest[f] &&
		    (older[f] == MAIL_NONE || ms->version > mail_kinds_series(rs->mk, older[f])->version))
			older[f] = s;
	}
	for (size_t f = 0; f < ns; f++) {
		struct patch_mails_versions *pv;

		if (older[f] == MAIL_NONE)
			continue;
		ALLOC_GROW(pms->versions, pms->versions_nr + 1, alloc);
		pv = &pms->versions[pms->versions_nr++];
		memset(pv, 0, sizeof(*pv));
		pv->old_version = mail_kinds_series(rs->mk, older[f])->version;
		pv->new_version = newest[f];
		old_patches(pv, rs, older[f]);
		pv->new = xmalloc(st_mult(pms->nr + 1, sizeof(size_t)));
		for (size_t j = 0; j < pms->nr; j++) {
			const struct mail_class *c = mail_kinds_at(rs->mk, pms->v[j].index);

			if (c->series != MAIL_NONE && mail_kinds_series(rs->mk, c->series)->family == f)
				pv->new[pv->new_nr++] = j;
		}
		pv->subject = xstrdup(version_subject(rs, pms, pv));
	}
	free(older);
	free(newest);
}

static void warn_incomplete(const struct read_state *rs)
{
	struct strbuf ranges = STRBUF_INIT;
	size_t ns = mail_kinds_series_count(rs->mk);

	for (size_t s = 0; s < ns; s++) {
		const struct mail_series *ms = mail_kinds_series(rs->mk, s);

		/* an older version, or one of a series not kept, is not applied: what it lacks is no matter */
		if (ms->superseded || (rs->selected && rs->unit[s] == MAIL_NONE))
			continue;
		strbuf_reset(&ranges);
		if (mail_kinds_missing(rs->mk, s, &ranges))
			warning("%s: message %zu: series '%s' v%d is incomplete: missing %s of %d",
				rs->refs[ms->first].origin, rs->refs[ms->first].number,
				rs->clean.v[ms->first], ms->version, ranges.buf, ms->total);
	}
	strbuf_release(&ranges);
}

enum maint_result patch_mails_read(struct patch_mails *pms, const char *const *args, size_t nargs,
				   const struct patch_mails_opts *opts)
{
	struct read_state rs = { &pms->spool, !!opts->review, NULL, 0, 0, NULL, NULL, STRVEC_INIT, STRVEC_INIT,
				 STRVEC_INIT, NULL, NULL, NULL, 0, 0, 0 };
	struct mail_source *src;
	struct patch_mail pm;
	struct raw_mail raw;
	enum maint_result ret = RESULT_OK;
	int rc;

	if (source_open(&src, args, nargs, source_opts_flags(opts->source)) < 0)
		return RESULT_FATAL;
	if (source_configure(src, opts->cfg, opts->source) < 0) {
		source_close(src);
		return RESULT_FATAL;
	}
	rs.mk = mail_kinds_new();
	mailinfo_init(&pm);
	while ((rc = source_next(src, &raw)) != 0) {
		if (rc < 0) {
			ret = source_oversized(src) ? RESULT_NO : RESULT_FATAL;
			break;
		}
		if (add_message(&rs, &raw, &pm) < 0) {
			ret = RESULT_FATAL;
			break;
		}
	}
	source_close(src);
	mailinfo_release(&pm);
	if (!ret) {
		mail_kinds_run(rs.mk);
		choose(pms, &rs);
		group_series(pms, &rs);
		if (opts->series && opts->series->nr && keep_named_series(pms, &rs, opts->series) < 0)
			ret = RESULT_NO;
	}
	if (!ret) {
		say_skipped(pms, &rs, opts->say);
		if (!opts->quiet)
			warn_incomplete(&rs);
		if (opts->review && collect_review(pms, &rs, opts) < 0)
			ret = RESULT_FATAL;
		if (opts->versions)
			find_versions(pms, &rs);
	}
	for (size_t i = 0; i < rs.nr; i++)
		free(rs.base[i]);
	free(rs.base);
	free(rs.unit);
	free(rs.skips);
	free(rs.refs);
	free(rs.bad);
	strvec_clear(&rs.subjects);
	strvec_clear(&rs.clean);
	strvec_clear(&rs.ids);
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
	for (size_t u = 0; u < pms->series_nr; u++) {
		free(pms->series[u].subject);
		free(pms->series[u].message_id);
		free(pms->series[u].base_commit);
	}
	free(pms->series);
	review_free(pms->review);
	for (size_t i = 0; i < pms->versions_nr; i++) {
		free(pms->versions[i].old);
		free(pms->versions[i].new);
		free(pms->versions[i].subject);
	}
	free(pms->versions);
	spool_close(&pms->spool);
	free(pms->v);
	memset(pms, 0, sizeof(*pms));
	pms->spool.fd = -1;
}

int patch_mails_get(const struct patch_mails *pms, const struct patch_mail_ref *ref,
		    struct strbuf *buf, struct raw_mail *raw)
{
	/* spool_read() only preads: a copy of the handle reads the same file */
	struct spool spool = pms->spool;

	if (ref->off < 0)
		BUG("message %zu of '%s' was not kept", ref->number, ref->origin);
	if (spool_read(&spool, ref->off, ref->len, buf) < 0)
		return -1;
	if (raw) {
		memset(raw, 0, sizeof(*raw));
		raw->buf = buf->buf;
		raw->len = buf->len;
		raw->origin = ref->origin;
		raw->number = ref->number;
	}
	return 0;
}
