/* SPDX-License-Identifier: GPL-2.0-only */
#include "request-pull-text.h"
#include "diffstat.h"
#include "hashmap.h"
#include "repo.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RULE "----------------------------------------------------------------\n"

int request_pull_base(git_oid *base, git_repository *repo, const git_oid *upstream,
		      const git_oid *tip)
{
	int rc = git_merge_base(base, repo, upstream, tip);

	if (rc == GIT_ENOTFOUND)
		return error("no commits in common between %s and %s", git_oid_tostr_s(upstream),
			     git_oid_tostr_s(tip));
	return lg2_check(rc, "cannot find the merge base of %s and %s", git_oid_tostr_s(upstream),
			 git_oid_tostr_s(tip));
}

/* Does a signature start at line? The armours git signs tags with. */
static int is_signature(const char *line)
{
	return starts_with(line, "-----BEGIN PGP ") || starts_with(line, "-----BEGIN SSH ") ||
	       starts_with(line, "-----BEGIN SIGNED ");
}

void request_pull_strip_signature(struct strbuf *out, const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;

	while (p < end && !is_signature(p)) {
		const char *nl = memchr(p, '\n', end - p);

		p = nl ? nl + 1 : end;
	}
	strbuf_add(out, msg, p - msg);
}

/* git's %ci: "2005-04-07 15:13:13 -0700", in the committer's own zone. */
static void add_iso_date(struct strbuf *out, const git_time *when)
{
	time_t t = (time_t)(when->time + (git_time_t)when->offset * 60);
	int off = when->offset < 0 ? -when->offset : when->offset;
	struct tm tm;

	gmtime_r(&t, &tm);
	strbuf_addf(out, "%04d-%02d-%02d %02d:%02d:%02d %c%02d%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		    when->offset < 0 || when->sign == '-' ? '-' : '+', off / 60, off % 60);
}

/* "  <subject> (<date>)\n" of commit id. */
static int add_oneline(struct strbuf *out, git_repository *repo, const git_oid *id)
{
	git_commit *c = NULL;
	const char *subject;

	if (lg2_check(git_commit_lookup(&c, repo, id), "cannot read commit %s", git_oid_tostr_s(id)) < 0)
		return -1;
	subject = git_commit_summary(c);
	strbuf_addf(out, "  %s (", subject ? subject : "");
	add_iso_date(out, &git_commit_committer(c)->when);
	strbuf_addstr(out, ")\n");
	git_commit_free(c);
	return 0;
}

/* ---- the shortlog ---- */

struct author {
	char *name;
	struct strvec subjects;	/* newest first, as walked */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct author *)a)->name, ((const struct author *)b)->name);
}

static struct author *author_of(struct author **v, size_t *nr, size_t *alloc, const char *name)
{
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[*nr].name = xstrdup(name);
	strvec_init(&(*v)[*nr].subjects);
	return &(*v)[(*nr)++];
}

/*
 * The commits of upstream..tip in git log's order: git pops commits from
 * a queue ordered by committer date (ties: first queued first), queueing
 * each one's parents as it goes; libgit2's time sort orders the whole set
 * by date instead, which differs where a parent is newer than its child.
 * The set comes from libgit2's walk, the order from that queue.
 */
struct walked {
	git_oid id;
	git_time_t when;
	size_t seq;	/* when it was queued */
	int queued;
};

struct order {
	struct walked *v;
	size_t nr, alloc;
	struct hashmap index;	/* id -> position in v */
	size_t *heap, heap_nr, seq;
};

static int before(const struct order *o, size_t a, size_t b)
{
	const struct walked *x = &o->v[a], *y = &o->v[b];

	return x->when != y->when ? x->when > y->when : x->seq < y->seq;
}

static void heap_push(struct order *o, size_t i)
{
	size_t k = o->heap_nr++;

	o->v[i].queued = 1;
	o->v[i].seq = o->seq++;
	while (k && before(o, i, o->heap[(k - 1) / 2])) {
		o->heap[k] = o->heap[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	o->heap[k] = i;
}

static size_t heap_pop(struct order *o)
{
	size_t top = o->heap[0], last = o->heap[--o->heap_nr], k = 0;

	for (;;) {
		size_t c = 2 * k + 1;

		if (c >= o->heap_nr)
			break;
		if (c + 1 < o->heap_nr && before(o, o->heap[c + 1], o->heap[c]))
			c++;
		if (!before(o, o->heap[c], last))
			break;
		o->heap[k] = o->heap[c];
		k = c;
	}
	if (o->heap_nr)
		o->heap[k] = last;
	return top;
}

static long order_find(const struct order *o, const git_oid *id)
{
	const uint32_t *slot = hashmap_get(&o->index, id->id, GIT_OID_RAWSZ);

	return slot ? (long)*slot : -1;
}

/* The set upstream..tip, with each commit's date. */
static int order_collect(struct order *o, git_repository *repo, const git_oid *upstream,
			 const git_oid *tip)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int rc, ret = -1;

	if (lg2_check(git_revwalk_new(&walk, repo), "cannot walk the history") < 0)
		return -1;
	if (lg2_check(git_revwalk_push(walk, tip), "cannot walk from %s", git_oid_tostr_s(tip)) < 0 ||
	    lg2_check(git_revwalk_hide(walk, upstream), "cannot walk from %s", git_oid_tostr_s(upstream)) < 0)
		goto out;
	while ((rc = git_revwalk_next(&id, walk)) == 0) {
		git_commit *c = NULL;
		int added;
		uint32_t *slot;

		if (lg2_check(git_commit_lookup(&c, repo, &id), "cannot read commit %s",
			      git_oid_tostr_s(&id)) < 0)
			goto out;
		slot = hashmap_put(&o->index, id.id, GIT_OID_RAWSZ, &added);
		*slot = (uint32_t)o->nr;
		ALLOC_GROW(o->v, o->nr + 1, o->alloc);
		memset(&o->v[o->nr], 0, sizeof(o->v[o->nr]));
		git_oid_cpy(&o->v[o->nr].id, &id);
		o->v[o->nr++].when = git_commit_time(c);
		git_commit_free(c);
	}
	if (rc != GIT_ITEROVER && lg2_check(rc, "cannot walk the history") < 0)
		goto out;
	ret = 0;
out:
	git_revwalk_free(walk);
	return ret;
}

/* Calls fn for each commit of upstream..tip, in git log's order. */
static int walk_in_log_order(git_repository *repo, const git_oid *upstream, const git_oid *tip,
			     int (*fn)(git_commit *c, void *data), void *data)
{
	struct order o = { .index = HASHMAP_INIT };
	long at;
	int ret = -1;

	if (order_collect(&o, repo, upstream, tip) < 0)
		goto out;
	o.heap = xcalloc(o.nr ? o.nr : 1, sizeof(*o.heap));
	if ((at = order_find(&o, tip)) >= 0)
		heap_push(&o, (size_t)at);
	while (o.heap_nr) {
		git_commit *c = NULL;
		size_t i = heap_pop(&o);
		int r;

		if (lg2_check(git_commit_lookup(&c, repo, &o.v[i].id), "cannot read commit %s",
			      git_oid_tostr_s(&o.v[i].id)) < 0)
			goto out;
		for (unsigned k = 0; k < git_commit_parentcount(c); k++) {
			at = order_find(&o, git_commit_parent_id(c, k));
			if (at >= 0 && !o.v[at].queued)
				heap_push(&o, (size_t)at);
		}
		r = fn(c, data);
		git_commit_free(c);
		if (r < 0)
			goto out;
	}
	ret = 0;
out:
	free(o.heap);
	free(o.v);
	hashmap_release(&o.index);
	return ret;
}

struct authors {
	struct author *v;
	size_t nr, alloc;
	git_mailmap *mm;
};

static int add_to_author(git_commit *c, void *data)
{
	struct authors *a = data;
	git_signature *who = NULL;
	const char *subject;

	if (lg2_check(git_commit_author_with_mailmap(&who, c, a->mm), "cannot read the author of %s",
		      git_oid_tostr_s(git_commit_id(c))) < 0)
		return -1;
	subject = git_commit_summary(c);
	strvec_push(&author_of(&a->v, &a->nr, &a->alloc, who->name)->subjects,
		    subject && *subject ? subject : "<none>");
	git_signature_free(who);
	return 0;
}

int request_pull_shortlog(struct strbuf *out, git_repository *repo, const git_oid *upstream,
			  const git_oid *tip)
{
	struct authors a = { NULL, 0, 0, NULL };
	struct author *v;
	size_t nr;
	int ret = lg2_check(git_mailmap_from_repository(&a.mm, repo), "cannot read the .mailmap");

	if (!ret)
		ret = walk_in_log_order(repo, upstream, tip, add_to_author, &a);
	git_mailmap_free(a.mm);
	v = a.v;
	nr = a.nr;
	if (!ret) {
		qsort(v, nr, sizeof(*v), by_name);
		for (size_t i = 0; i < nr; i++) {
			strbuf_addf(out, "%s (%zu):\n", v[i].name, v[i].subjects.nr);
			for (size_t k = v[i].subjects.nr; k-- > 0;)
				strbuf_addf(out, "      %s\n", v[i].subjects.v[k]);
			strbuf_addch(out, '\n');
		}
	}
	for (size_t i = 0; i < nr; i++) {
		free(v[i].name);
		strvec_clear(&v[i].subjects);
	}
	free(v);
	return ret;
}

/* ---- the diffstat ---- */

static int add_diffstat(struct strbuf *out, git_repository *repo, const git_oid *base, const git_oid *tip,
			const struct diffstat_opts *o)
{
	git_commit *from = NULL, *to = NULL;
	git_tree *a = NULL, *b = NULL;
	int ret = -1;

	if (!lg2_check(git_commit_lookup(&from, repo, base), "cannot read commit %s", git_oid_tostr_s(base)) &&
	    !lg2_check(git_commit_lookup(&to, repo, tip), "cannot read commit %s", git_oid_tostr_s(tip)) &&
	    !lg2_check(git_commit_tree(&a, from), "cannot read the tree of %s", git_oid_tostr_s(base)) &&
	    !lg2_check(git_commit_tree(&b, to), "cannot read the tree of %s", git_oid_tostr_s(tip)))
		ret = diffstat_trees(out, repo, a, b, o);
	git_tree_free(a);
	git_tree_free(b);
	git_commit_free(from);
	git_commit_free(to);
	return ret;
}

int request_pull_format(struct strbuf *out, git_repository *repo, const struct request_pull_text *rp)
{
	git_oid base;

	if (request_pull_base(&base, repo, rp->upstream, rp->tip) < 0)
		return -1;
	strbuf_addf(out, "The following changes since commit %s:\n\n", git_oid_tostr_s(&base));
	if (add_oneline(out, repo, &base) < 0)
		return -1;
	strbuf_addf(out, "\nare available in the Git repository at:\n\n  %s tags/%s\n\n", rp->url, rp->tag);
	strbuf_addf(out, "for you to fetch changes up to %s:\n\n", git_oid_tostr_s(rp->tip));
	if (add_oneline(out, repo, rp->tip) < 0)
		return -1;
	strbuf_addstr(out, "\n" RULE);
	/* as git's sed and echo: a last line without its newline gets no blank line after it */
	request_pull_strip_signature(out, rp->message, rp->message_len);
	strbuf_addstr(out, "\n" RULE);
	if (request_pull_shortlog(out, repo, rp->upstream, rp->tip) < 0)
		return -1;
	return add_diffstat(out, repo, &base, rp->tip, &rp->diffstat);
}
