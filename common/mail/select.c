/* SPDX-License-Identifier: GPL-2.0-only */
#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mail-kind.h"
#include "mailinfo.h"
#include "select.h"
#include "usage.h"
#include "wrapper.h"

/*
 * Entries and their strings are carved from big blocks,
 * freed together. A block is 2 MiB, aligned so the kernel may back it
 * with one huge page: the index of a big mailbox (megabytes) then costs
 * a few page faults instead of one per 4 KiB.
 */
#define BLOCK_SIZE ((size_t)2 << 20)
struct block {
	struct block *next;
	size_t used, size;
	_Alignas(16) char data[];
};

struct select_index {
	const struct select_opts *opts;
	struct block *blocks;
	regex_t *authors, *subjects;
	struct mail_entry **entries;
	size_t nr, alloc;
	struct mail_kinds *kinds;	/* what each message is, its thread and series */
	struct mail_entry **order;
	struct select_series *series;	/* the selection's series (select_choose()) */
	size_t series_nr;
	struct strbuf scratch;	/* strings of the entry being added that are not kept */
};

/* Zeroed, 16-byte aligned memory that lives as long as the index. */
static void *index_alloc(struct select_index *idx, size_t size)
{
	struct block *b = idx->blocks;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!b || b->used > b->size || b->size - b->used < size) {
		size_t want = st_add(sizeof(*b), size) > BLOCK_SIZE ? st_add(sizeof(*b), size) : BLOCK_SIZE;
		void *mem;

		if (posix_memalign(&mem, BLOCK_SIZE, want))
			die("out of memory, allocating %zu bytes", want);
#ifdef MADV_HUGEPAGE
		madvise(mem, want, MADV_HUGEPAGE);	/* only a hint */
#endif
		b = mem;
		b->size = want - sizeof(*b);
		b->used = 0;
		b->next = idx->blocks;
		idx->blocks = b;
	}
	p = b->data + b->used;
	b->used += size;
	memset(p, 0, size);
	return p;
}

static regex_t *compile_all(const struct strvec *src, int icase, int *err)
{
	regex_t *re;
	size_t i;

	if (!src->nr)
		return NULL;
	re = xcalloc(src->nr, sizeof(*re));
	for (i = 0; i < src->nr; i++) {
		int rc = regcomp(&re[i], src->v[i], REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0));
		if (rc) {
			char msg[256];

			regerror(rc, &re[i], msg, sizeof(msg));
			error("invalid regular expression '%s': %s", src->v[i], msg);
			while (i--)
				regfree(&re[i]);
			free(re);
			*err = 1;
			return NULL;
		}
	}
	return re;
}

static void free_all(regex_t *re, size_t nr)
{
	size_t i;

	if (!re)
		return;
	for (i = 0; i < nr; i++)
		regfree(&re[i]);
	free(re);
}

int select_index_new(struct select_index **out, const struct select_opts *opts)
{
	struct select_index *idx = xcalloc(1, sizeof(*idx));
	int err = 0;

	idx->opts = opts;
	strbuf_init(&idx->scratch, 0);
	idx->kinds = mail_kinds_new();
	idx->authors = compile_all(&opts->authors, opts->ignore_case, &err);
	if (!err)
		idx->subjects = compile_all(&opts->subjects, opts->ignore_case, &err);
	if (err) {
		select_index_free(idx);
		*out = NULL;
		return -1;
	}
	*out = idx;
	return 0;
}

void select_index_free(struct select_index *idx)
{
	size_t i;

	if (!idx)
		return;
	if (idx->opts->keep_paths)
		for (i = 0; i < idx->nr; i++)
			strvec_clear(&idx->entries[i]->paths);
	while (idx->blocks) {
		struct block *b = idx->blocks;

		idx->blocks = b->next;
		free(b);
	}
	free(idx->entries);
	mail_kinds_free(idx->kinds);
	free(idx->order);
	free(idx->series);
	strbuf_release(&idx->scratch);
	free_all(idx->authors, idx->opts->authors.nr);
	free_all(idx->subjects, idx->opts->subjects.nr);
	free(idx);
}

size_t select_index_count(const struct select_index *idx)
{
	return idx->nr;
}

struct mail_entry *select_index_at(struct select_index *idx, size_t n)
{
	return n < idx->nr ? idx->entries[n] : NULL;
}

int select_path_matches(const char *pattern, const char *path)
{
	size_t n;

	while (pattern[0] == '.' && pattern[1] == '/')
		pattern += 2;
	if (!strpbrk(pattern, "*?[")) {
		n = strlen(pattern);
		if (!n)
			return 1;
		if (strncmp(path, pattern, n))
			return 0;
		return pattern[n - 1] == '/' || !path[n] || path[n] == '/';
	}
	/* A glob matches the path or one of its leading directories, as git pathspecs do. */
	if (!fnmatch(pattern, path, 0))
		return 1;
	for (n = 0; path[n]; n++)
		if (path[n] == '/') {
			char *dir = xstrndup(path, n);
			int m = !fnmatch(pattern, dir, 0);

			free(dir);
			if (m)
				return 1;
		}
	return 0;
}

static int any_regex(const regex_t *re, size_t nr, const char *s)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!regexec(&re[i], s, 0, NULL, 0))
			return 1;
	return 0;
}

static int entry_matches(struct select_index *idx, const struct mail_entry *e,
			 const struct patch_mail *pm)
{
	const struct select_opts *o = idx->opts;
	size_t i, j;

	if (o->touches.nr) {
		int hit = 0;

		for (i = 0; !hit && i < pm->paths.nr; i++)
			for (j = 0; !hit && j < o->touches.nr; j++)
				hit = select_path_matches(o->touches.v[j], pm->paths.v[i]);
		if (!hit)
			return 0;
	}
	if (idx->authors) {
		struct strbuf who = STRBUF_INIT;
		int hit;

		strbuf_addf(&who, "%s <%s>", e->author_name, e->author_email);
		hit = any_regex(idx->authors, o->authors.nr, who.buf);
		strbuf_release(&who);
		if (!hit)
			return 0;
	}
	if (idx->subjects && !any_regex(idx->subjects, o->subjects.nr, e->subject))
		return 0;
	if (o->since && (!e->when || e->when < o->since))
		return 0;
	if (o->until && (!e->when || e->when > o->until))
		return 0;
	return 1;
}

/* Copies s[0..len) to *at with any NUL bytes dropped (the index holds C strings). */
static char *cstr(char **at, const char *s, size_t len)
{
	char *start = *at, *d = start;
	const char *nul;

	while (len && (nul = memchr(s, '\0', len))) {
		memcpy(d, s, nul - s);
		d += nul - s;
		len -= nul - s + 1;
		s = nul + 1;
	}
	memcpy(d, s, len);
	d += len;
	*d++ = '\0';
	*at = d;
	return start;
}

struct mail_entry *select_index_add(struct select_index *idx, const struct patch_mail *pm,
				  size_t number, size_t len, const char *origin,
				  const char *from_line, size_t from_line_len)
{
	static char empty[1];
	int keep = idx->opts->keep_strings;
	size_t i, strings, extra = pm->message_id.len + pm->author_email.len + pm->in_reply_to.len +
		pm->raw_subject.len + pm->author_name.len + pm->date.len + 6;
	struct mail_entry *e;
	char *at, *tmp, **extra_at = keep ? &at : &tmp;

	/*
	 * The entry and the strings selection needs later in one
	 * allocation; the strings only a listing prints go there too when
	 * kept, else to scratch space (the index of a big mailbox is
	 * megabytes, and every page of it costs a page fault).
	 */
	strings = st_add(from_line_len, pm->subject.len + 2);
	e = index_alloc(idx, st_add(sizeof(*e), keep ? st_add(strings, extra) : strings));
	at = (char *)(e + 1);
	strbuf_reset(&idx->scratch);
	strbuf_grow(&idx->scratch, extra);
	tmp = idx->scratch.buf;
	e->number = number;
	e->len = len;
	e->origin = (char *)origin;
	e->from_line = from_line ? cstr(&at, from_line, from_line_len) : NULL;
	e->clean_subject = cstr(&at, pm->subject.buf, pm->subject.len);
	e->message_id = cstr(extra_at, pm->message_id.buf, pm->message_id.len);
	e->author_email = cstr(extra_at, pm->author_email.buf, pm->author_email.len);
	e->in_reply_to = cstr(extra_at, pm->in_reply_to.buf, pm->in_reply_to.len);
	e->subject = cstr(extra_at, pm->raw_subject.buf, pm->raw_subject.len);
	e->author_name = cstr(extra_at, pm->author_name.buf, pm->author_name.len);
	e->date = cstr(extra_at, pm->date.buf, pm->date.len);
	strvec_init(&e->paths);
	if (idx->opts->keep_paths)
		for (i = 0; i < pm->paths.nr; i++)
			strvec_push(&e->paths, pm->paths.v[i]);
	if (!*e->date || select_parse_date(e->date, &e->when) < 0)
		e->when = 0;
	e->has_patch = !!pm->has_patch;
	e->is_reply = !!pm->is_reply;
	mailinfo_series_info(e->subject, strlen(e->subject), &e->version, &e->k, &e->total);
	e->spool_off = -1;
	e->file_off = -1;
	e->attest_verdict = 0;
	e->attest_signer = NULL;
	e->matched = entry_matches(idx, e, pm);

	/* What it is, its thread and series: decided over the whole mailbox by the mail core. */
	{
		struct mail_facts f;

		mail_facts_from(&f, pm, e->when);
		mail_kinds_add(idx->kinds, &f);
	}
	if (!keep)
		e->message_id = e->author_email = e->in_reply_to = e->subject = e->author_name = e->date = empty;
	ALLOC_GROW(idx->entries, idx->nr + 1, idx->alloc);
	idx->entries[idx->nr++] = e;
	return e;
}

/* The versions of series s share this (the mail core's family). */
static size_t group_of(struct select_index *idx, size_t s)
{
	return mail_kinds_series(idx->kinds, s)->family;
}

/*
 * Copies the mail core's verdict into the entries: kind, thread,
 * parent, replacement, and the series each goes with: its own, else
 * that of the message it answers (so replies go with their version).
 */
static void find_series(struct select_index *idx)
{
	mail_kinds_run(idx->kinds);
	for (size_t i = 0; i < idx->nr; i++) {
		struct mail_entry *e = idx->entries[i];
		const struct mail_class *c = mail_kinds_at(idx->kinds, i);

		e->kind = c->kind;
		e->thread = c->thread;
		e->parent = c->parent;
		e->replaced_by = c->replaced_by;
		e->series = c->series != MAIL_NONE ? c->series :
			    c->parent < i ? idx->entries[c->parent]->series : MAIL_NONE;
		e->own_series = c->series;
		e->family = c->series != MAIL_NONE ? group_of(idx, c->series) : MAIL_NONE;
	}
}

static int series_superseded(struct select_index *idx, size_t s)
{
	return mail_kinds_series(idx->kinds, s)->superseded;
}

/*
 * Superseded: a message of a series older than the newest full posting
 * of its family (a partial reroll supersedes only the patches it
 * replaces), and a patch replaced by a partial reroll.
 */
static void find_superseded(struct select_index *idx)
{
	for (size_t i = 0; i < idx->nr; i++) {
		struct mail_entry *e = idx->entries[i];

		if (e->replaced_by != MAIL_NONE)
			e->superseded = 1;
		else if (e->series != MAIL_NONE && series_superseded(idx, e->series))
			e->superseded = 1;
	}
}

/* The patch or cover letter entry i answers through follow-ups, else NO_NODE. */
static size_t answered_entry(struct select_index *idx, size_t i)
{
	size_t p = idx->entries[i]->parent;

	for (size_t steps = 0; p != MAIL_NONE && p < idx->nr && steps <= idx->nr; steps++) {
		const struct mail_entry *e = idx->entries[p];

		if (e->kind == MAIL_PATCH || e->kind == MAIL_COVER)
			return p;
		if (e->kind != MAIL_FOLLOWUP)
			break;
		p = e->parent;
	}
	return NO_NODE;
}

/*
 * The superseded messages the review of a newest version needs (see
 * select.h), marked for_review: follow-ups with trailers for an older
 * patch or cover letter, the follow-ups on the way, what they answer,
 * and a cover letter's patches. A patch a partial reroll replaces is
 * not kept for that alone: the reroll read without it is still its
 * series' (mail-kind.h, detached rerolls). Linear: each chain is walked once per
 * follow-up with trailers, and a cover letter's patches are found
 * through one list of the patches by series.
 */
static void keep_for_review(struct select_index *idx)
{
	size_t ns = mail_kinds_series_count(idx->kinds);
	unsigned char *cover_kept = xcalloc(ns + 1, 1);

	for (size_t i = 0; i < idx->nr; i++) {
		struct mail_entry *f = idx->entries[i];
		size_t p = f->has_trailers && f->kind == MAIL_FOLLOWUP ? answered_entry(idx, i) : NO_NODE;

		if (p == NO_NODE || !idx->entries[p]->superseded)
			continue;
		for (size_t q = i; q != p; q = idx->entries[q]->parent)
			idx->entries[q]->for_review = 1;
		idx->entries[p]->for_review = 1;
		if (idx->entries[p]->kind == MAIL_COVER && idx->entries[p]->own_series != MAIL_NONE)
			cover_kept[idx->entries[p]->own_series] = 1;
	}
	for (size_t i = 0; i < idx->nr; i++) {
		struct mail_entry *e = idx->entries[i];

		if (e->kind == MAIL_PATCH && e->own_series != MAIL_NONE && cover_kept[e->own_series])
			e->for_review = 1;
	}
	free(cover_kept);
}

/* One line per incomplete series of a selected thread: "missing 2-19, 21". */
static void warn_missing(struct select_index *idx, const unsigned char *thread_out)
{
	struct strbuf ranges = STRBUF_INIT;
	size_t ns = mail_kinds_series_count(idx->kinds);

	if (idx->opts->quiet)
		return;
	for (size_t s = 0; s < ns; s++) {
		const struct mail_series *ms = mail_kinds_series(idx->kinds, s);
		struct mail_entry *first = idx->entries[ms->first];

		if (!thread_out[first->thread])
			continue;
		if (!idx->opts->all_versions && series_superseded(idx, s))
			continue;
		strbuf_reset(&ranges);
		if (mail_kinds_missing(idx->kinds, s, &ranges))
			warning("%s: message %zu: series '%s' v%d is incomplete: missing %s of %d",
				first->origin, first->number, first->clean_subject, ms->version,
				ranges.buf, ms->total);
	}
	strbuf_release(&ranges);
}

/*
 * Each selected message of a superseded series brings in the threads of
 * the newest series of its group (without threads: the newest version
 * of the same patch); a patch replaced by a partial reroll brings in
 * its replacement. The groups' series and the series' entries are
 * listed once, so this is linear, not series x messages.
 */
static void bring_in_newest(struct select_index *idx, unsigned char *thread_out)
{
	const struct select_opts *o = idx->opts;
	size_t ns = mail_kinds_series_count(idx->kinds), i, j, q;
	size_t *ghead = xmalloc(st_mult(ns + 1, sizeof(size_t))), *gnext = xmalloc(st_mult(ns + 1, sizeof(size_t)));
	size_t *ehead = xmalloc(st_mult(ns + 1, sizeof(size_t)));
	size_t *enext = xmalloc(st_mult(idx->nr + 1, sizeof(size_t)));
	unsigned char *gdone = xcalloc(ns + 1, 1);

	for (j = 0; j < ns; j++)
		ghead[j] = ehead[j] = NO_NODE;
	for (j = ns; j-- > 0;) {
		size_t g = group_of(idx, j);

		gnext[j] = ghead[g];
		ghead[g] = j;
	}
	for (q = idx->nr; q-- > 0;) {
		size_t s = mail_kinds_at(idx->kinds, q)->series;

		enext[q] = s != MAIL_NONE ? ehead[s] : NO_NODE;
		if (s != MAIL_NONE)
			ehead[s] = q;
	}
	for (i = 0; i < idx->nr; i++) {
		struct mail_entry *e = idx->entries[i];
		size_t g;

		if (!e->superseded || !(o->no_threads ? e->matched : thread_out[e->thread]))
			continue;
		if (e->replaced_by != MAIL_NONE) {
			struct mail_entry *r = idx->entries[e->replaced_by];

			thread_out[r->thread] = 1;
			r->matched |= e->matched;
			continue;
		}
		g = group_of(idx, e->series);
		if (!o->no_threads && gdone[g])
			continue;	/* the same threads again */
		gdone[g] = 1;
		for (j = ghead[g]; j != NO_NODE; j = gnext[j]) {
			if (idx->entries[mail_kinds_series(idx->kinds, j)->first]->superseded)
				continue;
			thread_out[idx->entries[mail_kinds_series(idx->kinds, j)->first]->thread] = 1;
			if (o->no_threads)
				for (q = ehead[j]; q != NO_NODE; q = enext[q])
					if (!strcmp(idx->entries[q]->clean_subject, e->clean_subject))
						idx->entries[q]->matched = 1;
		}
	}
	free(ghead);
	free(gnext);
	free(ehead);
	free(enext);
	free(gdone);
}

struct sort_key {
	struct mail_entry *e;
	size_t thread_rank;
	int version, k, reply;
	size_t input;
};

static int cmp_key(const void *a_, const void *b_)
{
	const struct sort_key *a = a_, *b = b_;

	if (a->thread_rank != b->thread_rank)
		return a->thread_rank < b->thread_rank ? -1 : 1;
	if (a->version != b->version)
		return a->version < b->version ? -1 : 1;
	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	if (a->reply != b->reply)
		return a->reply - b->reply;
	return a->input < b->input ? -1 : a->input > b->input;
}

/* The version e sorts with: a partial reroll's patch among those of the version it rerolls. */
static int sort_version(struct select_index *idx, const struct mail_entry *e)
{
	size_t t = e->kind == MAIL_PATCH && e->own_series != MAIL_NONE ?
		   mail_kinds_series(idx->kinds, e->own_series)->reroll_of : MAIL_NONE;

	return t != MAIL_NONE ? mail_kinds_series(idx->kinds, t)->version : e->version;
}

/*
 * The thread each thread is ranked as in the output: its own, but a
 * partial reroll in a thread of its own (its replaced patches left out:
 * mail-kind.h) goes with the thread of the version it rerolls, so the
 * same mail selected again comes out in the same order.
 */
static size_t *reroll_threads(struct select_index *idx, size_t nthreads)
{
	size_t *rank_thread = xmalloc(st_mult(nthreads + 1, sizeof(*rank_thread)));
	size_t ns = mail_kinds_series_count(idx->kinds);

	for (size_t t = 0; t < nthreads; t++)
		rank_thread[t] = t;
	for (size_t s = 0; s < ns; s++) {
		const struct mail_series *ms = mail_kinds_series(idx->kinds, s), *to = ms;

		/* a reroll of a reroll goes with the first (bounded: a cycle ends it) */
		for (size_t steps = 0; to->reroll_of != MAIL_NONE && steps < ns; steps++)
			to = mail_kinds_series(idx->kinds, to->reroll_of);
		if (to != ms)
			rank_thread[mail_kinds_at(idx->kinds, ms->first)->thread] =
				mail_kinds_at(idx->kinds, to->first)->thread;
	}
	return rank_thread;
}

/*
 * How well e names its series (lower is better): a cover letter before
 * a patch, a full posting before a partial reroll, the newest version,
 * the lowest patch number; superseded mail and follow-ups never.
 */
static long long head_rank(struct select_index *idx, const struct mail_entry *e)
{
	if (e->superseded || e->own_series == MAIL_NONE ||
	    (e->kind != MAIL_COVER && e->kind != MAIL_PATCH))
		return LLONG_MAX;
	return (e->kind == MAIL_PATCH ? 1LL << 60 : 0) +
	       (mail_kinds_series(idx->kinds, e->own_series)->partial ? 1LL << 59 : 0) +
	       ((long long)(INT_MAX - e->version) << 24) + (e->k & 0xffffff);
}

/* Fills series s from its selected member e. */
static void add_to_series(struct select_index *idx, struct select_series *s, struct mail_entry *e)
{
	e->unit = s;
	s->nr++;
	if (!s->head || head_rank(idx, e) < head_rank(idx, s->head)) {
		const struct mail_series *ms = e->own_series != MAIL_NONE ?
			mail_kinds_series(idx->kinds, e->own_series) : NULL;

		s->head = e;
		s->total = ms && ms->total ? ms->total : 1;
	}
	if (!e->superseded && e->own_series != MAIL_NONE && e->version > s->version)
		s->version = e->version;
}

/*
 * The series of the selected messages (select.h): each selected entry's
 * unit, and the series numbered in the mail core's order of units.
 */
static void find_units(struct select_index *idx)
{
	size_t ns = mail_kinds_series_count(idx->kinds), nthreads = mail_kinds_threads(idx->kinds);
	size_t *unit = xmalloc(st_mult(ns + 1, sizeof(*unit)));
	size_t nu = mail_kinds_units(idx->kinds, unit);
	size_t *thread_unit = xmalloc(st_mult(nthreads + 1, sizeof(*thread_unit)));
	size_t *number = xcalloc(nu + 1, sizeof(*number));
	size_t *of = xmalloc(st_mult(idx->nr + 1, sizeof(*of)));

	for (size_t t = 0; t < nthreads; t++)
		thread_unit[t] = MAIL_NONE;
	for (size_t i = 0; i < idx->nr; i++) {
		struct mail_entry *e = idx->entries[i];

		e->unit = NULL;
		if (e->out_pos && e->own_series != MAIL_NONE && unit[e->own_series] != MAIL_NONE &&
		    thread_unit[e->thread] == MAIL_NONE)
			thread_unit[e->thread] = unit[e->own_series];
	}
	for (size_t i = 0; i < idx->nr; i++) {
		const struct mail_entry *e = idx->entries[i];

		of[i] = !e->out_pos ? MAIL_NONE :
			e->series != MAIL_NONE && unit[e->series] != MAIL_NONE ? unit[e->series] :
			thread_unit[e->thread];
		if (of[i] != MAIL_NONE)
			number[of[i]] = 1;
	}
	idx->series_nr = 0;
	for (size_t u = 0; u < nu; u++)
		if (number[u])
			number[u] = ++idx->series_nr;
	free(idx->series);
	idx->series = xcalloc(idx->series_nr + 1, sizeof(*idx->series));
	for (size_t n = 0; n < idx->series_nr; n++) {
		idx->series[n].number = n + 1;
		idx->series[n].of = idx->series_nr;
	}
	for (size_t i = 0; i < idx->nr; i++)
		if (of[i] != MAIL_NONE)
			add_to_series(idx, &idx->series[number[of[i]] - 1], idx->entries[i]);
	free(unit);
	free(thread_unit);
	free(number);
	free(of);
}

size_t select_series_count(const struct select_index *idx)
{
	return idx->series_nr;
}

const struct select_series *select_series_at(const struct select_index *idx, size_t n)
{
	return n < idx->series_nr ? &idx->series[n] : NULL;
}

size_t select_choose(struct select_index *idx, struct mail_entry ***order)
{
	const struct select_opts *o = idx->opts;
	unsigned char *thread_out;
	size_t *rank, *rank_thread;
	struct sort_key *keys = xcalloc(idx->nr + 1, sizeof(*keys));
	size_t i, nsel = 0, nranked = 0, nthreads;
	unsigned char *family_out;

	find_series(idx);
	find_superseded(idx);
	/* the mail core has run: its series are known */
	family_out = xcalloc(mail_kinds_series_count(idx->kinds) + 1, 1);
	nthreads = mail_kinds_threads(idx->kinds);
	thread_out = xcalloc(nthreads + 1, 1);
	rank = xcalloc(nthreads + 1, sizeof(*rank));
	rank_thread = reroll_threads(idx, nthreads);
	/* Threads (or single messages) that matched. */
	for (i = 0; i < idx->nr; i++)
		if (idx->entries[i]->matched)
			thread_out[idx->entries[i]->thread] = 1;
	/* A selected old version brings in the newest version's thread. */
	if (!o->all_versions)
		bring_in_newest(idx, thread_out);
	warn_missing(idx, thread_out);
	if (!o->all_versions && !o->patches_only && !o->no_threads) {
		keep_for_review(idx);
		/* what an older version's review needs comes with the newest, whatever thread it is in */
		for (i = 0; i < idx->nr; i++)
			if (!idx->entries[i]->superseded && idx->entries[i]->family != MAIL_NONE &&
			    thread_out[idx->entries[i]->thread])
				family_out[idx->entries[i]->family] = 1;
	}
	for (i = 0; i < idx->nr; i++) {
		struct mail_entry *e = idx->entries[i];
		struct sort_key *key;

		if (e->for_review && e->series != MAIL_NONE && family_out[group_of(idx, e->series)])
			;	/* an older version's review, for the newest (keep_for_review()) */
		else if (!(o->no_threads ? e->matched : thread_out[e->thread]))
			continue;
		else if (e->superseded && !o->all_versions)
			continue;
		if (e->kind == MAIL_DUPLICATE)
			continue;	/* the first copy wins */
		if (o->patches_only && e->kind != MAIL_PATCH)
			continue;
		if (!rank[rank_thread[e->thread]])
			rank[rank_thread[e->thread]] = ++nranked;
		key = &keys[nsel++];
		key->e = e;
		key->input = i;
		key->thread_rank = o->input_order ? 0 : rank[rank_thread[e->thread]];
		key->version = sort_version(idx, e);
		key->k = e->total ? e->k : INT_MAX;
		key->reply = e->kind != MAIL_PATCH && e->kind != MAIL_COVER;
		if (e->parent != MAIL_NONE && (key->reply || !e->total ||
					       idx->entries[e->parent]->replaced_by == i)) {
			/* A reply right after the message it answers, a reroll in place of the patch it replaces. */
			struct mail_entry *parent = idx->entries[e->parent];

			key->version = sort_version(idx, parent);
			key->k = parent->total ? parent->k : INT_MAX;
			key->reply = parent->replaced_by != i;
		}
		if (o->input_order)
			key->version = key->k = key->reply = 0;
	}
	qsort(keys, nsel, sizeof(*keys), cmp_key);
	free(idx->order);
	idx->order = xcalloc(nsel + 1, sizeof(*idx->order));
	for (i = 0; i < nsel; i++) {
		idx->order[i] = keys[i].e;
		keys[i].e->out_pos = i + 1;
	}
	find_units(idx);
	*order = idx->order;
	free(keys);
	free(rank);
	free(rank_thread);
	free(thread_out);
	free(family_out);
	return nsel;
}

static int parse_with(const char *s, const char *fmt, time_t *out)
{
	struct tm tm;
	const char *end;
	long off = 0;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, fmt, &tm);
	if (!end)
		return -1;
	while (*end == ' ')
		end++;
	if (*end == '+' || *end == '-') {
		int sign = *end == '-' ? -1 : 1;
		int hh, mm;

		if (sscanf(end + 1, "%2d%2d", &hh, &mm) != 2 && sscanf(end + 1, "%2d:%2d", &hh, &mm) != 2)
			return -1;
		off = sign * (hh * 3600L + mm * 60L);
	} else if (!strncmp(end, "UTC", 3) || !strncmp(end, "GMT", 3) || *end == 'Z') {
		off = 0;
	} else if (*end && *end != '(') {
		return -1;
	}
	*out = timegm(&tm) - off;
	return 0;
}

int select_parse_date(const char *s, time_t *out)
{
	static const char *const formats[] = {
		"%a, %d %b %Y %H:%M:%S", "%d %b %Y %H:%M:%S", "%a, %d %b %Y %H:%M",
		"%d %b %Y %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S",
		"%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d",
	};
	size_t i;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '@') {
		long long v = strtoll(s + 1, &end, 10);
		if (end == s + 1 || *end)
			return -1;
		*out = (time_t)v;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (!parse_with(s, formats[i], out))
			return 0;
	return -1;
}
