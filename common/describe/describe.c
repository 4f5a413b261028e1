/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * describe --contains (name-rev semantics, see describe.h).
 *
 * Why replaying git's walk on a small part of the history gives git's
 * answer. Let X be the commit to name and D the commits that reach X
 * by walking parents without passing through a cut-off commit (X is
 * in D). git applies the tips one after the other; each application is
 * a LIFO walk that pushes a parent when its name improved.
 *  1. A commit outside D has only ancestors outside D (an ancestor in D
 *     would put it in D). So the walk below a pushed commit outside D
 *     never touches D, and dropping it changes neither which names D
 *     gets nor their order: the events on D are those of git's walk
 *     restricted to D, in the same order.
 *  2. A tip outside D never names anything in D; skipping it is exact.
 *  3. Between tag names the older date wins whatever the distance (and
 *     a tag beats a non-tag). Tips are applied oldest first. So once the
 *     first tip (in that order) that reaches X is a tag dated T, only
 *     the tags dated T can give X its final name; later tips cannot
 *     beat it at X. When no tag reaches X (only with all), every
 *     non-tag tip that reaches X is replayed.
 * So: try the tips in git's order, test "reaches X" with a walk that
 * stops at cut-off commits and (with generation numbers) at commits
 * whose generation is not above X's, memoised per query; then replay
 * git's walk from the chosen tips, entering only commits of D.
 */
#include "describe-internal.h"
#include "commit-store.h"
#include "oid.h"
#include "peel-cache.h"
#include "repo-files.h"
#include "wildmatch.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#define CUTOFF_DATE_SLOP 86400
#define MERGE_TRAVERSAL_WEIGHT 65535

enum reach_state { REACH_UNKNOWN, REACH_BUSY, REACH_YES, REACH_NO };

/* ---- refs ---- */

static int cmp_tip_name(const void *a, const void *b)
{
	return strcmp(((const struct tip *)a)->refname, ((const struct tip *)b)->refname);
}

void describer_sort_tips(struct describer *d)
{
	/* git applies equally dated tips in ref name order */
	if (d->tips_nr)
		qsort(d->tips, d->tips_nr, sizeof(*d->tips), cmp_tip_name);
}

static int ensure_state(struct describer *d)
{
	size_t need = commit_store_size(d->store), old = d->state_alloc;

	if (need <= old)
		return 0;
	d->state = commit_store_array_grow(d->state, need + (old ? 0 : 1024), sizeof(*d->state),
				     &d->state_alloc);
	return 0;
}

static int parse(struct describer *d, uint32_t id)
{
	int rc = commit_store_parse(d->store, id);

	ensure_state(d);
	return rc;
}

static int peeled_commit(struct describer *d, struct tip *t, uint32_t id, int have_date,
			 int64_t taggerdate);

/*
 * Peels a tip to its commit and date, as git's name_ref() does. Reading
 * files only, a tip that would need a tag object read is
 * DESCRIBE_FALLBACK.
 */
static int peel_tip_1(struct describer *d, struct tip *t);

static int peel_tip(struct describer *d, struct tip *t)
{
	int rc = peel_tip_1(d, t);

	if (rc < 0)
		t->peeled = 0;	/* a later query may try again (or fall back again) */
	return rc;
}

static int peel_tip_1(struct describer *d, struct tip *t)
{
	int64_t taggerdate = 0;
	int deref = 0, rc;
	uint32_t id;

	if (t->peeled)
		return 0;
	t->peeled = 1;
	/* a commit in the graph is its own peel (and its cache entry goes unused) */
	if (commit_store_in_graph(d->store, &t->oid, &id))
		return peeled_commit(d, t, id, 0, 0);
	if (d->cache) {
		const struct peel_entry *e = peel_cache_get(d->cache, &t->oid);

		if (e) {
			if (!e->is_commit)
				return 0;
			if (!commit_store_in_graph(d->store, &e->commit, &id)) {
				if (!d->src->reads_objects)
					return DESCRIBE_FALLBACK;
				id = commit_store_id(d->store, &e->commit);
				ensure_state(d);
			}
			t->commit = id;
			t->is_commit = 1;
			t->deref = e->deref;
			t->from_tag = starts_with(t->refname, "refs/tags/");
			t->taggerdate = e->taggerdate;
			t->commit_date = e->commit_date;
			return 0;
		}
	}
	rc = d->src->peel(d, &t->oid, t->refname, &id, &deref, &taggerdate);
	if (rc)
		return rc > 0 ? 0 : rc;
	t->deref = deref;
	return peeled_commit(d, t, id, deref, taggerdate);
}

static int peeled_commit(struct describer *d, struct tip *t, uint32_t id, int have_date,
			 int64_t taggerdate)
{
	int rc = parse(d, id);

	if (rc < 0)
		return rc;
	t->commit = id;
	t->is_commit = 1;
	t->from_tag = starts_with(t->refname, "refs/tags/");
	t->commit_date = commit_store_date(d->store, id);
	t->taggerdate = have_date ? taggerdate : t->commit_date;
	/* a commit in the graph peels to itself without a read: nothing to keep */
	if (d->cache && d->src->reads_objects && (t->deref || id >= commit_store_graph_nr(d->store))) {
		struct peel_entry e = { .oid = t->oid, .is_commit = 1, .deref = t->deref,
					.taggerdate = t->taggerdate, .commit_date = t->commit_date };

		e.commit = *commit_store_oid(d->store, id);
		peel_cache_put(d->cache, &e);
	}
	return 0;
}

/* git's subpath_matches(): -1, or the offset of the first matching subpath. */
static int subpath_matches(const char *path, const char *filter)
{
	const char *sub = path;

	while (sub) {
		if (wildmatch(filter, sub, 0))
			return (int)(sub - path);
		sub = strchr(sub, '/');
		if (sub)
			sub++;
	}
	return -1;
}

static int tag_pattern_matches(const char *refname, const struct strvec *pats)
{
	struct strbuf full = STRBUF_INIT;
	size_t i;
	int hit = 0;

	for (i = 0; pats && i < pats->nr && !hit; i++) {
		strbuf_reset(&full);
		strbuf_addf(&full, "refs/tags/%s", pats->v[i]);
		hit = subpath_matches(refname, full.buf) >= 0;
	}
	strbuf_release(&full);
	return hit;
}

static int tip_selected(const struct describer *d, const struct tip *t,
			const struct strvec *match, const struct strvec *exclude)
{
	if (d->all && !match)
		return 1;
	if (!starts_with(t->refname, "refs/tags/"))
		return 0;
	if (exclude && exclude->nr && tag_pattern_matches(t->refname, exclude))
		return 0;
	if (match && match->nr && !tag_pattern_matches(t->refname, match))
		return 0;
	return 1;
}

/* 1 or 0; < 0 when the source cannot tell. */
static int ref_exists(struct describer *d, const char *name)
{
	return d->src->ref_exists(d, name);
}

/*
 * git's shorten_unambiguous_ref(refname, 0) for refs/tags/<name>, or
 * NULL when reading files only cannot tell.
 */
static char *shorten_tag(struct describer *d, const char *refname)
{
	const char *name = refname + strlen("refs/tags/");
	struct strbuf buf = STRBUF_INIT;
	int ambiguous, e;

	strbuf_addf(&buf, "refs/%s", name);
	ambiguous = ref_exists(d, name);
	if (!ambiguous)
		ambiguous = ref_exists(d, buf.buf);
	strbuf_reset(&buf);
	if (!ambiguous) {
		strbuf_addstr(&buf, name);
	} else if (ambiguous > 0) {
		strbuf_addf(&buf, "tags/%s", name);
		e = ref_exists(d, buf.buf);
		if (e) {
			strbuf_reset(&buf);
			strbuf_addstr(&buf, refname);
		}
		ambiguous = e < 0 ? -1 : 1;
	}
	if (ambiguous < 0) {
		strbuf_release(&buf);
		return NULL;
	}
	return strbuf_detach(&buf, NULL);
}

/* The tip's name in output, or NULL (reading files only, see shorten_tag()). */
static const char *tip_display(struct describer *d, struct tip *t)
{
	const char *p;

	if (t->display)
		return t->display;
	if (!d->all && starts_with(t->refname, "refs/tags/"))
		t->display = shorten_tag(d, t->refname);
	else if (skip_prefix(t->refname, "refs/heads/", &p) || skip_prefix(t->refname, "refs/", &p))
		t->display = xstrdup(p);
	else
		t->display = xstrdup(t->refname);
	return t->display;
}

static const struct tip *sort_base;

static int cmp_tag_and_age(const void *a_, const void *b_)
{
	size_t a = *(const size_t *)a_, b = *(const size_t *)b_;
	const struct tip *ta = &sort_base[a], *tb = &sort_base[b];

	if (ta->from_tag != tb->from_tag)
		return ta->from_tag ? -1 : 1;
	if (ta->taggerdate != tb->taggerdate)
		return ta->taggerdate < tb->taggerdate ? -1 : 1;
	return a < b ? -1 : a > b;	/* glibc's qsort is stable: keep ref order */
}

static int prepare_order(struct describer *d)
{
	size_t i;

	if (d->order_ready)
		return 0;
	if (!d->order)
		d->order = xcalloc(d->tips_nr ? d->tips_nr : 1, sizeof(*d->order));
	d->order_nr = 0;
	for (i = 0; i < d->tips_nr; i++) {
		struct tip *t = &d->tips[i];
		int rc;

		if (!tip_selected(d, t, d->all ? NULL : d->match, d->all ? NULL : d->exclude))
			continue;
		rc = peel_tip(d, t);
		if (rc < 0)
			return rc;
		if (t->is_commit)
			d->order[d->order_nr++] = i;
	}
	sort_base = d->tips;
	if (d->order_nr)
		qsort(d->order, d->order_nr, sizeof(*d->order), cmp_tag_and_age);
	d->order_ready = 1;
	return 0;
}

struct describer *describer_alloc(const struct describe_options *opts,
				  const struct describe_source *src, const char *commondir)
{
	struct describer *d = xcalloc(1, sizeof(*d));
	struct strbuf path = STRBUF_INIT;

	d->src = src;
	d->all = opts->all;
	d->match = opts->match;
	d->exclude = opts->exclude;
	strvec_init(&d->names);
	strbuf_addf(&path, "%smaint", commondir);
	d->maint_dir = strbuf_detach(&path, NULL);
	if (opts->use_cache) {
		strbuf_addf(&path, "%s/describe-peel", d->maint_dir);
		d->cache = peel_cache_load(path.buf);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/commit-graph", d->maint_dir);
		d->graph_cache_path = strbuf_detach(&path, NULL);
	}
	strbuf_release(&path);
	return d;
}

/* ---- the files source: no object is read ---- */

static int files_peel(struct describer *d, const git_oid *oid, const char *refname,
		      uint32_t *id, int *deref, int64_t *taggerdate)
{
	(void)refname;
	(void)taggerdate;
	/* only a commit in the graph peels to itself without a read */
	if (!commit_store_in_graph(d->store, oid, id))
		return DESCRIBE_FALLBACK;
	*deref = 0;
	return 0;
}

static int files_ref_exists(struct describer *d, const char *name)
{
	int rc = repo_files_ref_exists(d->files, name);

	return rc < 0 ? DESCRIBE_FALLBACK : rc;
}

static int files_resolve(struct describer *d, const char *rev, git_oid *out)
{
	const struct peel_entry *e;
	uint32_t id;

	if (repo_files_resolve(d->files, rev, out))
		return DESCRIBE_FALLBACK;
	if (commit_store_in_graph(d->store, out, &id))
		return 0;
	e = peel_cache_get(d->cache, out);	/* a tag */
	if (!e || !e->is_commit || !commit_store_in_graph(d->store, &e->commit, &id))
		return DESCRIBE_FALLBACK;
	*out = e->commit;
	return 0;
}

static const struct describe_source files_source = {
	files_peel, files_ref_exists, files_resolve, 0
};

int describer_new_files(struct describer **out, struct repo_files *files,
			const struct describe_options *opts)
{
	struct describer *d;
	struct strbuf objdir = STRBUF_INIT;
	size_t nr, i;
	const struct repo_ref *refs;
	int rc;

	*out = NULL;
	if (!opts->use_graph || !opts->use_cache)
		return 1;	/* annotated tags are peeled from the cache only */
	d = describer_alloc(opts, &files_source, repo_files_gitdir(files));
	d->files = files;
	strbuf_addf(&objdir, "%sobjects", repo_files_gitdir(files));
	rc = commit_store_new_graph_only(&d->store, objdir.buf, d->graph_cache_path);
	strbuf_release(&objdir);
	if (rc) {
		describer_free(d);
		return 1;
	}
	refs = repo_files_refs(files, &nr);
	d->tips = xcalloc(nr ? nr : 1, sizeof(*d->tips));
	for (i = 0; i < nr; i++) {	/* already in name order */
		d->tips[i].refname = xstrdup(refs[i].name);
		d->tips[i].oid = refs[i].oid;
	}
	d->tips_nr = nr;
	*out = d;
	return 0;
}

/*
 * Without a commit-graph, a run that had to read many commits leaves the
 * history it can reach from the tips in $GIT_DIR/maint/commit-graph, so
 * the next runs get generation numbers to bound their walks. Names still
 * follow git's no-graph rules (date cutoff); see reach_quick().
 */
#define GRAPH_CACHE_MIN_READS 2000

static void write_graph_cache(struct describer *d)
{
	uint32_t *roots, min_reads = GRAPH_CACHE_MIN_READS;
	const char *knob = getenv("GIT_MAINT_TEST_GRAPH_CACHE_MIN_READS");
	size_t i, nr = 0;

	if (knob)
		min_reads = (uint32_t)strtoul(knob, NULL, 10);
	if (!d->graph_cache_path || !d->store ||
	    (commit_store_graph(d->store) && !commit_store_graph_is_cache(d->store)) ||
	    commit_store_odb_reads(d->store) < min_reads)
		return;
	roots = xcalloc(d->tips_nr ? d->tips_nr : 1, sizeof(*roots));
	for (i = 0; i < d->tips_nr; i++)
		if (d->tips[i].is_commit)
			roots[nr++] = d->tips[i].commit;
	if (nr) {
		if (!mkdir(d->maint_dir, 0777) || errno == EEXIST)
			commit_store_write_cache(d->store, roots, nr, d->graph_cache_path);
	}
	free(roots);
}

void describer_free(struct describer *d)
{
	size_t i;

	if (!d)
		return;
	if (d->cache && d->src->reads_objects) {
		/* every tip was peeled: entries not used are for refs that are gone */
		int prune = d->order_ready &&
			    (d->all || ((!d->match || !d->match->nr) && (!d->exclude || !d->exclude->nr)));

		peel_cache_save(d->cache, prune);
	}
	peel_cache_free(d->cache);
	if (d->src->reads_objects)
		write_graph_cache(d);
	free(d->graph_cache_path);
	free(d->maint_dir);
	for (i = 0; i < d->tips_nr; i++) {
		free(d->tips[i].refname);
		free(d->tips[i].display);
	}
	free(d->tips);
	free(d->order);
	commit_store_array_free(d->state, sizeof(*d->state), d->state_alloc);
	strvec_clear(&d->names);
	free(d->stack);
	free(d->lifo);
	free(d->pushed);
	for (i = 0; i < d->contains_cache_alloc; i++)
		if (d->contains_cache[i])
			free(d->contains_cache[i]);
	free(d->contains_cache);
	commit_store_free(d->store);
	free(d);
}

int describer_resolve(struct describer *d, const char *rev, git_oid *out)
{
	return d->src->resolve(d, rev, out);
}

/* ---- one query ---- */

static int excluded(struct describer *d, uint32_t id)
{
	if (d->gen_mode)
		return d->gen_cutoff && commit_store_generation(d->store, id) < d->gen_cutoff;
	return commit_store_date(d->store, id) < d->date_cutoff;
}

static void start_query(struct describer *d, uint32_t target)
{
	const struct commit_store *s = d->store;
	int64_t date = commit_store_date(s, target);

	d->epoch++;
	if (!d->epoch) {	/* wrapped: forget everything */
		memset(d->state, 0, d->state_alloc * sizeof(*d->state));
		d->epoch = 1;
	}
	d->target = target;
	d->gen_mode = !commit_store_graph_is_cache(s) &&
		      commit_store_generation(s, target) != COMMIT_GEN_INFINITY;
	d->gen_cutoff = commit_store_generation(s, target);
	/* git: min date minus a day of slop for clock skew, clamped at 0 */
	d->date_cutoff = date > CUTOFF_DATE_SLOP ? date - CUTOFF_DATE_SLOP : 0;
	strvec_clear(&d->names);
}

static int reach_get(struct describer *d, uint32_t id)
{
	struct node_state *n = &d->state[id];

	return n->reach_epoch == d->epoch ? n->reach : REACH_UNKNOWN;
}

static void reach_set(struct describer *d, uint32_t id, int st)
{
	d->state[id].reach_epoch = d->epoch;
	d->state[id].reach = (uint8_t)st;
}

/*
 * Decides id without walking when that is possible: the target itself,
 * cut-off commits, and commits that cannot be descendants of the target
 * (generation not above it; in the graph while the target is not, since
 * a graph holds every ancestor of its commits).
 */
static int reach_quick(struct describer *d, uint32_t id)
{
	uint64_t gt = commit_store_generation(d->store, d->target);
	uint64_t g = commit_store_generation(d->store, id);

	if (id == d->target)
		return REACH_YES;
	if (excluded(d, id))
		return REACH_NO;
	if (gt != COMMIT_GEN_INFINITY) {
		/* generations fall strictly along parents (graph or our cache) */
		if (g != COMMIT_GEN_INFINITY && g <= gt)
			return REACH_NO;
	} else if (id < commit_store_graph_nr(d->store)) {
		return REACH_NO;
	}
	return REACH_UNKNOWN;
}

/* Whether start reaches the target without passing a cut-off commit. */
static int reaches(struct describer *d, uint32_t start)
{
	int st = parse(d, start);

	if (st < 0)
		return st;
	st = reach_get(d, start);
	if (st == REACH_YES || st == REACH_NO)
		return st == REACH_YES;
	st = reach_quick(d, start);
	if (st != REACH_UNKNOWN) {
		reach_set(d, start, st);
		return st == REACH_YES;
	}
	d->stack_nr = 0;
	ALLOC_GROW(d->stack, 1, d->stack_alloc);
	d->stack[d->stack_nr++] = (struct frame){ start, 0, 0 };
	reach_set(d, start, REACH_BUSY);
	while (d->stack_nr) {
		struct frame *f = &d->stack[d->stack_nr - 1];
		uint32_t p;

		if (f->next >= commit_store_nr_parents(d->store, f->id)) {
			uint32_t id = f->id;
			int found = f->found;

			reach_set(d, id, found ? REACH_YES : REACH_NO);
			d->stack_nr--;
			if (found && d->stack_nr)
				d->stack[d->stack_nr - 1].found = 1;
			continue;
		}
		p = commit_store_parents(d->store, f->id)[f->next++];
		st = parse(d, p);
		if (st < 0)
			return st;
		st = reach_get(d, p);
		if (st == REACH_UNKNOWN) {
			st = reach_quick(d, p);
			if (st != REACH_UNKNOWN) {
				reach_set(d, p, st);
			} else {
				reach_set(d, p, REACH_BUSY);
				ALLOC_GROW(d->stack, d->stack_nr + 1, d->stack_alloc);
				d->stack[d->stack_nr++] = (struct frame){ p, 0, 0 };
				continue;
			}
		}
		if (st == REACH_YES)
			d->stack[d->stack_nr - 1].found = 1;
	}
	return reach_get(d, start) == REACH_YES;
}

static int effective_distance(int distance, int generation)
{
	return distance + (generation > 0 ? MERGE_TRAVERSAL_WEIGHT : 0);
}

/* git's is_better_name() */
static int is_better(const struct node_state *n, int64_t taggerdate, int generation,
		     int distance, int from_tag)
{
	int old_d = effective_distance(n->distance, n->generation);
	int new_d = effective_distance(distance, generation);

	if (from_tag && n->from_tag)
		return n->taggerdate > taggerdate ||
		       (n->taggerdate == taggerdate && old_d > new_d);
	if (n->from_tag != from_tag)
		return from_tag;
	if (old_d != new_d)
		return old_d > new_d;
	if (n->taggerdate != taggerdate)
		return n->taggerdate > taggerdate;
	return 0;
}

static int name_update(struct describer *d, uint32_t id, int64_t taggerdate,
		       int generation, int distance, int from_tag)
{
	struct node_state *n = &d->state[id];

	if (n->name_epoch == d->epoch && !is_better(n, taggerdate, generation, distance, from_tag))
		return 0;
	n->name_epoch = d->epoch;
	n->taggerdate = taggerdate;
	n->generation = generation;
	n->distance = distance;
	n->from_tag = (uint8_t)from_tag;
	n->tip_name = NULL;
	return 1;
}

static const char *parent_name(struct describer *d, const struct node_state *n, int parent_number)
{
	size_t len = strlen(n->tip_name);

	if (ends_with(n->tip_name, "^0"))
		len -= 2;
	if (n->generation > 0)
		return strvec_pushf(&d->names, "%.*s~%d^%d", (int)len, n->tip_name,
				    n->generation, parent_number);
	return strvec_pushf(&d->names, "%.*s^%d", (int)len, n->tip_name, parent_number);
}

/* git's name_rev() from one tip, entering only commits that reach the target. */
static int replay_tip(struct describer *d, struct tip *t)
{
	uint32_t start = t->commit;
	const char *display;

	if (!name_update(d, start, t->taggerdate, 0, 0, t->from_tag))
		return 0;
	display = tip_display(d, t);
	if (!display)
		return DESCRIBE_FALLBACK;
	d->state[start].tip_name = t->deref ?
		strvec_pushf(&d->names, "%s^0", display) : strvec_push(&d->names, display);

	d->lifo_nr = 0;
	ALLOC_GROW(d->lifo, 1, d->lifo_alloc);
	d->lifo[d->lifo_nr++] = start;
	while (d->lifo_nr) {
		uint32_t c = d->lifo[--d->lifo_nr];
		uint32_t i, nr = commit_store_nr_parents(d->store, c);

		d->pushed_nr = 0;
		for (i = 0; i < nr; i++) {
			uint32_t p = commit_store_parents(d->store, c)[i];
			struct node_state *n;
			int generation, distance, rc = parse(d, p);

			if (rc < 0)
				return rc;
			if (excluded(d, p) || reach_get(d, p) != REACH_YES)
				continue;
			n = &d->state[c];
			if (i > 0) {
				generation = 0;
				distance = n->distance + MERGE_TRAVERSAL_WEIGHT;
			} else {
				generation = n->generation + 1;
				distance = n->distance + 1;
			}
			if (!name_update(d, p, t->taggerdate, generation, distance, t->from_tag))
				continue;
			d->state[p].tip_name = i > 0 ?
				parent_name(d, &d->state[c], (int)i + 1) : d->state[c].tip_name;
			ALLOC_GROW(d->pushed, d->pushed_nr + 1, d->pushed_alloc);
			d->pushed[d->pushed_nr++] = p;
		}
		/* the first parent must come out first */
		while (d->pushed_nr) {
			ALLOC_GROW(d->lifo, d->lifo_nr + 1, d->lifo_alloc);
			d->lifo[d->lifo_nr++] = d->pushed[--d->pushed_nr];
		}
	}
	return 0;
}

static int begin(struct describer *d, const git_oid *commit, uint32_t *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	int rc;

	*id = commit_store_id(d->store, commit);
	ensure_state(d);
	rc = parse(d, *id);
	if (rc == COMMIT_STORE_MISSING)
		return DESCRIBE_FALLBACK;
	if (rc < 0)
		return error("cannot describe '%s'", oid_to_hex(commit, hex));
	start_query(d, *id);
	return 0;
}

static int compute_contains(struct describer *d, uint32_t target, struct strbuf *out)
{
	size_t k, first = SIZE_MAX;
	const struct node_state *n;
	int rc = prepare_order(d);

	if (rc < 0)
		return rc;
	for (k = 0; k < d->order_nr; k++) {
		struct tip *t = &d->tips[d->order[k]];

		if (first != SIZE_MAX) {
			const struct tip *f = &d->tips[d->order[first]];

			/* only equally dated tags, or any non-tag, can still matter */
			if (f->from_tag && (!t->from_tag || t->taggerdate != f->taggerdate))
				break;
		}
		if (!d->gen_mode && t->commit_date < d->date_cutoff)
			continue;	/* cut off: what reaches() would say, without a read */
		rc = reaches(d, t->commit);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;
		if (first == SIZE_MAX)
			first = k;
		rc = replay_tip(d, t);
		if (rc < 0)
			return rc;
	}
	n = &d->state[target];
	if (first == SIZE_MAX || n->name_epoch != d->epoch || !n->tip_name)
		return 1;
	if (!n->generation) {
		strbuf_addstr(out, n->tip_name);
	} else {
		size_t len = strlen(n->tip_name);

		if (ends_with(n->tip_name, "^0"))
			len -= 2;
		strbuf_add(out, n->tip_name, len);
		strbuf_addf(out, "~%d", n->generation);
	}
	return 0;
}

int describe_contains(struct describer *d, const git_oid *commit, struct strbuf *out)
{
	uint32_t id;
	int rc = begin(d, commit, &id);

	if (rc < 0)
		return rc;
	if (id < d->contains_cache_alloc && d->contains_cache[id]) {
		if (!*d->contains_cache[id])
			return 1;
		strbuf_addstr(out, d->contains_cache[id]);
		return 0;
	}
	{
		size_t before = out->len;

		rc = compute_contains(d, id, out);
		if (rc < 0)
			return rc;
		if (id >= d->contains_cache_alloc) {
			size_t old = d->contains_cache_alloc;

			ALLOC_GROW(d->contains_cache, (size_t)id + 1, d->contains_cache_alloc);
			memset(d->contains_cache + old, 0,
			       (d->contains_cache_alloc - old) * sizeof(*d->contains_cache));
		}
		d->contains_cache[id] = xstrdup(rc ? "" : out->buf + before);
	}
	return rc;
}

/* ---- releases ---- */

static const struct tip *vsort_base;

static int cmp_version_index(const void *a_, const void *b_)
{
	size_t a = *(const size_t *)a_, b = *(const size_t *)b_;
	int c = natural_cmp(vsort_base[a].refname, vsort_base[b].refname);

	return c ? c : (a < b ? -1 : a > b);
}

int describe_release(struct describer *d, const git_oid *commit,
		     const struct strvec *match, const struct strvec *exclude,
		     struct strbuf *out)
{
	static const char *def_match_v[] = { "v[0-9]*", NULL };
	static const char *def_exclude_v[] = { "*-rc*", NULL };
	const struct strvec def_match = { def_match_v, 1, 0 };
	const struct strvec def_exclude = { def_exclude_v, 1, 0 };
	size_t *cand, nr = 0, k;
	uint32_t id;
	int ret = begin(d, commit, &id);

	if (ret < 0)
		return ret;
	ret = 1;
	if (!match || !match->nr)
		match = &def_match;
	if (!exclude || !exclude->nr)
		exclude = &def_exclude;
	cand = xcalloc(d->tips_nr ? d->tips_nr : 1, sizeof(*cand));
	for (k = 0; k < d->tips_nr; k++)
		if (starts_with(d->tips[k].refname, "refs/tags/") &&
		    tip_selected(d, &d->tips[k], match, exclude))
			cand[nr++] = k;
	vsort_base = d->tips;
	if (nr)
		qsort(cand, nr, sizeof(*cand), cmp_version_index);
	for (k = 0; k < nr && ret == 1; k++) {
		struct tip *t = &d->tips[cand[k]];
		int r = peel_tip(d, t);

		if (r < 0) {
			ret = r;
			break;
		}
		if (!t->is_commit || (!d->gen_mode && t->commit_date < d->date_cutoff))
			continue;
		r = reaches(d, t->commit);
		if (r < 0) {
			ret = r;
		} else if (r > 0) {
			char *name = shorten_tag(d, t->refname);

			if (name)
				strbuf_addstr(out, name);
			free(name);
			ret = name ? 0 : DESCRIBE_FALLBACK;
		}
	}
	free(cand);
	return ret;
}

