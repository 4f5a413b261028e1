/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msg.h"
#include "config.h"
#include "hashmap.h"
#include "mailinfo.h"
#include "parse-options.h"
#include "usage.h"
#include "review.h"
#include "wrapper.h"

#define NONE MAIL_NONE

struct rmsg {
	enum mail_kind kind;
	size_t parent, series, family;
	int version, k, total;
	size_t number;
	char *subject, *from_name, *from_email, *replier;
	char *attest;		/* the follow-up's attestation ("G DKIM/example.net"), or NULL */
	struct trailer_list trailers;
	unsigned char patch_id[PATCH_ID_RAWSZ];
	unsigned has_patch_id:1;
	size_t applied_as;	/* its place among the applied patches, or NONE */
};

/* A trailer on its way to a patch: from which follow-up, given to which message. */
struct gift {
	size_t followup, given_to;
	size_t t;		/* index in the follow-up's trailers */
	const char *via;	/* "", or where it was given when not to this patch */
	int stale;
	int rank;		/* where it was given: GIVEN_* (b4's order) */
};

/* b4's order: what the patch was given, then its other versions, then the cover letters. */
enum { GIVEN_PATCH, GIVEN_VERSION, GIVEN_COVER };

struct gifts {
	struct gift *v;
	size_t nr, alloc;
};

struct review {
	struct rmsg *m;
	size_t nr, alloc;
	struct review_list *per;	/* per applied patch */
	size_t napplied;
	struct review_list unplaced;
	struct strvec notes;		/* strings the gifts' via point to */
};

struct review *review_new(void)
{
	struct review *rv = xcalloc(1, sizeof(*rv));

	strvec_init(&rv->notes);
	return rv;
}

static void list_release(struct review_list *rl)
{
	for (size_t i = 0; i < rl->nr; i++)
		free(rl->v[i].note);
	free(rl->v);
}

void review_free(struct review *rv)
{
	if (!rv)
		return;
	for (size_t i = 0; i < rv->nr; i++) {
		struct rmsg *m = &rv->m[i];

		free(m->subject);
		free(m->from_name);
		free(m->from_email);
		free(m->replier);
		free(m->attest);
		trailer_list_release(&m->trailers);
	}
	for (size_t i = 0; i < rv->napplied; i++)
		list_release(&rv->per[i]);
	free(rv->per);
	list_release(&rv->unplaced);
	strvec_clear(&rv->notes);
	free(rv->m);
	free(rv);
}

void review_opts_release(struct review_opts *opts)
{
	strvec_clear(&opts->kinds);
}

int review_parse_take(struct review_opts *opts, const char *arg)
{
	const char *p = arg;

	strvec_clear(&opts->kinds);
	if (!strcasecmp(arg, "all")) {
		opts->take = REVIEW_TAKE_ALL;
		return 0;
	}
	if (!strcasecmp(arg, "none")) {
		opts->take = REVIEW_TAKE_NONE;
		return 0;
	}
	opts->take = REVIEW_TAKE_SOME;
	for (;;) {
		size_t n = strcspn(p, ",");
		size_t i = 0;

		while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
				 (p[i] >= '0' && p[i] <= '9') || (i && p[i] == '-')))
			i++;
		if (!n || i != n) {
			strvec_clear(&opts->kinds);
			return error("bad trailer kind '%.*s' in '%s' (all, none, or tokens such as "
				     "'reviewed-by,acked-by')", (int)n, p, arg);
		}
		strvec_pushf(&opts->kinds, "%.*s", (int)n, p);
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

int review_opt_trailers(const struct option *opt, const char *arg, int unset)
{
	struct review_opts *opts = opt->value;

	opts->take_given = 1;
	if (unset) {
		strvec_clear(&opts->kinds);
		opts->take = REVIEW_TAKE_NONE;
		return 0;
	}
	return review_parse_take(opts, arg);
}

int review_opts_config(struct review_opts *opts, const struct maint_config *cfg)
{
	const char *v = config_get(cfg, "queue", NULL, "trailers");

	if (!opts->take_given && v && review_parse_take(opts, v) < 0)
		return error("bad value for 'queue.trailers'");
	if (opts->sloppy < 0) {
		v = config_get(cfg, "queue", NULL, "sloppy-trailers");
		opts->sloppy = v ? config_parse_bool(v) : 0;
		if (opts->sloppy < 0)
			return error("bad boolean config value '%s' for 'queue.sloppy-trailers'", v);
	}
	return 0;
}

const char *review_verdict_name(enum review_verdict v)
{
	static const char *const names[] = { "carried", "flagged", "kept-once", "not-taken", "stale" };

	return names[v];
}

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

void review_add(struct review *rv, struct review_msg *in)
{
	struct rmsg *m;
	struct strbuf who = STRBUF_INIT;

	ALLOC_GROW(rv->m, rv->nr + 1, rv->alloc);
	m = &rv->m[rv->nr++];
	memset(m, 0, sizeof(*m));
	m->kind = in->kind;
	m->parent = in->parent;
	m->series = in->series;
	m->family = in->family;
	m->version = in->version;
	m->k = in->k;
	m->total = in->total;
	m->number = in->number;
	m->subject = dup_or_empty(in->subject);
	m->from_name = dup_or_empty(in->from_name);
	m->from_email = dup_or_empty(in->from_email);
	if (*m->from_name && strcmp(m->from_name, m->from_email))
		strbuf_addf(&who, "%s <%s>", m->from_name, m->from_email);
	else
		strbuf_addstr(&who, m->from_email);
	m->replier = strbuf_detach(&who, NULL);
	m->attest = xstrdup_or_null(in->attest);
	m->trailers = in->trailers;
	memset(&in->trailers, 0, sizeof(in->trailers));
	memcpy(m->patch_id, in->patch_id, PATCH_ID_RAWSZ);
	m->has_patch_id = in->has_patch_id;
	m->applied_as = NONE;
}

int review_msg_from_mail(struct review_msg *m, const struct mail_class *c, size_t family,
			 const struct patch_mail *pm, const char *bytes, size_t len, size_t number,
			 const struct trailer_conf *tc)
{
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->kind = c->kind;
	m->parent = c->parent;
	m->series = c->series;
	m->family = family;
	m->version = c->version;
	m->k = c->k;
	m->total = c->total;
	m->number = number;
	m->subject = pm->subject.buf;
	m->from_name = pm->author_name.buf;
	m->from_email = pm->author_email.buf;
	if (c->kind == MAIL_FOLLOWUP) {
		trailers_of_reply(&m->trailers, bytes, len);
	} else if (c->kind == MAIL_PATCH) {
		struct strbuf msg = STRBUF_INIT;

		msg_from_mail(&msg, pm->subject.buf, pm->subject.len, pm->message.buf, pm->message.len);
		trailers_of_message(&m->trailers, msg.buf, msg.len, tc);
		strbuf_release(&msg);
		m->has_patch_id = !patch_id_stable(m->patch_id, pm->patch.buf, pm->patch.len);
	}
	return ret;
}

/* ---- who gave what to whom ---- */

/* The patch or cover letter a follow-up answers, through other follow-ups; NONE. */
static size_t answered(const struct review *rv, size_t f)
{
	size_t p = rv->m[f].parent;

	for (size_t steps = 0; p != NONE && p < rv->nr && steps <= rv->nr; steps++) {
		if (rv->m[p].kind == MAIL_PATCH || rv->m[p].kind == MAIL_COVER)
			return p;
		if (rv->m[p].kind != MAIL_FOLLOWUP)
			return NONE;
		p = rv->m[p].parent;
	}
	return NONE;
}

static void gift_add(struct gifts *g, size_t followup, size_t given_to, size_t t, const char *via,
		     int stale, int rank)
{
	ALLOC_GROW(g->v, g->nr + 1, g->alloc);
	g->v[g->nr].followup = followup;
	g->v[g->nr].given_to = given_to;
	g->v[g->nr].t = t;
	g->v[g->nr].via = via;
	g->v[g->nr].stale = stale;
	g->v[g->nr].rank = rank;
	g->nr++;
}

static int cmp_gift(const void *a_, const void *b_)
{
	const struct gift *a = a_, *b = b_;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->followup != b->followup)
		return a->followup < b->followup ? -1 : 1;
	return a->t < b->t ? -1 : a->t > b->t;
}

/*
 * Every follow-up's trailers to the message it answers: by patch
 * (to_patch[n]) and by cover letter (to_cover[n]), in mailbox order.
 */
static void hand_out(struct review *rv, struct gifts *to_msg)
{
	for (size_t f = 0; f < rv->nr; f++) {
		size_t target;

		if (rv->m[f].kind != MAIL_FOLLOWUP || !rv->m[f].trailers.nr)
			continue;
		target = answered(rv, f);
		if (target == NONE)
			continue;
		for (size_t t = 0; t < rv->m[f].trailers.nr; t++)
			gift_add(&to_msg[target], f, target, t, "", 0, GIVEN_PATCH);
	}
}

/* "v1 3/4", or "v2" for a single patch. */
static void patch_name(struct strbuf *out, const struct rmsg *m)
{
	strbuf_addf(out, "v%d", m->version > 0 ? m->version : 1);
	if (m->total > 1)
		strbuf_addf(out, " %d/%d", m->k, m->total);
}

/* "on v1 3/4", "on the v1 cover letter", with what follows. */
static const char *note_for(struct review *rv, const struct rmsg *to, const struct rmsg *given,
			    const char *rest)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "on ");
	if (given->kind == MAIL_COVER) {
		strbuf_addstr(&sb, "the ");
		if (given->version != to->version || given->series != to->series)
			strbuf_addf(&sb, "v%d ", given->version);
		strbuf_addstr(&sb, "cover letter");
	} else {
		if (given->version == to->version)
			strbuf_addstr(&sb, "another posting of ");
		patch_name(&sb, given);
	}
	strbuf_addstr(&sb, rest);
	strvec_push(&rv->notes, sb.buf);
	strbuf_release(&sb);
	return rv->notes.v[rv->notes.nr - 1];
}

/* The gifts of patch p: its own and its cover letter's. */
static void gifts_of_patch(struct review *rv, size_t p, const struct gifts *to_msg,
			   const size_t *cover_of_series, struct gifts *out, const struct rmsg *to,
			   const char *rest, int stale)
{
	const struct rmsg *pm = &rv->m[p];
	size_t c = pm->series != NONE ? cover_of_series[pm->series] : NONE;
	struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; i < to_msg[p].nr; i++)
		gift_add(out, to_msg[p].v[i].followup, p, to_msg[p].v[i].t,
			 to == pm ? "" : note_for(rv, to, pm, rest), stale,
			 to == pm ? GIVEN_PATCH : GIVEN_VERSION);
	if (c == NONE)
		return;
	/* what changed is the patch, not the cover letter: "on the v1 cover letter, for v1 3/4, which ..." */
	if (to != pm && *rest) {
		strbuf_addstr(&why, ", for ");
		patch_name(&why, pm);
		strbuf_addstr(&why, rest);
	}
	for (size_t i = 0; i < to_msg[c].nr; i++)
		gift_add(out, to_msg[c].v[i].followup, c, to_msg[c].v[i].t,
			 note_for(rv, to, &rv->m[c], to == pm ? "" : why.buf), stale, GIVEN_COVER);
	strbuf_release(&why);
}

/* ---- versions of a patch ---- */

static int same_change(const struct rmsg *a, const struct rmsg *b)
{
	return a->has_patch_id && b->has_patch_id && !memcmp(a->patch_id, b->patch_id, PATCH_ID_RAWSZ);
}

/* The applied patch of q's family that stands where q stood: same number, else same subject. */
static size_t counterpart(const struct review *rv, const size_t *fam, size_t nfam, size_t q)
{
	const struct rmsg *qm = &rv->m[q];

	for (size_t i = 0; i < nfam; i++)
		if (rv->m[fam[i]].applied_as != NONE && rv->m[fam[i]].k == qm->k && qm->total > 1)
			return fam[i];
	for (size_t i = 0; i < nfam; i++)
		if (rv->m[fam[i]].applied_as != NONE && !strcmp(rv->m[fam[i]].subject, qm->subject))
			return fam[i];
	return NONE;
}

static int newest_applied(const struct review *rv, const size_t *fam, size_t nfam)
{
	int v = 0;

	for (size_t i = 0; i < nfam; i++)
		if (rv->m[fam[i]].applied_as != NONE && rv->m[fam[i]].version > v)
			v = rv->m[fam[i]].version;
	return v;
}

struct member {
	size_t family, n;
};

static int cmp_member(const void *a_, const void *b_)
{
	const struct member *a = a_, *b = b_;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

/*
 * The patches of one family not applied give their trailers to the
 * applied patch with their patch id (carried), or are stale: on the
 * applied patch standing where they stood, or unplaced.
 */
static void older_versions(struct review *rv, const size_t *fam, size_t nfam,
			   const struct gifts *to_msg, const size_t *cover_of_series,
			   struct gifts *per, struct gifts *unplaced)
{
	int newest = newest_applied(rv, fam, nfam);
	struct strbuf rest = STRBUF_INIT;

	if (!newest)
		return;
	for (size_t i = 0; i < nfam; i++) {
		size_t q = fam[i], cp;
		int matched = 0;

		if (rv->m[q].applied_as != NONE)
			continue;
		for (size_t j = 0; j < nfam; j++) {
			const struct rmsg *a = &rv->m[fam[j]];

			if (a->applied_as == NONE || !same_change(a, &rv->m[q]))
				continue;
			gifts_of_patch(rv, q, to_msg, cover_of_series, &per[a->applied_as], a, "", 0);
			matched = 1;
		}
		if (matched)
			continue;
		cp = counterpart(rv, fam, nfam, q);
		strbuf_reset(&rest);
		if (cp != NONE) {
			strbuf_addf(&rest, ", which changed in v%d", rv->m[cp].version);
			gifts_of_patch(rv, q, to_msg, cover_of_series, &per[rv->m[cp].applied_as],
				       &rv->m[cp], rest.buf, 1);
		} else {
			struct rmsg none = rv->m[q];

			strbuf_addf(&rest, ", which v%d dropped", newest);
			none.version = newest;
			none.series = NONE;
			gifts_of_patch(rv, q, to_msg, cover_of_series, unplaced, &none, rest.buf, 1);
		}
	}
	strbuf_release(&rest);
}

/* ---- verdicts ---- */

static int taken(const struct review_opts *opts, const struct trailer *t)
{
	if (opts->take == REVIEW_TAKE_ALL)
		return 1;
	if (opts->take == REVIEW_TAKE_NONE)
		return 0;
	for (size_t i = 0; i < opts->kinds.nr; i++)
		if (!strcasecmp(opts->kinds.v[i], t->token))
			return 1;
	return 0;
}

/*
 * Two trailers are the same when both name a person and have the same
 * token and address (one person's trailer given twice), or neither
 * names one and the lines are the same, ASCII case ignored either way:
 * so the same key (case folded) here, for sets that keep judge()
 * linear however many trailers a patch is given (reliability case 55).
 */
static void trailer_key(struct strbuf *key, const struct trailer *t)
{
	const char *parts[2] = { *t->email ? t->token : t->line, *t->email ? t->email : NULL };

	strbuf_reset(key);
	strbuf_addch(key, *t->email ? 'p' : 'l');
	for (size_t i = 0; i < 2 && parts[i]; i++) {
		strbuf_addch(key, '\0');
		strbuf_addstr_lower(key, parts[i]);
	}
}

/* The trailers a patch has, and those carried to it so far. */
struct kept {
	struct hashmap in_patch, carried;
	struct strbuf key;
};

/* Was t already in the patch, or carried before? */
static const char *kept_once(struct kept *k, const struct trailer *t)
{
	trailer_key(&k->key, t);
	if (hashmap_get(&k->in_patch, k->key.buf, k->key.len))
		return "already in the patch";
	if (hashmap_get(&k->carried, k->key.buf, k->key.len))
		return "given twice";
	return NULL;
}

static void judge(struct review *rv, const struct rmsg *patch, struct gifts *g,
		  struct review_list *out, const struct review_opts *opts)
{
	struct strbuf note = STRBUF_INIT;
	struct kept kept = { HASHMAP_INIT, HASHMAP_INIT, STRBUF_INIT };

	if (g->nr)
		qsort(g->v, g->nr, sizeof(*g->v), cmp_gift);
	for (size_t i = 0; patch && i < patch->trailers.nr; i++) {
		trailer_key(&kept.key, &patch->trailers.v[i]);
		hashmap_put(&kept.in_patch, kept.key.buf, kept.key.len, NULL);
	}
	for (size_t i = 0; i < g->nr; i++) {
		const struct rmsg *f = &rv->m[g->v[i].followup];
		const struct trailer *t = &f->trailers.v[g->v[i].t];
		struct review_item *it;
		const char *once = NULL;
		int own = trailer_is_from(t, f->from_name, f->from_email);

		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		it = &out->v[out->nr++];
		it->trailer = t;
		it->followup = g->v[i].followup;
		it->given_to = g->v[i].given_to;
		it->replier = f->replier;
		it->attest = f->attest;
		strbuf_reset(&note);
		strbuf_addstr(&note, g->v[i].via);
		if (g->v[i].stale)
			it->verdict = REVIEW_STALE;
		else if (!taken(opts, t))
			it->verdict = REVIEW_NOT_TAKEN;
		else if (!own && opts->sloppy <= 0)
			it->verdict = REVIEW_FLAGGED;
		else if (patch && (once = kept_once(&kept, t)))
			it->verdict = REVIEW_KEPT_ONCE;
		else
			it->verdict = patch ? REVIEW_CARRIED : REVIEW_STALE;
		if (it->verdict == REVIEW_CARRIED) {
			trailer_key(&kept.key, t);
			hashmap_put(&kept.carried, kept.key.buf, kept.key.len, NULL);
		}
		if (!own)
			strbuf_addf(&note, "%snot the sender's address", note.len ? ", " : "");
		if (once)
			strbuf_addf(&note, "%s%s", note.len ? ", " : "", once);
		if (it->verdict == REVIEW_NOT_TAKEN)
			strbuf_addf(&note, "%snot taken", note.len ? ", " : "");
		it->note = strbuf_detach(&note, NULL);
	}
	strbuf_release(&note);
	strbuf_release(&kept.key);
	hashmap_release(&kept.in_patch);
	hashmap_release(&kept.carried);
}

void review_collect(struct review *rv, const size_t *applied, size_t napplied,
		    const struct review_opts *opts)
{
	struct gifts *to_msg = xcalloc(rv->nr + 1, sizeof(*to_msg));
	struct gifts *per = xcalloc(napplied + 1, sizeof(*per)), unplaced = { 0 };
	size_t *cover_of_series = xmalloc(st_mult(rv->nr + 1, sizeof(size_t)));
	struct member *by_family = xmalloc(st_mult(rv->nr + 1, sizeof(*by_family)));
	size_t *members = xmalloc(st_mult(rv->nr + 1, sizeof(size_t))), nfam = 0;

	rv->per = xcalloc(napplied + 1, sizeof(*rv->per));
	rv->napplied = napplied;
	for (size_t i = 0; i < napplied; i++)
		if (applied[i] < rv->nr)
			rv->m[applied[i]].applied_as = i;
	for (size_t s = 0; s <= rv->nr; s++)
		cover_of_series[s] = NONE;
	for (size_t n = 0; n < rv->nr; n++)
		if (rv->m[n].kind == MAIL_COVER && rv->m[n].series < rv->nr &&
		    cover_of_series[rv->m[n].series] == NONE)
			cover_of_series[rv->m[n].series] = n;
	hand_out(rv, to_msg);

	/* each applied patch's own, then the other versions family by family */
	for (size_t i = 0; i < napplied; i++)
		if (applied[i] < rv->nr)
			gifts_of_patch(rv, applied[i], to_msg, cover_of_series, &per[i],
				       &rv->m[applied[i]], "", 0);
	for (size_t n = 0; n < rv->nr; n++)
		if (rv->m[n].kind == MAIL_PATCH && rv->m[n].family != NONE) {
			by_family[nfam].family = rv->m[n].family;
			by_family[nfam++].n = n;
		}
	qsort(by_family, nfam, sizeof(*by_family), cmp_member);
	for (size_t i = 0, j; i < nfam; i = j) {
		size_t n = 0;

		for (j = i; j < nfam && by_family[j].family == by_family[i].family; j++)
			members[n++] = by_family[j].n;
		older_versions(rv, members, n, to_msg, cover_of_series, per, &unplaced);
	}
	for (size_t i = 0; i < napplied; i++) {
		judge(rv, applied[i] < rv->nr ? &rv->m[applied[i]] : NULL, &per[i], &rv->per[i], opts);
		free(per[i].v);
	}
	judge(rv, NULL, &unplaced, &rv->unplaced, opts);
	free(unplaced.v);
	for (size_t n = 0; n < rv->nr; n++)
		free(to_msg[n].v);
	free(to_msg);
	free(per);
	free(cover_of_series);
	free(by_family);
	free(members);
}

const struct review_list *review_for(const struct review *rv, size_t i)
{
	return &rv->per[i];
}

const struct review_list *review_unplaced(const struct review *rv)
{
	return &rv->unplaced;
}

void review_carried(const struct review *rv, size_t i, struct strvec *out)
{
	const struct review_list *rl = &rv->per[i];

	for (size_t k = 0; k < rl->nr; k++)
		if (rl->v[k].verdict == REVIEW_CARRIED)
			strvec_push(out, rl->v[k].trailer->line);
}

void review_format(struct strbuf *out, const struct review_list *rl, const char *indent)
{
	static const char marks[] = { '+', '!', '=', '-', '-' };

	for (size_t i = 0; i < rl->nr; i++) {
		const struct review_item *it = &rl->v[i];
		strbuf_addf(out, "%s%c %s (%s", indent, marks[it->verdict], it->trailer->line,
			    it->replier);
		if (*it->note)
			strbuf_addf(out, ", %s", it->note);
		strbuf_addch(out, ')');
		if (it->attest)
			strbuf_addf(out, " [%s]", it->attest);
		strbuf_addch(out, '\n');
	}
}

size_t review_count(const struct review *rv, enum review_verdict v)
{
	size_t n = 0;

	for (size_t i = 0; i < rv->napplied; i++)
		for (size_t k = 0; k < rv->per[i].nr; k++)
			n += rv->per[i].v[k].verdict == v;
	for (size_t k = 0; k < rv->unplaced.nr; k++)
		n += rv->unplaced.v[k].verdict == v;
	return n;
}
