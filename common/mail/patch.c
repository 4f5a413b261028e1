/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The diff parser (see patch.h): a line scanner that finds file headers
 * ("diff --git", or a "---"/"+++" pair followed by "@@"), reads their
 * extended header lines, then their hunks or binary data.
 */
#include "patch.h"
#include "quote.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

struct parser {
	const char *buf;	/* ps->text */
	size_t len;
	size_t pos;		/* start of the current line */
	unsigned long lineno;	/* of the current line, from 1 */
	int p_value;
	int p_explicit;
	const char *origin;
	struct strbuf *err;
	struct patch_set *ps;
	/*
	 * What binary data may inflate to in one input (opts->max_binary),
	 * and what is left of it for the forward and the reverse blocks.
	 */
	size_t binary_max, forward_left, reverse_left;
};

/* The current line: [*line, *line + *len), *len including '\n' if present. */
static int peek_line(const struct parser *p, const char **line, size_t *len)
{
	const char *nl;

	if (p->pos >= p->len)
		return 0;
	*line = p->buf + p->pos;
	nl = memchr(*line, '\n', p->len - p->pos);
	*len = nl ? (size_t)(nl - *line) + 1 : p->len - p->pos;
	return 1;
}

static void next_line(struct parser *p, size_t len)
{
	p->pos += len;
	p->lineno++;
}

PRINTF(2, 3) static int perr(struct parser *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (p->origin)
		strbuf_addf(&sb, "%s: ", p->origin);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (p->err) {
		strbuf_reset(p->err);
		strbuf_addbuf(p->err, &sb);
	} else {
		error("%s", sb.buf);
	}
	strbuf_release(&sb);
	return -1;
}

/* Does line (len bytes) start with the NUL-terminated prefix? */
static int line_starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

const char *file_patch_name(const struct file_patch *fp)
{
	return fp->new_path ? fp->new_path : fp->old_path;
}

void patch_quote_path(struct strbuf *out, const char *path)
{
	quote_path(out, path, strlen(path), 0);
}

/* ---------------------------------------------------------------- paths */

/* Length of an invisible code point that HFS+ ignores at s, else 0. */
static size_t hfs_ignorable(const unsigned char *s, size_t left)
{
	if (left >= 3 && s[0] == 0xe2 && s[1] == 0x80 &&
	    ((s[2] >= 0x8c && s[2] <= 0x8f) || (s[2] >= 0xaa && s[2] <= 0xae)))
		return 3;	/* U+200C..U+200F, U+202A..U+202E */
	if (left >= 3 && s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xaa && s[2] <= 0xaf)
		return 3;	/* U+206A..U+206F */
	if (left >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		return 3;	/* U+FEFF */
	return 0;
}

/*
 * Is the component c[0..len) ".git" as some file system would see it:
 * case-folded (".GIT"), with HFS+ ignorable code points removed, with
 * trailing dots and spaces removed (NTFS), with an NTFS stream suffix
 * (".git::$INDEX_ALLOCATION"), or the 8.3 short name "git~1"?
 */
static int is_dotgit_lookalike(const char *c, size_t len)
{
	char folded[16];
	size_t n = 0, i = 0;

	while (i < len) {
		size_t skip = hfs_ignorable((const unsigned char *)c + i, len - i);

		if (skip) {
			i += skip;
			continue;
		}
		if (n == sizeof(folded) - 1)
			break;
		folded[n++] = tolower((unsigned char)c[i]);
		i++;
		if (n >= 5 && !memcmp(folded, ".git:", 5))
			return 1;
	}
	if (i < len)
		return 0;	/* too long to be one of them */
	while (n && (folded[n - 1] == '.' || folded[n - 1] == ' '))
		n--;
	folded[n] = '\0';
	return !strcmp(folded, ".git") || !strcmp(folded, "git~1");
}

/*
 * One UTF-8 code point at s into *cp: its length, or 0 when s[0..left)
 * does not start with a well-formed one (overlong, surrogate, past
 * U+10FFFF, cut short).
 */
static size_t utf8_next(const unsigned char *s, size_t left, unsigned *cp)
{
	size_t n;
	unsigned v, min;

	if (!left)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, v = s[0] & 0x1f, min = 0x80;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, v = s[0] & 0x0f, min = 0x800;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, v = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/*
 * The names git's fsck protects besides .git, with the prefix of the
 * NTFS 8.3 short name Windows derives from a hash of the long name when
 * the first six letters are not unique ("gi7eba~1" for .gitmodules).
 */
static const struct {
	const char *name;	/* without the leading dot */
	const char *shortname;
	enum patch_protected_name id;
} protected_names[] = {
	{ "gitmodules", "gi7eba", PATCH_NAME_GITMODULES },
	{ "gitattributes", "gi7d29", PATCH_NAME_GITATTRIBUTES },
	{ "gitignore", "gi250a", PATCH_NAME_GITIGNORE },
	{ "mailmap", "maba30", PATCH_NAME_MAILMAP },
};

/* From c + i on: only dots and spaces up to the end or an NTFS ":stream"? */
static int ntfs_tail(const char *c, size_t len, size_t i)
{
	for (; i < len && c[i] != ':'; i++)
		if (c[i] != '.' && c[i] != ' ')
			return 0;
	return 1;
}

/* Is c[0..len) the name (e.g. "gitmodules") as NTFS resolves it? */
static int ntfs_is(const char *c, size_t len, const char *name, const char *shortname)
{
	size_t n = strlen(name), i;
	int saw_tilde = 0;

	/* ".gitmodules", any case, then dots, spaces or a stream */
	if (len > n && c[0] == '.' && !strncasecmp(c + 1, name, n))
		return ntfs_tail(c, len, n + 1);
	/* the short name of the first six letters: "GITMOD~1" .. "~4" */
	if (len >= 8 && !strncasecmp(c, name, 6) && c[6] == '~' && c[7] >= '1' && c[7] <= '4')
		return ntfs_tail(c, len, 8);
	/* the short name from the hash: up to 6 letters of it, '~', digits: 8 in all */
	for (i = 0; i < 8; i++) {
		unsigned char ch = i < len ? (unsigned char)c[i] : 0;

		if (!ch)
			return 0;
		if (saw_tilde) {
			if (!isdigit(ch))
				return 0;
		} else if (ch == '~') {
			if (++i >= len || c[i] < '1' || c[i] > '9')
				return 0;
			saw_tilde = 1;
		} else if (i >= 6 || ch >= 0x80 || tolower(ch) != shortname[i]) {
			return 0;
		}
	}
	return ntfs_tail(c, len, i);
}

/*
 * Is c[0..len) "." followed by name as HFS+ compares names: any case,
 * the code points HFS+ ignores (hfs_ignorable()) skipped anywhere?
 * Bytes that are not UTF-8 end the name for HFS+ (git's rule).
 */
static int hfs_is(const char *c, size_t len, const char *name)
{
	const unsigned char *s = (const unsigned char *)c, *end = s + len;
	int want_dot = 1;

	for (;;) {
		unsigned cp = 0;
		size_t skip = hfs_ignorable(s, end - s), n;

		if (skip) {
			s += skip;
			continue;
		}
		n = utf8_next(s, end - s, &cp);
		if (!n)
			cp = 0;	/* the end, or not UTF-8 */
		if (want_dot) {
			if (cp != '.')
				return 0;
			want_dot = 0;
		} else if (!*name) {
			return cp == 0;
		} else if (cp >= 0x80 || tolower((int)cp) != *name++) {
			return 0;
		}
		s += n;
	}
}

enum patch_protected_name patch_protected_name(const char *c, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(protected_names); i++)
		if (ntfs_is(c, len, protected_names[i].name, protected_names[i].shortname) ||
		    hfs_is(c, len, protected_names[i].name))
			return protected_names[i].id;
	return PATCH_NAME_NONE;
}

int patch_path_check(const char *path, struct strbuf *err)
{
	const char *p = path, *why = NULL;

	if (!*path)
		why = "empty path";
	else if (*path == '/')
		why = "absolute path";
	else if (strlen(path) > PATCH_PATH_MAX)
		why = "longer than 4096 bytes";
	for (const char *s = path; !why && *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\\')
			why = "control character or backslash in path";
	while (!why && *p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (!n)
			why = "empty path component";
		else if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			why = "'.' or '..' in path";
		else if (is_dotgit_lookalike(p, n))
			why = "'.git' in path";
		p += n;
		if (*p == '/') {
			p++;
			if (!*p)
				why = "trailing slash";
		}
	}
	if (!why)
		return 0;
	if (err)
		strbuf_addf(err, "invalid path '%s': %s", path, why);
	return -1;
}

/*
 * Unquotes a C-style quoted name at s (which starts with '"'); returns
 * the name and sets *end past the closing quote, or NULL when malformed.
 */
static char *unquote_c(const char *s, const char *limit, const char **end)
{
	struct strbuf sb = STRBUF_INIT;

	s++;
	while (s < limit && *s != '"') {
		unsigned char c = *s++;

		if (c != '\\') {
			strbuf_addch(&sb, c);
			continue;
		}
		if (s >= limit)
			goto bad;
		c = *s++;
		switch (c) {
		case 'a': strbuf_addch(&sb, '\a'); break;
		case 'b': strbuf_addch(&sb, '\b'); break;
		case 'f': strbuf_addch(&sb, '\f'); break;
		case 'n': strbuf_addch(&sb, '\n'); break;
		case 'r': strbuf_addch(&sb, '\r'); break;
		case 't': strbuf_addch(&sb, '\t'); break;
		case 'v': strbuf_addch(&sb, '\v'); break;
		case '\\': case '"': strbuf_addch(&sb, c); break;
		case '0': case '1': case '2': case '3': {
			unsigned v = c - '0';

			for (int k = 0; k < 2; k++) {
				if (s >= limit || *s < '0' || *s > '7')
					goto bad;
				v = v * 8 + (*s++ - '0');
			}
			if (!v)
				goto bad;	/* a NUL inside a path */
			strbuf_addch(&sb, v);
			break;
		}
		default:
			goto bad;
		}
	}
	if (s >= limit)
		goto bad;
	*end = s + 1;
	return strbuf_detach(&sb, NULL);
bad:
	strbuf_release(&sb);
	return NULL;
}

/* Removes p leading components; NULL when there are not enough. */
static char *strip_components(const char *name, int p)
{
	const char *s = name;

	while (p-- > 0) {
		const char *slash = strchr(s, '/');

		if (!slash)
			return NULL;
		s = slash + 1;
		while (*s == '/')
			s++;
	}
	return xstrdup(s);
}

/*
 * The name on a "---"/"+++" line after the prefix, without timestamp:
 * quoted, or up to a tab (traditional diffs put the date after a tab),
 * or for git diffs the whole rest of the line. Sets *is_null for
 * /dev/null. Returns NULL when malformed.
 */
static char *header_name(const char *s, size_t len, int git, int *is_null)
{
	const char *end = s + len, *q;
	char *raw;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	*is_null = 0;
	if (s < end && *s == '"') {
		raw = unquote_c(s, end, &q);
		if (!raw)
			return NULL;
	} else {
		const char *tab = memchr(s, '\t', end - s);

		if (tab)
			end = tab;
		else if (!git) {
			/* "--- file  2024-01-01 00:00:00.000 +0000" without a tab */
			for (q = s; q + 2 < end; q++)
				if (q[0] == ' ' && q[1] == ' ' && isdigit((unsigned char)q[2])) {
					end = q;
					break;
				}
			while (end > s && end[-1] == ' ')
				end--;
		}
		raw = xstrndup(s, end - s);
	}
	if (!strcmp(raw, "/dev/null")) {
		*is_null = 1;
		free(raw);
		return NULL;
	}
	return raw;
}

/* Strips -p components from a name and checks it; NULL on error (reported). */
static char *finish_name(struct parser *p, char *raw, int p_value)
{
	char *name;
	struct strbuf why = STRBUF_INIT;

	if (!raw)
		return NULL;
	name = strip_components(raw, p_value);
	if (!name) {
		perr(p, "line %lu: cannot strip %d leading component%s from '%s'",
		     p->lineno, p_value, p_value == 1 ? "" : "s", raw);
		free(raw);
		return NULL;
	}
	free(raw);
	if (patch_path_check(name, &why) < 0) {
		perr(p, "line %lu: %s", p->lineno, why.buf);
		strbuf_release(&why);
		free(name);
		return NULL;
	}
	return name;
}

/*
 * "diff --git a/x b/y": the name when both sides are the same after
 * stripping (the only case that can be split unambiguously), else NULL.
 */
static char *git_header_name(const char *s, size_t len, int p_value)
{
	const char *end = s + len, *q;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if (s < end && *s == '"') {
		char *a = unquote_c(s, end, &q), *b = NULL, *sa, *sb;
		char *ret = NULL;

		if (!a || q >= end || *q != ' ')
			goto q_out;
		q++;
		if (q < end && *q == '"') {
			const char *q2;

			b = unquote_c(q, end, &q2);
			if (!b || q2 != end)
				goto q_out;
		} else {
			b = xstrndup(q, end - q);
		}
		sa = strip_components(a, p_value);
		sb = strip_components(b, p_value);
		if (sa && sb && !strcmp(sa, sb)) {
			ret = sa;
			sa = NULL;
		}
		free(sa);
		free(sb);
	q_out:
		free(a);
		free(b);
		return ret;
	}
	/* Unquoted first name: try every space as the separator. */
	for (q = s; q < end; q++) {
		char *a, *b, *sa, *sb, *ret = NULL;

		if (*q != ' ')
			continue;
		a = xstrndup(s, q - s);
		if (q + 1 < end && q[1] == '"') {
			const char *q2;

			b = unquote_c(q + 1, end, &q2);
			if (b && q2 != end) {
				free(b);
				b = NULL;
			}
		} else {
			b = xstrndup(q + 1, end - q - 1);
		}
		sa = b ? strip_components(a, p_value) : NULL;
		sb = b ? strip_components(b, p_value) : NULL;
		if (sa && sb && *sa && !strcmp(sa, sb)) {
			ret = sa;
			sa = NULL;
		}
		free(a);
		free(b);
		free(sa);
		free(sb);
		if (ret)
			return ret;
	}
	return NULL;
}

/* -------------------------------------------------------------- helpers */

static struct file_patch *new_file(struct parser *p)
{
	struct patch_set *ps = p->ps;
	struct file_patch *fp;

	ALLOC_GROW(ps->files, ps->nr + 1, ps->alloc);
	fp = &ps->files[ps->nr++];
	memset(fp, 0, sizeof(*fp));
	fp->similarity = -1;
	strbuf_init(&fp->forward.data, 0);
	strbuf_init(&fp->reverse.data, 0);
	fp->input_line = p->lineno;
	return fp;
}

static void file_patch_dispose(struct file_patch *fp)
{
	free(fp->old_path);
	free(fp->new_path);
	for (size_t i = 0; i < fp->hunk_nr; i++)
		free(fp->hunks[i].lines);
	free(fp->hunks);
	strbuf_release(&fp->forward.data);
	strbuf_release(&fp->reverse.data);
}

void patch_set_dispose(struct patch_set *ps)
{
	for (size_t i = 0; i < ps->nr; i++)
		file_patch_dispose(&ps->files[i]);
	free(ps->files);
	free(ps->text_owned);
	ps->files = NULL;
	ps->nr = ps->alloc = 0;
	ps->text = ps->text_owned = NULL;
	ps->text_len = 0;
}

static void swap_ulong(unsigned long *a, unsigned long *b)
{
	unsigned long t = *a;

	*a = *b;
	*b = t;
}

/* fp reversed into out, its lines pointing where fp's do. */
static void file_patch_reverse(struct file_patch *out, const struct file_patch *fp)
{
	*out = *fp;
	out->old_path = xstrdup_or_null(fp->new_path);
	out->new_path = xstrdup_or_null(fp->old_path);
	if (fp->new_mode) {
		out->old_mode = fp->new_mode;
		out->new_mode = fp->old_mode;
	}
	out->is_new = fp->is_delete;
	out->is_delete = fp->is_new;
	memcpy(out->old_oid, fp->new_oid, sizeof(out->old_oid));
	memcpy(out->new_oid, fp->old_oid, sizeof(out->new_oid));
	strbuf_init(&out->forward.data, 0);
	strbuf_init(&out->reverse.data, 0);
	out->hunks = xcalloc(fp->hunk_nr + 1, sizeof(*out->hunks));
	out->hunk_alloc = fp->hunk_nr + 1;
	for (size_t h = 0; h < fp->hunk_nr; h++) {
		struct patch_hunk *rh = &out->hunks[h];

		*rh = fp->hunks[h];
		swap_ulong(&rh->old_start, &rh->new_start);
		swap_ulong(&rh->old_count, &rh->new_count);
		rh->lines = xcalloc(rh->nr + 1, sizeof(*rh->lines));
		rh->alloc = rh->nr + 1;
		for (size_t i = 0; i < rh->nr; i++) {
			const struct patch_line *l = &fp->hunks[h].lines[i];

			rh->lines[i].op = l->op == '+' ? '-' : l->op == '-' ? '+' : l->op;
			rh->lines[i].text = l->text;
			rh->lines[i].len = l->len;
		}
	}
}

int patch_set_reverse(struct patch_set *out, const struct patch_set *ps)
{
	for (size_t i = 0; i < ps->nr; i++)
		if (ps->files[i].is_copy || ps->files[i].is_binary)
			return -1;
	out->format = ps->format;
	out->text = ps->text;	/* borrowed */
	out->text_len = ps->text_len;
	out->files = xcalloc(ps->nr + 1, sizeof(*out->files));
	out->alloc = ps->nr + 1;
	for (; out->nr < ps->nr; out->nr++)
		file_patch_reverse(&out->files[out->nr], &ps->files[out->nr]);
	return 0;
}

static int parse_mode(const char *s, size_t len, unsigned *mode)
{
	unsigned v = 0;
	size_t i = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '7'; i++)
		v = v * 8 + (s[i] - '0');
	if (!i || v > 0177777)
		return -1;
	for (; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return -1;
	if (v != 0100644 && v != 0100755 && v != 0120000 && v != 0160000 && v != 0100664)
		return -1;
	if (v == 0100664)
		v = 0100644;
	*mode = v;
	return 0;
}

static int parse_number(const char **s, const char *end, unsigned long *out)
{
	unsigned long v = 0;
	const char *q = *s;

	if (q >= end || !isdigit((unsigned char)*q))
		return -1;
	for (; q < end && isdigit((unsigned char)*q); q++) {
		if (v > (ULONG_MAX - 9) / 10 || v > 100000000UL)
			return -1;
		v = v * 10 + (*q - '0');
	}
	*s = q;
	*out = v;
	return 0;
}

/* "-a[,b] +c[,d] @@": fills the hunk's counts. */
static int parse_hunk_header(const char *line, size_t len, struct patch_hunk *h)
{
	const char *s = line + 4, *end = line + len;

	if (parse_number(&s, end, &h->old_start) < 0)
		return -1;
	h->old_count = 1;
	if (s < end && *s == ',') {
		s++;
		if (parse_number(&s, end, &h->old_count) < 0)
			return -1;
	}
	if (end - s < 2 || s[0] != ' ' || s[1] != '+')
		return -1;
	s += 2;
	if (parse_number(&s, end, &h->new_start) < 0)
		return -1;
	h->new_count = 1;
	if (s < end && *s == ',') {
		s++;
		if (parse_number(&s, end, &h->new_count) < 0)
			return -1;
	}
	if (end - s < 3 || memcmp(s, " @@", 3))
		return -1;
	s += 3;
	if (s < end && *s == ' ')
		s++;
	h->section = s;
	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	h->section_len = end - s;
	return 0;
}

/* Reads the hunks that follow a file header. */
static int parse_hunks(struct parser *p, struct file_patch *fp)
{
	const char *line = NULL;
	size_t len = 0;

	while (peek_line(p, &line, &len) && line_starts(line, len, "@@ -")) {
		struct patch_hunk *h;
		unsigned long old_left, new_left;
		int seen_change = 0;

		ALLOC_GROW(fp->hunks, fp->hunk_nr + 1, fp->hunk_alloc);
		h = &fp->hunks[fp->hunk_nr++];
		memset(h, 0, sizeof(*h));
		h->input_line = p->lineno;
		if (parse_hunk_header(line, len, h) < 0)
			return perr(p, "line %lu: corrupt hunk header '%.*s'", p->lineno,
				    (int)(len && line[len - 1] == '\n' ? len - 1 : len), line);
		next_line(p, len);
		old_left = h->old_count;
		new_left = h->new_count;
		while (old_left || new_left) {
			struct patch_line *pl;
			char op;

			if (!peek_line(p, &line, &len))
				return perr(p, "line %lu: corrupt patch: hunk at line %lu is truncated",
					    p->lineno, h->input_line);
			op = line[0];
			if (op == '\n' || (op == '\r' && len == 2 && line[1] == '\n'))
				op = ' ';	/* a blank context line whose space a mailer ate */
			if (op == '\\') {
				if (!h->nr)
					return perr(p, "line %lu: corrupt patch: '\\' line before any line",
						    p->lineno);
				pl = &h->lines[h->nr - 1];
				if (pl->len && pl->text[pl->len - 1] == '\n')
					pl->len--;
				next_line(p, len);
				continue;
			}
			if ((op == ' ' || op == '-') && !old_left)
				return perr(p, "line %lu: corrupt patch: hunk at line %lu has more old lines than its header says",
					    p->lineno, h->input_line);
			if ((op == ' ' || op == '+') && !new_left)
				return perr(p, "line %lu: corrupt patch: hunk at line %lu has more new lines than its header says",
					    p->lineno, h->input_line);
			if (op != ' ' && op != '-' && op != '+')
				return perr(p, "line %lu: corrupt patch: unexpected line in hunk at line %lu",
					    p->lineno, h->input_line);
			ALLOC_GROW(h->lines, h->nr + 1, h->alloc);
			pl = &h->lines[h->nr++];
			pl->op = op;
			if (line[0] == op) {
				pl->text = line + 1;
				pl->len = len - 1;
			} else {
				pl->text = line + len - 1;	/* just the "\n" */
				pl->len = 1;
			}
			if (op != '+')
				old_left--;
			if (op != '-')
				new_left--;
			if (op == ' ') {
				if (!seen_change)
					h->leading++;
				h->trailing++;
			} else {
				seen_change = 1;
				h->trailing = 0;
			}
			next_line(p, len);
		}
		/* A final line without a newline is marked after the counts end. */
		if (peek_line(p, &line, &len) && line[0] == '\\' && h->nr) {
			struct patch_line *pl = &h->lines[h->nr - 1];

			if (pl->len && pl->text[pl->len - 1] == '\n')
				pl->len--;
			next_line(p, len);
		}
		if (!seen_change)
			return perr(p, "line %lu: corrupt patch: hunk at line %lu changes nothing",
				    p->lineno, h->input_line);
	}
	return 0;
}

/* ---------------------------------------------------------------- binary */

static int base85_value(int c)
{
	static const char alphabet[] =
		"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
	const char *q = c ? strchr(alphabet, c) : NULL;

	return q ? (int)(q - alphabet) : -1;
}

/* Decodes one line of base85 data (length letter + groups of 5) onto out. */
static int base85_line(const char *line, size_t len, struct strbuf *out)
{
	size_t want, groups;
	int c = line[0];

	if (c >= 'A' && c <= 'Z')
		want = c - 'A' + 1;
	else if (c >= 'a' && c <= 'z')
		want = c - 'a' + 27;
	else
		return -1;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	groups = (want + 3) / 4;
	if (len != 1 + groups * 5)
		return -1;
	line++;
	for (size_t g = 0; g < groups; g++) {
		uint32_t acc = 0;
		unsigned char bytes[4];

		for (int k = 0; k < 5; k++) {
			int v = base85_value((unsigned char)line[g * 5 + k]);

			if (v < 0)
				return -1;
			if (acc > (0xffffffffU - (uint32_t)v) / 85)
				return -1;
			acc = acc * 85 + v;
		}
		bytes[0] = acc >> 24;
		bytes[1] = acc >> 16;
		bytes[2] = acc >> 8;
		bytes[3] = acc;
		strbuf_add(out, bytes, want < 4 ? want : 4);
		want -= want < 4 ? want : 4;
	}
	return 0;
}

/*
 * Inflates in to exactly size bytes, onto out; out NULL: only checks
 * (through a small buffer, for data nobody reads). out grows with what
 * inflate() really gives, never past size + 1, so a header that claims
 * a size the data does not hold costs nothing.
 */
static int inflate_all(const struct strbuf *in, size_t size, struct strbuf *out)
{
	unsigned char scratch[16384];
	size_t total = 0;
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)in->buf;
	z.avail_in = in->len;
	do {
		size_t room = size + 1 - total, got;

		if (out) {
			if (room > (out->len < 65536 ? 65536 : out->len))
				room = out->len < 65536 ? 65536 : out->len;
			strbuf_grow(out, room);
			z.next_out = (unsigned char *)out->buf + out->len;
		} else {
			if (room > sizeof(scratch))
				room = sizeof(scratch);
			z.next_out = scratch;
		}
		z.avail_out = room;
		rc = inflate(&z, Z_NO_FLUSH);
		got = room - z.avail_out;
		total += got;
		if (out)
			strbuf_setlen(out, out->len + got);
	} while (rc == Z_OK && total <= size);
	inflateEnd(&z);
	return rc == Z_STREAM_END && total == size && !z.avail_in ? 0 : -1;
}

/*
 * One "literal N" / "delta N" block of the file named name and its data
 * lines up to a blank line, decoded but still deflated (inflate_binary()
 * inflates it once the whole input is parsed). Its size is taken from
 * the budget for forward or reverse blocks first.
 */
static int parse_binary_hunk(struct parser *p, struct binary_hunk *bh, const char *name, int forward)
{
	const char *line = NULL, *s;
	size_t len = 0, *left = forward ? &p->forward_left : &p->reverse_left;
	unsigned long size;

	peek_line(p, &line, &len);
	bh->input_line = p->lineno;
	if (line_starts(line, len, "literal ")) {
		bh->type = BINARY_LITERAL;
		s = line + 8;
	} else {
		bh->type = BINARY_DELTA;
		s = line + 6;
	}
	if (parse_number(&s, line + len, &size) < 0)
		return perr(p, "line %lu: corrupt binary patch header", p->lineno);
	if (size > *left)
		return perr(p, "line %lu: binary patch of '%s' too large (%lu bytes; at most %zu in one patch, see mbox.max-message-size)",
			    p->lineno, name, size, p->binary_max);
	*left -= size;
	bh->size = size;
	next_line(p, len);
	while (peek_line(p, &line, &len) && !(len == 1 || (len == 2 && line[0] == '\r'))) {
		if (base85_line(line, len, &bh->data) < 0)
			return perr(p, "line %lu: corrupt binary patch", p->lineno);
		next_line(p, len);
	}
	if (peek_line(p, &line, &len))
		next_line(p, len);
	return 0;
}

/*
 * Inflates a block parse_binary_hunk() left deflated: the forward one
 * in place, a reverse one (keep 0) only checked and then dropped.
 */
static int inflate_binary(struct parser *p, struct binary_hunk *bh, int keep)
{
	struct strbuf out = STRBUF_INIT;

	if (bh->type == BINARY_NONE)
		return 0;
	if (inflate_all(&bh->data, bh->size, keep ? &out : NULL) < 0) {
		strbuf_release(&out);
		return perr(p, "line %lu: corrupt binary patch data", bh->input_line);
	}
	strbuf_release(&bh->data);
	bh->data = out;
	return 0;
}

static int parse_binary(struct parser *p, struct file_patch *fp, const char *name)
{
	const char *line = NULL;
	size_t len = 0;

	fp->is_binary = 1;
	if (!peek_line(p, &line, &len) ||
	    !(line_starts(line, len, "literal ") || line_starts(line, len, "delta ")))
		return perr(p, "line %lu: corrupt binary patch: no 'literal' or 'delta'", p->lineno);
	if (parse_binary_hunk(p, &fp->forward, name, 1) < 0)
		return -1;
	if (peek_line(p, &line, &len) &&
	    (line_starts(line, len, "literal ") || line_starts(line, len, "delta ")))
		return parse_binary_hunk(p, &fp->reverse, name, 0);
	return 0;
}

/* -------------------------------------------------------------- headers */

static int is_ed_command(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && isdigit((unsigned char)line[i]))
		i++;
	if (!i)
		return 0;
	if (i < len && line[i] == ',') {
		size_t j = ++i;

		while (i < len && isdigit((unsigned char)line[i]))
			i++;
		if (i == j)
			return 0;
	}
	if (i >= len || !strchr("acd", line[i]))
		return 0;
	i++;
	while (i < len && (isdigit((unsigned char)line[i]) || line[i] == ','))
		i++;
	return i == len || (i + 1 == len && line[i] == '\n');
}

/*
 * A context diff hunk start: "***************" then "*** <n>[,<m>] ****".
 * (The "*** name" / "--- name" pair before it may have been taken apart
 * by the mail parser.)
 */
static int is_context_diff(const char *line, size_t len, const char *next, size_t rest)
{
	const char *nl;

	if (!line_starts(line, len, "***************") || !rest || !line_starts(next, rest, "*** "))
		return 0;
	nl = memchr(next, '\n', rest);
	return rest > 4 && next[4] >= '0' && next[4] <= '9' &&
	       memmem(next, nl ? (size_t)(nl - next) : rest, " ****", 5) != NULL;
}

int patch_find_unsupported(const char *buf, size_t len, struct strbuf *why)
{
	const char *line = buf, *end = buf + len;
	int after_diff = 1;	/* an ed script may start the text */

	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		size_t llen = nl ? (size_t)(nl - line) + 1 : (size_t)(end - line);
		const char *next = line + llen;

		if (after_diff && is_ed_command(line, llen)) {
			strbuf_addstr(why, "ed-style and normal diffs are not supported; send a unified diff (diff -u)");
			return 1;
		}
		if (is_context_diff(line, llen, next, end - next)) {
			strbuf_addstr(why, "context diffs are not supported; send a unified diff (diff -u)");
			return 1;
		}
		after_diff = line_starts(line, llen, "diff ");
		line = next;
	}
	return 0;
}

/* Parses a "diff --git" header and what follows it. */
static int parse_git_diff(struct parser *p)
{
	const char *line = NULL, *v;
	size_t len = 0;
	struct file_patch *fp = new_file(p);
	char *def_name;
	int p_value = p->p_explicit ? p->p_value : 1;
	int saw_old = 0, saw_new = 0;

	peek_line(p, &line, &len);
	def_name = git_header_name(line + 11, len - 11, p_value);
	next_line(p, len);
	while (peek_line(p, &line, &len)) {
		int is_null;
		char *raw;

		if (skip_prefix(line, "old mode ", &v) && v < line + len) {
			if (parse_mode(v, line + len - v, &fp->old_mode) < 0)
				goto bad_mode;
		} else if (skip_prefix(line, "new mode ", &v) && v < line + len) {
			if (parse_mode(v, line + len - v, &fp->new_mode) < 0)
				goto bad_mode;
		} else if (skip_prefix(line, "deleted file mode ", &v) && v < line + len) {
			fp->is_delete = 1;
			if (parse_mode(v, line + len - v, &fp->old_mode) < 0)
				goto bad_mode;
		} else if (skip_prefix(line, "new file mode ", &v) && v < line + len) {
			fp->is_new = 1;
			if (parse_mode(v, line + len - v, &fp->new_mode) < 0)
				goto bad_mode;
		} else if (line_starts(line, len, "rename from ") || line_starts(line, len, "copy from ") ||
			   line_starts(line, len, "rename old ")) {
			/* "rename from ", "copy from ", "rename old " (older git) */
			const char *name = line + (line[0] == 'c' ? 10 : line[7] == 'f' ? 12 : 11);

			if (line[0] == 'r')
				fp->is_rename = 1;
			else
				fp->is_copy = 1;
			free(fp->old_path);
			fp->old_path = finish_name(p, header_name(name, line + len - name, 1, &is_null), 0);
			if (!fp->old_path)
				goto bad_name;
		} else if (line_starts(line, len, "rename to ") || line_starts(line, len, "copy to ") ||
			   line_starts(line, len, "rename new ")) {
			/* "rename to ", "copy to ", "rename new " */
			const char *name = line + (line[0] == 'c' ? 8 : line[7] == 't' ? 10 : 11);

			free(fp->new_path);
			fp->new_path = finish_name(p, header_name(name, line + len - name, 1, &is_null), 0);
			if (!fp->new_path)
				goto bad_name;
		} else if (skip_prefix(line, "similarity index ", &v) ||
			   skip_prefix(line, "dissimilarity index ", &v)) {
			unsigned long n;

			if (parse_number(&v, line + len, &n) == 0 && n <= 100)
				fp->similarity = line[0] == 's' ? (int)n : 100 - (int)n;
		} else if (skip_prefix(line, "index ", &v)) {
			const char *dots = strstr(v, "..");
			size_t a, b;

			if (!dots || dots > line + len)
				goto bad_index;
			a = dots - v;
			for (b = 0; dots + 2 + b < line + len && isxdigit((unsigned char)dots[2 + b]); b++)
				;
			if (a > 40 || b > 40 || !a || !b)
				goto bad_index;
			memcpy(fp->old_oid, v, a);
			fp->old_oid[a] = '\0';
			memcpy(fp->new_oid, dots + 2, b);
			fp->new_oid[b] = '\0';
			v = dots + 2 + b;
			if (*v == ' ' && parse_mode(v + 1, line + len - v - 1, &fp->old_mode) == 0)
				fp->new_mode = 0;
		} else if (line_starts(line, len, "--- ")) {
			raw = header_name(line + 4, len - 4, 1, &is_null);
			if (!is_null && !raw)
				goto bad_name;
			saw_old = 1;
			if (!is_null) {
				free(fp->old_path);
				fp->old_path = finish_name(p, raw, p_value);
				if (!fp->old_path)
					goto fail;
			} else if (!fp->is_new) {
				perr(p, "line %lu: '--- /dev/null' in a git diff without 'new file mode'",
				     p->lineno);
				goto fail;
			}
		} else if (line_starts(line, len, "+++ ")) {
			raw = header_name(line + 4, len - 4, 1, &is_null);
			if (!is_null && !raw)
				goto bad_name;
			saw_new = 1;
			if (!is_null) {
				free(fp->new_path);
				fp->new_path = finish_name(p, raw, p_value);
				if (!fp->new_path)
					goto fail;
			} else if (!fp->is_delete) {
				perr(p, "line %lu: '+++ /dev/null' in a git diff without 'deleted file mode'",
				     p->lineno);
				goto fail;
			}
		} else if (line_starts(line, len, "GIT binary patch")) {
			next_line(p, len);
			if (parse_binary(p, fp, fp->new_path ? fp->new_path : fp->old_path ?
					 fp->old_path : def_name ? def_name : "?") < 0)
				goto fail;
			break;
		} else if (line_starts(line, len, "Binary files ")) {
			fp->is_binary = 1;
			next_line(p, len);
			break;
		} else {
			break;
		}
		next_line(p, len);
	}
	if (saw_old != saw_new) {
		perr(p, "line %lu: corrupt patch: '---' without '+++' for the diff at line %lu",
		     p->lineno, fp->input_line);
		goto fail;
	}
	/* Fill in the names the header lines did not give. */
	if (!fp->is_new && !fp->old_path) {
		if (!def_name)
			goto no_name;
		fp->old_path = finish_name(p, xstrdup(def_name), 0);
		if (!fp->old_path)
			goto fail;
	}
	if (!fp->is_delete && !fp->new_path) {
		if (!def_name && fp->old_path && !fp->is_rename && !fp->is_copy)
			fp->new_path = xstrdup(fp->old_path);
		else if (!def_name)
			goto no_name;
		else if (!(fp->new_path = finish_name(p, xstrdup(def_name), 0)))
			goto fail;
	}
	if (fp->is_new && fp->old_path) {
		free(fp->old_path);
		fp->old_path = NULL;
	}
	if (fp->is_delete && fp->new_path) {
		free(fp->new_path);
		fp->new_path = NULL;
	}
	if (fp->is_new && fp->is_delete) {
		perr(p, "line %lu: corrupt patch: file both created and deleted", fp->input_line);
		goto fail;
	}
	if ((fp->is_rename || fp->is_copy) && (!fp->old_path || !fp->new_path)) {
		perr(p, "line %lu: corrupt patch: rename or copy without both names", fp->input_line);
		goto fail;
	}
	free(def_name);
	if (fp->is_binary)
		return 0;
	if (parse_hunks(p, fp) < 0)
		return -1;
	if (!fp->hunk_nr && !fp->is_new && !fp->is_delete && !fp->is_rename && !fp->is_copy &&
	    !(fp->new_mode && fp->old_mode && fp->new_mode != fp->old_mode))
		return perr(p, "line %lu: corrupt patch: no hunks and no change for '%s'",
			    fp->input_line, file_patch_name(fp));
	if (fp->is_delete && fp->hunk_nr &&
	    (fp->hunk_nr != 1 || fp->hunks[0].new_count))
		return perr(p, "line %lu: corrupt patch: deletion of '%s' keeps lines",
			    fp->input_line, fp->old_path);
	if (fp->is_new && fp->hunk_nr &&
	    (fp->hunk_nr != 1 || fp->hunks[0].old_count))
		return perr(p, "line %lu: corrupt patch: creation of '%s' has old lines",
			    fp->input_line, fp->new_path);
	return 0;
no_name:
	perr(p, "line %lu: git diff header lacks filename information", fp->input_line);
	goto fail;
bad_index:
	perr(p, "line %lu: corrupt index line", p->lineno);
	goto fail;
bad_mode:
	perr(p, "line %lu: invalid mode", p->lineno);
	goto fail;
bad_name:
	if (!p->err || !p->err->len)
		perr(p, "line %lu: malformed file name", p->lineno);
fail:
	free(def_name);
	return -1;
}

/* Is the file a traditional creation: "--- name <epoch date>" ? */
static int epoch_date(const char *line, size_t len)
{
	const char *tab = memchr(line, '\t', len);

	return tab && (line_starts(tab + 1, line + len - tab - 1, "1970-01-01") ||
		       line_starts(tab + 1, line + len - tab - 1, "1969-12-31"));
}

/* A "---"/"+++" pair followed by "@@": a traditional unified diff. */
static int parse_traditional(struct parser *p)
{
	const char *old_line = NULL, *new_line = NULL;
	size_t old_len = 0, new_len = 0;
	struct file_patch *fp;
	int old_null, new_null;
	char *old_raw, *new_raw, *oldn = NULL, *newn = NULL;
	int p_value = p->p_explicit ? p->p_value : 1;
	int old_epoch, new_epoch;

	peek_line(p, &old_line, &old_len);
	fp = new_file(p);
	old_raw = header_name(old_line + 4, old_len - 4, 0, &old_null);
	old_epoch = epoch_date(old_line, old_len);
	next_line(p, old_len);
	peek_line(p, &new_line, &new_len);
	new_raw = header_name(new_line + 4, new_len - 4, 0, &new_null);
	new_epoch = epoch_date(new_line, new_len);
	if ((!old_raw && !old_null) || (!new_raw && !new_null)) {
		free(old_raw);
		free(new_raw);
		return perr(p, "line %lu: malformed file name", p->lineno);
	}
	if (old_null && new_null) {
		return perr(p, "line %lu: both names are /dev/null", p->lineno);
	}
	if (old_raw && !(oldn = finish_name(p, old_raw, p_value))) {
		free(new_raw);
		return -1;
	}
	if (new_raw && !(newn = finish_name(p, new_raw, p_value))) {
		free(oldn);
		return -1;
	}
	next_line(p, new_len);
	if (old_null) {
		fp->is_new = 1;
		fp->new_path = newn;
		free(oldn);
	} else if (new_null) {
		fp->is_delete = 1;
		fp->old_path = oldn;
		free(newn);
	} else {
		/* One file changed in place: quilt's "a/x.orig" "b/x" picks the shorter. */
		char *name;

		if (strlen(oldn) < strlen(newn)) {
			name = oldn;
			free(newn);
		} else {
			name = newn;
			free(oldn);
		}
		fp->old_path = name;
		fp->new_path = xstrdup(name);
	}
	if (parse_hunks(p, fp) < 0)
		return -1;
	if (!fp->hunk_nr)
		return perr(p, "line %lu: corrupt patch: no hunks for '%s'",
			    fp->input_line, file_patch_name(fp));
	/* GNU diff -N marks creations and deletions with the epoch date. */
	if (!fp->is_new && !fp->is_delete && fp->hunk_nr == 1) {
		if (old_epoch && !fp->hunks[0].old_count && !fp->hunks[0].old_start) {
			fp->is_new = 1;
			free(fp->old_path);
			fp->old_path = NULL;
		} else if (new_epoch && !fp->hunks[0].new_count && !fp->hunks[0].new_start) {
			fp->is_delete = 1;
			free(fp->new_path);
			fp->new_path = NULL;
		}
	}
	return 0;
}

int patch_parse(struct patch_set *ps, const char *buf, size_t len,
		const struct patch_parse_opts *opts, struct strbuf *err)
{
	struct parser p = { 0 };
	const char *line = NULL;
	size_t llen;
	int after_plain_diff = 0;
	static const char ed_refused[] =
		"ed-style and normal diffs are not supported; send a unified diff (diff -u)";
	static const char context_refused[] =
		"context diffs are not supported; send a unified diff (diff -u)";

	memset(ps, 0, sizeof(*ps));
	if (opts && opts->borrow)
		ps->text = buf;
	else
		ps->text = ps->text_owned = xmemdup(buf, len);
	ps->text_len = len;
	p.buf = ps->text;
	p.len = len;
	p.lineno = 1;
	p.ps = ps;
	p.err = err;
	p.origin = opts ? opts->origin : NULL;
	p.p_value = opts && opts->p_value >= 0 ? opts->p_value : 1;
	p.p_explicit = opts && opts->p_value >= 0;
	p.binary_max = opts ? opts->max_binary : PATCH_MAX_BINARY_DEFAULT;
	p.forward_left = p.reverse_left = p.binary_max;
	if (err)
		strbuf_reset(err);

	while (peek_line(&p, &line, &llen)) {
		const char *next = line + llen;
		size_t rest = p.len - (next - p.buf);

		if (line_starts(line, llen, "diff --git ")) {
			if (ps->nr == 0)
				ps->format = PATCH_FORMAT_GIT;
			if (parse_git_diff(&p) < 0)
				goto fail;
			after_plain_diff = 0;
			continue;
		}
		if (line_starts(line, llen, "--- ") && rest && line_starts(next, rest, "+++ ")) {
			const char *third = memchr(next, '\n', rest);

			if (third && line_starts(third + 1, p.len - (third + 1 - p.buf), "@@ -")) {
				if (ps->nr == 0)
					ps->format = PATCH_FORMAT_UNIFIED;
				if (parse_traditional(&p) < 0)
					goto fail;
				after_plain_diff = 0;
				continue;
			}
		}
		if (is_context_diff(line, llen, next, rest) ||
		    (after_plain_diff && is_ed_command(line, llen))) {
			perr(&p, "line %lu: %s", p.lineno, is_ed_command(line, llen) ? ed_refused : context_refused);
			goto fail;
		}
		after_plain_diff = line_starts(line, llen, "diff ") || line_starts(line, llen, "Index: ");
		next_line(&p, llen);
	}
	/* Binary data last, when all of it is known to fit. */
	for (size_t i = 0; i < ps->nr; i++)
		if (inflate_binary(&p, &ps->files[i].forward, 1) < 0 ||
		    inflate_binary(&p, &ps->files[i].reverse, 0) < 0)
			goto fail;
	if (!ps->nr) {
		struct strbuf why = STRBUF_INIT;

		if (patch_find_unsupported(p.buf, p.len, &why))
			perr(&p, "%s", why.buf);
		else
			perr(&p, "no patch found");
		strbuf_release(&why);
		goto fail;
	}
	return 0;
fail:
	patch_set_dispose(ps);
	return -1;
}
