/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "mail-kind.h"
#include "mailinfo.h"
#include "usage.h"
#include "wrapper.h"

static const char *const kind_names[MAIL_KIND_NR][2] = {
	[MAIL_PATCH] = { "patch", "patches" },
	[MAIL_COVER] = { "cover letter", "cover letters" },
	[MAIL_FOLLOWUP] = { "reply", "replies" },
	[MAIL_DUPLICATE] = { "duplicate", "duplicates" },
	[MAIL_OTHER] = { "message without a patch", "messages without a patch" },
};

const char *mail_kind_name(enum mail_kind kind)
{
	return kind_names[kind][0];
}

const char *mail_kind_plural(enum mail_kind kind)
{
	return kind_names[kind][1];
}

void mail_facts_from(struct mail_facts *f, const struct patch_mail *pm, time_t when)
{
	const char *s = pm->raw_subject.buf;

	memset(f, 0, sizeof(*f));
	f->message_id = pm->message_id.buf;
	f->in_reply_to = pm->in_reply_to.buf;
	f->references = (const char *const *)pm->references.v;
	f->nr_references = pm->references.nr;
	f->sender = pm->author_email.buf;
	f->subject = pm->subject.buf;
	f->when = when;
	f->version = pm->version;
	f->k = pm->number;
	f->total = pm->total;
	f->is_reply = !!pm->is_reply;
	while (*s == ' ' || *s == '\t')
		s++;
	f->tagged = *s == '[';
	f->has_patch = !!pm->has_patch;
	f->has_diff = pm->has_patch && pm->paths.nr > 0;
}

int mail_facts_may_follow_up(const struct mail_facts *f)
{
	/* find_kinds(): tagged and a patch by itself, it is never made a follow-up */
	return f->is_reply || !f->tagged || !(f->has_patch || f->has_diff);
}

/*
 * Strings (senders) live in one arena and are named by their offset, so
 * the arena may grow; message ids and series keys are found through
 * hash maps (hashmap.h).
 */
struct msg {
	size_t node, reply_node;	/* id nodes (union-find), reply_node MAIL_NONE when none */
	size_t sender;			/* arena offset */
	size_t subject;			/* arena offset, 0 ("") when unknown */
	time_t when;
	unsigned is_reply:1, tagged:1, has_patch:1, has_diff:1, root:1;	/* root: no In-Reply-To, no References */
};

struct series_state {
	struct mail_series pub;
	int last_k;
	size_t last_msg;
	size_t rerolls;			/* members that replace an older version's patch */
};

struct mail_kinds {
	struct strbuf arena;
	struct hashmap ids;		/* message id -> node */
	size_t *parent;			/* union-find over nodes */
	size_t nodes, nodes_alloc;
	struct msg *msgs;
	struct mail_class *cls;
	size_t nr, alloc;
	struct series_state *series;
	size_t series_nr, series_alloc;
	size_t threads;
	int *member_k;			/* per series, its members' k sorted (built on first use) */
	size_t *member_start;
};

static size_t arena_add(struct strbuf *arena, const char *s, size_t len)
{
	size_t off = arena->len;

	strbuf_add(arena, s, len);
	strbuf_addch(arena, '\0');
	return off;
}

static size_t new_node(struct mail_kinds *mk)
{
	ALLOC_GROW(mk->parent, mk->nodes + 1, mk->nodes_alloc);
	mk->parent[mk->nodes] = mk->nodes;
	return mk->nodes++;
}

static size_t find(size_t *parent, size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

static void unite(size_t *parent, size_t a, size_t b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a < b)
		parent[b] = a;
	else if (b < a)
		parent[a] = b;
}

/* A 32-bit value of a map: nodes and series are fewer than messages. */
static uint32_t map_val(size_t v)
{
	if (v > UINT32_MAX)
		die("too many messages");
	return (uint32_t)v;
}

static size_t id_node(struct mail_kinds *mk, const char *id)
{
	int added;
	uint32_t *node = hashmap_put(&mk->ids, id, strlen(id), &added);

	if (added)
		*node = map_val(new_node(mk));
	return *node;
}

struct mail_kinds *mail_kinds_new(void)
{
	struct mail_kinds *mk = xcalloc(1, sizeof(*mk));

	strbuf_init(&mk->arena, 0);
	strbuf_addch(&mk->arena, '\0');	/* offset 0 is "" */
	return mk;
}

void mail_kinds_free(struct mail_kinds *mk)
{
	if (!mk)
		return;
	strbuf_release(&mk->arena);
	hashmap_release(&mk->ids);
	free(mk->parent);
	free(mk->msgs);
	free(mk->cls);
	free(mk->series);
	free(mk->member_k);
	free(mk->member_start);
	free(mk);
}

size_t mail_kinds_add(struct mail_kinds *mk, const struct mail_facts *f)
{
	struct msg *m;
	struct mail_class *c;
	const char *reply = f->in_reply_to;

	if (mk->nr + 1 > mk->alloc) {
		ALLOC_GROW(mk->msgs, mk->nr + 1, mk->alloc);
		mk->cls = xrealloc(mk->cls, st_mult(mk->alloc, sizeof(*mk->cls)));
	}
	m = &mk->msgs[mk->nr];
	c = &mk->cls[mk->nr];
	memset(m, 0, sizeof(*m));
	memset(c, 0, sizeof(*c));
	m->node = *f->message_id ? id_node(mk, f->message_id) : new_node(mk);
	/* The message answered: In-Reply-To, else the last of References (some mailers set only that). */
	if (!*reply && f->nr_references)
		reply = f->references[f->nr_references - 1];
	m->reply_node = *reply && strcmp(reply, f->message_id) ? id_node(mk, reply) : MAIL_NONE;
	if (m->reply_node != MAIL_NONE)
		unite(mk->parent, m->node, m->reply_node);
	for (size_t i = 0; i < f->nr_references; i++) {
		size_t node;

		if (!*f->references[i] || !strcmp(f->references[i], reply) ||
		    !strcmp(f->references[i], f->message_id))
			continue;
		/* (first: a new node may move mk->parent) */
		node = id_node(mk, f->references[i]);
		unite(mk->parent, m->node, node);
	}
	m->sender = arena_add(&mk->arena, f->sender, strlen(f->sender));
	if (f->subject && *f->subject)
		m->subject = arena_add(&mk->arena, f->subject, strlen(f->subject));
	m->when = f->when;
	m->is_reply = f->is_reply;
	m->tagged = f->tagged;
	m->has_patch = f->has_patch || f->has_diff;
	m->has_diff = f->has_diff;
	m->root = m->reply_node == MAIL_NONE && !f->nr_references;
	c->version = f->version;
	c->k = f->k;
	c->total = f->total;
	return mk->nr++;
}

size_t mail_kinds_count(const struct mail_kinds *mk)
{
	return mk->nr;
}

const struct mail_class *mail_kinds_at(const struct mail_kinds *mk, size_t n)
{
	return &mk->cls[n];
}

size_t mail_kinds_threads(const struct mail_kinds *mk)
{
	return mk->threads;
}

size_t mail_kinds_series_count(const struct mail_kinds *mk)
{
	return mk->series_nr;
}

const struct mail_series *mail_kinds_series(const struct mail_kinds *mk, size_t s)
{
	return &mk->series[s].pub;
}

/* Duplicates, parents, and the kinds a message has by itself and by what it answers. */
static void find_kinds(struct mail_kinds *mk, size_t *node_msg)
{
	for (size_t i = 0; i < mk->nr; i++) {
		struct msg *m = &mk->msgs[i];
		struct mail_class *c = &mk->cls[i];

		c->series = c->replaced_by = c->replaces = MAIL_NONE;
		if (node_msg[m->node] == MAIL_NONE)
			node_msg[m->node] = i;
		if (node_msg[m->node] != i)
			c->kind = MAIL_DUPLICATE;
		else if (m->is_reply)
			c->kind = MAIL_FOLLOWUP;
		else if (c->k == 0 && c->total > 0)
			c->kind = MAIL_COVER;
		else if (m->has_patch)
			c->kind = MAIL_PATCH;
		else
			c->kind = MAIL_OTHER;
	}
	for (size_t i = 0; i < mk->nr; i++) {
		struct msg *m = &mk->msgs[i];
		struct mail_class *c = &mk->cls[i];
		size_t p = m->reply_node == MAIL_NONE ? MAIL_NONE : node_msg[m->reply_node];

		c->parent = p == i ? MAIL_NONE : p;
		/* (mail_facts_may_follow_up() reads this rule: keep the two together) */
		if (c->kind == MAIL_DUPLICATE || (m->tagged && c->kind != MAIL_OTHER) ||
		    c->parent == MAIL_NONE)
			continue;
		/*
		 * Answering a patch, cover or reply: a follow-up, whatever it
		 * carries when untagged; tagged, when it carries no patch (a
		 * reply that kept "[PATCH] ..." and lost its "Re:", as b4 reads it).
		 */
		switch (mk->cls[c->parent].kind) {
		case MAIL_PATCH:
		case MAIL_COVER:
		case MAIL_FOLLOWUP:
			c->kind = MAIL_FOLLOWUP;
			break;
		default:
			break;
		}
	}
}

/* Patch i replaces patch old (an older version's, same number), unless a newer one does. */
static void replace_patch(struct mail_kinds *mk, size_t old, size_t i)
{
	struct mail_class *p = &mk->cls[old];

	if (p->replaced_by != MAIL_NONE && mk->cls[p->replaced_by].version >= mk->cls[i].version)
		return;
	if (p->replaced_by != MAIL_NONE)
		mk->cls[p->replaced_by].replaces = MAIL_NONE;
	p->replaced_by = i;
	mk->cls[i].replaces = old;
}

/* A vN patch answering a patch of an older version with the same number replaces it. */
static int marks_reroll(struct mail_kinds *mk, size_t i)
{
	struct mail_class *c = &mk->cls[i], *p;

	if (c->kind != MAIL_PATCH || c->parent == MAIL_NONE)
		return 0;
	p = &mk->cls[c->parent];
	if (p->kind != MAIL_PATCH || p->version >= c->version || p->k != c->k)
		return 0;
	replace_patch(mk, c->parent, i);
	return 1;
}

static size_t new_series(struct mail_kinds *mk, size_t i)
{
	struct series_state *s;

	ALLOC_GROW(mk->series, mk->series_nr + 1, mk->series_alloc);
	s = &mk->series[mk->series_nr];
	memset(s, 0, sizeof(*s));
	s->pub.first = i;
	s->pub.version = mk->cls[i].version;
	s->pub.total = mk->cls[i].total;
	s->pub.reroll_of = MAIL_NONE;
	s->last_k = -1;
	return mk->series_nr++;
}

/*
 * May message i (a root, threaded to nothing) continue series s, sent
 * without threading? Its k must rise. Right after the series' last
 * message (other series messages counting, replies not), it continues
 * it whoever wrote it (format-patch --stdout of history: every patch
 * has its author's From); further away, with the same sender and dates
 * within MAIL_KIND_SERIES_GAP.
 */
static int continues(const struct mail_kinds *mk, size_t s, size_t i, size_t prev)
{
	const struct series_state *st = &mk->series[s];
	const struct mail_class *c = &mk->cls[i];
	const struct msg *m = &mk->msgs[i], *last = &mk->msgs[st->last_msg];
	int same_sender;
	time_t gap;

	if (c->version != st->pub.version || c->total != st->pub.total || c->k <= st->last_k)
		return 0;
	if (st->last_msg == prev)
		return 1;
	same_sender = !strcmp(mk->arena.buf + m->sender, mk->arena.buf + last->sender);
	gap = m->when > last->when ? m->when - last->when : last->when - m->when;
	return same_sender && m->when && last->when && gap <= MAIL_KIND_SERIES_GAP;
}

/* The series registered under key in m, or MAIL_NONE. */
static size_t map_get(const struct hashmap *m, const struct strbuf *key)
{
	const uint32_t *v = hashmap_get(m, key->buf, key->len);

	return v ? *v : MAIL_NONE;
}

static void map_put(struct hashmap *m, const struct strbuf *key, size_t val)
{
	*hashmap_put(m, key->buf, key->len, NULL) = map_val(val);
}

static void thread_key(struct strbuf *key, struct mail_kinds *mk, size_t i)
{
	strbuf_reset(key);
	strbuf_addf(key, "%zu %d %d", find(mk->parent, mk->msgs[i].node), mk->cls[i].version,
		    mk->cls[i].total);
}

static void sender_key(struct strbuf *key, struct mail_kinds *mk, size_t i)
{
	strbuf_reset(key);
	strbuf_addf(key, "%d %d ", mk->cls[i].version, mk->cls[i].total);
	strbuf_addstr(key, mk->arena.buf + mk->msgs[i].sender);
}

/* Series, threaded or not; an unthreaded one is joined into one thread. */
static void find_series(struct mail_kinds *mk)
{
	struct hashmap by_thread = HASHMAP_INIT, by_sender = HASHMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	size_t prev = MAIL_NONE;

	for (size_t i = 0; i < mk->nr; i++) {
		struct mail_class *c = &mk->cls[i];
		struct msg *m = &mk->msgs[i];
		size_t s = MAIL_NONE;
		int reroll;

		if (c->kind != MAIL_PATCH && c->kind != MAIL_COVER)
			continue;
		if (!c->total && c->kind == MAIL_PATCH)
			c->k = c->total = 1;	/* a single patch is a series of one */
		if (!c->total || c->k > c->total)
			continue;
		reroll = marks_reroll(mk, i);
		if (m->root) {
			/* sent without threading: the series of the same sender it continues */
			if (prev != MAIL_NONE && continues(mk, mk->cls[prev].series, i, prev)) {
				s = mk->cls[prev].series;
			} else {
				sender_key(&key, mk, i);
				s = map_get(&by_sender, &key);
				if (s != MAIL_NONE && !continues(mk, s, i, prev))
					s = MAIL_NONE;
			}
			if (s != MAIL_NONE)
				unite(mk->parent, m->node, mk->msgs[mk->series[s].pub.first].node);
		}
		thread_key(&key, mk, i);
		if (s == MAIL_NONE)
			s = map_get(&by_thread, &key);
		if (s == MAIL_NONE)
			s = new_series(mk, i);
		map_put(&by_thread, &key, s);
		if (m->root) {
			sender_key(&key, mk, i);
			map_put(&by_sender, &key, s);
		}
		c->series = s;
		mk->series[s].pub.nr++;
		mk->series[s].pub.has_cover |= c->k == 0;
		mk->series[s].rerolls += reroll;
		if (reroll && c->replaces != MAIL_NONE)
			mk->series[s].pub.reroll_of = mk->cls[c->replaces].series;
		if (c->k > mk->series[s].last_k)
			mk->series[s].last_k = c->k;
		mk->series[s].last_msg = i;
		prev = i;
	}
	for (size_t s = 0; s < mk->series_nr; s++)
		mk->series[s].pub.partial = mk->series[s].rerolls &&
					    mk->series[s].rerolls == mk->series[s].pub.nr;
	strbuf_release(&key);
	hashmap_release(&by_thread);
	hashmap_release(&by_sender);
}

/* Series in one thread with the same n, by version: where orphan rerolls find theirs. */
struct thread_version {
	size_t root;
	int total, version;
	size_t series;
};

static int cmp_thread_version(const void *a_, const void *b_)
{
	const struct thread_version *a = a_, *b = b_;

	if (a->root != b->root)
		return a->root < b->root ? -1 : 1;
	if (a->total != b->total)
		return a->total < b->total ? -1 : 1;
	if (a->version != b->version)
		return a->version < b->version ? -1 : 1;
	return a->series < b->series ? -1 : a->series > b->series;
}

/* May series s be a reroll whose replaced patches were left out: no cover, patches missing? */
static int orphan_reroll(const struct mail_kinds *mk, size_t s)
{
	const struct series_state *st = &mk->series[s];

	return !st->pub.has_cover && !st->pub.partial && st->pub.reroll_of == MAIL_NONE &&
	       st->pub.total > 1 && st->pub.nr < (size_t)st->pub.total &&
	       !mk->msgs[st->pub.first].root;
}

/*
 * Series that lack their cover letter and some patches, in the thread
 * of an older version with the same n: partial rerolls of the newest
 * such version (see the header). Sorting keeps it O(n log n).
 */
static void find_orphan_rerolls(struct mail_kinds *mk)
{
	size_t ns = mk->series_nr, found = 0;
	struct thread_version *tv = xmalloc(st_mult(ns + 1, sizeof(*tv)));
	struct hashmap by_k = HASHMAP_INIT;
	struct strbuf key = STRBUF_INIT;

	for (size_t s = 0; s < ns; s++) {
		tv[s].root = find(mk->parent, mk->msgs[mk->series[s].pub.first].node);
		tv[s].total = mk->series[s].pub.total;
		tv[s].version = mk->series[s].pub.version;
		tv[s].series = s;
	}
	qsort(tv, ns, sizeof(*tv), cmp_thread_version);
	for (size_t j = 1; j < ns; j++) {
		size_t s = tv[j].series, t = MAIL_NONE;

		if (!orphan_reroll(mk, s))
			continue;
		for (size_t q = j; q-- > 0 && t == MAIL_NONE;) {
			if (tv[q].root != tv[j].root || tv[q].total != tv[j].total)
				break;
			if (tv[q].version < tv[j].version)
				t = tv[q].series;
		}
		if (t == MAIL_NONE)
			continue;
		mk->series[s].pub.reroll_of = t;
		mk->series[s].pub.partial = 1;
		found++;
	}
	/* their patches replace the older version's with the same number */
	for (size_t i = 0; found && i < mk->nr; i++) {
		const struct mail_class *c = &mk->cls[i];

		if (c->kind != MAIL_PATCH || c->series == MAIL_NONE)
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%zu %d", c->series, c->k);
		if (!hashmap_get(&by_k, key.buf, key.len))
			map_put(&by_k, &key, i);
	}
	for (size_t i = 0; found && i < mk->nr; i++) {
		const struct mail_class *c = &mk->cls[i];
		size_t t, old;

		if (c->kind != MAIL_PATCH || c->series == MAIL_NONE || c->replaces != MAIL_NONE ||
		    (t = mk->series[c->series].pub.reroll_of) == MAIL_NONE ||
		    mk->series[c->series].rerolls)
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%zu %d", t, c->k);
		if ((old = map_get(&by_k, &key)) != MAIL_NONE)
			replace_patch(mk, old, i);
	}
	strbuf_release(&key);
	hashmap_release(&by_k);
	free(tv);
}

/* A series' thread root without a diff is its cover letter. */
static void find_root_covers(struct mail_kinds *mk)
{
	size_t *top = xmalloc(st_mult(mk->nr + 1, sizeof(*top)));

	for (size_t i = 0; i < mk->nr; i++) {
		size_t p = mk->cls[i].parent;
		struct mail_class *c = &mk->cls[i];

		/* parents later in the mailbox (or cycles) end the walk: linear */
		top[i] = p != MAIL_NONE && p < i ? top[p] : i;
		if (c->kind != MAIL_PATCH || c->series == MAIL_NONE || top[i] == i ||
		    mk->series[c->series].pub.has_cover)
			continue;
		if (mk->cls[top[i]].kind != MAIL_OTHER &&
		    (mk->cls[top[i]].kind != MAIL_PATCH || mk->msgs[top[i]].has_diff))
			continue;
		mk->cls[top[i]].kind = MAIL_COVER;
		mk->cls[top[i]].series = c->series;
		mk->series[c->series].pub.has_cover = 1;
	}
	free(top);
}

static int cmp_int(const void *a, const void *b);

/* How many detached rerolls find_detached_rerolls() looks at: the work is that times the mailbox. */
#define DETACHED_REROLLS_MAX 256

/*
 * A partial reroll whose patches answer messages the mailbox does not
 * have: v2 of patch 2/3 sent in reply to v1 2/3, read from a selection
 * or an archive's pick that left the replaced v1 2/3 out. Nothing links
 * it to v1 but its numbers: it is taken as v1's partial reroll when it
 * is of a later version, has the same total, and holds only numbers v1
 * lacks (the newest such older series). Without this it would be a
 * series of its own, "incomplete: missing 1, 3 of 3".
 */
static void find_detached_rerolls(struct mail_kinds *mk)
{
	size_t ns = mk->series_nr, looked = 0, nk, ks_alloc = 0;
	unsigned char *clash = xcalloc(ns + 1, 1), *has = xcalloc(ns + 1, 1);
	int *ks = NULL;

	for (size_t s = 0; s < ns && looked < DETACHED_REROLLS_MAX; s++) {
		struct mail_series *ms = &mk->series[s].pub;
		size_t first = ms->first, best = MAIL_NONE;

		if (ms->partial || ms->version < 2 || ms->total < 2 || ms->has_cover ||
		    mk->msgs[first].reply_node == MAIL_NONE || mk->cls[first].parent != MAIL_NONE)
			continue;
		looked++;
		memset(clash, 0, ns);
		memset(has, 0, ns);
		nk = 0;
		for (size_t i = first; i < mk->nr; i++)
			if (mk->cls[i].series == s && mk->cls[i].kind == MAIL_PATCH) {
				ALLOC_GROW(ks, nk + 1, ks_alloc);
				ks[nk++] = mk->cls[i].k;
			}
		if (nk)
			qsort(ks, nk, sizeof(*ks), cmp_int);
		for (size_t i = 0; i < mk->nr; i++) {
			const struct mail_class *c = &mk->cls[i];
			size_t o = c->series;

			if (c->kind != MAIL_PATCH || o == MAIL_NONE || o == s)
				continue;
			has[o] = 1;
			if (nk && bsearch(&c->k, ks, nk, sizeof(*ks), cmp_int))
				clash[o] = 1;	/* s holds this number too */
		}
		for (size_t o = 0; o < ns; o++) {
			const struct mail_series *mo = &mk->series[o].pub;

			if (o == s || !has[o] || clash[o] || mo->partial || mo->total != ms->total ||
			    mo->version >= ms->version)
				continue;
			if (best == MAIL_NONE || mo->version > mk->series[best].pub.version)
				best = o;
		}
		if (best != MAIL_NONE) {
			ms->reroll_of = best;
			ms->partial = 1;
		}
	}
	free(ks);
	free(clash);
	free(has);
}

/*
 * The versions of a series (families): series of one sender sharing a
 * subject, a partial reroll with what it replaces; then which series
 * are older than the newest full posting of their family.
 */
static void find_families(struct mail_kinds *mk)
{
	struct hashmap by_subject = HASHMAP_INIT;
	struct strbuf key = STRBUF_INIT;
	size_t *fam = xmalloc(st_mult(mk->series_nr + 1, sizeof(*fam)));
	int *newest = xcalloc(mk->series_nr + 1, sizeof(*newest));

	for (size_t s = 0; s < mk->series_nr; s++)
		fam[s] = s;
	for (size_t i = 0; i < mk->nr; i++) {
		const struct mail_class *c = &mk->cls[i];
		const struct msg *m = &mk->msgs[i];
		size_t s;

		if (c->series == MAIL_NONE)
			continue;
		if (c->replaced_by != MAIL_NONE && mk->cls[c->replaced_by].series != MAIL_NONE)
			unite(fam, c->series, mk->cls[c->replaced_by].series);
		if (!m->subject)
			continue;
		strbuf_reset(&key);
		strbuf_addstr(&key, mk->arena.buf + m->sender);
		strbuf_addch(&key, '\n');
		strbuf_addstr(&key, mk->arena.buf + m->subject);
		s = map_get(&by_subject, &key);
		if (s == MAIL_NONE)
			map_put(&by_subject, &key, c->series);
		else
			unite(fam, c->series, s);
	}
	for (size_t s = 0; s < mk->series_nr; s++)
		if (mk->series[s].pub.reroll_of != MAIL_NONE)
			unite(fam, s, mk->series[s].pub.reroll_of);
	for (size_t s = 0; s < mk->series_nr; s++) {
		struct mail_series *ms = &mk->series[s].pub;

		ms->family = find(fam, s);
		if (!ms->partial && ms->version > newest[ms->family])
			newest[ms->family] = ms->version;
	}
	for (size_t s = 0; s < mk->series_nr; s++)
		mk->series[s].pub.superseded = mk->series[s].pub.version < newest[mk->series[s].pub.family];
	strbuf_release(&key);
	hashmap_release(&by_subject);
	free(fam);
	free(newest);
}

void mail_kinds_run(struct mail_kinds *mk)
{
	size_t *node_msg = xmalloc(st_mult(mk->nodes + 1, sizeof(*node_msg)));

	for (size_t n = 0; n < mk->nodes; n++)
		node_msg[n] = MAIL_NONE;
	find_kinds(mk, node_msg);
	find_series(mk);
	find_root_covers(mk);
	find_orphan_rerolls(mk);
	find_detached_rerolls(mk);
	find_families(mk);
	/* Thread numbers in order of first appearance (node_msg reused, per root node). */
	for (size_t n = 0; n < mk->nodes; n++)
		node_msg[n] = MAIL_NONE;
	mk->threads = 0;
	for (size_t i = 0; i < mk->nr; i++) {
		size_t r = find(mk->parent, mk->msgs[i].node);

		if (node_msg[r] == MAIL_NONE)
			node_msg[r] = mk->threads++;
		mk->cls[i].thread = node_msg[r];
	}
	free(node_msg);
}

struct unit_start {
	size_t family, first;
};

static int cmp_start(const void *a_, const void *b_)
{
	const struct unit_start *a = a_, *b = b_;

	return a->first < b->first ? -1 : a->first > b->first;
}

size_t mail_kinds_units(const struct mail_kinds *mk, size_t *unit)
{
	size_t ns = mk->series_nr, nu = 0;
	size_t *first = xmalloc(st_mult(ns + 1, sizeof(*first)));
	unsigned char *has_patch = xcalloc(ns + 1, 1);
	struct unit_start *starts = xmalloc(st_mult(ns + 1, sizeof(*starts)));

	/* where each family's current postings start: their first patch or cover letter */
	for (size_t s = 0; s < ns; s++)
		first[s] = MAIL_NONE;
	for (size_t i = 0; i < mk->nr; i++) {
		const struct mail_class *c = &mk->cls[i];
		size_t f;

		if (c->series == MAIL_NONE || mk->series[c->series].pub.superseded ||
		    (c->kind != MAIL_PATCH && c->kind != MAIL_COVER))
			continue;
		f = mk->series[c->series].pub.family;
		if (first[f] == MAIL_NONE)
			first[f] = i;
		has_patch[f] |= c->kind == MAIL_PATCH;
	}
	for (size_t f = 0; f < ns; f++)
		if (first[f] != MAIL_NONE && has_patch[f]) {
			starts[nu].family = f;
			starts[nu++].first = first[f];
		}
	qsort(starts, nu, sizeof(*starts), cmp_start);
	for (size_t f = 0; f < ns; f++)
		first[f] = MAIL_NONE;
	for (size_t u = 0; u < nu; u++)
		first[starts[u].family] = u;
	for (size_t s = 0; s < ns; s++)
		unit[s] = first[mk->series[s].pub.family];
	free(first);
	free(has_patch);
	free(starts);
	return nu;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The series whose numbers series s's members count for: a partial reroll's, the rerolled one's. */
static size_t counts_for(const struct mail_kinds *mk, size_t s)
{
	for (size_t steps = 0; mk->series[s].pub.reroll_of != MAIL_NONE && steps < mk->series_nr; steps++)
		s = mk->series[s].pub.reroll_of;
	return s;
}

/*
 * Every series' member numbers, grouped by series and sorted: built once.
 * A partial reroll's count for the series it rerolls.
 */
static void build_members(struct mail_kinds *mk)
{
	size_t *fill, *count = xcalloc(mk->series_nr + 1, sizeof(size_t));

	mk->member_start = xcalloc(mk->series_nr + 1, sizeof(size_t));
	mk->member_k = xmalloc(st_mult(mk->nr + 1, sizeof(int)));
	for (size_t s = 0; s < mk->series_nr; s++)
		count[counts_for(mk, s)] += mk->series[s].pub.nr;
	for (size_t s = 0; s < mk->series_nr; s++)
		mk->member_start[s + 1] = mk->member_start[s] + count[s];
	free(count);
	fill = xmalloc(st_mult(mk->series_nr + 1, sizeof(size_t)));
	memcpy(fill, mk->member_start, mk->series_nr * sizeof(size_t));
	for (size_t i = 0; i < mk->nr; i++) {
		size_t s = mk->cls[i].series;

		if (s != MAIL_NONE)
			s = counts_for(mk, s);
		if (s != MAIL_NONE && fill[s] < mk->member_start[s + 1])
			mk->member_k[fill[s]++] = mk->cls[i].k;
	}
	for (size_t s = 0; s < mk->series_nr; s++)
		qsort(mk->member_k + mk->member_start[s], fill[s] - mk->member_start[s], sizeof(int), cmp_int);
	free(fill);
}

static void add_range(struct strbuf *out, int first, long a, long b)
{
	if (!first)
		strbuf_addstr(out, ", ");
	if (a == b)
		strbuf_addf(out, "%ld", a);
	else
		strbuf_addf(out, "%ld-%ld", a, b);
}

size_t mail_kinds_missing(const struct mail_kinds *mk_, size_t s, struct strbuf *out)
{
	struct mail_kinds *mk = (struct mail_kinds *)mk_;	/* the member lists are a cache */
	const struct series_state *st = &mk->series[s];
	long want = 1, missing = 0;

	if (st->pub.partial)
		return 0;
	if (!mk->member_start)
		build_members(mk);
	for (size_t j = mk->member_start[s]; j <= mk->member_start[s + 1]; j++) {
		long k = j < mk->member_start[s + 1] ? mk->member_k[j] : (long)st->pub.total + 1;

		if (k < want)
			continue;
		if (k > want) {
			add_range(out, !missing, want, k - 1);
			missing += k - want;
		}
		want = k + 1;
	}
	return missing;
}

void mail_kind_skipped_summary(struct strbuf *out, const size_t *counts, size_t superseded)
{
	static const enum mail_kind order[] = { MAIL_COVER, MAIL_FOLLOWUP, MAIL_DUPLICATE, MAIL_OTHER };
	const char *what[ARRAY_SIZE(order) + 1];
	size_t n[ARRAY_SIZE(order) + 1], nr = 0;

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (counts[order[i]]) {
			n[nr] = counts[order[i]];
			what[nr] = n[nr] == 1 ? mail_kind_name(order[i]) : mail_kind_plural(order[i]);
			nr++;
		}
	if (superseded) {
		n[nr] = superseded;
		what[nr++] = superseded == 1 ? "superseded patch" : "superseded patches";
	}
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(out, "%s%zu %s", !i ? "" : i + 1 == nr ? " and " : ", ", n[i], what[i]);
}
