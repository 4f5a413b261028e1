/* SPDX-License-Identifier: GPL-2.0-only */
#include "diffstat.h"
#include "quote.h"
#include "rename-score.h"
#include "repo.h"
#include "tree-changes.h"
#include "usage.h"
#include "utf8.h"
#include "wrapper.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* git's width for --stat when standard output is not a terminal */
#define STAT_WIDTH 80

struct stat_file {
	struct strbuf name;	/* as shown: quoted, a rename shortened */
	int width;		/* its columns on a terminal */
	uintmax_t added, deleted;	/* lines; for a binary file, bytes new and old */
	int binary;
};

struct stat_all {
	struct stat_file *v;
	size_t nr;
};

static int decimal_width(uintmax_t n)
{
	int w = 1;

	while (n >= 10) {
		n /= 10;
		w++;
	}
	return w;
}

static int needs_quotes(const char *path, unsigned qf)
{
	struct strbuf sb = STRBUF_INIT;
	int q;

	quote_path(&sb, path, strlen(path), qf);
	q = sb.len != strlen(path);
	strbuf_release(&sb);
	return q;
}

/* "a/{b => c}/d": the leading directories and the trailing part the two names share, once. */
static void rename_name(struct strbuf *out, const char *a, const char *b, unsigned qf)
{
	size_t la = strlen(a), lb = strlen(b), pfx = 0, sfx = 0, i, mid_a, mid_b;

	if (needs_quotes(a, qf) || needs_quotes(b, qf)) {
		quote_path(out, a, la, qf);
		strbuf_addstr(out, " => ");
		quote_path(out, b, lb, qf);
		return;
	}
	for (i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			pfx = i + 1;
	/* the suffix starts at a '/', and may share the prefix's closing '/' */
	for (i = 0; i < la && i < lb; i++) {
		size_t ia = la - 1 - i, ib = lb - 1 - i;

		if (a[ia] != b[ib] || ia + (pfx ? 1 : 0) < pfx || ib + (pfx ? 1 : 0) < pfx)
			break;
		if (a[ia] == '/')
			sfx = la - ia;
	}
	mid_a = la > pfx + sfx ? la - pfx - sfx : 0;
	mid_b = lb > pfx + sfx ? lb - pfx - sfx : 0;
	if (pfx + sfx) {
		strbuf_add(out, a, pfx);
		strbuf_addch(out, '{');
	}
	strbuf_add(out, a + pfx, mid_a);
	strbuf_addstr(out, " => ");
	strbuf_add(out, b + pfx, mid_b);
	if (pfx + sfx) {
		strbuf_addch(out, '}');
		strbuf_add(out, a + la - sfx, sfx);
	}
}

static int count_patch(struct stat_file *f, git_patch *patch)
{
	const git_diff_delta *d = git_patch_get_delta(patch);
	size_t ctx, adds, dels;

	if (d->flags & GIT_DIFF_FLAG_BINARY) {
		f->binary = 1;
		if (!git_oid_equal(&d->old_file.id, &d->new_file.id)) {
			f->added = d->new_file.size;
			f->deleted = d->old_file.size;
		}
		return 0;
	}
	if (lg2_check(git_patch_line_stats(&ctx, &adds, &dels, patch), "cannot count '%s'",
		      d->new_file.path) < 0)
		return -1;
	f->added = adds;
	f->deleted = dels;
	return 0;
}

/*
 * The counts of two blobs compared: a renamed file, and a file whose type
 * changed (libgit2's patch of such a delta counts nothing; git counts the
 * lines of both sides). The same content changes nothing.
 */
static int count_blobs(struct stat_file *f, git_repository *repo, const git_diff_file *a,
			const git_diff_file *b)
{
	git_blob *old = NULL, *new = NULL;
	git_patch *patch = NULL;
	int ret = -1;

	if (a->mode == GIT_FILEMODE_COMMIT || b->mode == GIT_FILEMODE_COMMIT)
		return 0;	/* a submodule moved: the same commit (renames.h) */
	if (lg2_check(git_blob_lookup(&old, repo, &a->id), "cannot read '%s'", a->path) < 0 ||
	    lg2_check(git_blob_lookup(&new, repo, &b->id), "cannot read '%s'", b->path) < 0)
		goto out;
	if (git_oid_equal(&a->id, &b->id)) {
		f->binary = content_is_binary(git_blob_rawcontent(old), (size_t)git_blob_rawsize(old));
		ret = 0;
	} else if (!lg2_check(git_patch_from_blobs(&patch, old, a->path, new, b->path, NULL),
			      "cannot compare '%s' with '%s'", a->path, b->path)) {
		ret = count_patch(f, patch);
	}
out:
	git_patch_free(patch);
	git_blob_free(old);
	git_blob_free(new);
	return ret;
}

static int count_file(struct stat_file *f, git_repository *repo, const struct tree_changes *tc, size_t i,
		      unsigned qf)
{
	const struct tree_change *p = &tc->v[i];
	git_patch *patch = NULL;
	int ret;

	if (p->from) {
		rename_name(&f->name, p->from->old_file.path, p->d->new_file.path, qf);
		return count_blobs(f, repo, &p->from->old_file, &p->d->new_file);
	}
	quote_path(&f->name, p->d->new_file.path, strlen(p->d->new_file.path), qf);
	if (p->d->status == GIT_DELTA_TYPECHANGE)
		return count_blobs(f, repo, &p->d->old_file, &p->d->new_file);
	if (lg2_check(git_patch_from_diff(&patch, tc->diff, p->delta), "cannot compare '%s'", p->d->new_file.path) < 0)
		return -1;
	ret = count_patch(f, patch);
	git_patch_free(patch);
	return ret;
}

/* 1 + it scaled to width - 1: every change shows at least one sign. */
static uintmax_t scale(uintmax_t it, uintmax_t width, uintmax_t max)
{
	return it ? 1 + it * (width - 1) / max : 0;
}

struct widths {
	int name, number, graph;
	uintmax_t max_change;
};

/* The columns, as git shares out its 80 between the name and the graph. */
static void layout(const struct stat_all *s, struct widths *w)
{
	size_t max_len = 0;
	int bin_width = 0, width = STAT_WIDTH;

	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < s->nr; i++) {
		const struct stat_file *f = &s->v[i];

		if ((size_t)f->width > max_len)
			max_len = (size_t)f->width;
		if (f->binary) {
			int bw = 14 + decimal_width(f->added) + decimal_width(f->deleted);

			if (bw > bin_width)
				bin_width = bw;
			w->number = 3;	/* the counts line up with "Bin" */
		} else if (f->added + f->deleted > w->max_change) {
			w->max_change = f->added + f->deleted;
		}
	}
	if (decimal_width(w->max_change) > w->number)
		w->number = decimal_width(w->max_change);
	if (width < 16 + 6 + w->number)
		width = 16 + 6 + w->number;
	w->graph = w->max_change + 4 > (uintmax_t)bin_width ? (int)w->max_change : bin_width - 4;
	w->name = (int)max_len;
	if (w->name + w->number + 6 + w->graph > width) {
		if (w->graph > width * 3 / 8 - w->number - 6) {
			w->graph = width * 3 / 8 - w->number - 6;
			if (w->graph < 6)
				w->graph = 6;
		}
		if (w->name > width - w->number - 6 - w->graph)
			w->name = width - w->number - 6 - w->graph;
		else
			w->graph = width - w->number - 6 - w->name;
	}
}

static void stat_line(struct strbuf *out, const struct stat_file *f, const struct widths *w)
{
	const char *name = f->name.buf, *prefix = "";
	int len = w->name, padding;
	uintmax_t add = f->added, del = f->deleted;

	if (f->width > w->name) {
		/*
		 * cut from the left, at a '/' where there is one: by as many
		 * bytes as there are columns too many, as git cuts it
		 */
		const char *slash;

		prefix = "...";
		len = len > 3 ? len - 3 : 0;
		name += f->width - len;
		if ((slash = strchr(name, '/')))
			name = slash;
	}
	padding = len - utf8_width(name, strlen(name));
	if (padding < 0)
		padding = 0;
	if (f->binary) {
		strbuf_addf(out, " %s%s%*s | %*s", prefix, name, padding, "", w->number, "Bin");
		if (f->added || f->deleted)
			strbuf_addf(out, " %" PRIuMAX " -> %" PRIuMAX " bytes", f->deleted, f->added);
		strbuf_addch(out, '\n');
		return;
	}
	if ((uintmax_t)w->graph <= w->max_change) {
		uintmax_t total = scale(add + del, w->graph, w->max_change);

		if (total < 2 && add && del)
			total = 2;
		if (add < del) {
			add = scale(add, w->graph, w->max_change);
			del = total - add;
		} else {
			del = scale(del, w->graph, w->max_change);
			add = total - del;
		}
	}
	strbuf_addf(out, " %s%s%*s | %*" PRIuMAX "%s", prefix, name, padding, "", w->number,
		    f->added + f->deleted, f->added + f->deleted ? " " : "");
	strbuf_addchars(out, '+', add);
	strbuf_addchars(out, '-', del);
	strbuf_addch(out, '\n');
}

static void totals(struct strbuf *out, const struct stat_all *s)
{
	uintmax_t ins = 0, del = 0;

	for (size_t i = 0; i < s->nr; i++) {
		if (!s->v[i].binary) {
			ins += s->v[i].added;
			del += s->v[i].deleted;
		}
	}
	strbuf_addf(out, s->nr == 1 ? " %zu file changed" : " %zu files changed", s->nr);
	if (ins || !del)
		strbuf_addf(out, ins == 1 ? ", %" PRIuMAX " insertion(+)" : ", %" PRIuMAX " insertions(+)", ins);
	if (del || !ins)
		strbuf_addf(out, del == 1 ? ", %" PRIuMAX " deletion(-)" : ", %" PRIuMAX " deletions(-)", del);
	strbuf_addch(out, '\n');
}

static void mode_change(struct strbuf *out, const git_diff_file *a, const git_diff_file *b, int with_name,
			unsigned qf)
{
	if (!a->mode || !b->mode || a->mode == b->mode)
		return;
	strbuf_addf(out, " mode change %06o => %06o", a->mode, b->mode);
	if (with_name) {
		strbuf_addch(out, ' ');
		quote_path(out, b->path, strlen(b->path), qf);
	}
	strbuf_addch(out, '\n');
}

static void summary(struct strbuf *out, const struct tree_changes *tc, unsigned qf)
{
	for (size_t i = 0; i < tc->nr; i++) {
		const struct tree_change *p = &tc->v[i];
		const git_diff_delta *d = p->d;

		if (p->from) {
			strbuf_addstr(out, " rename ");
			rename_name(out, p->from->old_file.path, d->new_file.path, qf);
			strbuf_addf(out, " (%d%%)\n", rename_score_percent(p->score));
			mode_change(out, &p->from->old_file, &d->new_file, 0, qf);
		} else if (d->status == GIT_DELTA_ADDED) {
			strbuf_addf(out, " create mode %06o ", d->new_file.mode);
			quote_path(out, d->new_file.path, strlen(d->new_file.path), qf);
			strbuf_addch(out, '\n');
		} else if (d->status == GIT_DELTA_DELETED) {
			strbuf_addf(out, " delete mode %06o ", d->old_file.mode);
			quote_path(out, d->old_file.path, strlen(d->old_file.path), qf);
			strbuf_addch(out, '\n');
		} else {
			mode_change(out, &d->old_file, &d->new_file, 1, qf);
		}
	}
}

int diffstat_trees(struct strbuf *out, git_repository *repo, git_tree *a, git_tree *b,
		   const struct diffstat_opts *o)
{
	unsigned qf = o->quote_path ? QUOTE_ASCII : 0;
	struct tree_changes tc = TREE_CHANGES_INIT;
	struct stat_all s = { NULL, 0 };
	struct widths w;
	int ret = -1;

	if (tree_changes_find(&tc, repo, a, b, o->rename_limit) < 0)
		goto out;
	s.v = xcalloc(tc.nr + 1, sizeof(*s.v));
	for (size_t i = 0; i < tc.nr; i++) {
		strbuf_init(&s.v[s.nr].name, 0);
		s.nr++;
		if (count_file(&s.v[i], repo, &tc, i, qf) < 0)
			goto out;
		s.v[i].width = utf8_width(s.v[i].name.buf, s.v[i].name.len);
	}
	if (s.nr) {
		layout(&s, &w);
		for (size_t i = 0; i < s.nr; i++)
			stat_line(out, &s.v[i], &w);
		totals(out, &s);
		summary(out, &tc, qf);
	}
	ret = 0;
out:
	for (size_t i = 0; i < s.nr; i++)
		strbuf_release(&s.v[i].name);
	free(s.v);
	tree_changes_release(&tc);
	return ret;
}
