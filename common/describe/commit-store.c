/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Commits of a walk (see commit-store.h): graph commits are decoded from
 * the mapped commit-graph on first use; other commits are read through
 * the store's reader (libgit2, commit-store-odb.c) and found again by a
 * hash map on their id (hashmap.h). Nothing here calls libgit2.
 */
#include "commit-store.h"
#include "commit-graph.h"
#include "hashmap.h"
#include "oid.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct cnode {
	int64_t date;
	uint64_t generation;
	uint32_t parent_off;	/* index into parents[] */
	uint32_t nr_parents;
	unsigned parsed : 1;
};

struct commit_store {
	struct commit_store_reader reader;	/* .read NULL: graph only */
	struct commit_graph *graph;
	uint32_t graph_nr;
	int graph_is_cache;
	uint32_t odb_reads;

	struct cnode *nodes;	/* graph_nr + extra_nr, grown */
	size_t nodes_alloc;
	git_oid *extra_oids;	/* oids of ids >= graph_nr */
	size_t extra_nr, extra_alloc;
	git_oid *graph_oids;	/* lazily copied oids of graph ids, for _oid() */

	struct hashmap extra;	/* object id -> extra index */

	uint32_t *parents;
	size_t parents_nr, parents_alloc;
};

#define HUGE_PAGE ((size_t)2 << 20)

void *commit_store_array_alloc(size_t nr, size_t size, size_t *nr_alloc)
{
	size_t bytes = st_mult(nr ? nr : 1, size), len;
	unsigned char *map, *aligned;

	if (bytes < HUGE_PAGE / 2) {
		*nr_alloc = nr ? nr : 1;
		return xcalloc(*nr_alloc, size);
	}
	len = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	map = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die_errno("cannot allocate %zu bytes", len);
	/* align to a huge page and give back the slop around it */
	aligned = (unsigned char *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (aligned > map)
		munmap(map, aligned - map);
	if (map + len + HUGE_PAGE > aligned + len)
		munmap(aligned + len, map + len + HUGE_PAGE - (aligned + len));
	madvise(aligned, len, MADV_HUGEPAGE);	/* a hint: failure is fine */
	*nr_alloc = len / size;
	return aligned;
}

void commit_store_array_free(void *a, size_t size, size_t nr_alloc)
{
	size_t bytes;

	if (!a)
		return;
	bytes = nr_alloc * size;
	if (bytes < HUGE_PAGE / 2)
		free(a);
	else
		munmap(a, (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
}

void *commit_store_array_grow(void *a, size_t nr, size_t size, size_t *nr_alloc)
{
	size_t old = *nr_alloc, want;
	void *n;

	if (nr <= old)
		return a;
	want = old + old / 2 > nr ? old + old / 2 : nr;
	n = commit_store_array_alloc(want, size, nr_alloc);
	if (a)
		memcpy(n, a, old * size);
	commit_store_array_free(a, size, old);
	return n;
}

struct commit_store *commit_store_new_with(struct commit_graph *graph, int graph_is_cache,
					   const struct commit_store_reader *reader)
{
	struct commit_store *s = xcalloc(1, sizeof(*s));

	if (reader)
		s->reader = *reader;
	s->graph = graph;
	s->graph_is_cache = graph && graph_is_cache;
	s->graph_nr = graph ? commit_graph_nr(graph) : 0;
	s->nodes = commit_store_array_alloc(s->graph_nr + 64, sizeof(*s->nodes), &s->nodes_alloc);
	return s;
}

int commit_store_new_graph_only(struct commit_store **out, const char *objects_dir,
				const char *cache_path)
{
	struct commit_graph *g = NULL;
	int is_cache = 0;

	*out = NULL;
	if (commit_graph_open(&g, objects_dir) < 0)
		return 1;	/* the libgit2 path reports it, then ignores the graph */
	if (!g && cache_path) {
		if (commit_graph_open_file(&g, cache_path) < 0)
			return 1;
		is_cache = !!g;
	}
	if (!g)
		return 1;
	*out = commit_store_new_with(g, is_cache, NULL);
	return 0;
}

void commit_store_free(struct commit_store *s)
{
	if (!s)
		return;
	commit_graph_free(s->graph);
	if (s->reader.free)
		s->reader.free(s->reader.ctx);
	commit_store_array_free(s->nodes, sizeof(*s->nodes), s->nodes_alloc);
	free(s->extra_oids);
	free(s->graph_oids);
	hashmap_release(&s->extra);
	free(s->parents);
	free(s);
}

const struct commit_graph *commit_store_graph(const struct commit_store *s)
{
	return s->graph;
}

int commit_store_graph_is_cache(const struct commit_store *s)
{
	return s->graph_is_cache;
}

uint32_t commit_store_odb_reads(const struct commit_store *s)
{
	return s->odb_reads;
}

uint32_t commit_store_graph_nr(const struct commit_store *s)
{
	return s->graph_nr;
}

uint32_t commit_store_size(const struct commit_store *s)
{
	return s->graph_nr + (uint32_t)s->extra_nr;
}

int commit_store_in_graph(struct commit_store *s, const git_oid *oid, uint32_t *id)
{
	return s->graph && commit_graph_find(s->graph, oid->id, id);
}

uint32_t commit_store_id(struct commit_store *s, const git_oid *oid)
{
	uint32_t id, *extra;
	int added;

	if (commit_store_in_graph(s, oid, &id))
		return id;
	extra = hashmap_put(&s->extra, oid->id, GIT_OID_RAWSZ, &added);
	if (!added)
		return s->graph_nr + *extra;
	*extra = (uint32_t)s->extra_nr;

	if ((uint64_t)s->graph_nr + s->extra_nr >= 0x7fffffffu)
		die("too many commits");
	ALLOC_GROW(s->extra_oids, s->extra_nr + 1, s->extra_alloc);
	s->extra_oids[s->extra_nr] = *oid;
	id = s->graph_nr + (uint32_t)s->extra_nr;
	if (id >= s->nodes_alloc)
		s->nodes = commit_store_array_grow(s->nodes, (size_t)id + 1, sizeof(*s->nodes),
					     &s->nodes_alloc);
	s->extra_nr++;
	return id;
}

const git_oid *commit_store_oid(const struct commit_store *s, uint32_t id)
{
	struct commit_store *ms = (struct commit_store *)s;

	if (id >= s->graph_nr)
		return &s->extra_oids[id - s->graph_nr];
	if (!ms->graph_oids)
		ms->graph_oids = xcalloc(s->graph_nr, sizeof(git_oid));
	memcpy(ms->graph_oids[id].id, commit_graph_oid(s->graph, id), COMMIT_GRAPH_HASH_LEN);
	return &ms->graph_oids[id];
}

static int parse_from_graph(struct commit_store *s, uint32_t id)
{
	struct commit_graph_entry e;
	size_t before = s->parents_nr;

	if (commit_graph_read(s->graph, id, &e, &s->parents, &s->parents_nr, &s->parents_alloc) < 0)
		return -1;
	s->nodes[id].date = e.date;
	s->nodes[id].generation = e.generation;
	s->nodes[id].parent_off = (uint32_t)before;
	s->nodes[id].nr_parents = (uint32_t)(s->parents_nr - before);
	return 0;
}

/*
 * Reads what a walk needs straight from the object's text, as git's
 * parse_commit_buffer() does: the "parent" lines after "tree", and the
 * date after the last '>' of the "committer" line (0 when unparseable).
 */
static int parse_commit_text(struct commit_store *s, uint32_t id, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *eol;
	size_t off = s->parents_nr;
	uint32_t n = 0;
	int64_t date = 0;

	if (len < 5 + GIT_OID_HEXSZ + 1 || memcmp(p, "tree ", 5))
		return -1;
	p += 5 + GIT_OID_HEXSZ + 1;
	while (p + 7 + GIT_OID_HEXSZ < end && !memcmp(p, "parent ", 7)) {
		git_oid poid;
		uint32_t pid;

		if (oid_from_hex(&poid, p + 7) < 0 || p[7 + GIT_OID_HEXSZ] != '\n')
			return -1;
		pid = commit_store_id(s, &poid);
		ALLOC_GROW(s->parents, s->parents_nr + 1, s->parents_alloc);
		s->parents[s->parents_nr++] = pid;
		n++;
		p += 7 + GIT_OID_HEXSZ + 1;
	}
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol || eol == p)
			break;	/* end of the header */
		if (eol - p > 10 && !memcmp(p, "committer ", 10)) {
			const char *gt = eol;

			while (gt > p && *gt != '>')
				gt--;
			if (*gt == '>') {
				char *e;

				date = strtoll(gt + 1, &e, 10);
				if (date < 0)
					date = 0;
			}
			break;
		}
	}
	s->nodes[id].date = date;
	s->nodes[id].generation = COMMIT_GEN_INFINITY;
	s->nodes[id].parent_off = (uint32_t)off;
	s->nodes[id].nr_parents = n;
	return 0;
}

static int parse_from_reader(struct commit_store *s, uint32_t id)
{
	struct strbuf text = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	int rc;

	s->odb_reads++;
	rc = s->reader.read(s->reader.ctx, &s->extra_oids[id - s->graph_nr], &text);
	if (!rc && parse_commit_text(s, id, text.buf, text.len) < 0)
		rc = error("cannot parse commit '%s'",
			   oid_to_hex(&s->extra_oids[id - s->graph_nr], hex));
	strbuf_release(&text);
	return rc;
}

int commit_store_parse(struct commit_store *s, uint32_t id)
{
	int rc;

	if (s->nodes[id].parsed)
		return 0;
	if (id >= s->graph_nr && !s->reader.read)
		return COMMIT_STORE_MISSING;
	rc = id < s->graph_nr ? parse_from_graph(s, id) : parse_from_reader(s, id);
	if (!rc)
		s->nodes[id].parsed = 1;
	return rc;
}

int64_t commit_store_date(const struct commit_store *s, uint32_t id)
{
	return s->nodes[id].date;
}

uint64_t commit_store_generation(const struct commit_store *s, uint32_t id)
{
	return s->nodes[id].generation;
}

uint32_t commit_store_nr_parents(const struct commit_store *s, uint32_t id)
{
	return s->nodes[id].nr_parents;
}

const uint32_t *commit_store_parents(const struct commit_store *s, uint32_t id)
{
	return s->parents + s->nodes[id].parent_off;
}

static const struct commit_store *sort_store;

static int cmp_by_oid(const void *a, const void *b)
{
	return oid_cmp(commit_store_oid(sort_store, *(const uint32_t *)a),
			   commit_store_oid(sort_store, *(const uint32_t *)b));
}

int commit_store_write_cache(struct commit_store *s, const uint32_t *roots, size_t nr,
			     const char *path)
{
	/* state: 0 unseen, 1 on the stack, 2 done (level known) */
	uint8_t *state = NULL;
	uint32_t *level = NULL, *stack = NULL, *order = NULL, *pos = NULL, *pbuf = NULL;
	struct commit_graph_commit *out = NULL;
	size_t state_alloc = 0, stack_nr = 0, stack_alloc = 0, order_nr = 0, order_alloc = 0;
	size_t i, total_parents = 0;
	int ret = -1;

	for (i = 0; i < nr; i++) {
		ALLOC_GROW(stack, stack_nr + 1, stack_alloc);
		stack[stack_nr++] = roots[i];
	}
	/* post-order walk: a commit's level is one more than its parents' highest */
	while (stack_nr) {
		uint32_t c = stack[stack_nr - 1], k, n, lv = 0;
		int pending = 0;

		if (commit_store_size(s) > state_alloc) {
			size_t old = state_alloc;

			ALLOC_GROW(state, commit_store_size(s), state_alloc);
			memset(state + old, 0, state_alloc - old);
			level = xrealloc(level, st_mult(state_alloc, sizeof(*level)));
		}
		if (state[c] == 2) {
			stack_nr--;
			continue;
		}
		if (commit_store_parse(s, c) < 0)
			goto cleanup;
		if (commit_store_size(s) > state_alloc)
			continue;	/* grow the arrays first */
		state[c] = 1;
		n = commit_store_nr_parents(s, c);
		for (k = 0; k < n; k++) {
			uint32_t p = commit_store_parents(s, c)[k];

			if (p >= state_alloc || state[p] != 2) {
				if (p < state_alloc && state[p] == 1)
					goto cleanup;	/* a cycle: not a commit history */
				ALLOC_GROW(stack, stack_nr + 1, stack_alloc);
				stack[stack_nr++] = p;
				pending = 1;
			} else if (level[p] > lv) {
				lv = level[p];
			}
		}
		if (pending) {
			state[c] = 0;	/* come back when the parents are done */
			continue;
		}
		level[c] = lv + 1;
		state[c] = 2;
		stack_nr--;
		ALLOC_GROW(order, order_nr + 1, order_alloc);
		order[order_nr++] = c;
		total_parents += n;
	}

	sort_store = s;
	if (order_nr)
		qsort(order, order_nr, sizeof(*order), cmp_by_oid);
	pos = xcalloc(state_alloc ? state_alloc : 1, sizeof(*pos));
	for (i = 0; i < order_nr; i++)
		pos[order[i]] = (uint32_t)i;
	out = xcalloc(order_nr ? order_nr : 1, sizeof(*out));
	pbuf = xcalloc(total_parents ? total_parents : 1, sizeof(*pbuf));
	{
		size_t used = 0;

		for (i = 0; i < order_nr; i++) {
			uint32_t c = order[i], k, n = commit_store_nr_parents(s, c);

			out[i].oid = commit_store_oid(s, c)->id;
			out[i].date = commit_store_date(s, c);
			out[i].level = level[c];
			out[i].nr_parents = n;
			out[i].parents = pbuf + used;
			for (k = 0; k < n; k++)
				pbuf[used++] = pos[commit_store_parents(s, c)[k]];
		}
	}
	ret = commit_graph_write_file(path, out, (uint32_t)order_nr);
cleanup:
	free(state);
	free(level);
	free(stack);
	free(order);
	free(pos);
	free(pbuf);
	free(out);
	return ret;
}
