/* SPDX-License-Identifier: GPL-2.0-only */
#include "pushpack.h"
#include "delta.h"
#include "hashmap.h"
#include "packwrite.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A sign of life every this many objects found or written. */
#define PROGRESS_EVERY 256
/* Objects smaller than this go whole: a delta could not save enough to matter. */
#define DELTA_MIN_SIZE 64

struct pp_object {
	git_oid oid;
	git_oid base;		/* the same path's older version, when has_base */
	git_object_t type;
	unsigned has_base : 1, written : 1;
	unsigned depth;		/* of its delta chain once written; 0 whole */
	uint64_t offset;	/* once written */
};

struct pushpack {
	git_repository *repo;
	git_odb *odb;
	const struct pushpack_opts *opts;
	struct pp_object *v;	/* in the pack's order */
	size_t nr, alloc;
	struct hashmap index;	/* id -> position in v */
	size_t ticks;
};

static void tick(struct pushpack *pp)
{
	if (pp->opts->progress && !(++pp->ticks % PROGRESS_EVERY))
		pp->opts->progress(pp->opts->data);
}

/* The object's place in v, or -1. */
static long find(const struct pushpack *pp, const git_oid *oid)
{
	const uint32_t *v = hashmap_get(&pp->index, oid->id, GIT_OID_RAWSZ);

	return v ? (long)*v : -1;
}

/* Adds an object not yet in the pack; 0 when it was there already. */
static int add(struct pushpack *pp, const git_oid *oid, git_object_t type, const git_oid *base)
{
	int added;
	uint32_t *slot = hashmap_put(&pp->index, oid->id, GIT_OID_RAWSZ, &added);
	struct pp_object *o;

	if (!added)
		return 0;
	*slot = (uint32_t)pp->nr;
	ALLOC_GROW(pp->v, pp->nr + 1, pp->alloc);
	o = &pp->v[pp->nr++];
	memset(o, 0, sizeof(*o));
	git_oid_cpy(&o->oid, oid);
	o->type = type;
	if (base) {
		git_oid_cpy(&o->base, base);
		o->has_base = 1;
	}
	tick(pp);
	return 1;
}

/* ---- trees, read raw ---- */

struct entry {
	const char *name;
	size_t len;
	unsigned mode;
	const git_oid *oid;	/* points into the tree's data */
};

struct tree_cursor {
	git_odb_object *obj;	/* NULL: no tree at this path */
	const unsigned char *p, *end;
	struct entry cur;
	int has_cur;
};

/* The next entry of a tree's data: "<octal mode> <name>\0<20-byte id>". -1 when malformed. */
static int cursor_next(struct tree_cursor *c)
{
	const unsigned char *p = c->p, *nul;
	unsigned mode = 0;

	c->has_cur = 0;
	if (!c->obj || p >= c->end)
		return 0;
	while (p < c->end && *p >= '0' && *p <= '7')
		mode = (mode << 3) | (*p++ - '0');
	if (p >= c->end || *p++ != ' ')
		return -1;
	nul = memchr(p, '\0', c->end - p);
	if (!nul || (size_t)(c->end - nul - 1) < GIT_OID_RAWSZ)
		return -1;
	c->cur.name = (const char *)p;
	c->cur.len = nul - p;
	c->cur.mode = mode;
	c->cur.oid = (const git_oid *)(nul + 1);
	c->p = nul + 1 + GIT_OID_RAWSZ;
	c->has_cur = 1;
	return 0;
}

static int cursor_open(struct pushpack *pp, struct tree_cursor *c, const git_oid *oid)
{
	memset(c, 0, sizeof(*c));
	if (!oid)
		return 0;
	if (lg2_check(git_odb_read(&c->obj, pp->odb, oid), "cannot read tree %s",
		      git_oid_tostr_s(oid)) < 0)
		return -1;
	if (git_odb_object_type(c->obj) != GIT_OBJECT_TREE)
		return error("%s is not a tree", git_oid_tostr_s(oid));
	c->p = git_odb_object_data(c->obj);
	c->end = c->p + git_odb_object_size(c->obj);
	if (cursor_next(c) < 0)
		return error("tree %s is malformed", git_oid_tostr_s(oid));
	return 0;
}

static void cursor_close(struct tree_cursor *c)
{
	git_odb_object_free(c->obj);
	c->obj = NULL;
}

static int is_tree(unsigned mode)
{
	return S_ISDIR(mode);
}

static int is_gitlink(unsigned mode)
{
	return (mode & S_IFMT) == 0160000;
}

/* git's tree order: names compared as if a tree's ended with '/'. */
static int entry_cmp(const struct entry *a, const struct entry *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = n < a->len ? (unsigned char)a->name[n] : is_tree(a->mode) ? '/' : 0;
	cb = n < b->len ? (unsigned char)b->name[n] : is_tree(b->mode) ? '/' : 0;
	return (int)ca - (int)cb;
}

/* Moves c to the entry named as e, if it has one: its entry, or NULL. */
static const struct entry *seek(struct tree_cursor *c, const struct entry *e, const git_oid *tree)
{
	int cmp;

	while (c->has_cur && (cmp = entry_cmp(&c->cur, e)) < 0)
		if (cursor_next(c) < 0) {
			error("tree %s is malformed", git_oid_tostr_s(tree));
			c->has_cur = 0;
		}
	return c->has_cur && !cmp ? &c->cur : NULL;
}

/*
 * The tree oid, at a path where the parents have the trees parents[]
 * (NULL where one has none), and what under it no parent has. Called
 * only when no parent has this very tree.
 */
static int walk_tree(struct pushpack *pp, const git_oid *oid, const git_oid *const *parents,
		     size_t np)
{
	struct tree_cursor c, *pc = xcalloc(np ? np : 1, sizeof(*pc));
	const git_oid **sub = xcalloc(np ? np : 1, sizeof(*sub));
	const git_oid *base = NULL;
	int ret = -1;

	for (size_t k = 0; k < np && !base; k++)
		base = parents[k];
	if (!add(pp, oid, GIT_OBJECT_TREE, base)) {
		ret = 0;	/* found before, with what is under it */
		goto out;
	}
	if (cursor_open(pp, &c, oid) < 0)
		goto out;
	for (size_t k = 0; k < np; k++)
		if (cursor_open(pp, &pc[k], parents[k]) < 0)
			goto close;
	for (; c.has_cur; ) {
		const struct entry e = c.cur;
		const git_oid *blob_base = NULL;
		int same = 0;

		for (size_t k = 0; k < np; k++) {
			const struct entry *m = seek(&pc[k], &e, parents[k]);

			sub[k] = NULL;
			if (!m)
				continue;
			if (git_oid_equal(m->oid, e.oid))
				same = 1;
			else if (is_tree(m->mode))
				sub[k] = m->oid;
			else if (!is_gitlink(m->mode) && !blob_base)
				blob_base = m->oid;
		}
		if (!same && is_tree(e.mode)) {
			if (walk_tree(pp, e.oid, sub, np) < 0)
				goto close;
		} else if (!same && !is_gitlink(e.mode)) {
			add(pp, e.oid, GIT_OBJECT_BLOB, blob_base);
		}
		if (cursor_next(&c) < 0) {
			error("tree %s is malformed", git_oid_tostr_s(oid));
			goto close;
		}
	}
	ret = 0;
close:
	cursor_close(&c);
	for (size_t k = 0; k < np; k++)
		cursor_close(&pc[k]);
out:
	free(pc);
	free(sub);
	return ret;
}

/* ---- commits ---- */

static int hide_haves(struct pushpack *pp, git_revwalk *walk)
{
	for (size_t i = 0; i < pp->opts->nr_haves; i++) {
		const git_oid *h = &pp->opts->haves[i];
		int rc;

		/* what we lack the remote has on its own; a tag of a tree hides nothing */
		if (git_oid_is_zero(h) || !git_odb_exists(pp->odb, h))
			continue;
		rc = git_revwalk_hide(walk, h);
		if (rc < 0 && rc != GIT_ENOTFOUND && rc != GIT_EPEEL && rc != GIT_EINVALIDSPEC &&
		    lg2_check(rc, "cannot walk from %s", git_oid_tostr_s(h)) < 0)
			return -1;
		git_error_clear();
	}
	return 0;
}

static int add_commit(struct pushpack *pp, const git_oid *id)
{
	git_commit *c = NULL;
	size_t np;
	const git_oid **trees = NULL;
	git_commit **parents = NULL;
	int ret = -1;

	if (lg2_check(git_commit_lookup(&c, pp->repo, id), "cannot read commit %s",
		      git_oid_tostr_s(id)) < 0)
		return -1;
	add(pp, id, GIT_OBJECT_COMMIT, NULL);
	np = git_commit_parentcount(c);
	trees = xcalloc(np ? np : 1, sizeof(*trees));
	parents = xcalloc(np ? np : 1, sizeof(*parents));
	for (size_t k = 0; k < np; k++) {
		if (lg2_check(git_commit_parent(&parents[k], c, (unsigned)k), "cannot read a parent of %s",
			      git_oid_tostr_s(id)) < 0)
			goto out;
		trees[k] = git_commit_tree_id(parents[k]);
		if (git_oid_equal(trees[k], git_commit_tree_id(c))) {
			ret = 0;	/* the tree of a parent: nothing new under it */
			goto out;
		}
	}
	ret = walk_tree(pp, git_commit_tree_id(c), trees, np);
out:
	for (size_t k = 0; k < np; k++)
		git_commit_free(parents[k]);
	free(parents);
	free(trees);
	git_commit_free(c);
	return ret;
}

static int remote_has(const struct pushpack *pp, const git_oid *oid)
{
	for (size_t i = 0; i < pp->opts->nr_haves; i++)
		if (git_oid_equal(&pp->opts->haves[i], oid))
			return 1;
	return 0;
}

/*
 * A tip that is an annotated tag (a pull request's): the tag object, and
 * a tag it points at, go too, unless the remote has them; *commit is
 * what they point at in the end.
 */
static int add_tags(struct pushpack *pp, const git_oid *tip, git_oid *commit)
{
	git_tag *tag = NULL;

	git_oid_cpy(commit, tip);
	for (int depth = 0; depth < 16; depth++) {	/* a tag of a tag of ...: bounded */
		size_t len;
		git_object_t type;

		if (lg2_check(git_odb_read_header(&len, &type, pp->odb, commit), "cannot read %s",
			      git_oid_tostr_s(commit)) < 0)
			return -1;
		if (type != GIT_OBJECT_TAG)
			return 0;
		if (!remote_has(pp, commit))
			add(pp, commit, GIT_OBJECT_TAG, NULL);
		if (lg2_check(git_tag_lookup(&tag, pp->repo, commit), "cannot read tag %s",
			      git_oid_tostr_s(commit)) < 0)
			return -1;
		git_oid_cpy(commit, git_tag_target_id(tag));
		git_tag_free(tag);
	}
	return error("tag %s: too many tags of tags", git_oid_tostr_s(tip));
}

static int find_objects(struct pushpack *pp, const git_oid *tip, uint32_t *commits)
{
	git_revwalk *walk = NULL;
	git_oid id, commit;
	int rc, ret = -1;

	if (add_tags(pp, tip, &commit) < 0)
		return -1;
	tip = &commit;
	if (lg2_check(git_revwalk_new(&walk, pp->repo), "cannot walk the history") < 0)
		return -1;
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (lg2_check(git_revwalk_push(walk, tip), "cannot walk from %s", git_oid_tostr_s(tip)) < 0 ||
	    hide_haves(pp, walk) < 0)
		goto out;
	while ((rc = git_revwalk_next(&id, walk)) == 0) {
		if (add_commit(pp, &id) < 0)
			goto out;
		(*commits)++;
	}
	if (rc != GIT_ITEROVER && lg2_check(rc, "cannot walk the history") < 0)
		goto out;
	ret = 0;
out:
	git_revwalk_free(walk);
	return ret;
}

/* ---- writing ---- */

/*
 * How o goes: a delta against its base when that is worth it, else
 * whole. The base is in the pack already (written), or the remote has it.
 */
static int write_one(struct pushpack *pp, struct packwrite *pw, struct pp_object *o,
		     struct strbuf *delta, struct pushpack_stats *st)
{
	git_odb_object *obj = NULL, *base = NULL;
	struct pp_object *b = NULL;
	struct packwrite_entry e;
	const void *data;
	size_t len;
	long at;
	int ret = -1, delta_ok = 0;

	if (lg2_check(git_odb_read(&obj, pp->odb, &o->oid), "cannot read %s %s",
		      git_object_type2string(o->type), git_oid_tostr_s(&o->oid)) < 0)
		return -1;
	data = git_odb_object_data(obj);
	len = git_odb_object_size(obj);
	if (o->has_base && len >= DELTA_MIN_SIZE) {
		at = find(pp, &o->base);
		b = at >= 0 && pp->v[at].written ? &pp->v[at] : NULL;
		if ((b ? b->depth < PUSHPACK_MAX_DEPTH : pp->opts->thin && len >= PUSHPACK_THIN_MIN_SIZE) &&
		    !git_odb_read(&base, pp->odb, &o->base)) {
			strbuf_setlen(delta, 0);
			delta_ok = !delta_create(delta, git_odb_object_data(base), git_odb_object_size(base),
						 data, len, len / 2);
		}
		git_error_clear();
	}
	if (delta_ok && b) {
		if (pp->opts->ofs)
			ret = packwrite_ofs_delta(pw, b->offset, delta->buf, delta->len, &e);
		else
			ret = packwrite_ref_delta(pw, &o->base, delta->buf, delta->len, &e);
		o->depth = b->depth + 1;
		st->ofs_deltas++;
	} else if (delta_ok) {
		ret = packwrite_ref_delta(pw, &o->base, delta->buf, delta->len, &e);
		o->depth = 1;
		st->thin_deltas++;
	} else {
		ret = packwrite_object(pw, o->type, data, len, &e);
	}
	o->offset = e.offset;
	o->written = 1;
	git_odb_object_free(base);
	git_odb_object_free(obj);
	return ret;
}

static int write_objects(struct pushpack *pp, int fd, const char *path, struct pushpack_stats *st)
{
	struct packwrite pw = PACKWRITE_INIT;
	struct strbuf delta = STRBUF_INIT;
	unsigned char sum[SHA1_RAWSZ];
	int ret = -1;

	if (pp->nr > UINT32_MAX)
		return error("cannot push %zu objects in one pack", pp->nr);
	if (packwrite_start(&pw, fd, path, (uint32_t)pp->nr, Z_DEFAULT_COMPRESSION) < 0)
		goto out;
	for (size_t i = 0; i < pp->nr; i++) {
		if (write_one(pp, &pw, &pp->v[i], &delta, st) < 0)
			goto out;
		tick(pp);
	}
	if (packwrite_finish(&pw, sum) < 0)
		goto out;
	st->objects = (uint32_t)pp->nr;
	st->bytes = pw.offset;
	ret = 0;
out:
	packwrite_release(&pw);
	strbuf_release(&delta);
	return ret;
}

int pushpack_write(git_repository *repo, const git_oid *tip, const struct pushpack_opts *opts,
		   int fd, const char *path, struct pushpack_stats *st)
{
	struct pushpack pp = { .repo = repo, .opts = opts, .index = HASHMAP_INIT };
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (lg2_check(git_repository_odb(&pp.odb, repo), "cannot open the object database") < 0)
		return -1;
	if (find_objects(&pp, tip, &st->commits) < 0 || write_objects(&pp, fd, path, st) < 0)
		goto out;
	ret = 0;
out:
	git_odb_free(pp.odb);
	hashmap_release(&pp.index);
	free(pp.v);
	return ret;
}
