/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The in-memory tree of treewrite.h: a directory is an array of entries
 * kept in git's tree order; an entry for a subdirectory points to the
 * loaded directory once a change went through it. "dirty" marks the
 * directories whose id must be computed again.
 *
 * So that a patch adding or removing 100,000 files in one directory
 * costs 100,000 steps and not 100,000 times the directory's size,
 * nothing is moved inside the array on a change: an entry added after
 * the last one added goes to a second sorted array (apply.c adds in
 * path order), merged with the first when the directory is written (or
 * when an entry comes out of order); a removed entry stays as a
 * tombstone (mode 0) until then.
 */
#include "treewrite.h"
#include "objwrite.h"
#include "repo.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

struct tdir;

struct tent {
	char *name;
	size_t len;
	unsigned mode;		/* 0: removed (a tombstone) */
	git_oid oid;
	struct tdir *dir;	/* a loaded subdirectory, or NULL */
};

struct tdir {
	struct tent *ents;	/* sorted */
	size_t nr, alloc;
	struct tent *added;	/* sorted, each after the one before */
	size_t added_nr, added_alloc;
	size_t live;		/* entries not removed, in both arrays */
	int dirty;
};

struct treewrite {
	git_repository *repo;
	struct tdir root;
	git_oid root_oid;
};

static int is_dir_mode(unsigned mode)
{
	return mode == GIT_FILEMODE_TREE;
}

/* git's order: a directory's name compares as if it ended in '/'. */
static int name_cmp(const char *a, size_t alen, int adir, const char *b, size_t blen, int bdir)
{
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n);
	unsigned ca, cb;

	if (c)
		return c;
	ca = alen > n ? (unsigned char)a[n] : adir ? '/' : 0;
	cb = blen > n ? (unsigned char)b[n] : bdir ? '/' : 0;
	return (int)ca - (int)cb;
}

/*
 * A tombstone keeps its place in the order as what it was: a file or
 * a directory (its name compares as the kind it had).
 */
static int tent_is_dir(const struct tent *e)
{
	return e->dir != NULL || is_dir_mode(e->mode);
}

/* The entry (name, len) taken as a directory (isdir) or not in v[0..nr), or NULL. */
static struct tent *search(struct tent *v, size_t nr, const char *name, size_t len, int isdir,
			   size_t *pos)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct tent *e = &v[mid];
		int c = name_cmp(name, len, isdir, e->name, e->len, tent_is_dir(e));

		if (!c) {
			/* equal in git's order: the same name, of the same kind */
			if (pos)
				*pos = mid;
			return e;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (pos)
		*pos = lo;
	return NULL;
}

/* The slot of (name, len) as a directory or not, live or a tombstone, or NULL. */
static struct tent *dir_slot(struct tdir *d, const char *name, size_t len, int isdir)
{
	struct tent *e = search(d->ents, d->nr, name, len, isdir, NULL);

	return e ? e : search(d->added, d->added_nr, name, len, isdir, NULL);
}

/* The live entry named (name, len), directory or not, or NULL. */
static struct tent *dir_find(struct tdir *d, const char *name, size_t len)
{
	struct tent *e = dir_slot(d, name, len, 0);

	if (!e || !e->mode)
		e = dir_slot(d, name, len, 1);
	return e && e->mode ? e : NULL;
}

static void tent_release(struct tent *e);

static void dir_release(struct tdir *d)
{
	for (size_t i = 0; i < d->nr; i++)
		tent_release(&d->ents[i]);
	for (size_t i = 0; i < d->added_nr; i++)
		tent_release(&d->added[i]);
	free(d->ents);
	free(d->added);
	memset(d, 0, sizeof(*d));
}

static void tent_release(struct tent *e)
{
	free(e->name);
	if (e->dir) {
		dir_release(e->dir);
		free(e->dir);
	}
}

/* Merges the added entries into the sorted array and drops the tombstones. */
static void dir_merge(struct tdir *d)
{
	struct tent *out;
	size_t i = 0, j = 0, k = 0;

	if (!d->added_nr && d->live == d->nr)
		return;
	out = xcalloc(d->live ? d->live : 1, sizeof(*out));
	while (i < d->nr || j < d->added_nr) {
		struct tent *e;

		if (j == d->added_nr ||
		    (i < d->nr && name_cmp(d->ents[i].name, d->ents[i].len, tent_is_dir(&d->ents[i]),
					   d->added[j].name, d->added[j].len,
					   tent_is_dir(&d->added[j])) < 0))
			e = &d->ents[i++];
		else
			e = &d->added[j++];
		if (e->mode)
			out[k++] = *e;
		else
			tent_release(e);
	}
	free(d->ents);
	free(d->added);
	d->ents = out;
	d->nr = d->alloc = k;
	d->added = NULL;
	d->added_nr = d->added_alloc = 0;
}

/*
 * A new entry (name, len) of the kind isdir, whose slot dir_slot() did
 * not find, appended to the added entries (merged first when it does
 * not come after them).
 */
static struct tent *dir_insert(struct tdir *d, const char *name, size_t len, int isdir)
{
	struct tent *e;

	if (d->added_nr) {
		const struct tent *last = &d->added[d->added_nr - 1];

		if (name_cmp(name, len, isdir, last->name, last->len, tent_is_dir(last)) < 0)
			dir_merge(d);
	}
	ALLOC_GROW(d->added, d->added_nr + 1, d->added_alloc);
	e = &d->added[d->added_nr++];
	memset(e, 0, sizeof(*e));
	e->name = xstrndup(name, len);
	e->len = len;
	d->live++;
	return e;
}

/* The entry (name, len) of the kind isdir, revived or inserted. */
static struct tent *dir_put(struct tdir *d, const char *name, size_t len, int isdir)
{
	struct tent *e = dir_slot(d, name, len, isdir);

	if (!e)
		return dir_insert(d, name, len, isdir);
	if (!e->mode)
		d->live++;	/* a tombstone comes back */
	return e;
}

static int dir_load(struct treewrite *tw, struct tdir *d, const git_oid *oid)
{
	git_tree *t = NULL;
	size_t n;

	if (lg2_check(git_tree_lookup(&t, tw->repo, oid), "cannot read tree %s",
		      git_oid_tostr_s(oid)) < 0)
		return -1;
	n = git_tree_entrycount(t);
	d->ents = xcalloc(n ? n : 1, sizeof(*d->ents));
	d->alloc = n ? n : 1;
	/* libgit2 keeps a tree's entries in git's order. */
	for (size_t i = 0; i < n; i++) {
		const git_tree_entry *te = git_tree_entry_byindex(t, i);
		struct tent *e = &d->ents[i];
		const char *name = git_tree_entry_name(te);

		e->len = strlen(name);
		e->name = xstrndup(name, e->len);
		e->mode = git_tree_entry_filemode(te);
		git_oid_cpy(&e->oid, git_tree_entry_id(te));
	}
	d->nr = d->live = n;
	git_tree_free(t);
	return 0;
}

int treewrite_new(struct treewrite **out, git_repository *repo, const git_oid *base)
{
	struct treewrite *tw = xcalloc(1, sizeof(*tw));

	tw->repo = repo;
	if (base && dir_load(tw, &tw->root, base) < 0) {
		treewrite_free(tw);
		*out = NULL;
		return -1;
	}
	tw->root.dirty = 1;
	*out = tw;
	return 0;
}

void treewrite_free(struct treewrite *tw)
{
	if (!tw)
		return;
	dir_release(&tw->root);
	free(tw);
}

/* The loaded directory of entry e (a directory entry). */
static int subdir(struct treewrite *tw, struct tent *e, struct tdir **out)
{
	if (!e->dir) {
		e->dir = xcalloc(1, sizeof(*e->dir));
		if (dir_load(tw, e->dir, &e->oid) < 0)
			return -1;
	}
	*out = e->dir;
	return 0;
}

int treewrite_upsert(struct treewrite *tw, const char *path, unsigned mode, const git_oid *oid)
{
	struct tdir *d = &tw->root;
	const char *p = path, *slash;
	struct tent *e;

	while ((slash = strchr(p, '/'))) {
		size_t len = slash - p;

		d->dirty = 1;
		e = dir_find(d, p, len);
		if (e && !is_dir_mode(e->mode))
			return error("cannot write tree: '%.*s' is a file, not a directory",
				     (int)(slash - path), path);
		if (!e) {
			e = dir_put(d, p, len, 1);
			if (e->dir)
				dir_release(e->dir);	/* what a tombstone held */
			else
				e->dir = xcalloc(1, sizeof(*e->dir));
			e->mode = GIT_FILEMODE_TREE;	/* its id is computed when written */
		}
		if (subdir(tw, e, &d) < 0)
			return -1;
		p = slash + 1;
	}
	d->dirty = 1;
	e = dir_find(d, p, strlen(p));
	if (e && is_dir_mode(e->mode))
		return error("cannot write tree: '%s' is a directory", path);
	if (!e)
		e = dir_put(d, p, strlen(p), 0);
	e->mode = mode;
	git_oid_cpy(&e->oid, oid);
	return 0;
}

/* Removes path below d; 1 when d is left empty. */
static int remove_in(struct treewrite *tw, struct tdir *d, const char *p)
{
	const char *slash = strchr(p, '/');
	size_t len = slash ? (size_t)(slash - p) : strlen(p);
	struct tent *e = dir_find(d, p, len);
	int rc;

	if (!e)
		return 0;
	if (slash) {
		struct tdir *sub;

		if (!is_dir_mode(e->mode))
			return 0;
		if (subdir(tw, e, &sub) < 0)
			return -1;
		rc = remove_in(tw, sub, slash + 1);
		if (rc <= 0) {
			d->dirty |= sub->dirty;
			return rc;
		}
	} else if (is_dir_mode(e->mode)) {
		return 0;
	}
	/* e (a file, or a directory left empty) becomes a tombstone. */
	if (e->dir) {
		dir_release(e->dir);
		if (!is_dir_mode(e->mode)) {
			free(e->dir);
			e->dir = NULL;
		}
	}
	e->mode = 0;
	d->live--;
	d->dirty = 1;
	return d->live == 0;
}

int treewrite_remove(struct treewrite *tw, const char *path)
{
	return remove_in(tw, &tw->root, path) < 0 ? -1 : 0;
}

/* "100644 ": the mode in octal without leading zeros, and a space. */
static void add_mode(struct strbuf *buf, unsigned mode)
{
	char tmp[16];
	size_t i = sizeof(tmp);

	tmp[--i] = ' ';
	do {
		tmp[--i] = '0' + (mode & 7);
		mode >>= 3;
	} while (mode);
	strbuf_add(buf, tmp + i, sizeof(tmp) - i);
}

static int write_dir(struct treewrite *tw, struct tdir *d, struct objwrite *ow, struct strbuf *buf,
		     git_oid *out)
{
	size_t start;

	dir_merge(d);
	for (size_t i = 0; i < d->nr; i++) {
		struct tent *e = &d->ents[i];

		if (e->dir && e->dir->dirty && write_dir(tw, e->dir, ow, buf, &e->oid) < 0)
			return -1;
	}
	start = buf->len;
	for (size_t i = 0; i < d->nr; i++) {
		const struct tent *e = &d->ents[i];

		add_mode(buf, e->mode);
		strbuf_add(buf, e->name, e->len + 1);	/* with its NUL */
		strbuf_add(buf, e->oid.id, GIT_OID_RAWSZ);
	}
	if (objwrite_object(ow, tw->repo, out, buf->buf + start, buf->len - start,
			    GIT_OBJECT_TREE) < 0)
		return -1;
	strbuf_setlen(buf, start);
	d->dirty = 0;
	return 0;
}

int treewrite_write(struct treewrite *tw, struct objwrite *ow, git_oid *out)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = 0;

	if (tw->root.dirty)
		ret = write_dir(tw, &tw->root, ow, &buf, &tw->root_oid);
	strbuf_release(&buf);
	if (!ret)
		git_oid_cpy(out, &tw->root_oid);
	return ret;
}
