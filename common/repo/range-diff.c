/* SPDX-License-Identifier: GPL-2.0-only */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "msg.h"
#include "mailinfo.h"
#include "patch-mails.h"
#include "patch.h"
#include "range-diff.h"
#include "quote.h"
#include "repo.h"
#include "wrapper.h"

/* git's COST_MAX: what a pairing that must not happen costs. */
#define COST_MAX (1 << 16)
/* xdiff keeps this much of a function line for a hunk header. */
#define FUNCNAME_MAX 80

/* One patch as range-diff compares it. */
struct rpatch {
	const struct range_patch *in;
	struct strbuf text;	/* metadata, message and diff */
	size_t diff_offset;	/* where the diff starts in text (0: none) */
	int diffsize;		/* lines of the diff */
	int matching;		/* its partner in the other version, or -1 */
	int shown;
};

/* ---- the text of a patch ---- */

/* A message line as git log --pretty=medium shows it (tabs expanded to 8), trailing blanks dropped. */
static void add_message_line(struct strbuf *out, const char *line, size_t len)
{
	size_t start = out->len, col = 0;

	strbuf_addstr(out, "    ");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = line[i];

		if (c == '\t') {
			do
				strbuf_addch(out, ' ');
			while (++col % 8);
			continue;
		}
		strbuf_addch(out, c);
		if ((c & 0xc0) != 0x80)
			col++;	/* a character starts: one column (wide ones are rare in messages) */
	}
	while (out->len > start && ascii_isspace(out->buf[out->len - 1]))
		strbuf_setlen(out, out->len - 1);
	strbuf_addch(out, '\n');
}

static void add_metadata(struct strbuf *out, const struct range_patch *p)
{
	const char *m = p->message, *end = p->message + p->message_len;

	strbuf_addf(out, " ## Metadata ##\nAuthor: %s\n\n ## Commit message ##\n", p->author);
	while (m < end) {
		const char *nl = memchr(m, '\n', end - m);
		size_t l = nl ? (size_t)(nl - m) : (size_t)(end - m);

		add_message_line(out, m, l);
		m += l + (nl != NULL);
	}
}

/* " ## a.c ##", " ## a.c (new) ##", " ## a.c => b.c ##", with a mode change. */
static void add_file_header(struct strbuf *out, const struct file_patch *fp)
{
	strbuf_addstr(out, "\n ## ");
	if (fp->is_new)
		strbuf_addf(out, "%s (new)", fp->new_path);
	else if (fp->is_delete)
		strbuf_addf(out, "%s (deleted)", fp->old_path);
	else if (fp->is_rename)
		strbuf_addf(out, "%s => %s", fp->old_path, fp->new_path);
	else
		strbuf_addstr(out, fp->new_path);
	if (fp->old_mode && fp->new_mode && fp->old_mode != fp->new_mode)
		strbuf_addf(out, " (mode change %06o => %06o)", fp->old_mode, fp->new_mode);
	strbuf_addstr(out, " ##\n");
}

static void add_hunk(struct rpatch *rp, const struct patch_hunk *h, const char *name)
{
	struct strbuf *out = &rp->text;

	strbuf_addstr(out, "@@");
	if (h->section_len) {
		strbuf_addf(out, " %s:", name);
		if (h->section[-1] == ' ')
			strbuf_addch(out, ' ');
		strbuf_add(out, h->section, h->section_len);
	}
	strbuf_addch(out, '\n');
	rp->diffsize++;
	for (size_t i = 0; i < h->nr; i++) {
		const struct patch_line *l = &h->lines[i];

		strbuf_addch(out, l->op);
		strbuf_add(out, l->text, l->len);
		rp->diffsize++;
		if (!l->len || l->text[l->len - 1] != '\n') {
			strbuf_addstr(out, "\n \\ No newline at end of file\n");
			rp->diffsize++;
		}
	}
}

static void add_file(struct rpatch *rp, const struct file_patch *fp)
{
	const char *name = fp->is_delete ? fp->old_path : fp->new_path;

	add_file_header(&rp->text, fp);
	rp->diffsize++;
	if (fp->is_binary) {
		strbuf_addf(&rp->text, " Binary files %s and %s differ\n",
			    fp->is_new ? "/dev/null" : fp->old_path,
			    fp->is_delete ? "/dev/null" : fp->new_path);
		rp->diffsize++;
	}
	for (size_t i = 0; i < fp->hunk_nr; i++)
		add_hunk(rp, &fp->hunks[i], name);
}

static int build(struct rpatch *rp, const struct range_patch *p)
{
	struct patch_parse_opts po = PATCH_PARSE_OPTS_INIT;
	struct patch_set ps = PATCH_SET_INIT;
	struct strbuf err = STRBUF_INIT;

	rp->in = p;
	rp->matching = -1;
	strbuf_init(&rp->text, 0);
	add_metadata(&rp->text, p);
	po.origin = p->subject;
	if (patch_parse(&ps, p->diff, p->diff_len, &po, &err) < 0) {
		error("cannot compare '%s': %s", p->subject, err.buf);
		strbuf_release(&err);
		return -1;
	}
	for (size_t i = 0; i < ps.nr; i++) {
		if (!i)
			rp->diff_offset = rp->text.len + 1;	/* after the blank line */
		add_file(rp, &ps.files[i]);
	}
	patch_set_dispose(&ps);
	strbuf_release(&err);
	return 0;
}

static const char *diff_part(const struct rpatch *rp)
{
	return rp->text.buf + rp->diff_offset;
}

/* ---- diffs of texts (libgit2's xdiff) ---- */

static int diff_texts(git_patch **out, const char *a, size_t alen, const char *b, size_t blen,
		      int heuristic)
{
	git_diff_options o = GIT_DIFF_OPTIONS_INIT;

	o.context_lines = 3;
	o.interhunk_lines = 0;
	o.flags = GIT_DIFF_FORCE_TEXT | (heuristic ? GIT_DIFF_INDENT_HEURISTIC : 0);
	return lg2_check(git_patch_from_buffers(out, a, alen, "a", b, blen, "b", &o),
			 "cannot compare two versions of a patch");
}

/* git's diffsize(): the lines of a diff of the two diffs (hunk headers counted), no heuristic. */
static int diffsize(const struct rpatch *a, const struct rpatch *b)
{
	git_patch *p = NULL;
	const char *da = diff_part(a), *db = diff_part(b);
	size_t hunks;
	int n = 0;

	if (diff_texts(&p, da, a->text.buf + a->text.len - da, db, b->text.buf + b->text.len - db, 0) < 0)
		return COST_MAX;
	hunks = git_patch_num_hunks(p);
	for (size_t h = 0; h < hunks; h++)
		n += 1 + git_patch_num_lines_in_hunk(p, h);
	git_patch_free(p);
	return n;
}

/* ---- pairing ---- */

/* Identical diffs pair first (the last such old patch, as git's hash map finds it). */
static void exact_matches(struct rpatch *a, size_t na, struct rpatch *b, size_t nb)
{
	for (size_t j = 0; j < nb; j++)
		for (size_t i = na; i-- > 0;) {
			if (a[i].matching >= 0 || strcmp(diff_part(&a[i]), diff_part(&b[j])))
				continue;
			a[i].matching = (int)j;
			b[j].matching = (int)i;
			break;
		}
}

struct lap {
	int n;
	const int *cost;	/* cost[column + n * row] */
	int *c2r, *r2c, *v, *free_row, free_count;
};

#define COST(l, col, row) ((l)->cost[(size_t)(col) + (size_t)(l)->n * (size_t)(row)])

/* Jonker-Volgenant, step 1: each column to its cheapest row, if that row is free. */
static void column_reduction(struct lap *l)
{
	for (int j = l->n - 1; j >= 0; j--) {
		int i1 = 0;

		for (int i = 1; i < l->n; i++)
			if (COST(l, j, i1) > COST(l, j, i))
				i1 = i;
		l->v[j] = COST(l, j, i1);
		if (l->r2c[i1] == -1) {
			l->r2c[i1] = j;
			l->c2r[j] = i1;
		} else {
			if (l->r2c[i1] >= 0)
				l->r2c[i1] = -2 - l->r2c[i1];
			l->c2r[j] = -1;
		}
	}
}

/* Step 2: the free rows listed, the prices of assigned columns lowered. */
static void reduction_transfer(struct lap *l)
{
	for (int i = 0; i < l->n; i++) {
		int j1 = l->r2c[i];

		if (j1 == -1) {
			l->free_row[l->free_count++] = i;
		} else if (j1 < -1) {
			l->r2c[i] = -2 - j1;
		} else {
			int min = COST(l, !j1, i) - l->v[!j1];

			for (int j = 1; j < l->n; j++)
				if (j != j1 && min > COST(l, j, i) - l->v[j])
					min = COST(l, j, i) - l->v[j];
			l->v[j1] -= min;
		}
	}
}

/* Step 3, twice: free rows take their best column, pushing its row out. */
static void augmenting_row_reduction(struct lap *l)
{
	for (int phase = 0; phase < 2; phase++) {
		int k = 0, saved = l->free_count;

		l->free_count = 0;
		while (k < saved) {
			int i = l->free_row[k++], j1 = 0, j2 = -1, i0;
			int u1 = COST(l, 0, i) - l->v[0], u2 = INT_MAX;

			for (int j = 1; j < l->n; j++) {
				int c = COST(l, j, i) - l->v[j];

				if (u2 <= c)
					continue;
				if (u1 < c) {
					u2 = c;
					j2 = j;
				} else {
					u2 = u1;
					u1 = c;
					j2 = j1;
					j1 = j;
				}
			}
			if (j2 < 0) {
				j2 = j1;
				u2 = u1;
			}
			i0 = l->c2r[j1];
			if (u1 < u2) {
				l->v[j1] -= u2 - u1;
			} else if (i0 >= 0) {
				j1 = j2;
				i0 = l->c2r[j1];
			}
			if (i0 >= 0) {
				if (u1 < u2)
					l->free_row[--k] = i0;
				else
					l->free_row[l->free_count++] = i0;
			}
			l->r2c[i] = j1;
			l->c2r[j1] = i;
		}
	}
}

/*
 * Step 4 for one free row: the shortest augmenting path (Dijkstra over
 * reduced costs), then the prices and the assignment along it. The
 * column the path ends in is, as in git, the last one looked at when
 * the first scan finds an unassigned column among the cheapest.
 */
static void augment(struct lap *l, int i1, int *d, int *pred, int *col)
{
	int low = 0, up = 0, last, min, j = -1, i;

	for (int k = 0; k < l->n; k++) {
		d[k] = COST(l, k, i1) - l->v[k];
		pred[k] = i1;
		col[k] = k;
	}
	for (;;) {
		last = low;
		min = d[col[up++]];
		for (int k = up; k < l->n; k++) {
			int c;

			j = col[k];
			c = d[j];
			if (c > min)
				continue;
			if (c < min) {
				up = low;
				min = c;
			}
			col[k] = col[up];
			col[up++] = j;
		}
		for (int k = low; k < up; k++)
			if (l->c2r[col[k]] == -1)
				goto update;
		do {
			int j1 = col[low++], u1;

			i = l->c2r[j1];
			u1 = COST(l, j1, i) - l->v[j1] - min;
			for (int k = up; k < l->n; k++) {
				int c;

				j = col[k];
				c = COST(l, j, i) - l->v[j] - u1;
				if (c >= d[j])
					continue;
				d[j] = c;
				pred[j] = i;
				if (c != min)
					continue;
				if (l->c2r[j] == -1)
					goto update;
				col[k] = col[up];
				col[up++] = j;
			}
		} while (low != up);
	}
update:
	for (int k = 0; k < last; k++)
		l->v[col[k]] += d[col[k]] - min;
	if (j < 0)
		BUG("no column to augment to");
	do {
		int t;

		i = pred[j];
		l->c2r[j] = i;
		t = l->r2c[i];
		l->r2c[i] = j;
		j = t;
	} while (i1 != i);
}

/* The assignment of least total cost of an n x n matrix (git's compute_assignment()). */
static void assign(int n, const int *cost, int *c2r, int *r2c)
{
	struct lap l = { n, cost, c2r, r2c, NULL, NULL, 0 };
	int *d, *pred, *col, saved;

	if (n < 2) {
		memset(c2r, 0, sizeof(int) * n);
		memset(r2c, 0, sizeof(int) * n);
		return;
	}
	memset(c2r, -1, sizeof(int) * n);
	memset(r2c, -1, sizeof(int) * n);
	l.v = xcalloc(n, sizeof(int));
	l.free_row = xcalloc(n, sizeof(int));
	column_reduction(&l);
	reduction_transfer(&l);
	if (l.free_count) {
		augmenting_row_reduction(&l);
		d = xcalloc(n, sizeof(int));
		pred = xcalloc(n, sizeof(int));
		col = xcalloc(n, sizeof(int));
		saved = l.free_count;
		for (int f = 0; f < saved; f++)
			augment(&l, l.free_row[f], d, pred, col);
		free(d);
		free(pred);
		free(col);
	}
	free(l.v);
	free(l.free_row);
}

/* git's get_correspondences(). */
static void correspondences(struct rpatch *a, int na, struct rpatch *b, int nb, int factor)
{
	int n = na + nb;
	int *cost = xmalloc(st_mult(st_mult(n, n), sizeof(int)) + 1);
	int *a2b = xcalloc(n + 1, sizeof(int)), *b2a = xcalloc(n + 1, sizeof(int));

	for (int i = 0; i < na; i++) {
		int c;

		for (int j = 0; j < nb; j++) {
			if (a[i].matching == j)
				c = 0;
			else if (a[i].matching < 0 && b[j].matching < 0)
				c = diffsize(&a[i], &b[j]);
			else
				c = COST_MAX;
			cost[i + n * j] = c;
		}
		c = a[i].matching < 0 ? a[i].diffsize * factor / 100 : COST_MAX;
		for (int j = nb; j < n; j++)
			cost[i + n * j] = c;
	}
	for (int j = 0; j < nb; j++) {
		int c = b[j].matching < 0 ? b[j].diffsize * factor / 100 : COST_MAX;

		for (int i = na; i < n; i++)
			cost[i + n * j] = c;
	}
	for (int i = na; i < n; i++)
		for (int j = nb; j < n; j++)
			cost[i + n * j] = 0;
	assign(n, cost, a2b, b2a);
	for (int i = 0; i < na; i++)
		if (a2b[i] >= 0 && a2b[i] < nb) {
			a[i].matching = a2b[i];
			b[a2b[i]].matching = i;
		}
	free(cost);
	free(a2b);
	free(b2a);
}

/* ---- output ---- */

static int decimal_width(size_t n)
{
	int w = 1;

	while (n >= 10) {
		n /= 10;
		w++;
	}
	return w;
}

static void add_id(struct strbuf *out, const struct rpatch *p, int width, size_t index)
{
	if (!p) {
		strbuf_addf(out, "%*s:  ", width, "-");
		strbuf_addchars(out, '-', RANGE_DIFF_ABBREV);
		return;
	}
	strbuf_addf(out, "%*zu:  %.*s", width, index + 1, RANGE_DIFF_ABBREV, p->in->id);
}

static void pair_header(struct strbuf *out, int width, const struct rpatch *a, size_t ai,
			const struct rpatch *b, size_t bi)
{
	char status = !b ? '<' : !a ? '>' : strcmp(a->text.buf, b->text.buf) ? '!' : '=';

	add_id(out, a, width, ai);
	strbuf_addf(out, " %c ", status);
	add_id(out, b, width, bi);
	strbuf_addf(out, " %s\n", (a ? a : b)->in->subject);
}

/*
 * The hunk header's function: the nearest line above the hunk (in the
 * old text) that is a section header of range-diff's: " ## <x> ##" or
 * "@@ <x>" (one character may come first), its <x>.
 */
static void funcname(struct strbuf *out, const char *const *lines, const size_t *lens, long from)
{
	for (long k = from; k >= 0; k--) {
		const char *s = lines[k];
		size_t len = lens[k], start, n;

		while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
			len--;
		if (len >= 7 && !memcmp(s, " ## ", 4) && !memcmp(s + len - 3, " ##", 3)) {
			start = 4;
			n = len - 7;
		} else if (len >= 3 && !memcmp(s, "@@ ", 3)) {
			start = 3;
			n = len - 3;
		} else if (len >= 4 && !memcmp(s + 1, "@@ ", 3)) {
			start = 4;
			n = len - 4;
		} else {
			continue;
		}
		if (n > FUNCNAME_MAX)
			n = FUNCNAME_MAX;
		while (n && ascii_isspace(s[start + n - 1]))
			n--;
		strbuf_add(out, s + start, n);
		return;
	}
}

/* The old text's lines, for function names. */
static size_t split_lines(const struct strbuf *t, const char ***lines, size_t **lens)
{
	size_t n = 0, alloc = 0, lalloc = 0;

	*lines = NULL;
	*lens = NULL;
	for (size_t off = 0; off < t->len;) {
		const char *nl = memchr(t->buf + off, '\n', t->len - off);
		size_t l = nl ? (size_t)(nl - t->buf - off) + 1 : t->len - off;

		ALLOC_GROW(*lines, n + 1, alloc);
		ALLOC_GROW(*lens, n + 1, lalloc);
		(*lines)[n] = t->buf + off;
		(*lens)[n++] = l;
		off += l;
	}
	return n;
}

/* git's patch_diff() with range-diff's options: the diff of the two texts, indented. */
static int pair_diff(struct strbuf *out, const struct rpatch *a, const struct rpatch *b)
{
	git_patch *p = NULL;
	const char **lines;
	size_t *lens, hunks;

	if (diff_texts(&p, a->text.buf, a->text.len, b->text.buf, b->text.len, 1) < 0)
		return -1;
	split_lines(&a->text, &lines, &lens);
	hunks = git_patch_num_hunks(p);
	for (size_t h = 0; h < hunks; h++) {
		const git_diff_hunk *hunk;
		size_t nl;
		long s1;

		if (lg2_check(git_patch_get_hunk(&hunk, &nl, p, h), "cannot read a diff") < 0)
			break;
		s1 = hunk->old_lines ? hunk->old_start - 1 : hunk->old_start;
		strbuf_addstr(out, "    @@");
		{
			struct strbuf fn = STRBUF_INIT;

			funcname(&fn, lines, lens, s1 - 1);
			if (fn.len)
				strbuf_addf(out, " %s", fn.buf);
			strbuf_release(&fn);
		}
		strbuf_addch(out, '\n');
		for (size_t k = 0; k < nl; k++) {
			const git_diff_line *line;

			if (lg2_check(git_patch_get_line_in_hunk(&line, p, h, k), "cannot read a diff") < 0)
				break;
			if (line->origin != GIT_DIFF_LINE_CONTEXT && line->origin != GIT_DIFF_LINE_ADDITION &&
			    line->origin != GIT_DIFF_LINE_DELETION)
				continue;
			strbuf_addstr(out, "    ");
			strbuf_addch(out, line->origin);
			strbuf_add(out, line->content, line->content_len);
		}
	}
	free(lines);
	free(lens);
	git_patch_free(p);
	return 0;
}

/* git's output(): in the new version's order, old patches no longer there after their predecessors. */
static int show(struct strbuf *out, struct rpatch *a, size_t na, struct rpatch *b, size_t nb)
{
	int width = decimal_width(1 + (na > nb ? na : nb));
	size_t i = 0, j = 0;

	while (i < na || j < nb) {
		while (i < na && a[i].shown)
			i++;
		if (i < na && a[i].matching < 0) {
			pair_header(out, width, &a[i], i, NULL, 0);
			i++;
			continue;
		}
		while (j < nb && b[j].matching < 0) {
			pair_header(out, width, NULL, 0, &b[j], j);
			j++;
		}
		if (j < nb) {
			struct rpatch *old = &a[b[j].matching];

			pair_header(out, width, old, b[j].matching, &b[j], j);
			if (strcmp(old->text.buf, b[j].text.buf) && pair_diff(out, old, &b[j]) < 0)
				return -1;
			old->shown = 1;
			j++;
		}
	}
	return 0;
}

/* Both versions as texts, paired; -1 (reported) when a patch cannot be read. */
static int prepare(struct rpatch **pa, struct rpatch **pb, const struct range_patch *old,
		   size_t nold, const struct range_patch *new, size_t nnew, int factor)
{
	struct rpatch *a = xcalloc(nold + 1, sizeof(*a)), *b = xcalloc(nnew + 1, sizeof(*b));
	int ret = 0;

	repo_global_init();
	for (size_t i = 0; i < nold && !ret; i++)
		ret = build(&a[i], &old[i]);
	for (size_t j = 0; j < nnew && !ret; j++)
		ret = build(&b[j], &new[j]);
	if (!ret) {
		exact_matches(a, nold, b, nnew);
		correspondences(a, (int)nold, b, (int)nnew, factor);
	}
	*pa = a;
	*pb = b;
	return ret;
}

static void release(struct rpatch *a, size_t na, struct rpatch *b, size_t nb)
{
	for (size_t i = 0; i < na; i++)
		strbuf_release(&a[i].text);
	for (size_t j = 0; j < nb; j++)
		strbuf_release(&b[j].text);
	free(a);
	free(b);
}

int range_diff(struct strbuf *out, const struct range_patch *old, size_t nold,
	       const struct range_patch *new, size_t nnew, int creation_factor)
{
	struct rpatch *a, *b;
	int ret = prepare(&a, &b, old, nold, new, nnew, creation_factor);

	if (!ret)
		ret = show(out, a, nold, b, nnew);
	release(a, nold, b, nnew);
	return ret;
}

int range_diff_pairs(int *to_new, const struct range_patch *old, size_t nold,
		     const struct range_patch *new, size_t nnew, int creation_factor)
{
	struct rpatch *a, *b;
	int ret = prepare(&a, &b, old, nold, new, nnew, creation_factor);

	for (size_t i = 0; i < nold; i++)
		to_new[i] = ret ? -1 : a[i].matching;
	release(a, nold, b, nnew);
	return ret;
}

/* The texts of one mail, as range_diff() takes them; the strings are kept in keep. */
static int patch_of_mail(struct range_patch *rp, struct strvec *keep, struct patch_mail *pm,
			 const struct patch_mails *pms, const struct patch_mail_ref *ref)
{
	static const struct mailinfo_opts mopts = { .quoted_cr = MAILINFO_QUOTED_CR_WARN, .quiet = 1 };
	struct raw_mail raw;
	struct strbuf msg = STRBUF_INIT, buf = STRBUF_INIT;
	int rc;

	if (patch_mails_get(pms, ref, &buf, &raw) < 0)
		return -1;
	rc = mailinfo_parse(pm, &raw, &mopts);
	strbuf_release(&buf);
	if (rc < 0)
		return error("%s: message %zu cannot be read", ref->origin, ref->number);
	rp->id = *ref->commit ? strvec_push(keep, ref->commit) : "0000000";
	rp->author = strvec_pushf(keep, "%s <%s>", pm->author_name.buf, pm->author_email.buf);
	rp->subject = strvec_push(keep, pm->subject.buf);
	msg_from_mail(&msg, pm->subject.buf, pm->subject.len, pm->message.buf, pm->message.len);
	rp->message = strvec_push(keep, msg.buf);
	rp->message_len = msg.len;
	rp->diff = strvec_push_mem(keep, pm->patch.buf, pm->patch.len);
	rp->diff_len = pm->patch.len;
	strbuf_release(&msg);
	return 0;
}

int range_diff_versions(struct strbuf *out, const struct patch_mails *pms,
			const struct patch_mails_versions *pv, int creation_factor)
{
	struct range_patch *a, *b;
	struct strvec keep = STRVEC_INIT;
	struct patch_mail pm;
	int ret = 0;

	if (pv->old_nr && pv->new_nr > RANGE_DIFF_MAX_PAIRS / pv->old_nr) {
		struct strbuf subject = STRBUF_INIT;

		quote_field(&subject, pv->subject, strlen(pv->subject));
		error("'%s': v%d and v%d have %zu and %zu patches; a range-diff compares every pair, "
		      "at most %d pairs", subject.buf, pv->old_version, pv->new_version, pv->old_nr,
		      pv->new_nr, RANGE_DIFF_MAX_PAIRS);
		strbuf_release(&subject);
		return 1;
	}
	a = xcalloc(pv->old_nr + 1, sizeof(*a));
	b = xcalloc(pv->new_nr + 1, sizeof(*b));
	mailinfo_init(&pm);
	for (size_t i = 0; i < pv->old_nr && !ret; i++)
		ret = patch_of_mail(&a[i], &keep, &pm, pms, &pv->old[i]);
	for (size_t j = 0; j < pv->new_nr && !ret; j++)
		ret = patch_of_mail(&b[j], &keep, &pm, pms, &pms->v[pv->new[j]]);
	if (!ret) {
		strbuf_addf(out, "Range-diff of '%s' v%d against v%d:\n", pv->subject, pv->old_version,
			    pv->new_version);
		ret = range_diff(out, a, pv->old_nr, b, pv->new_nr, creation_factor);
	}
	mailinfo_release(&pm);
	strvec_clear(&keep);
	free(a);
	free(b);
	return ret;
}
