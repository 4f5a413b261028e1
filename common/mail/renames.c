/* SPDX-License-Identifier: GPL-2.0-only */
#include "renames.h"
#include "hashmap.h"
#include "rename-score.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

/* git looks at no more same-content sources than this for one destination */
#define SAME_CONTENT_LOOKS 100
/* candidates kept per destination in the scoring step */
#define CANDIDATES 4
#define NONE UINT32_MAX

/* A file with what has been learnt of it, each thing once. */
struct side {
	const struct rename_file *f;
	int taken;
	int have_size, have_counts;
	uint64_t size;
	struct chunk_counts counts;
};

struct search {
	struct side *src, *dst;
	size_t src_nr, dst_nr;
	struct rename_match *match;
	const struct rename_opts *o;
};

static int is_regular(unsigned mode)
{
	return (mode & 0170000) == 0100000;
}

static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int same_file_name(const struct side *a, const struct side *b)
{
	return !strcmp(file_name(a->f->path), file_name(b->f->path));
}

static void take(struct search *s, size_t src, size_t dst, int score)
{
	s->src[src].taken = 1;
	s->dst[dst].taken = 1;
	s->match[dst].src = (long)src;
	s->match[dst].score = score;
}

static int learn_size(const struct search *s, struct side *f)
{
	if (!f->have_size && s->o->size(s->o->data, f->f, &f->size) < 0)
		return -1;
	f->have_size = 1;
	return 0;
}

static int learn_counts(const struct search *s, struct side *f)
{
	struct strbuf content = STRBUF_INIT;

	if (f->have_counts)
		return 0;
	if (s->o->content(s->o->data, f->f, &content) < 0) {
		strbuf_release(&content);
		return -1;
	}
	chunk_counts_of(&f->counts, content.buf, content.len);
	f->have_counts = 1;
	strbuf_release(&content);
	return 0;
}

/* *score: how much of src dst holds; sizes first, content only when they allow min. */
static int score_pair(const struct search *s, struct side *src, struct side *dst, int min, int *score)
{
	*score = 0;
	if (!is_regular(src->f->mode) || !is_regular(dst->f->mode))
		return 0;
	if (learn_size(s, src) < 0 || learn_size(s, dst) < 0)
		return -1;
	if (!rename_sizes_may_match(src->size, dst->size, min))
		return 0;
	if (learn_counts(s, src) < 0 || learn_counts(s, dst) < 0)
		return -1;
	*score = rename_score(&src->counts, &dst->counts, min);
	return 0;
}

/* Step 1: the first free source with dst's content, one with its file name first. */
static void pair_same_content(struct search *s)
{
	struct hashmap first = HASHMAP_INIT;
	uint32_t *next = xcalloc(s->src_nr + 1, sizeof(*next));

	/* each id's sources chained in the order given */
	for (size_t i = s->src_nr; i-- > 0;) {
		int added;
		uint32_t *head = hashmap_put(&first, s->src[i].f->id, strlen(s->src[i].f->id), &added);

		next[i] = added ? NONE : *head;
		*head = (uint32_t)i;
	}
	for (size_t d = 0; d < s->dst_nr; d++) {
		const struct rename_file *t = s->dst[d].f;
		uint32_t *head = hashmap_get(&first, t->id, strlen(t->id));
		long best = -1;
		int looks = SAME_CONTENT_LOOKS;

		for (uint32_t i = head ? *head : NONE; i != NONE; i = next[i]) {
			const struct side *c = &s->src[i];

			if (c->taken || ((!is_regular(c->f->mode) || !is_regular(t->mode)) && c->f->mode != t->mode))
				continue;
			if (best < 0)
				best = i;
			if (same_file_name(c, &s->dst[d])) {
				best = i;
				break;
			}
			if (!--looks)
				break;
		}
		if (best >= 0)
			take(s, (size_t)best, d, RENAME_SCORE_MAX);
	}
	free(next);
	hashmap_release(&first);
}

/* file name -> the one side of list holding it not yet taken, NONE when several do */
static void index_file_names(struct hashmap *m, const struct side *list, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const char *name = file_name(list[i].f->path);
		int added;
		uint32_t *v;

		if (list[i].taken)
			continue;
		v = hashmap_put(m, name, strlen(name), &added);
		*v = added ? (uint32_t)i : NONE;
	}
}

/* Step 2: a file name one source and one destination alone hold. */
static int pair_same_file_name(struct search *s)
{
	struct hashmap srcs = HASHMAP_INIT, dsts = HASHMAP_INIT;
	int min = s->o->min_score + (RENAME_SCORE_MAX - s->o->min_score) / 2, ret = 0;

	index_file_names(&srcs, s->src, s->src_nr);
	index_file_names(&dsts, s->dst, s->dst_nr);
	for (size_t i = 0; i < s->src_nr && !ret; i++) {
		const char *name = file_name(s->src[i].f->path);
		uint32_t *si, *di;
		int score;

		if (s->src[i].taken || !(si = hashmap_get(&srcs, name, strlen(name))) || *si == NONE ||
		    !(di = hashmap_get(&dsts, name, strlen(name))) || *di == NONE || s->dst[*di].taken)
			continue;
		if ((ret = score_pair(s, &s->src[i], &s->dst[*di], min, &score)) == 0 && score >= min)
			take(s, i, *di, score);
	}
	hashmap_release(&srcs);
	hashmap_release(&dsts);
	return ret;
}

struct candidate {
	long src, dst;		/* dst < 0: an empty slot */
	int score, same_name;
	size_t order;		/* its place before sorting: ties keep it */
};

/* < 0 when a is the better candidate: a higher score, then the same file name; empty slots last. */
static int compare_candidates(const struct candidate *a, const struct candidate *b)
{
	if (a->dst < 0 || b->dst < 0)
		return (a->dst < 0) - (b->dst < 0);
	if (a->score != b->score)
		return b->score - a->score;
	return b->same_name - a->same_name;
}

static int by_rank(const void *a_, const void *b_)
{
	const struct candidate *a = a_, *b = b_;
	int c = compare_candidates(a, b);

	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* Puts c in the place of the worst of slot[], the first of equals, if c is better than it. */
static void keep_if_better(struct candidate *slot, const struct candidate *c)
{
	int worst = 0;

	for (int i = 1; i < CANDIDATES; i++)
		if (compare_candidates(&slot[i], &slot[worst]) > 0)
			worst = i;
	if (compare_candidates(&slot[worst], c) > 0)
		slot[worst] = *c;
}

/* One destination against every free source: its best candidates into slot[]. */
static int score_destination(struct search *s, size_t d, struct candidate *slot)
{
	for (int k = 0; k < CANDIDATES; k++)
		slot[k].dst = -1;
	for (size_t i = 0; i < s->src_nr; i++) {
		struct candidate c = { (long)i, (long)d, 0, 0, 0 };

		if (s->src[i].taken)
			continue;
		if (score_pair(s, &s->src[i], &s->dst[d], s->o->min_score, &c.score) < 0)
			return -1;
		c.same_name = same_file_name(&s->src[i], &s->dst[d]);
		keep_if_better(slot, &c);
	}
	return 0;
}

static size_t count_free(const struct side *list, size_t nr)
{
	size_t n = 0;

	for (size_t i = 0; i < nr; i++)
		n += !list[i].taken;
	return n;
}

/* Step 3: every free destination scored against every free source, within the limit. */
static int pair_by_score(struct search *s, size_t *needed_limit)
{
	size_t nsrc = count_free(s->src, s->src_nr), ndst = count_free(s->dst, s->dst_nr), n = 0;
	uint64_t limit = s->o->limit > 0 ? (uint64_t)s->o->limit : 0;
	struct candidate *all;

	if (!nsrc || !ndst)
		return 0;
	if (limit && (uint64_t)nsrc * ndst > limit * limit) {
		if (needed_limit)
			*needed_limit = nsrc > ndst ? nsrc : ndst;
		return 0;
	}
	all = xcalloc(st_mult(ndst, CANDIDATES), sizeof(*all));
	for (size_t d = 0; d < s->dst_nr; d++) {
		if (s->dst[d].taken)
			continue;
		if (score_destination(s, d, &all[n]) < 0) {
			free(all);
			return -1;
		}
		n += CANDIDATES;
	}
	for (size_t i = 0; i < n; i++)
		all[i].order = i;
	qsort(all, n, sizeof(*all), by_rank);
	for (size_t i = 0; i < n && all[i].dst >= 0 && all[i].score >= s->o->min_score; i++)
		if (!s->dst[all[i].dst].taken && !s->src[all[i].src].taken)
			take(s, (size_t)all[i].src, (size_t)all[i].dst, all[i].score);
	free(all);
	return 0;
}

int renames_find(struct rename_match *match, const struct rename_file *src, size_t src_nr,
		 const struct rename_file *dst, size_t dst_nr, const struct rename_opts *o,
		 size_t *needed_limit)
{
	struct search s = { NULL, NULL, src_nr, dst_nr, match, o };
	int ret = 0;

	if (needed_limit)
		*needed_limit = 0;
	for (size_t d = 0; d < dst_nr; d++) {
		match[d].src = -1;
		match[d].score = 0;
	}
	if (!src_nr || !dst_nr)
		return 0;
	s.src = xcalloc(src_nr, sizeof(*s.src));
	s.dst = xcalloc(dst_nr, sizeof(*s.dst));
	for (size_t i = 0; i < src_nr; i++)
		s.src[i].f = &src[i];
	for (size_t i = 0; i < dst_nr; i++)
		s.dst[i].f = &dst[i];
	pair_same_content(&s);
	if (o->min_score < RENAME_SCORE_MAX)
		ret = pair_same_file_name(&s);
	if (!ret && o->min_score < RENAME_SCORE_MAX)
		ret = pair_by_score(&s, needed_limit);
	for (size_t i = 0; i < src_nr; i++)
		chunk_counts_release(&s.src[i].counts);
	for (size_t i = 0; i < dst_nr; i++)
		chunk_counts_release(&s.dst[i].counts);
	free(s.src);
	free(s.dst);
	return ret;
}
