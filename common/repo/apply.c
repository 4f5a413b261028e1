/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The apply engine (see apply.h): an overlay of changed paths over a
 * base tree, a hunk matcher, binary patches, 3-way fallback, and the
 * path-safety checks.
 *
 * Two layers of the same kind hold changes: the session's overlay
 * (patches 1..N-1) and a stage for the patch being applied. Lookups go
 * stage, overlay, base tree. A patch that applies moves its stage into
 * the overlay; one that fails drops it, so patches are atomic.
 */
#include "apply.h"
#include "delta.h"
#include "hashmap.h"
#include "dotfiles.h"
#include "objwrite.h"
#include "quote.h"
#include "repo.h"
#include "treewrite.h"
#include "wrapper.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ path maps */

struct entry {
	char *path;
	int deleted;
	unsigned mode;
	int has_oid;		/* content is the blob oid, else data */
	git_oid oid;
	struct strbuf data;
	int cached;		/* has_oid, and data holds the blob's content too */
	int dirty;		/* changed since the last apply_session_write_tree() */
	git_tree *tree;		/* in the directory cache only: the base tree's subtree, or NULL */
	int arrived;		/* stage only: created here as a creation, rename or copy target */
};

/*
 * The directories of a path map (stage and overlay), so that what it
 * holds under a directory is found without looking at the rest of it:
 * each entry is listed in the node of its directory, each node in its
 * parent's; nodes are found by (parent, name) in one hash table, so a
 * path costs its length, whatever its depth.
 */
struct dnode {
	struct dnode *parent;
	char *name;		/* the component, owned; "" for the root */
	size_t len;
	struct entry **ents;	/* entries directly in this directory */
	size_t nr, alloc;
	struct dnode **subs;	/* subdirectories */
	size_t snr, salloc;
};

struct dindex {
	struct dnode root;
	struct dnode **nodes;	/* all nodes but the root */
	size_t nr, alloc;
	struct hashmap by_name;	/* (parent, name) -> index in nodes */
};

struct pathmap {
	struct entry **ents;	/* in the order added; NULL once moved out (stage_commit) */
	size_t nr, alloc;
	struct hashmap by_path;	/* path -> index in ents */
	struct dindex *index;	/* NULL: none kept (the base tree's directory cache) */
};

static struct entry *map_get(const struct pathmap *m, const char *path)
{
	const uint32_t *v = hashmap_get(&m->by_path, path, strlen(path));

	return v ? m->ents[*v] : NULL;
}

static void entry_free(struct entry *e)
{
	if (!e)
		return;
	free(e->path);
	strbuf_release(&e->data);
	git_tree_free(e->tree);
	free(e);
}

/* The key of the child name[0..len) of parent in the index: both, as bytes. */
static void dnode_key(struct strbuf *key, const struct dnode *parent, const char *name, size_t len)
{
	strbuf_reset(key);
	strbuf_add(key, &parent, sizeof(parent));
	strbuf_add(key, name, len);
}

/* The child directory name[0..len) of parent, made when create and missing. */
static struct dnode *dnode_child(struct dindex *ix, struct dnode *parent, const char *name,
				 size_t len, int create)
{
	struct strbuf key = STRBUF_INIT;
	uint32_t *v;
	struct dnode *d = NULL;
	int added = 0;

	dnode_key(&key, parent, name, len);
	v = create ? hashmap_put(&ix->by_name, key.buf, key.len, &added) :
		     hashmap_get(&ix->by_name, key.buf, key.len);
	strbuf_release(&key);
	if (!v)
		return NULL;
	if (!added)
		return ix->nodes[*v];
	*v = (uint32_t)ix->nr;
	d = xcalloc(1, sizeof(*d));
	d->parent = parent;
	d->name = xstrndup(name, len);
	d->len = len;
	ALLOC_GROW(parent->subs, parent->snr + 1, parent->salloc);
	parent->subs[parent->snr++] = d;
	ALLOC_GROW(ix->nodes, ix->nr + 1, ix->alloc);
	ix->nodes[ix->nr++] = d;
	return d;
}

/* The node of the directory path[0..len) ("" the root), made when create. */
static struct dnode *dindex_dir(struct dindex *ix, const char *path, size_t len, int create)
{
	struct dnode *d = &ix->root;
	const char *p = path, *end = path + len;

	while (d && p < end) {
		const char *slash = memchr(p, '/', end - p);
		size_t n = slash ? (size_t)(slash - p) : (size_t)(end - p);

		d = dnode_child(ix, d, p, n, create);
		p += n + 1;
	}
	return d;
}

static void dindex_add(struct dindex *ix, struct entry *e)
{
	const char *slash = strrchr(e->path, '/');
	struct dnode *d = dindex_dir(ix, e->path, slash ? (size_t)(slash - e->path) : 0, 1);

	ALLOC_GROW(d->ents, d->nr + 1, d->alloc);
	d->ents[d->nr++] = e;
}

static void dindex_free(struct dindex *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->nr; i++) {
		struct dnode *d = ix->nodes[i];

		free(d->name);
		free(d->ents);
		free(d->subs);
		free(d);
	}
	free(ix->nodes);
	hashmap_release(&ix->by_name);
	free(ix->root.ents);
	free(ix->root.subs);
	free(ix);
}

/* The entry for path in m, created (as "deleted", empty) if missing. */
static struct entry *map_put(struct pathmap *m, const char *path)
{
	int added;
	uint32_t *v = hashmap_put(&m->by_path, path, strlen(path), &added);
	struct entry *e;

	if (!added)
		return m->ents[*v];
	*v = (uint32_t)m->nr;
	e = xcalloc(1, sizeof(*e));
	e->path = xstrdup(path);
	e->deleted = 1;
	strbuf_init(&e->data, 0);
	ALLOC_GROW(m->ents, m->nr + 1, m->alloc);
	m->ents[m->nr++] = e;
	if (m->index)
		dindex_add(m->index, e);
	return e;
}

/* Empties m; it keeps a directory index when it had one. */
static void map_clear(struct pathmap *m)
{
	int indexed = m->index != NULL;

	for (size_t i = 0; i < m->nr; i++)
		entry_free(m->ents[i]);
	free(m->ents);
	hashmap_release(&m->by_path);
	dindex_free(m->index);
	m->ents = NULL;
	m->nr = m->alloc = 0;
	m->index = indexed ? xcalloc(1, sizeof(*m->index)) : NULL;
}

static void map_release(struct pathmap *m)
{
	map_clear(m);
	dindex_free(m->index);
	m->index = NULL;
}

/* ---------------------------------------------------------------- session */

struct apply_session {
	git_repository *repo;
	git_tree *base;		/* NULL: empty tree */
	struct apply_opts opts;
	struct pathmap overlay;
	struct pathmap stage;
	/* The paths the patch being applied deletes or renames away. */
	struct pathmap leaving;
	/*
	 * The base tree's directories looked up so far (path -> subtree or
	 * NULL): libgit2 does not cache large trees, and every path of every
	 * patch is looked up, component by component.
	 */
	struct pathmap dirs;
	/*
	 * The tree apply_session_write_tree() writes, kept in memory
	 * between writes; created by the first write.
	 */
	struct treewrite *tw;
	size_t cached_bytes;	/* contents kept after their blob was written */
	size_t binary_left;	/* what binary files may still grow by in this patch */
	size_t binary_shrunk;	/* what they shrank by in this patch */
	/*
	 * What they may still grow by in the series (the session): from
	 * opts.max_binary, less what each patch kept grew them by, net of
	 * what it shrank them by; set when the first patch starts
	 */
	size_t series_binary_left;
	int series_started;
	size_t failures_left;	/* APPLY_MAX_FAILURES less the failures of this patch so far */
	char *their_label;	/* conflict marker label for the patch (git am: its subject) */
	apply_reader_fn reader;	/* see apply_session_set_reader() */
	void *reader_data;
};

/*
 * Contents of written blobs kept in memory, so that the next patch to
 * the same file does not read the blob back: up to this many bytes.
 */
#define APPLY_CACHE_BYTES ((size_t)16 << 20)

int apply_session_new(struct apply_session **out, git_repository *repo,
		      const git_oid *base_tree, const struct apply_opts *opts)
{
	struct apply_session *s = xcalloc(1, sizeof(*s));

	s->repo = repo;
	if (opts)
		s->opts = *opts;
	s->overlay.index = xcalloc(1, sizeof(*s->overlay.index));
	s->stage.index = xcalloc(1, sizeof(*s->stage.index));
	if (base_tree && lg2_check(git_tree_lookup(&s->base, repo, base_tree),
				   "cannot read tree %s", git_oid_tostr_s(base_tree)) < 0) {
		apply_session_free(s);
		*out = NULL;
		return -1;
	}
	*out = s;
	return 0;
}

void apply_session_free(struct apply_session *s)
{
	if (!s)
		return;
	map_release(&s->overlay);
	map_release(&s->stage);
	map_release(&s->dirs);
	map_release(&s->leaving);
	git_tree_free(s->base);
	treewrite_free(s->tw);
	free(s->their_label);
	free(s);
}

/* What a path holds in the current state (stage, overlay, base). */
struct file_state {
	int exists;
	unsigned mode;
	int has_oid;
	git_oid oid;
	const struct strbuf *data;	/* when !has_oid, or the blob's content when known */
};

/*
 * The base tree's subtree at dir[0..len) (borrowed, cached), or NULL in
 * *out when there is no such directory. -1 on error.
 */
static int base_dir(struct apply_session *s, const char *dir, size_t len, git_tree **out)
{
	struct strbuf key = STRBUF_INIT;
	struct entry *e;
	const char *slash;
	git_tree *parent;
	const git_tree_entry *te;
	int ret = 0;

	*out = NULL;
	if (!s->base)
		return 0;
	if (!len) {
		*out = s->base;
		return 0;
	}
	strbuf_add(&key, dir, len);
	e = map_get(&s->dirs, key.buf);
	if (e) {
		*out = e->tree;
		goto out;
	}
	slash = memrchr(dir, '/', len);
	if (base_dir(s, dir, slash ? (size_t)(slash - dir) : 0, &parent) < 0) {
		ret = -1;
		goto out;
	}
	e = map_put(&s->dirs, key.buf);
	if (!parent)
		goto out;
	te = git_tree_entry_byname(parent, slash ? key.buf + (slash - dir) + 1 : key.buf);
	if (te && git_tree_entry_type(te) == GIT_OBJECT_TREE &&
	    lg2_check(git_tree_lookup(&e->tree, s->repo, git_tree_entry_id(te)),
		      "cannot read tree '%s'", key.buf) < 0)
		ret = -1;
	*out = e->tree;
out:
	strbuf_release(&key);
	return ret;
}

static int base_lookup(struct apply_session *s, const char *path, struct file_state *st)
{
	const char *slash = strrchr(path, '/');
	const git_tree_entry *te;
	git_tree *dir;

	memset(st, 0, sizeof(*st));
	if (base_dir(s, path, slash ? (size_t)(slash - path) : 0, &dir) < 0)
		return -1;
	if (!dir || !(te = git_tree_entry_byname(dir, slash ? slash + 1 : path)))
		return 0;
	st->mode = git_tree_entry_filemode(te);
	st->has_oid = 1;
	git_oid_cpy(&st->oid, git_tree_entry_id(te));
	st->exists = 1;
	return 0;
}

/* Fills st from an overlay entry (a deletion leaves st->exists 0). */
static void entry_state(const struct entry *e, struct file_state *st)
{
	memset(st, 0, sizeof(*st));
	if (e->deleted)
		return;
	st->exists = 1;
	st->mode = e->mode;
	st->has_oid = e->has_oid;
	git_oid_cpy(&st->oid, &e->oid);
	st->data = !e->has_oid || e->cached ? &e->data : NULL;
}

static int lookup(struct apply_session *s, const char *path, struct file_state *st)
{
	struct entry *e = map_get(&s->stage, path);

	if (!e)
		e = map_get(&s->overlay, path);
	if (!e)
		return base_lookup(s, path, st);
	entry_state(e, st);
	return 0;
}

/* The state before the patch being applied (overlay, base). */
static int lookup_prepatch(struct apply_session *s, const char *path, struct file_state *st)
{
	struct entry *e = map_get(&s->overlay, path);

	if (!e)
		return base_lookup(s, path, st);
	entry_state(e, st);
	return 0;
}

/* Does a file diff of the patch being applied rename or delete path away? */
static int leaves(struct apply_session *s, const char *path)
{
	return map_get(&s->leaving, path) != NULL;
}

/* Copies the content of a file state into out. */
static int read_content(struct apply_session *s, const struct file_state *st,
			const char *path, struct strbuf *out)
{
	git_blob *blob;

	strbuf_reset(out);
	if (st->data) {
		strbuf_addbuf(out, st->data);
		return 0;
	}
	if (st->mode == GIT_FILEMODE_COMMIT) {
		/* A submodule's content in a diff, as git shows and applies it. */
		strbuf_addf(out, "Subproject commit %s\n", git_oid_tostr_s(&st->oid));
		return 0;
	}
	if (s->reader && s->reader(s->reader_data, path, &st->oid, out))
		return 0;
	if (lg2_check(git_blob_lookup(&blob, s->repo, &st->oid), "cannot read '%s'", path) < 0)
		return -1;
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

struct dir_walk {
	struct apply_session *s;
	const char *dir;
	int found;
};

static int dir_walk_cb(const char *root, const git_tree_entry *te, void *payload)
{
	struct dir_walk *w = payload;
	struct strbuf p = STRBUF_INIT;
	struct file_state st;

	if (git_tree_entry_type(te) == GIT_OBJECT_TREE)
		return 0;
	strbuf_addf(&p, "%s/%s%s", w->dir, root, git_tree_entry_name(te));
	if (!lookup(w->s, p.buf, &st) && st.exists && !leaves(w->s, p.buf))
		w->found = 1;
	strbuf_release(&p);
	return w->found ? 1 : 0;
}

/*
 * A live entry in node d's subtree, not overridden by over and not
 * deleted or renamed away by the patch (s NULL: neither)? The index
 * leads to the entries under the directory only.
 */
static int dnode_has_live(const struct dnode *d, const struct pathmap *over,
			  struct apply_session *s)
{
	for (size_t i = 0; i < d->nr; i++) {
		const struct entry *e = d->ents[i];

		if (!e->deleted && !(over && map_get(over, e->path)) && !(s && leaves(s, e->path)))
			return 1;
	}
	for (size_t i = 0; i < d->snr; i++)
		if (dnode_has_live(d->subs[i], over, s))
			return 1;
	return 0;
}

/* A live path under dir in m (see dnode_has_live())? */
static int map_has_under(const struct pathmap *m, const struct pathmap *over,
			 struct apply_session *s, const char *dir, size_t dlen)
{
	const struct dnode *d = dindex_dir(m->index, dir, dlen, 0);

	return d && dnode_has_live(d, over, s);
}

/*
 * Is path a directory with anything left in it in the current state,
 * not counting the files the patch deletes or renames away later?
 */
static int is_live_dir(struct apply_session *s, const char *path)
{
	size_t len = strlen(path);
	git_tree *t;

	if (map_has_under(&s->stage, NULL, NULL, path, len) ||
	    map_has_under(&s->overlay, &s->stage, s, path, len))
		return 1;
	if (base_dir(s, path, len, &t) < 0)
		return -1;
	if (!t)
		return 0;
	{
		struct dir_walk w = { s, path, 0 };

		git_tree_walk(t, GIT_TREEWALK_PRE, dir_walk_cb, &w);
		return w.found;
	}
}

/*
 * Refuses paths the parser refuses, and paths with a symbolic link (or
 * a file) as a leading directory in the current state.
 */
static int check_path_in(struct apply_session *s, const char *path, int file_prefix_ok,
			 struct strbuf *why)
{
	struct strbuf prefix = STRBUF_INIT;
	const char *slash;
	int ret = 0;

	if (patch_path_check(path, why) < 0)
		return 1;
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		struct file_state st;

		strbuf_reset(&prefix);
		strbuf_add(&prefix, path, slash - path);
		if (lookup(s, prefix.buf, &st) < 0) {
			ret = -1;
			break;
		}
		if (st.exists && st.mode == GIT_FILEMODE_LINK) {
			strbuf_addf(why, "'%s' is beyond a symbolic link", path);
			ret = 1;
			break;
		}
		if (st.exists && st.mode != GIT_FILEMODE_TREE && !file_prefix_ok) {
			strbuf_addf(why, "'%s' is in the way of '%s'", prefix.buf, path);
			ret = 1;
			break;
		}
	}
	strbuf_release(&prefix);
	return ret;
}

static int check_path(struct apply_session *s, const char *path, struct strbuf *why)
{
	return check_path_in(s, path, 0, why);
}

/* ----------------------------------------------------------- hunk matcher */

struct line {
	const char *p;
	size_t len;
};

/*
 * The lines of a file while hunks are applied: a gap buffer, so that a
 * hunk costs its own size plus the distance from the previous one, not
 * the size of the file (80,000 hunks against one file). Logical line i
 * is lines[i] before the gap, lines[i + gap_len] after it.
 */
struct image {
	struct line *lines;
	size_t nr;		/* logical lines */
	size_t gap, gap_len;	/* where the gap is (a logical index) and its size */
};

static const struct line *img_line(const struct image *img, size_t i)
{
	return &img->lines[i < img->gap ? i : i + img->gap_len];
}

static void image_from(struct image *img, const struct strbuf *sb)
{
	const char *p = sb->buf, *end = sb->buf + sb->len;
	size_t alloc = 0;

	img->nr = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		ALLOC_GROW(img->lines, img->nr + 1, alloc);
		img->lines[img->nr].p = p;
		img->lines[img->nr].len = len;
		img->nr++;
		p += len;
	}
	img->gap = img->nr;
	img->gap_len = alloc - img->nr;
}

/* img's text into out, allocated once at its size. */
static void image_to(const struct image *img, struct strbuf *out)
{
	size_t len = 0;

	for (size_t i = 0; i < img->nr; i++)
		len = st_add(len, img_line(img, i)->len);
	strbuf_reset(out);
	strbuf_grow(out, len);
	for (size_t i = 0; i < img->nr; i++)
		strbuf_add(out, img_line(img, i)->p, img_line(img, i)->len);
}

static void img_move_gap(struct image *img, size_t pos)
{
	if (pos < img->gap)
		memmove(img->lines + pos + img->gap_len, img->lines + pos,
			(img->gap - pos) * sizeof(*img->lines));
	else if (pos > img->gap)
		memmove(img->lines + img->gap, img->lines + img->gap + img->gap_len,
			(pos - img->gap) * sizeof(*img->lines));
	img->gap = pos;
}

/* Replaces the del lines at pos by ins[0..n). */
static void img_replace(struct image *img, size_t pos, size_t del, const struct line *ins, size_t n)
{
	img_move_gap(img, pos);
	img->gap_len += del;	/* the deleted lines join the gap */
	img->nr -= del;
	if (img->gap_len < n) {
		size_t tail = img->nr - img->gap, grow = n + img->nr;

		img->lines = xrealloc(img->lines, st_mult(img->nr + grow + n, sizeof(*img->lines)));
		memmove(img->lines + img->gap + grow + n, img->lines + img->gap + img->gap_len,
			tail * sizeof(*img->lines));
		img->gap_len = grow + n;
	}
	if (n)
		memcpy(img->lines + img->gap, ins, n * sizeof(*ins));
	img->gap += n;
	img->gap_len -= n;
	img->nr += n;
}

/* The pre- or post-image lines of a hunk. */
static size_t hunk_side(const struct patch_hunk *h, char skip, struct line **out, size_t *alloc)
{
	size_t n = 0;

	for (size_t i = 0; i < h->nr; i++) {
		if (h->lines[i].op == skip)
			continue;
		ALLOC_GROW(*out, n + 1, *alloc);
		(*out)[n].p = h->lines[i].text;
		(*out)[n].len = h->lines[i].len;
		n++;
	}
	return n;
}

static int line_eq(const struct line *a, const struct line *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/*
 * Do pre[from..to) match img at pos + from? 1 if they do exactly; 2 if
 * they do except that the last pre-image line has no newline and the
 * file's line has one, which git apply takes as a match (the file's
 * line is replaced whole, so the result has no newline there either);
 * eol_ok allows it unless the hunk must match at the end of the file.
 */
static int match_at(const struct image *img, const struct line *pre, size_t pre_nr,
		    long pos, size_t from, size_t to, int eol_ok)
{
	int ret = 1;

	if (pos < 0 || (size_t)pos + pre_nr > img->nr)
		return 0;
	for (size_t i = from; i < to; i++) {
		const struct line *l = img_line(img, pos + i);

		if (line_eq(l, &pre[i]))
			continue;
		if (eol_ok && i + 1 == pre_nr && pre[i].len && pre[i].p[pre[i].len - 1] != '\n' &&
		    l->len == pre[i].len + 1 && l->p[pre[i].len] == '\n' &&
		    !memcmp(l->p, pre[i].p, pre[i].len)) {
			ret = 2;
			continue;
		}
		return 0;
	}
	return ret;
}

/*
 * A quick look before match_at() when searching a whole file (a
 * failing hunk tries every line): can the first compared line match by
 * its length (or one more, for the missing newline match_at() allows)?
 */
static inline int may_match(const struct image *img, const struct line *pre, size_t pre_nr,
			    long pos, size_t pf, size_t sf)
{
	const struct line *l;

	if (pf + sf >= pre_nr)
		return 1;	/* nothing to compare */
	if (pos < 0 || (size_t)pos + pre_nr > img->nr)
		return 0;
	l = img_line(img, pos + pf);
	return l->len == pre[pf].len || l->len == pre[pf].len + 1;
}

struct hunk_match {
	long pos;	/* 0-based line of the hunk's first (possibly ignored) line */
	int fuzz;
	size_t pf, sf;	/* context lines ignored at the start and the end */
};

/*
 * Finds the hunk in img near guess (0-based), nearest first (later
 * lines before earlier ones at the same distance, as GNU patch does),
 * at fuzz 0, then 1, ... max_fuzz. Which hunks must match at the start
 * or the end of the file: with max_fuzz 0, git apply's rules (a hunk
 * that starts at line 1 or 0 at the start, one without trailing context
 * at the end), so the verdicts are git am's; with fuzz, GNU patch's (a
 * hunk with fewer leading (trailing) context lines than at its other end
 * at the start (end), unless the fuzz covers the difference).
 */
static int find_hunk(const struct image *img, const struct patch_hunk *h,
		     const struct line *pre, size_t pre_nr, long guess, int max_fuzz,
		     struct hunk_match *m)
{
	size_t context = h->leading > h->trailing ? h->leading : h->trailing;
	int rc = 0;

	/*
	 * A hunk placed past the end of the file is looked for from the
	 * end, as git apply does: every line of the file is still a
	 * candidate, the nearest (the last) first.
	 */
	if (guess > (long)img->nr)
		guess = (long)img->nr;

	for (int f = 0; f <= max_fuzz; f++) {
		long pfz = (long)f + (long)h->leading - (long)context;
		long sfz = (long)f + (long)h->trailing - (long)context;
		size_t pf = pfz > 0 ? (size_t)pfz : 0, sf = sfz > 0 ? (size_t)sfz : 0;
		long max_off;

		if (pf > h->leading)
			pf = h->leading;
		if (sf > h->trailing)
			sf = h->trailing;
		if (f && pf == 0 && sf == 0 && pfz >= 0 && sfz >= 0 && f > (long)context)
			break;	/* more fuzz changes nothing */
		if (pf + sf > pre_nr)
			break;
		if (!max_fuzz) {
			/*
			 * No fuzz: git apply's rules (what git am does) decide
			 * which hunks are tied to an end of the file.
			 */
			pfz = h->old_start <= 1 ? -1 : 0;
			sfz = h->trailing == 0 ? -1 : 0;
		}
		if (pfz < 0 && sfz < 0) {
			/* Must match the whole file. */
			if (pre_nr == img->nr && (rc = match_at(img, pre, pre_nr, 0, pf, pre_nr - sf, 0)))
				goto found_at_0;
			continue;
		}
		if (pfz < 0) {
			if ((rc = match_at(img, pre, pre_nr, 0, pf, pre_nr - sf, 1)))
				goto found_at_0;
			continue;
		}
		if (sfz < 0) {
			long pos = (long)img->nr - (long)pre_nr;

			if (pos >= 0 && (rc = match_at(img, pre, pre_nr, pos, pf, pre_nr - sf, 0))) {
				m->pos = pos;
				goto found;
			}
			continue;
		}
		max_off = (long)img->nr + 1;
		for (long off = 0; off <= max_off; off++) {
			if (guess + off <= (long)img->nr && may_match(img, pre, pre_nr, guess + off, pf, sf) &&
			    (rc = match_at(img, pre, pre_nr, guess + off, pf, pre_nr - sf, 1))) {
				m->pos = guess + off;
				goto found;
			}
			if (off && guess - off >= 0 && may_match(img, pre, pre_nr, guess - off, pf, sf) &&
			    (rc = match_at(img, pre, pre_nr, guess - off, pf, pre_nr - sf, 1))) {
				m->pos = guess - off;
				goto found;
			}
		}
		continue;
	found_at_0:
		m->pos = 0;
	found:
		m->fuzz = f;
		m->pf = pf;
		m->sf = sf;
		return 0;
	}
	return -1;
}

/*
 * Applies the hunks of fp to content (in place), filling hr[]. With
 * strict, no offset or fuzz is allowed (for the 3-way pre-image).
 * Returns the number of failed hunks; stops at max_failed (the hunks
 * after are left as they are in hr[]).
 */
static size_t apply_hunks(const struct file_patch *fp, struct strbuf *content,
			  int max_fuzz, int strict, size_t max_failed, struct apply_hunk_result *hr)
{
	struct image img = { NULL, 0, 0, 0 };
	struct line *pre = NULL, *post = NULL;
	size_t pre_alloc = 0, post_alloc = 0, failed = 0;
	long out_offset = 0, last_offset = 0;
	image_from(&img, content);
	for (size_t k = 0; k < fp->hunk_nr; k++) {
		const struct patch_hunk *h = &fp->hunks[k];
		size_t pre_nr = hunk_side(h, '+', &pre, &pre_alloc);
		size_t post_nr = hunk_side(h, '-', &post, &post_alloc);
		long expected = (long)h->old_start - (h->old_count ? 1 : 0) + out_offset;
		struct hunk_match m;
		size_t del, ins;

		memset(&hr[k], 0, sizeof(hr[k]));
		if (expected < 0)
			expected = 0;
		if (strict) {
			int rc = match_at(&img, pre, pre_nr, expected, 0, pre_nr, h->trailing > 0);

			if (!rc || (!h->old_count && expected > (long)img.nr))
				goto failed;
			m.pos = expected;
			m.fuzz = 0;
			m.pf = m.sf = 0;
		} else if (find_hunk(&img, h, pre, pre_nr, expected + last_offset, max_fuzz, &m) < 0) {
			goto failed;
		}
		/* Replace the matched lines with the post-image, minus ignored context. */
		del = pre_nr - m.pf - m.sf;
		ins = post_nr - m.pf - m.sf;
		/* post is NULL for a hunk that only removes lines: no pointer arithmetic on it */
		img_replace(&img, m.pos + m.pf, del, post ? post + m.pf : NULL, ins);
		hr[k].status = APPLY_HUNK_OK;
		hr[k].line = m.pos + 1;
		hr[k].offset = m.pos - expected;
		hr[k].fuzz = m.fuzz;
		last_offset = hr[k].offset;
		out_offset += (long)h->new_count - (long)h->old_count;
		continue;
	failed:
		hr[k].status = APPLY_HUNK_FAILED;
		hr[k].line = expected + (h->old_count ? 1 : 0);
		/* The first pre-image line that differs at the expected place. */
		for (size_t i = 0; i < pre_nr; i++) {
			if ((size_t)expected + i >= img.nr ||
			    !line_eq(img_line(&img, expected + i), &pre[i])) {
				hr[k].expected = pre[i].p;
				hr[k].expected_len = pre[i].len;
				hr[k].actual_line = (size_t)expected + i < img.nr ? expected + i + 1 : 0;
				break;
			}
		}
		if (++failed >= max_failed)
			break;
	}
	if (!failed) {
		/* img points into content: the result is built apart, then takes its place */
		struct strbuf result = STRBUF_INIT;

		image_to(&img, &result);
		strbuf_release(content);
		*content = result;	/* moved */
	}
	free(img.lines);
	free(pre);
	free(post);
	return failed;
}

/* -------------------------------------------------------------- binary */

/*
 * Takes the growth of a binary file from old_size to new_size bytes out
 * of what the patch may still add (see apply_opts.max_binary); 1 with
 * the reason in why when it does not fit.
 */
static int binary_growth(struct apply_session *s, const char *name, size_t old_size,
			 size_t new_size, struct strbuf *why)
{
	size_t growth = new_size > old_size ? new_size - old_size : 0;
	size_t in_patch = s->series_binary_left - s->binary_left;	/* this patch's so far */

	if (growth <= s->binary_left) {
		s->binary_left -= growth;
		if (old_size > new_size)
			s->binary_shrunk = st_add(s->binary_shrunk, old_size - new_size);
		return 0;
	}
	if (growth > s->opts.max_binary - in_patch)
		strbuf_addf(why, "binary patch to '%s' too large (%zu bytes from %zu; at most %zu more in one patch, see mbox.max-message-size)",
			    name, new_size, old_size, s->opts.max_binary);
	else
		strbuf_addf(why, "binary patch to '%s' too large (%zu bytes from %zu; at most %zu more in one series, %zu of it taken by the patches before, see mbox.max-message-size)",
			    name, new_size, old_size, s->opts.max_binary,
			    s->opts.max_binary - s->series_binary_left);
	return 1;
}

/*
 * A patch starts: its binary files may grow by what is left of the
 * series' allowance (opts.max_binary less the net growth of the patches
 * kept so far), never more than one patch's.
 */
static void binary_patch_start(struct apply_session *s)
{
	if (!s->series_started) {
		s->series_binary_left = s->opts.max_binary;
		s->series_started = 1;
	}
	s->binary_left = s->series_binary_left;
	s->binary_shrunk = 0;
}

/* The patch is kept: what it grew binary files by, less what it shrank them by, is spent. */
static void binary_patch_kept(struct apply_session *s)
{
	size_t left = s->binary_left + s->binary_shrunk;

	if (left < s->binary_left || left > s->opts.max_binary)
		left = s->opts.max_binary;
	s->series_binary_left = left;
}

/* Does the content hash to (a prefix of) hex? */
static int content_matches(const struct strbuf *content, const char *hex)
{
	git_oid oid;
	char full[GIT_OID_HEXSZ + 1];
	size_t n = strlen(hex);

	if (git_odb_hash(&oid, content->buf, content->len, GIT_OBJECT_BLOB) < 0)
		return 0;
	git_oid_tostr(full, sizeof(full), &oid);
	return n && !strncmp(full, hex, n);
}

static int hex_is_zero(const char *hex)
{
	return *hex && strspn(hex, "0") == strlen(hex);
}

/* Finds a blob by (abbreviated) id in the repository: 1 if found. */
static int find_blob(struct apply_session *s, const char *hex, git_oid *out)
{
	git_odb *odb;
	git_oid prefix;
	size_t n = strlen(hex);
	int rc;

	if (n < 4 || hex_is_zero(hex) || git_oid_fromstrn(&prefix, hex, n) < 0)
		return 0;
	if (git_repository_odb(&odb, s->repo) < 0)
		return 0;
	rc = git_odb_exists_prefix(out, odb, &prefix, n);
	/* The id of a commit or a tree is no blob (a mail may name one). */
	if (rc == 0) {
		size_t size;
		git_object_t type;

		rc = git_odb_read_header(&size, &type, odb, out);
		if (rc == 0 && type != GIT_OBJECT_BLOB)
			rc = -1;
	}
	git_odb_free(odb);
	return rc == 0;
}

/*
 * Binary post-image of fp from the pre-image content (empty for a
 * creation). Fills *use_oid when the post-image is a blob already in the
 * repository. Returns 0, or 1 with the reason in why.
 */
static int apply_binary(struct apply_session *s, const struct file_patch *fp,
			struct strbuf *content, int *use_oid, git_oid *oid, struct strbuf *why)
{
	struct strbuf out = STRBUF_INIT;
	const char *name = file_patch_name(fp);

	*use_oid = 0;
	if (!fp->is_new && fp->old_oid[0] && !hex_is_zero(fp->old_oid) &&
	    !content_matches(content, fp->old_oid)) {
		strbuf_addf(why, "the binary patch does not apply to '%s'", name);
		return 1;
	}
	if (fp->forward.type == BINARY_NONE) {
		if (fp->is_delete)
			return 0;
		if (fp->new_oid[0] && find_blob(s, fp->new_oid, oid)) {
			*use_oid = 1;
			return 0;
		}
		strbuf_addf(why, "cannot apply binary patch to '%s' without full index line", name);
		return 1;
	}
	if (fp->forward.type == BINARY_LITERAL) {
		if (binary_growth(s, name, content->len, fp->forward.data.len, why))
			return 1;
		strbuf_addbuf(&out, &fp->forward.data);
	} else {
		const unsigned char *body;
		size_t src_size, dst_size;

		if (delta_sizes(fp->forward.data.buf, fp->forward.data.len, &body, &src_size, &dst_size) < 0 ||
		    src_size != content->len) {
			strbuf_addf(why, "the binary patch does not apply to '%s'", name);
			return 1;
		}
		if (binary_growth(s, name, content->len, dst_size, why))
			return 1;
		if (delta_apply(&out, content->buf, content->len, fp->forward.data.buf,
				fp->forward.data.len) < 0) {
			strbuf_release(&out);
			strbuf_addf(why, "the binary patch does not apply to '%s'", name);
			return 1;
		}
	}
	if (fp->new_oid[0] && !hex_is_zero(fp->new_oid) && !content_matches(&out, fp->new_oid)) {
		strbuf_release(&out);
		strbuf_addf(why, "binary patch to '%s' creates incorrect result", name);
		return 1;
	}
	strbuf_release(content);
	*content = out;		/* moved: binary contents may be large */
	return 0;
}

/* -------------------------------------------------------------- 3-way */

/*
 * git am -3: apply the hunks exactly to the recorded pre-image blob and
 * merge the result into the current content. Returns 1 when merged
 * cleanly (content updated), 2 when the merge has conflicts (content
 * holds it with conflict markers, as git am -3 leaves the file, and
 * *conflict the three sides), 0 when not possible, -1 on error.
 */
static int three_way(struct apply_session *s, const struct file_patch *fp,
		     struct strbuf *content, struct apply_conflict **conflict)
{
	git_oid oid;
	git_blob *blob = NULL;
	struct strbuf base = STRBUF_INIT, theirs = STRBUF_INIT;
	struct apply_hunk_result *hr;
	git_merge_file_input in_base = GIT_MERGE_FILE_INPUT_INIT;
	git_merge_file_input in_ours = GIT_MERGE_FILE_INPUT_INIT;
	git_merge_file_input in_theirs = GIT_MERGE_FILE_INPUT_INIT;
	git_merge_file_options mopts = GIT_MERGE_FILE_OPTIONS_INIT;
	git_merge_file_result mr = { 0 };
	int ret = 0;

	if (!fp->old_oid[0] || fp->is_binary || !find_blob(s, fp->old_oid, &oid))
		return 0;
	if (lg2_check(git_blob_lookup(&blob, s->repo, &oid), "cannot read blob %s",
		      fp->old_oid) < 0)
		return -1;
	strbuf_add(&base, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	strbuf_addbuf(&theirs, &base);
	hr = xcalloc(fp->hunk_nr ? fp->hunk_nr : 1, sizeof(*hr));
	if (apply_hunks(fp, &theirs, 0, 1, SIZE_MAX, hr))
		goto out;
	in_base.ptr = base.buf;
	in_base.size = base.len;
	in_ours.ptr = content->buf;
	in_ours.size = content->len;
	in_theirs.ptr = theirs.buf;
	in_theirs.size = theirs.len;
	/* The labels git am -3 gives the conflict markers. */
	mopts.our_label = "HEAD";
	mopts.their_label = s->their_label ? s->their_label : "patch";
	if (lg2_check(git_merge_file(&mr, &in_base, &in_ours, &in_theirs, &mopts),
		      "cannot merge '%s'", file_patch_name(fp)) < 0) {
		ret = -1;
		goto out;
	}
	if (mr.automergeable) {
		strbuf_reset(content);
		strbuf_add(content, mr.ptr, mr.len);
		ret = 1;
	} else if (conflict && fp->old_path && fp->new_path && !strcmp(fp->old_path, fp->new_path)) {
		struct apply_conflict *c = xcalloc(1, sizeof(*c));

		git_oid_cpy(&c->base, &oid);
		strbuf_init(&c->ours, 0);
		strbuf_addbuf(&c->ours, content);
		strbuf_init(&c->theirs, 0);
		strbuf_addbuf(&c->theirs, &theirs);
		strbuf_reset(content);
		strbuf_add(content, mr.ptr, mr.len);
		*conflict = c;
		ret = 2;
	}
	git_merge_file_result_free(&mr);
out:
	free(hr);
	strbuf_release(&base);
	strbuf_release(&theirs);
	return ret;
}

/* ----------------------------------------------------------- one file */

static struct entry *stage_entry(struct apply_session *s, const char *path)
{
	struct entry *e = map_put(&s->stage, path);

	e->dirty = 1;
	return e;
}

static void file_error(struct apply_file_result *fr, struct strbuf *why)
{
	fr->status = APPLY_FILE_ERROR;
	free(fr->reason);
	fr->reason = strbuf_detach(why, NULL);
}

/* Regular file, symbolic link or submodule: what a mode change may not change. */
static unsigned file_type(unsigned mode)
{
	return mode == GIT_FILEMODE_BLOB_EXECUTABLE ? GIT_FILEMODE_BLOB : mode;
}

/*
 * The commit a submodule's post-image names: "Subproject commit <hex>",
 * anything after the id ignored, as git apply reads it.
 */
static int gitlink_oid(const struct strbuf *content, git_oid *oid)
{
	static const char prefix[] = "Subproject commit ";
	size_t n = sizeof(prefix) - 1;

	if (content->len < n + GIT_OID_HEXSZ || memcmp(content->buf, prefix, n))
		return -1;
	for (size_t i = 0; i < GIT_OID_HEXSZ; i++)
		if (!isxdigit((unsigned char)content->buf[n + i]))
			return -1;
	return git_oid_fromstrn(oid, content->buf + n, GIT_OID_HEXSZ) < 0 ? -1 : 0;
}

/*
 * Refuses what git's fsck flags in a tree at path with mode: a symbolic
 * link at a name git protects (.gitmodules, .gitattributes, .gitignore,
 * .mailmap or a look-alike, see patch_protected_name()), and anything
 * but a file at .gitmodules or .gitattributes (a directory on the way
 * to path, or a submodule). 1 with the reason in why, else 0.
 */
static int check_protected(const char *path, unsigned mode, struct strbuf *why)
{
	const char *c = path;

	for (;;) {
		const char *slash = strchr(c, '/');
		size_t len = slash ? (size_t)(slash - c) : strlen(c);
		enum patch_protected_name id = patch_protected_name(c, len);

		if (id != PATCH_NAME_NONE && !slash && mode == GIT_FILEMODE_LINK) {
			strbuf_addf(why, "'%s' may not be a symbolic link", path);
			return 1;
		}
		if ((id == PATCH_NAME_GITMODULES || id == PATCH_NAME_GITATTRIBUTES) &&
		    (slash || mode == GIT_FILEMODE_COMMIT)) {
			strbuf_addf(why, "'%s': '%.*s' may only be a file", path, (int)len, c);
			return 1;
		}
		if (!slash)
			return 0;
		c = slash + 1;
	}
}

/*
 * What git's fsck checks in a .gitmodules or .gitattributes (or a name
 * taken for one) that path would hold: content, or the blob oid when
 * not NULL. 1 with the reason in why, 0 when fine, -1 on error.
 */
static int check_protected_content(struct apply_session *s, const char *path, const git_oid *oid,
				   const struct strbuf *content, struct strbuf *why)
{
	const char *base = strrchr(path, '/');
	enum patch_protected_name id;
	struct strbuf blob = STRBUF_INIT, reason = STRBUF_INIT;
	struct file_state st = { 0 };
	int rc;

	base = base ? base + 1 : path;
	id = patch_protected_name(base, strlen(base));
	if (id != PATCH_NAME_GITMODULES && id != PATCH_NAME_GITATTRIBUTES)
		return 0;
	if (oid) {
		st.has_oid = 1;
		git_oid_cpy(&st.oid, oid);
		if (read_content(s, &st, path, &blob) < 0)
			return -1;
		content = &blob;
	}
	rc = id == PATCH_NAME_GITMODULES ?
		dotfiles_check_gitmodules(content->buf, content->len, &reason) :
		dotfiles_check_gitattributes(content->buf, content->len, &reason);
	if (rc < 0)
		strbuf_addf(why, "'%s' would not pass git fsck (%s)", path, reason.buf);
	strbuf_release(&blob);
	strbuf_release(&reason);
	return rc < 0;
}

/* The result of fp before it is tried: its names, every hunk skipped. */
static void file_result_init(struct apply_file_result *fr, const struct file_patch *fp)
{
	fr->old_path = xstrdup_or_null(fp->old_path);
	fr->new_path = xstrdup_or_null(fp->new_path);
	fr->is_binary = fp->is_binary;
	fr->is_copy = fp->is_copy;
	fr->hunk_nr = fp->hunk_nr;
	fr->hunks = xcalloc(fp->hunk_nr ? fp->hunk_nr : 1, sizeof(*fr->hunks));
	for (size_t k = 0; k < fp->hunk_nr; k++) {
		fr->hunks[k].status = APPLY_HUNK_SKIPPED;
		fr->hunks[k].line = fp->hunks[k].old_start;
	}
	fr->status = APPLY_FILE_OK;
}

/*
 * One file diff on its way through apply_file(), in git apply's steps:
 * check_patch() (the paths, check_preimage(), check_to_create(), the new
 * mode), apply_data() (the post-image, with the 3-way fallback),
 * write_out_results() (into the stage). Each step leaves here what the
 * next one needs, and returns one of these:
 */
enum file_step {
	FILE_STEP_ERROR = -1,	/* an error of our own (reported) */
	FILE_STEP_OK = 0,	/* on to the next step */
	FILE_STEP_REFUSED,	/* the file diff cannot apply: why says why */
	FILE_STEP_FAILED,	/* hunks failed (fr->status and the hunks say which) */
};

struct file_apply {
	struct apply_session *s;
	const struct file_patch *fp;
	struct apply_file_result *fr;
	struct file_state old;	/* the pre-image (fp->old_path's), when it exists */
	struct strbuf content;	/* the pre-image's content, then the post-image's */
	unsigned mode;		/* the post-image's */
	int use_oid;		/* the post-image is the blob post_oid, not content */
	git_oid post_oid;
	struct strbuf why;	/* FILE_STEP_REFUSED's reason */
};

/* A check's 1 / 0 / -1 as a step's outcome. */
static enum file_step refused_if(int rc)
{
	return rc < 0 ? FILE_STEP_ERROR : rc ? FILE_STEP_REFUSED : FILE_STEP_OK;
}

/*
 * Path safety first: both names. A file deleted or renamed away may sit
 * under a file the same patch created in place of its directory ("rm -r
 * dir" and a new file "dir", which format-patch lists first); a symbolic
 * link is refused all the same.
 */
static enum file_step check_paths(struct file_apply *fa)
{
	const struct file_patch *fp = fa->fp;
	int rc = 0;

	if (fp->old_path)
		rc = check_path_in(fa->s, fp->old_path, fp->is_delete || fp->is_rename, &fa->why);
	if (!rc && fp->new_path)
		rc = check_path(fa->s, fp->new_path, &fa->why);
	return refused_if(rc);
}

/*
 * The pre-image, read into fa->old and fa->content: it exists, is a file
 * of the type the diff says. A rename or copy source that an earlier
 * file of this patch already replaced (a criss-cross rename "a -> b,
 * b -> a") is read as it was before the patch, as git apply does.
 */
static enum file_step check_preimage(struct file_apply *fa)
{
	struct apply_session *s = fa->s;
	const struct file_patch *fp = fa->fp;
	struct file_state *old = &fa->old;
	struct entry *staged;
	int rc;

	if (!fp->old_path)
		return FILE_STEP_OK;
	staged = map_get(&s->stage, fp->old_path);
	if ((fp->is_rename || fp->is_copy) && staged && !staged->deleted && staged->arrived)
		rc = lookup_prepatch(s, fp->old_path, old);
	else
		rc = lookup(s, fp->old_path, old);
	if (rc < 0)
		return FILE_STEP_ERROR;
	if (!old->exists) {
		strbuf_addf(&fa->why, "'%s' does not exist", fp->old_path);
		return FILE_STEP_REFUSED;
	}
	if (old->mode == GIT_FILEMODE_TREE) {
		strbuf_addf(&fa->why, "'%s' is a directory", fp->old_path);
		return FILE_STEP_REFUSED;
	}
	if (fp->old_mode && file_type(fp->old_mode) != file_type(old->mode)) {
		strbuf_addf(&fa->why, "'%s' has type %o, expected %o", fp->old_path, old->mode, fp->old_mode);
		return FILE_STEP_REFUSED;
	}
	return read_content(s, old, fp->old_path, &fa->content) < 0 ? FILE_STEP_ERROR : FILE_STEP_OK;
}

/*
 * The destination must be free for creations, renames and copies (a
 * copy onto its own source too, as git apply says).
 */
static enum file_step check_to_create(struct file_apply *fa)
{
	struct apply_session *s = fa->s;
	const struct file_patch *fp = fa->fp;
	struct file_state dst = { 0 };
	int rc;

	if (!fp->new_path || (fp->old_path && !fp->is_copy && !strcmp(fp->old_path, fp->new_path)))
		return FILE_STEP_OK;
	if (lookup(s, fp->new_path, &dst) < 0)
		return FILE_STEP_ERROR;
	if (dst.exists && dst.mode != GIT_FILEMODE_TREE &&
	    !(!map_get(&s->stage, fp->new_path) && leaves(s, fp->new_path))) {
		strbuf_addf(&fa->why, "'%s' already exists", fp->new_path);
		return FILE_STEP_REFUSED;
	}
	rc = is_live_dir(s, fp->new_path);
	if (rc > 0)
		strbuf_addf(&fa->why, "'%s' already exists as a directory", fp->new_path);
	return refused_if(rc);
}

/*
 * The post-image's mode, into fa->mode. A file does not turn into a
 * symbolic link or a submodule (or back) by a mode change: git's diffs
 * delete and create instead, and git apply refuses this.
 */
static enum file_step check_new_mode(struct file_apply *fa)
{
	const struct file_patch *fp = fa->fp;
	const struct file_state *old = &fa->old;
	unsigned mode = fp->new_mode ? fp->new_mode : old->exists ? old->mode : GIT_FILEMODE_BLOB;

	fa->mode = mode;
	if (fp->new_path && old->exists && file_type(mode) != file_type(old->mode)) {
		strbuf_addf(&fa->why, "new mode (%o) of '%s' does not match old mode (%o)", mode,
			    fp->new_path, old->mode);
		return FILE_STEP_REFUSED;
	}
	if (fp->is_binary && (mode == GIT_FILEMODE_COMMIT || old->mode == GIT_FILEMODE_COMMIT)) {
		strbuf_addf(&fa->why, "corrupt patch for submodule '%s'", file_patch_name(fp));
		return FILE_STEP_REFUSED;
	}
	return refused_if(fp->new_path && check_protected(fp->new_path, mode, &fa->why));
}

/* Everything about the file diff that can be checked before its data is applied. */
static enum file_step check_patch(struct file_apply *fa)
{
	enum file_step rc;

	if ((rc = check_paths(fa)) || (rc = check_preimage(fa)) || (rc = check_to_create(fa)))
		return rc;
	return check_new_mode(fa);
}

/*
 * git am -3 after the hunks failed: three_way() on the pre-image content
 * (saved). Merged cleanly: saved becomes the post-image and every failed
 * hunk is merged. With conflicts: the file is staged with its conflict
 * markers, for apply_session_conflicts(), and the hunks stay failed.
 * -1 on error.
 */
static int three_way_fallback(struct file_apply *fa, struct strbuf *saved)
{
	struct apply_file_result *fr = fa->fr;
	int rc = three_way(fa->s, fa->fp, saved, &fr->conflict);

	if (rc == 2) {
		struct entry *e = stage_entry(fa->s, fa->fp->new_path);

		e->deleted = 0;
		e->mode = fa->mode;
		e->has_oid = 0;
		strbuf_reset(&e->data);
		strbuf_addbuf(&e->data, saved);
		fr->conflict->mode = fa->mode;
	}
	if (rc == 1) {
		for (size_t k = 0; k < fa->fp->hunk_nr; k++)
			if (fr->hunks[k].status == APPLY_HUNK_FAILED)
				fr->hunks[k].status = APPLY_HUNK_MERGED;
		fr->hunks_failed = 0;
		fr->status = APPLY_FILE_MERGED;
		strbuf_reset(&fa->content);
		strbuf_addbuf(&fa->content, saved);
	}
	return rc < 0 ? -1 : 0;
}

/* The hunks on fa->content, falling back to a 3-way merge under -3. */
static enum file_step apply_text(struct file_apply *fa)
{
	struct apply_session *s = fa->s;
	struct apply_file_result *fr = fa->fr;
	struct strbuf saved = STRBUF_INIT;
	int rc = 0;

	if (s->opts.three_way)
		strbuf_addbuf(&saved, &fa->content);
	fr->hunks_failed = apply_hunks(fa->fp, &fa->content, s->opts.fuzz, 0, s->failures_left, fr->hunks);
	if (fr->hunks_failed && s->opts.three_way)
		rc = three_way_fallback(fa, &saved);
	strbuf_release(&saved);
	if (rc < 0)
		return FILE_STEP_ERROR;
	if (fr->hunks_failed) {
		fr->status = APPLY_FILE_FAILED;
		return FILE_STEP_FAILED;
	}
	return FILE_STEP_OK;
}

/*
 * The post-image, from the pre-image in fa->content: into fa->content,
 * or fa->post_oid when fa->use_oid (a binary post-image already in the
 * repository, a submodule's commit); then what git's fsck would say of
 * it.
 */
static enum file_step apply_data(struct file_apply *fa)
{
	const struct file_patch *fp = fa->fp;
	enum file_step rc;

	if (fp->is_binary) {
		if (apply_binary(fa->s, fp, &fa->content, &fa->use_oid, &fa->post_oid, &fa->why))
			return FILE_STEP_REFUSED;
	} else if (fp->hunk_nr && (rc = apply_text(fa))) {
		return rc;
	}
	if (fp->is_delete && fa->content.len && !fp->is_binary) {
		strbuf_addf(&fa->why, "'%s' is not empty after the deletion patch", fp->old_path);
		return FILE_STEP_REFUSED;
	}
	if (!fp->new_path)
		return FILE_STEP_OK;
	if (fa->mode != GIT_FILEMODE_COMMIT)
		return refused_if(check_protected_content(fa->s, fp->new_path,
							  fa->use_oid ? &fa->post_oid : NULL,
							  &fa->content, &fa->why));
	/* A submodule's post-image names its commit. */
	if (gitlink_oid(&fa->content, &fa->post_oid) < 0) {
		strbuf_addf(&fa->why, "corrupt patch for submodule '%s'", fp->new_path);
		return FILE_STEP_REFUSED;
	}
	fa->use_oid = 1;
	return FILE_STEP_OK;
}

/* Into the stage: the old name deleted (deletion, rename), the new one written. */
static void write_out_results(struct file_apply *fa)
{
	const struct file_patch *fp = fa->fp;
	struct entry *e;

	if (fp->old_path && (fp->is_delete || fp->is_rename)) {
		struct entry *staged = map_get(&fa->s->stage, fp->old_path);

		/* A rename source already taken over by an earlier rename stays. */
		if (!(fp->is_rename && staged && !staged->deleted && staged->arrived))
			stage_entry(fa->s, fp->old_path)->deleted = 1;
	}
	if (!fp->new_path)
		return;
	e = stage_entry(fa->s, fp->new_path);
	e->deleted = 0;
	if (!fp->old_path || strcmp(fp->old_path, fp->new_path))
		e->arrived = 1;
	e->mode = fa->mode;
	strbuf_reset(&e->data);
	if (fa->use_oid) {
		e->has_oid = 1;
		git_oid_cpy(&e->oid, &fa->post_oid);
	} else if (!fp->hunk_nr && !fp->is_binary && fa->old.exists && fa->old.has_oid) {
		e->has_oid = 1;	/* rename, copy or mode change only */
		git_oid_cpy(&e->oid, &fa->old.oid);
	} else {
		e->has_oid = 0;
		strbuf_release(&e->data);
		e->data = fa->content;	/* moved */
		strbuf_init(&fa->content, 0);
	}
}

/* Applies one file diff to the stage. Returns -1 on internal error, else 0. */
static int apply_file(struct apply_session *s, const struct file_patch *fp,
		      struct apply_file_result *fr)
{
	struct file_apply fa = { .s = s, .fp = fp, .fr = fr, .content = STRBUF_INIT, .why = STRBUF_INIT };
	enum file_step rc;

	file_result_init(fr, fp);
	rc = check_patch(&fa);
	if (rc == FILE_STEP_OK)
		rc = apply_data(&fa);
	if (rc == FILE_STEP_OK)
		write_out_results(&fa);
	else if (rc == FILE_STEP_REFUSED)
		file_error(fr, &fa.why);
	strbuf_release(&fa.why);
	strbuf_release(&fa.content);
	return rc == FILE_STEP_ERROR ? -1 : 0;
}

/* ------------------------------------------------------------- patches */

/*
 * Moves the stage into the overlay. An overlay entry for the same path
 * takes the staged content in place (the overlay's index points at it).
 */
static void stage_commit(struct apply_session *s)
{
	for (size_t i = 0; i < s->stage.nr; i++) {
		struct entry *e = s->stage.ents[i];
		const uint32_t *v;

		if (!e)
			continue;
		v = hashmap_get(&s->overlay.by_path, e->path, strlen(e->path));
		if (v) {
			struct entry *old = s->overlay.ents[*v], tmp = *old;

			if (old->cached)
				s->cached_bytes -= old->data.len;
			*old = *e;
			*e = tmp;	/* the old content, freed with the stage */
		} else {
			*hashmap_put(&s->overlay.by_path, e->path, strlen(e->path), NULL) =
				(uint32_t)s->overlay.nr;
			ALLOC_GROW(s->overlay.ents, s->overlay.nr + 1, s->overlay.alloc);
			s->overlay.ents[s->overlay.nr++] = e;
			dindex_add(s->overlay.index, e);
			s->stage.ents[i] = NULL;
		}
	}
	map_clear(&s->stage);
}

static void conflict_free(struct apply_conflict *c)
{
	if (!c)
		return;
	strbuf_release(&c->ours);
	strbuf_release(&c->theirs);
	free(c);
}

void apply_result_dispose(struct apply_result *res)
{
	for (size_t i = 0; i < res->nr; i++) {
		conflict_free(res->files[i].conflict);
		free(res->files[i].old_path);
		free(res->files[i].new_path);
		free(res->files[i].reason);
		free(res->files[i].hunks);
	}
	free(res->files);
	free(res->error);
	memset(res, 0, sizeof(*res));
}

/* The id of st's content (hashed when it is in memory only). */
static int state_oid(const struct file_state *st, git_oid *out)
{
	if (st->has_oid) {
		git_oid_cpy(out, &st->oid);
		return 0;
	}
	return lg2_check(git_odb_hash(out, st->data->buf, st->data->len, GIT_OBJECT_BLOB), "cannot hash a blob");
}

/*
 * Is fp's post-image there before the patch (overlay, base): its path
 * with the blob its "index <pre>..<post>" line names (a copy without
 * one: its source's blob), its source gone when renamed, or gone when
 * deleted? 1 yes; 0 no, or no id to compare; -1 on an error (reported).
 */
static int post_image_present(struct apply_session *s, const struct file_patch *fp)
{
	struct file_state st, from;
	git_oid have, want;
	char hex[GIT_OID_HEXSZ + 1];

	if (lookup_prepatch(s, fp->is_delete ? fp->old_path : fp->new_path, &st) < 0 ||
	    (fp->old_path && lookup_prepatch(s, fp->old_path, &from) < 0))
		return -1;
	if (fp->is_delete || !st.exists)
		return fp->is_delete && !st.exists;
	/* a copy onto its own source is refused, never applied */
	if (fp->is_copy && fp->old_path && !strcmp(fp->old_path, fp->new_path))
		return 0;
	if ((fp->new_mode && st.mode != fp->new_mode) || (fp->is_rename && from.exists))
		return 0;
	if (state_oid(&st, &have) < 0)
		return -1;
	if (*fp->new_oid) {
		git_oid_tostr(hex, sizeof(hex), &have);
		return strlen(fp->new_oid) >= 4 && !hex_is_zero(fp->new_oid) &&
		       !strncmp(hex, fp->new_oid, strlen(fp->new_oid));
	}
	if (!fp->is_copy || !from.exists)
		return 0;
	if (state_oid(&from, &want) < 0)
		return -1;
	return git_oid_equal(&have, &want);
}

/*
 * What cannot be reversed (a copy, binary data) is applied when every
 * file's post-image is there by its blob id (post_image_present()).
 */
static int post_images_present(struct apply_session *s, const struct patch_set *ps)
{
	int rc = ps->nr > 0;

	for (size_t i = 0; rc > 0 && i < ps->nr; i++)
		rc = post_image_present(s, &ps->files[i]);
	return rc;
}

int apply_patch_is_applied(struct apply_session *s, const struct patch_set *ps)
{
	struct patch_set reversed = PATCH_SET_INIT;
	struct apply_result res = APPLY_RESULT_INIT;
	struct apply_opts saved = s->opts;
	int ret;

	if (patch_set_reverse(&reversed, ps) < 0)
		return post_images_present(s, ps);
	s->opts.check_only = 1;
	s->opts.three_way = 0;
	s->opts.fuzz = 0;
	ret = apply_patch(s, &reversed, &res);
	s->opts = saved;
	if (!ret)
		ret = res.ok;
	apply_result_dispose(&res);
	patch_set_dispose(&reversed);
	return ret;
}

void apply_result_set_error(struct apply_result *res, const char *msg)
{
	res->ok = 0;
	free(res->error);
	res->error = xstrdup(msg);
}

int apply_patch(struct apply_session *s, const struct patch_set *ps, struct apply_result *res)
{
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->ok = 1;
	binary_patch_start(s);
	map_clear(&s->stage);
	map_clear(&s->leaving);
	for (size_t i = 0; i < ps->nr; i++) {
		const struct file_patch *fp = &ps->files[i];

		if ((fp->is_rename || fp->is_delete) && fp->old_path)
			map_put(&s->leaving, fp->old_path);
	}
	s->failures_left = APPLY_MAX_FAILURES;
	for (size_t i = 0; i < ps->nr; i++) {
		struct apply_file_result *fr;

		ALLOC_GROW(res->files, res->nr + 1, res->alloc);
		fr = &res->files[res->nr++];
		memset(fr, 0, sizeof(*fr));
		if (!s->failures_left) {
			/* The verdict is known: the rest is listed, not tried. */
			file_result_init(fr, &ps->files[i]);
			fr->status = APPLY_FILE_SKIPPED;
			continue;
		}
		if (apply_file(s, &ps->files[i], fr) < 0) {
			ret = -1;
			res->ok = 0;
			break;
		}
		if (fr->status == APPLY_FILE_FAILED || fr->status == APPLY_FILE_ERROR) {
			size_t n = fr->status == APPLY_FILE_ERROR ? 1 : fr->hunks_failed;

			res->ok = 0;
			s->failures_left -= n < s->failures_left ? n : s->failures_left;
		}
	}
	if (res->ok && !s->opts.check_only) {
		stage_commit(s);
		binary_patch_kept(s);
	} else if (!ret && !res->ok && s->opts.three_way) {
		/* Failed only by merge conflicts: keep the stage for apply_session_conflicts(). */
		res->conflicts = 0;
		for (size_t i = 0; i < res->nr; i++) {
			const struct apply_file_result *fr = &res->files[i];

			if (fr->conflict)
				res->conflicts++;
			else if (fr->status == APPLY_FILE_FAILED || fr->status == APPLY_FILE_ERROR ||
				 fr->status == APPLY_FILE_SKIPPED)
				res->conflicts = -1;
			if (res->conflicts < 0)
				break;
		}
		if (res->conflicts > 0)
			return ret;
		res->conflicts = 0;
	}
	map_clear(&s->stage);
	return ret;
}

/* ------------------------------------------------------------ changes */

static int cmp_change(const void *a, const void *b)
{
	return strcmp(((const struct apply_change *)a)->path, ((const struct apply_change *)b)->path);
}

/* Appends entry e to the change list c[0..n). */
static struct apply_change *add_change(struct apply_change **c, size_t *n, size_t *alloc,
				       const struct entry *e)
{
	struct apply_change *ch;

	ALLOC_GROW(*c, *n + 1, *alloc);
	ch = &(*c)[(*n)++];
	memset(ch, 0, sizeof(*ch));
	ch->path = e->path;
	ch->deleted = e->deleted;
	ch->mode = e->mode;
	ch->has_oid = e->has_oid;
	git_oid_cpy(&ch->oid, &e->oid);
	ch->data = e->data.buf;
	ch->len = e->data.len;
	return ch;
}

/* Hands the list over sorted by path, as the callers walk it. */
static void sort_changes(struct apply_change *c, size_t n, struct apply_change **changes, size_t *nr)
{
	if (n)
		qsort(c, n, sizeof(*c), cmp_change);
	*changes = c;
	*nr = n;
}

int apply_session_changes(struct apply_session *s, struct apply_change **changes, size_t *nr)
{
	struct apply_change *c = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < s->overlay.nr; i++) {
		const struct entry *e = s->overlay.ents[i];

		if (!e)
			continue;
		if (e->deleted) {
			struct file_state st;

			if (base_lookup(s, e->path, &st) < 0) {
				free(c);
				return -1;
			}
			if (!st.exists)
				continue;	/* created, then deleted again */
		}
		add_change(&c, &n, &alloc, e);
	}
	sort_changes(c, n, changes, nr);
	return 0;
}

static int cmp_entry_path(const void *a, const void *b)
{
	return strcmp((*(struct entry *const *)a)->path, (*(struct entry *const *)b)->path);
}

int apply_session_write_tree(git_oid *tree_out, struct apply_session *s, struct objwrite *ow)
{
	struct entry **dirty = NULL;
	size_t n = 0, alloc = 0;
	int ret = -1;

	if (!s->tw && treewrite_new(&s->tw, s->repo, s->base ? git_tree_id(s->base) : NULL) < 0)
		return -1;
	/* In path order: each directory of the tree gets its new entries in order (treewrite.c). */
	for (size_t i = 0; i < s->overlay.nr; i++) {
		struct entry *e = s->overlay.ents[i];

		if (e && e->dirty) {
			ALLOC_GROW(dirty, n + 1, alloc);
			dirty[n++] = e;
		}
	}
	if (n)
		qsort(dirty, n, sizeof(*dirty), cmp_entry_path);
	/*
	 * Removals first: a directory whose files were all deleted may
	 * have become a file, which is then written in its place.
	 */
	for (size_t i = 0; i < n; i++)
		if (dirty[i]->deleted && treewrite_remove(s->tw, dirty[i]->path) < 0)
			goto out;
	for (size_t i = 0; i < n; i++) {
		struct entry *e = dirty[i];

		if (e->deleted)
			continue;
		if (!e->has_oid && s->cached_bytes + e->data.len > APPLY_CACHE_BYTES) {
			/* Not kept once written (below): the batch takes the content itself. */
			if (objwrite_object_move(ow, s->repo, &e->oid, &e->data, GIT_OBJECT_BLOB) < 0)
				goto out;
			e->has_oid = 1;
		} else if (!e->has_oid) {
			if (objwrite_object(ow, s->repo, &e->oid, e->data.buf, e->data.len,
					    GIT_OBJECT_BLOB) < 0)
				goto out;
		}
		if (treewrite_upsert(s->tw, e->path, e->mode, &e->oid) < 0)
			goto out;
	}
	if (treewrite_write(s->tw, ow, tree_out) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct entry *e = dirty[i];

		e->dirty = 0;
		if (e->deleted || e->has_oid)
			continue;
		/* Written: the blob is the content now; keep a copy while the budget allows. */
		e->has_oid = 1;
		if (s->cached_bytes + e->data.len <= APPLY_CACHE_BYTES) {
			e->cached = 1;
			s->cached_bytes += e->data.len;
		} else {
			strbuf_release(&e->data);
		}
	}
	ret = 0;
out:
	free(dirty);
	return ret;
}

void apply_session_set_reader(struct apply_session *s, apply_reader_fn fn, void *data)
{
	s->reader = fn;
	s->reader_data = data;
}

void apply_session_set_label(struct apply_session *s, const char *label)
{
	free(s->their_label);
	s->their_label = xstrdup_or_null(label);
}

int apply_session_conflicts(struct apply_session *s, struct apply_change **changes, size_t *nr)
{
	struct apply_change *c = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < s->stage.nr; i++) {
		const struct entry *e = s->stage.ents[i];

		if (!e)
			continue;
		add_change(&c, &n, &alloc, e)->has_oid = e->has_oid && !e->cached;
	}
	sort_changes(c, n, changes, nr);
	return 0;
}

int apply_session_cached(struct apply_session *s, const char *path, const git_oid *oid,
			 const char **buf, size_t *len)
{
	const struct entry *e = map_get(&s->overlay, path);

	if (!e || e->deleted || !e->has_oid || !e->cached || !git_oid_equal(&e->oid, oid))
		return 0;
	*buf = e->data.buf;
	*len = e->data.len;
	return 1;
}

/* ------------------------------------------------------------- reports */

static const char *hunk_status_name(enum apply_hunk_status st)
{
	switch (st) {
	case APPLY_HUNK_OK: return "ok";
	case APPLY_HUNK_MERGED: return "merged";
	case APPLY_HUNK_FAILED: return "failed";
	case APPLY_HUNK_SKIPPED: return "skipped";
	}
	return "?";
}

static const char *file_status_name(enum apply_file_status st)
{
	switch (st) {
	case APPLY_FILE_OK: return "ok";
	case APPLY_FILE_MERGED: return "merged";
	case APPLY_FILE_FAILED: return "failed";
	case APPLY_FILE_ERROR: return "error";
	case APPLY_FILE_SKIPPED: return "skipped";
	}
	return "?";
}

static void print_human_file(struct strbuf *out, const struct apply_file_result *fr, int verbose)
{
	const char *name = fr->new_path ? fr->new_path : fr->old_path;
	size_t tried = 0;

	if (fr->status == APPLY_FILE_SKIPPED)
		return;		/* counted in apply_result_print() */
	strbuf_addstr(out, "checking file ");
	patch_quote_path(out, name);
	if (fr->old_path && fr->new_path && strcmp(fr->old_path, fr->new_path)) {
		strbuf_addstr(out, fr->is_copy ? " (copied from " : " (renamed from ");
		patch_quote_path(out, fr->old_path);
		strbuf_addch(out, ')');
	}
	strbuf_addch(out, '\n');
	if (fr->status == APPLY_FILE_ERROR) {
		/* a reason may quote a path from the patch as it is: one line, no controls */
		quote_field(out, fr->reason, strlen(fr->reason));
		strbuf_addch(out, '\n');
		return;
	}
	for (size_t k = 0; k < fr->hunk_nr; k++) {
		const struct apply_hunk_result *h = &fr->hunks[k];

		switch (h->status) {
		case APPLY_HUNK_OK:
			if (!h->offset && !h->fuzz && !verbose)
				break;
			strbuf_addf(out, "Hunk #%zu succeeded at %ld", k + 1, h->line);
			if (h->fuzz)
				strbuf_addf(out, " with fuzz %d", h->fuzz);
			if (h->offset)
				strbuf_addf(out, " (offset %ld line%s)", h->offset,
					    h->offset == 1 || h->offset == -1 ? "" : "s");
			strbuf_addstr(out, ".\n");
			break;
		case APPLY_HUNK_MERGED:
			strbuf_addf(out, "Hunk #%zu merged at %ld (3-way).\n", k + 1, h->line);
			break;
		case APPLY_HUNK_FAILED:
			strbuf_addf(out, "Hunk #%zu FAILED at %ld.\n", k + 1, h->line);
			break;
		case APPLY_HUNK_SKIPPED:
			continue;
		}
		tried = k + 1;
	}
	if (fr->status == APPLY_FILE_FAILED)
		strbuf_addf(out, "%zu out of %zu hunk%s FAILED\n", fr->hunks_failed, fr->hunk_nr,
			    fr->hunk_nr == 1 ? "" : "s");
	if (fr->status == APPLY_FILE_FAILED && tried < fr->hunk_nr)
		strbuf_addf(out, "Hunks #%zu to #%zu not tried (the patch failed %d times).\n",
			    tried + 1, fr->hunk_nr, APPLY_MAX_FAILURES);
}

void apply_quote_field(struct strbuf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		size_t n = control_char_len(s + i, len - i);

		if (c == '\t') {
			strbuf_addstr(out, "\\t");
		} else if (c == '\n') {
			strbuf_addstr(out, "\\n");
		} else if (c == '\\') {
			strbuf_addstr(out, "\\\\");
		} else if (n) {
			for (size_t k = 0; k < n; k++)	/* a C1 character: both bytes */
				strbuf_addf(out, "\\%03o", (unsigned char)s[i + k]);
			i += n - 1;
		} else {
			strbuf_addch(out, c);
		}
	}
}

static void print_porcelain_file(struct strbuf *out, const struct apply_file_result *fr,
				 const char *prefix)
{
	const char *name = fr->new_path ? fr->new_path : fr->old_path;

	strbuf_addf(out, "file\t%s", prefix ? prefix : "");
	apply_quote_field(out, name, strlen(name));
	strbuf_addf(out, "\t%s\t", file_status_name(fr->status));
	if (fr->old_path && fr->new_path && strcmp(fr->old_path, fr->new_path))
		apply_quote_field(out, fr->old_path, strlen(fr->old_path));
	strbuf_addch(out, '\t');
	if (fr->reason)
		apply_quote_field(out, fr->reason, strlen(fr->reason));
	strbuf_addch(out, '\n');
	for (size_t k = 0; k < fr->hunk_nr; k++) {
		const struct apply_hunk_result *h = &fr->hunks[k];

		strbuf_addf(out, "hunk\t%s", prefix ? prefix : "");
		apply_quote_field(out, name, strlen(name));
		strbuf_addf(out, "\t%zu\t%s\t%ld\t%ld\t%d\t", k + 1, hunk_status_name(h->status),
			    h->line, h->offset, h->fuzz);
		if (h->status == APPLY_HUNK_FAILED && h->expected) {
			size_t len = h->expected_len;

			if (len && h->expected[len - 1] == '\n')
				len--;
			apply_quote_field(out, h->expected, len);
		}
		strbuf_addch(out, '\n');
	}
}

void apply_result_print(struct strbuf *out, const struct apply_result *res,
			enum apply_print_format fmt, const char *prefix, int verbose)
{
	size_t skipped = 0;

	if (res->error) {
		if (fmt == APPLY_PRINT_HUMAN) {
			quote_field(out, res->error, strlen(res->error));
			strbuf_addch(out, '\n');
		} else {
			strbuf_addf(out, "error\t%s", prefix ? prefix : "");
			apply_quote_field(out, res->error, strlen(res->error));
			strbuf_addch(out, '\n');
		}
		return;
	}
	for (size_t i = 0; i < res->nr; i++) {
		if (fmt == APPLY_PRINT_HUMAN)
			print_human_file(out, &res->files[i], verbose);
		else
			print_porcelain_file(out, &res->files[i], prefix);
		if (res->files[i].status == APPLY_FILE_SKIPPED)
			skipped++;
	}
	if (skipped && fmt == APPLY_PRINT_HUMAN)
		strbuf_addf(out, "%zu more file%s not tried (the patch failed %d times).\n", skipped,
			    skipped == 1 ? "" : "s", APPLY_MAX_FAILURES);
}
