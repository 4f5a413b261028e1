/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>

#include "patch-id.h"
#include "ascii.h"
#include "sha1.h"
#include "strbuf.h"

/* Does s[0..len) start with a full object id (40 hex digits)? */
static int starts_with_oid(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 40; i++)
		if (hex_digit((unsigned char)s[i]) < 0)
			return 0;
	return i == 40;
}

static size_t digits(const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

static int number(const char *p, size_t n)
{
	long v = 0;

	for (size_t i = 0; i < n && v < 100000000; i++)
		v = v * 10 + (p[i] - '0');
	return (int)v;
}

/*
 * git's scan_hunk_header() (2.39): the line counts of "@@ -a[,b] +c[,d]
 * @@", 1 when absent; a count is set as soon as it is read, even when
 * the rest of the header is bad, as there.
 */
static void scan_hunk_header(const char *line, size_t len, int *before, int *after)
{
	const char *q = line + 4, *end = line + len, *r;
	size_t n = digits(q, end);

	if (q + n < end && q[n] == ',') {
		q += n + 1;
		n = digits(q, end);
		*before = number(q, n);
	} else {
		*before = 1;
	}
	if (!n || q + n + 1 >= end || q[n] != ' ' || q[n + 1] != '+')
		return;
	r = q + n + 2;
	n = digits(r, end);
	if (r + n < end && r[n] == ',') {
		r += n + 1;
		n = digits(r, end);
		*after = number(r, n);
	} else {
		*after = 1;
	}
}

/* Adds the hash so far to the sum (20 bytes, little-endian with carry) and starts again. */
static void flush_one(unsigned char *sum, struct sha1 *ctx)
{
	unsigned char h[SHA1_RAWSZ];
	unsigned carry = 0;

	sha1_finish(ctx, h);
	sha1_start(ctx);
	for (int i = 0; i < SHA1_RAWSZ; i++) {
		carry += sum[i] + h[i];
		sum[i] = carry & 0xff;
		carry >>= 8;
	}
}

/* The line without its whitespace (up to a NUL, as git's C string ends there), into sb. */
static void remove_space(struct strbuf *sb, const char *line, size_t len)
{
	strbuf_reset(sb);
	for (size_t i = 0; i < len && line[i]; i++)
		if (!ascii_isspace(line[i]))
			strbuf_addch(sb, line[i]);
}

struct pid_state {
	struct sha1 ctx;
	unsigned char *sum;
	int before, after, binary;
	size_t patchlen;
	struct strbuf pre, post, squeezed;
};

/* The "index <pre>..<post>[ <mode>]" line: the ids a binary change is hashed by. */
static void read_index_line(struct pid_state *st, const char *line, size_t len)
{
	const char *p = line + 6, *dots = memmem(p, line + len - p, "..", 2), *end;

	if (!dots)
		return;
	end = memchr(dots, ' ', line + len - dots);
	if (!end)
		end = line + len - (len && line[len - 1] == '\n');
	strbuf_reset(&st->pre);
	strbuf_add(&st->pre, p, dots - p);
	strbuf_reset(&st->post);
	strbuf_add(&st->post, dots + 2, end - dots - 2);
}

/* One line of git's get_one_patchid() loop: 1 to go on, 0 at the end of the patch. */
static int one_line(struct pid_state *st, const char *line, size_t len)
{
	if (len > 2 && line[0] == '\\' && line[1] == ' ' && len > 12)
		return 1;	/* "\ No newline at end of file" */
	if (starts_with_oid(line, len) ||
	    (len > 7 && !memcmp(line, "commit ", 7) && starts_with_oid(line + 7, len - 7)) ||
	    (len > 5 && !memcmp(line, "From ", 5) && starts_with_oid(line + 5, len - 5)))
		return st->patchlen ? 0 : 1;	/* the next patch, or the start of ours */
	if (!st->patchlen && (len < 5 || memcmp(line, "diff ", 5)))
		return 1;	/* the commit message */
	if (st->before == -1) {
		if ((len >= 16 && !memcmp(line, "GIT binary patch", 16)) ||
		    (len >= 12 && !memcmp(line, "Binary files", 12))) {
			st->binary = 1;
			st->before = 0;
			sha1_update(&st->ctx, st->pre.buf, st->pre.len);
			sha1_update(&st->ctx, st->post.buf, st->post.len);
			flush_one(st->sum, &st->ctx);
			return 1;
		} else if (len >= 6 && !memcmp(line, "index ", 6)) {
			read_index_line(st, line, len);
			return 1;
		} else if (len >= 4 && !memcmp(line, "--- ", 4)) {
			st->before = st->after = 1;
		} else if (!len || !ascii_isalpha(line[0])) {
			return 0;
		}
	}
	if (st->binary) {
		if (len >= 5 && !memcmp(line, "diff ", 5)) {
			st->binary = 0;
			st->before = -1;
		}
		return 1;
	}
	if (!st->before && !st->after) {
		if (len >= 4 && !memcmp(line, "@@ -", 4)) {
			scan_hunk_header(line, len, &st->before, &st->after);
			return 1;
		}
		if (len < 5 || memcmp(line, "diff ", 5))
			return 0;
		flush_one(st->sum, &st->ctx);
		st->before = st->after = -1;
	}
	if (len && (line[0] == '-' || line[0] == ' '))
		st->before--;
	if (len && (line[0] == '+' || line[0] == ' '))
		st->after--;
	remove_space(&st->squeezed, line, len);
	st->patchlen += st->squeezed.len;
	sha1_update(&st->ctx, st->squeezed.buf, st->squeezed.len);
	return 1;
}

int patch_id_stable(unsigned char out[PATCH_ID_RAWSZ], const char *text, size_t len)
{
	struct pid_state st = { .sum = out, .before = -1, .after = -1,
				.pre = STRBUF_INIT, .post = STRBUF_INIT, .squeezed = STRBUF_INIT };
	size_t pos = 0;
	int rc = 1;

	memset(out, 0, PATCH_ID_RAWSZ);
	sha1_start(&st.ctx);
	while (pos < len && rc > 0) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - line) + 1 : len - pos;

		rc = one_line(&st, line, l);
		pos += l;
	}
	flush_one(out, &st.ctx);
	strbuf_release(&st.pre);
	strbuf_release(&st.post);
	strbuf_release(&st.squeezed);
	return st.patchlen ? 0 : 1;
}
