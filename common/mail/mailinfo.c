/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Patch mail extraction. See mailinfo.h.
 *
 * The rules are git mailinfo's (git 2.39), rewritten over an in-memory
 * message: the header block is read line by line with folding joined,
 * then the body line by line through the same stages git uses
 * (multipart boundaries, transfer decoding, format=flowed, in-body
 * headers, scissors, the commit message up to the patch break, the
 * patch). Where git silently accepts broken input (invalid base64 or
 * quoted-printable, a NUL byte in a header line or in the commit
 * message) the result is the same but an error is returned.
 */
#include "mailinfo.h"
#include "ascii.h"
#include "date.h"
#include "mail.h"
#include "usage.h"
#include "utf8.h"
#include "wrapper.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { H_FROM, H_SUBJECT, H_DATE, H_NR };
static const char *const hdr_name[H_NR] = { "From", "Subject", "Date" };

enum transfer_encoding { TE_DONTCARE, TE_QP, TE_BASE64 };

struct mi {
	const struct mailinfo_opts *opts;
	struct patch_mail *pm;
	const struct raw_mail *raw;
	const char *p, *end;		/* the unread rest of the message */
	const char *line_start;		/* where the last line read starts */

	struct strbuf p_hdr[H_NR], s_hdr[H_NR];
	int p_set[H_NR], s_set[H_NR];
	struct strbuf charset;
	enum transfer_encoding te;
	int format_flowed, delsp;
	struct strbuf boundary[MAILINFO_MAX_MIME_DEPTH + 1];	/* [0] unused: top == 0 is "none" */
	int top;
	struct strbuf inbody_accum;
	int header_stage, filter_stage;
	size_t patch_lines;
	int have_quoted_cr;
	struct strbuf message_id;	/* decoded value, for -m (as git prints it) */
	struct strbuf message_id_raw;	/* undecoded: where the id is read */
	int have_message_id;

	int input_error;		/* git's input_error: stop reading the body */
	struct strbuf err;		/* our first error, reported once */
	struct strbuf hdr_tmp, line;

	/* fast path: the patch is raw[patch_at..] when the body is plain */
	int plain, first_line;
	const char *patch_at, *patch_end;
};

static void strbuf_swap(struct strbuf *a, struct strbuf *b)
{
	struct strbuf t = *a;

	*a = *b;
	*b = t;
}

static void g_rtrim(struct strbuf *sb)
{
	while (sb->len && git_isspace(sb->buf[sb->len - 1]))
		sb->len--;
	sb->buf[sb->len] = '\0';
}

static void g_trim(struct strbuf *sb)
{
	size_t i = 0;

	g_rtrim(sb);
	while (i < sb->len && git_isspace(sb->buf[i]))
		i++;
	if (i)
		strbuf_remove(sb, 0, i);
}

PRINTF(2, 3) static void mi_error(struct mi *mi, const char *fmt, ...)
{
	va_list ap;

	if (mi->err.len)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&mi->err, fmt, ap);
	va_end(ap);
	/* it quotes the mail (a charset, a date): one line, whatever the mail holds */
	strbuf_setlen(&mi->err, neutralise_field(mi->err.buf, mi->err.len));
}

/* ---- reading lines ---- */

/* Next line with its '\n' (git's strbuf_getwholeline); 0 at the end. */
static int get_whole_line(struct mi *mi, struct strbuf *line)
{
	const char *nl;
	size_t l;

	strbuf_reset(line);
	if (mi->p >= mi->end)
		return 0;
	mi->line_start = mi->p;
	nl = memchr(mi->p, '\n', mi->end - mi->p);
	l = nl ? (size_t)(nl - mi->p + 1) : (size_t)(mi->end - mi->p);
	if (!mi->opts->keep_cr && l >= 2 && nl && mi->p[l - 2] == '\r') {
		strbuf_add(line, mi->p, l - 2);
		strbuf_addch(line, '\n');
	} else {
		strbuf_add(line, mi->p, l);
	}
	mi->p += l;
	return 1;
}

/* Next line without its '\n' (git's strbuf_getline_lf); 0 at the end. */
static int get_line_lf(struct mi *mi, struct strbuf *line)
{
	if (!get_whole_line(mi, line))
		return 0;
	if (line->len && line->buf[line->len - 1] == '\n')
		strbuf_setlen(line, line->len - 1);
	return 1;
}

static int peek_char(struct mi *mi)
{
	return mi->p < mi->end ? (unsigned char)*mi->p : -1;
}

/* git's is_rfc2822_header(), on a C string as git sees it. */
static int is_rfc2822_header(const struct strbuf *line)
{
	const char *cp = line->buf;
	int ch;

	if (starts_with(cp, "From ") || starts_with(cp, ">From "))
		return 1;
	while ((ch = (unsigned char)*cp++)) {
		if (ch == ':')
			return 1;
		if ((ch >= 33 && ch <= 57) || (ch >= 59 && ch <= 126))
			continue;
		break;
	}
	return 0;
}

/*
 * Skips, without copying, a header line (and its continuation lines)
 * that mailinfo would ignore: one that is a header by git's rule but
 * none of the names check_header() or extra_header() look at. Returns 1
 * if it skipped one.
 */
static int skip_ignored_header(struct mi *mi)
{
	static const struct { const char *name; size_t len; } wanted[] = {
#define W(n) { n, sizeof(n) - 1 }
		W("from"), W("subject"), W("date"), W("content-type"), W("content-transfer-encoding"),
		W("message-id"), W("in-reply-to"), W("references"), W("to"), W("cc"),
#undef W
	};
	const char *p = mi->p, *end = mi->end, *q;

	if (end - p >= 5 && (!memcmp(p, "From ", 5) || !memcmp(p, ">From", 5)))
		return 0;
	for (q = p; q < end; q++) {
		unsigned char c = *q;
		if (c == ':')
			break;
		if (!((c >= 33 && c <= 57) || (c >= 59 && c <= 126)))
			return 0;
	}
	if (q >= end)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(wanted); i++)
		if ((size_t)(q - p) == wanted[i].len && !strncasecmp(p, wanted[i].name, wanted[i].len))
			return 0;
	/* the line, then its continuation lines */
	do {
		const char *nl = memchr(mi->p, '\n', mi->end - mi->p);
		mi->p = nl ? nl + 1 : mi->end;
	} while (mi->p < mi->end && (*mi->p == ' ' || *mi->p == '\t'));
	return 1;
}

/*
 * One header line with its continuation lines joined (git's
 * read_one_header_line). Returns 0 at the end of the header block; then
 * line holds the line that ended it, trimmed, with '\n' added.
 */
static int read_header_line(struct mi *mi, struct strbuf *line)
{
	struct strbuf cont = STRBUF_INIT;

	while (skip_ignored_header(mi))
		;
	if (!get_line_lf(mi, line))
		return 0;
	g_rtrim(line);
	if (!line->len || !is_rfc2822_header(line)) {
		strbuf_addch(line, '\n');
		return 0;
	}
	for (;;) {
		int c = peek_char(mi);

		if (c != ' ' && c != '\t')
			break;
		if (!get_line_lf(mi, &cont))
			break;
		cont.buf[0] = ' ';
		g_rtrim(&cont);
		strbuf_addbuf(line, &cont);
	}
	strbuf_release(&cont);
	if (memchr(line->buf, '\0', line->len)) {
		const char *colon = memchr(line->buf, ':', line->len);
		mi_error(mi, "NUL byte in header '%.*s'",
			 (int)(colon && colon < line->buf + strlen(line->buf) ? colon - line->buf : 0),
			 line->buf);
		/* git reads the line as a C string: it ends at the NUL */
		strbuf_setlen(line, strlen(line->buf));
	}
	return 1;
}

/* ---- headers ---- */

/* "Name:" then blanks (git's skip_header); sets *val. */
static inline int skip_header(const struct strbuf *line, const char *name, const char **val)
{
	size_t n = strlen(name);
	const char *v;

	if (line->len <= n || line->buf[n] != ':' || strncasecmp(line->buf, name, n))
		return 0;
	v = line->buf + n + 1;
	while (git_isspace(*v))
		v++;
	*val = v;
	return 1;
}

/* git's decode_header(): RFC 2047 in place; an error leaves it undecoded. */
static void decode_header(struct mi *mi, struct strbuf *it, const char *name)
{
	struct strbuf out = STRBUF_INIT;
	const char *problem = NULL;

	if (!memmem(it->buf, it->len, "=?", 2))
		return;

	if (mail_rfc2047_decode(&out, it->buf, it->len, &problem) < 0) {
		mi->input_error = -1;
		mi_error(mi, "%s in '%s'", problem, name);
	}
	strbuf_swap(&out, it);
	strbuf_release(&out);
}

static int parse_header(struct mi *mi, const struct strbuf *line, const char *name, struct strbuf *val)
{
	const char *v;

	if (!skip_header(line, name, &v))
		return 0;
	strbuf_addstr(val, v);
	decode_header(mi, val, name);
	return 1;
}

/* git's slurp_attr(): "name=" anywhere (case-insensitive), quoted or up to ; or blank. */
static int slurp_attr(const char *line, const char *name, struct strbuf *attr)
{
	const char *ap = strcasestr(line, name), *ends;

	strbuf_reset(attr);
	if (!ap)
		return 0;
	ap += strlen(name);
	if (*ap == '"') {
		ap++;
		ends = "\"";
	} else {
		ends = "; \t";
	}
	strbuf_add(attr, ap, strcspn(ap, ends));
	return 1;
}

static int has_attr_value(const char *line, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = slurp_attr(line, name, &sb) && !strcasecmp(sb.buf, value);

	strbuf_release(&sb);
	return rc;
}

static void handle_content_type(struct mi *mi, const struct strbuf *line)
{
	struct strbuf b = STRBUF_INIT;

	mi->format_flowed = has_attr_value(line->buf, "format=", "flowed");
	mi->delsp = has_attr_value(line->buf, "delsp=", "yes");
	if (slurp_attr(line->buf, "boundary=", &b)) {
		if (mi->top + 1 >= MAILINFO_MAX_MIME_DEPTH) {
			mi_error(mi, "too many nested MIME boundaries (more than %d)",
				 MAILINFO_MAX_MIME_DEPTH - 1);
			mi->input_error = -1;
		} else {
			mi->top++;
			strbuf_reset(&mi->boundary[mi->top]);
			strbuf_addstr(&mi->boundary[mi->top], "--");
			strbuf_addbuf(&mi->boundary[mi->top], &b);
		}
	}
	slurp_attr(line->buf, "charset=", &mi->charset);
	strbuf_release(&b);
}

static void handle_transfer_encoding(struct mi *mi, const struct strbuf *line)
{
	if (strcasestr(line->buf, "base64"))
		mi->te = TE_BASE64;
	else if (strcasestr(line->buf, "quoted-printable"))
		mi->te = TE_QP;
	else
		mi->te = TE_DONTCARE;
}

/* git's check_header(): 1 if line is a header mailinfo uses. */
static int check_header(struct mi *mi, const struct strbuf *line, struct strbuf *data, int *set,
			int overwrite)
{
	switch (line->buf[0] | 0x20) {
	case 'f': case 's': case 'd': case 'c': case 'm':
		break;
	default:
		return 0;
	}
	struct strbuf *sbp = &mi->hdr_tmp;
	int ret = 1;
#define sb (*sbp)
	strbuf_reset(sbp);

	for (int i = 0; i < H_NR; i++) {
		if ((!set[i] || overwrite) && parse_header(mi, line, hdr_name[i], &sb)) {
			strbuf_reset(&data[i]);
			strbuf_addbuf(&data[i], &sb);
			set[i] = 1;
			goto out;
		}
	}
	if (parse_header(mi, line, "Content-Type", &sb)) {
		handle_content_type(mi, &sb);
		goto out;
	}
	if (parse_header(mi, line, "Content-Transfer-Encoding", &sb)) {
		handle_transfer_encoding(mi, &sb);
		goto out;
	}
	if (parse_header(mi, line, "Message-ID", &sb)) {
		const char *raw = "";

		strbuf_reset(&mi->message_id);
		strbuf_addbuf(&mi->message_id, &sb);
		/* git decodes it; an encoded word has no place in an id (RFC 2047, 5) */
		skip_header(line, "Message-ID", &raw);
		strbuf_reset(&mi->message_id_raw);
		strbuf_addstr(&mi->message_id_raw, raw);
		mi->have_message_id = 1;
		goto out;
	}
	ret = 0;
out:
#undef sb
	return ret;
}

/* The headers git mailinfo ignores and we keep: ids, To, Cc. */
static void extra_header(struct mi *mi, const struct strbuf *line)
{
	struct patch_mail *pm = mi->pm;
	const char *v;

	switch (line->buf[0] | 0x20) {
	case 'i': case 'r': case 't': case 'c':
		break;
	default:
		return;
	}
	if (skip_header(line, "In-Reply-To", &v)) {
		struct strvec ids = STRVEC_INIT;
		if (mail_parse_msgids(&ids, v, strlen(v))) {
			strbuf_reset(&pm->in_reply_to);
			strbuf_addstr(&pm->in_reply_to, ids.v[0]);
		}
		strvec_clear(&ids);
	} else if (skip_header(line, "References", &v)) {
		strvec_clear(&pm->references);
		mail_parse_references(&pm->references, v, strlen(v));
	} else if (skip_header(line, "To", &v)) {
		mail_parse_address_list(&pm->to, v, strlen(v));
	} else if (skip_header(line, "Cc", &v)) {
		mail_parse_address_list(&pm->cc, v, strlen(v));
	}
}

/* ---- body ---- */

/* git's patchbreak(): where the commit message ends. */
static int patchbreak(const struct strbuf *line)
{
	if (starts_with(line->buf, "diff -") || starts_with(line->buf, "Index: "))
		return 1;
	if (line->len < 4)
		return 0;
	if (starts_with(line->buf, "---")) {
		if (line->buf[3] == ' ' && !git_isspace(line->buf[4]))
			return 1;
		for (size_t i = 3; i < line->len; i++) {
			unsigned char c = line->buf[i];
			if (c == '\n')
				return 1;
			if (!git_isspace(c))
				break;
		}
	}
	return 0;
}

/* git's is_scissors_line(). */
static int is_scissors_line(const char *line)
{
	const char *c, *first = NULL, *last = NULL;
	int scissors = 0, gap = 0, visible, perforation = 0, in_perforation = 0;

	for (c = line; *c; c++) {
		if (git_isspace(*c)) {
			if (in_perforation) {
				perforation++;
				gap++;
			}
			continue;
		}
		last = c;
		if (!first)
			first = c;
		if (*c == '-') {
			in_perforation = 1;
			perforation++;
			continue;
		}
		/* ">8", "8<", ">%" or "%<" (tested by hand: this runs for every character of a line) */
		if ((c[0] == '>' && (c[1] == '8' || c[1] == '%')) ||
		    ((c[0] == '8' || c[0] == '%') && c[1] == '<')) {
			in_perforation = 1;
			perforation += 2;
			scissors += 2;
			c++;
			continue;
		}
		in_perforation = 0;
	}
	visible = first && last ? last - first + 1 : 0;
	return scissors && visible >= 8 && visible < perforation * 3 && gap * 2 < perforation;
}

static int is_format_patch_separator(const char *line, size_t len)
{
	static const char sample[] = "From e6807f3efca28b30decfecb1732a56c7db1137ee Mon Sep 17 00:00:00 2001\n";
	const char *cp;

	if (len != strlen(sample) || !skip_prefix(line, "From ", &cp))
		return 0;
	if (strspn(cp, "0123456789abcdef") != 40)
		return 0;
	cp += 40;
	return !memcmp(sample + (cp - line), cp, strlen(sample) - (cp - line));
}

static void flush_inbody_accum(struct mi *mi)
{
	if (!mi->inbody_accum.len)
		return;
	if (!check_header(mi, &mi->inbody_accum, mi->s_hdr, mi->s_set, 0))
		BUG("in-body header accumulator holds no header");
	strbuf_reset(&mi->inbody_accum);
}

static int is_inbody_header(const struct mi *mi, const struct strbuf *line)
{
	const char *v;

	for (int i = 0; i < H_NR; i++)
		if (!mi->s_set[i] && skip_header(line, hdr_name[i], &v))
			return 1;
	return 0;
}

static int check_inbody_header(struct mi *mi, const struct strbuf *line)
{
	if (mi->inbody_accum.len && (line->buf[0] == ' ' || line->buf[0] == '\t')) {
		if (mi->opts->scissors && is_scissors_line(line->buf)) {
			flush_inbody_accum(mi);
			return 0;
		}
		if (mi->inbody_accum.len && mi->inbody_accum.buf[mi->inbody_accum.len - 1] == '\n')
			strbuf_setlen(&mi->inbody_accum, mi->inbody_accum.len - 1);
		strbuf_addbuf(&mi->inbody_accum, line);
		return 1;
	}
	flush_inbody_accum(mi);
	if (starts_with(line->buf, ">From") && git_isspace(line->buf[5]))
		return is_format_patch_separator(line->buf + 1, line->len - 1);
	if (starts_with(line->buf, "[PATCH]") && git_isspace(line->buf[7])) {
		strbuf_reset(&mi->s_hdr[H_SUBJECT]);
		strbuf_addbuf(&mi->s_hdr[H_SUBJECT], line);
		mi->s_set[H_SUBJECT] = 1;
		return 1;
	}
	if (is_inbody_header(mi, line)) {
		strbuf_addbuf(&mi->inbody_accum, line);
		return 1;
	}
	return 0;
}

/*
 * -m: "Message-Id: <value>" as git adds it, unless the decoded value
 * holds a control character (an encoded CR or LF would add lines to the
 * commit message, as it does in git): then the id alone, when it has one.
 */
static void add_message_id_line(struct mi *mi)
{
	const struct strbuf *v = &mi->message_id;

	for (size_t i = 0; i < v->len; i++) {
		if ((unsigned char)v->buf[i] < ' ' || v->buf[i] == 0x7f) {
			if (mi->pm->message_id.len)
				strbuf_addf(&mi->pm->message, "Message-Id: <%s>\n",
					    mi->pm->message_id.buf);
			return;
		}
	}
	strbuf_addf(&mi->pm->message, "Message-Id: %s\n", v->buf);
}

/* git's handle_commit_msg(): 1 when line starts the patch. */
static int handle_commit_msg(struct mi *mi, struct strbuf *line)
{
	struct patch_mail *pm = mi->pm;

	if (mi->header_stage && (!line->len || (line->len == 1 && line->buf[0] == '\n'))) {
		if (mi->inbody_accum.len) {
			flush_inbody_accum(mi);
			mi->header_stage = 0;
		}
		return 0;
	}
	if (!mi->opts->no_inbody_headers && mi->header_stage) {
		mi->header_stage = check_inbody_header(mi, line);
		if (mi->header_stage)
			return 0;
	} else {
		mi->header_stage = 0;
	}

	/* the commit message in UTF-8 */
	if (!mi->opts->no_reencode && mi->charset.len && !mail_charset_is_utf8(mi->charset.buf)) {
		struct strbuf conv = STRBUF_INIT;
		if (mail_to_utf8(&conv, line->buf, line->len, mi->charset.buf) < 0) {
			strbuf_release(&conv);
			mi->input_error = -1;
			mi_error(mi, "cannot convert from %s to UTF-8", mi->charset.buf);
			return 0;
		}
		strbuf_swap(&conv, line);
		strbuf_release(&conv);
	}

	if (mi->opts->scissors && is_scissors_line(line->buf)) {
		strbuf_reset(&pm->message);
		mi->header_stage = 1;
		for (int i = 0; i < H_NR; i++) {
			strbuf_reset(&mi->s_hdr[i]);
			mi->s_set[i] = 0;
		}
		return 0;
	}
	if (patchbreak(line)) {
		if (mi->opts->message_id && mi->have_message_id)
			add_message_id_line(mi);
		return 1;
	}
	if (memchr(line->buf, '\0', line->len))
		mi_error(mi, "NUL byte in the commit message");
	strbuf_addbuf(&pm->message, line);
	return 0;
}

static void handle_filter(struct mi *mi, struct strbuf *line)
{
	if (!mi->filter_stage) {
		if (!handle_commit_msg(mi, line))
			return;
		mi->filter_stage = 1;
	}
	if (!mi->patch_lines && mi->plain) {
		if (mi->first_line)
			mi->plain = 0;	/* the header-ending line was trimmed: not raw */
		else
			mi->patch_at = mi->line_start;
	}
	if (!mi->opts->headers_and_paths_only || !mi->plain)
		strbuf_addbuf(&mi->pm->patch, line);
	mi->patch_lines++;
}

/* A line as it is when the body is not format=flowed: quoted CRLF noted (or stripped). */
static void handle_filter_unflowed(struct mi *mi, struct strbuf *line)
{
	size_t len = line->len;

	if (len >= 2 && line->buf[len - 2] == '\r' && line->buf[len - 1] == '\n') {
		mi->have_quoted_cr = 1;
		if (mi->opts->quoted_cr == MAILINFO_QUOTED_CR_STRIP) {
			strbuf_setlen(line, len - 2);
			strbuf_addch(line, '\n');
		}
	}
	handle_filter(mi, line);
}

static void handle_filter_flowed(struct mi *mi, struct strbuf *line, struct strbuf *prev)
{
	size_t len = line->len;
	const char *rest;

	if (!mi->format_flowed) {
		handle_filter_unflowed(mi, line);
		return;
	}
	if (len && line->buf[len - 1] == '\n') {
		len--;
		if (len && line->buf[len - 1] == '\r')
			len--;
	}
	/* the signature separator stays as it is */
	if (skip_prefix(line->buf, "-- ", &rest) && (size_t)(rest - line->buf) == len) {
		if (prev->len) {
			handle_filter(mi, prev);
			strbuf_reset(prev);
		}
		handle_filter(mi, line);
		return;
	}
	if (len && line->buf[0] == ' ') {
		strbuf_remove(line, 0, 1);
		len--;
	}
	if (len && line->buf[len - 1] == ' ') {
		strbuf_add(prev, line->buf, len - !!mi->delsp);
		return;
	}
	strbuf_splice(line, 0, 0, prev->buf, prev->len);
	strbuf_reset(prev);
	handle_filter(mi, line);
}

static void summarize_quoted_cr(struct mi *mi)
{
	if (mi->have_quoted_cr && mi->opts->quoted_cr == MAILINFO_QUOTED_CR_WARN && !mi->opts->quiet)
		warning("%s: message %zu: quoted CRLF detected", mi->raw->origin, mi->raw->number);
	mi->have_quoted_cr = 0;
}

static int is_multipart_boundary(struct mi *mi, const struct strbuf *line)
{
	const struct strbuf *b = &mi->boundary[mi->top];

	return b->len <= line->len && !memcmp(line->buf, b->buf, b->len);
}

static int find_boundary(struct mi *mi, struct strbuf *line)
{
	while (get_line_lf(mi, line))
		if (mi->top && is_multipart_boundary(mi, line))
			return 1;
	return 0;
}

/* git's handle_boundary(): 0 when the body is over. */
static int handle_boundary(struct mi *mi, struct strbuf *line)
{
	struct strbuf newline = STRBUF_INIT;

	strbuf_addch(&newline, '\n');
	for (;;) {
		const struct strbuf *b = &mi->boundary[mi->top];

		if (!(line->len >= b->len + 2 && !memcmp(line->buf + b->len, "--", 2)))
			break;
		/* an end boundary: pop it, then skip to the next boundary */
		strbuf_reset(&mi->boundary[mi->top]);
		mi->top--;
		handle_filter(mi, &newline);
		if (mi->input_error || !find_boundary(mi, line)) {
			strbuf_release(&newline);
			return 0;
		}
	}
	strbuf_release(&newline);
	mi->te = TE_DONTCARE;
	strbuf_reset(&mi->charset);
	while (read_header_line(mi, line))
		check_header(mi, line, mi->p_hdr, mi->p_set, 0);
	if (!get_line_lf(mi, line))
		return 0;
	strbuf_addch(line, '\n');
	return 1;
}

static int is_b64(unsigned char c)
{
	return ascii_isalnum(c) || c == '+' || c == '/';
}

/* Our strictness on top of git's lenient decoders. */
static void check_encoded_line(struct mi *mi, const struct strbuf *line)
{
	if (mi->te == TE_BASE64) {
		size_t n = 0;
		int pad = 0, bad = 0;

		for (size_t i = 0; i < line->len; i++) {
			unsigned char c = line->buf[i];
			if (c == '=') {
				pad = 1;
				n++;
			} else if (is_b64(c)) {
				if (pad)
					bad = 1;
				n++;
			} else if (!git_isspace(c)) {
				bad = 1;
			}
		}
		if (bad || n % 4)
			mi_error(mi, "invalid base64 in the body");
	} else if (mi->te == TE_QP) {
		for (size_t i = 0; i < line->len; i++) {
			if (line->buf[i] != '=')
				continue;
			if (i + 1 == line->len || line->buf[i + 1] == '\n')
				break;
			if (i + 2 < line->len && isxdigit((unsigned char)line->buf[i + 1]) &&
			    isxdigit((unsigned char)line->buf[i + 2])) {
				i += 2;
				continue;
			}
			mi_error(mi, "invalid quoted-printable in the body");
			break;
		}
	}
}

/*
 * The text carried between the lines of a base64 or quoted-printable
 * body: git's "prev" (a partial decoded line, after any format=flowed
 * text waiting for the end of its paragraph) is buf[off..len), and holds
 * no '\n'. git prepends it to each decoded line, which makes a body that
 * decodes to one long line quadratic (8 MB: a minute); here the decoded
 * bytes are appended to it and lines are cut in place, each byte copied
 * a bounded number of times, with the same result.
 */
struct carry {
	struct strbuf buf;
	size_t off;
};
#define CARRY_INIT { STRBUF_INIT, 0 }

/* The format=flowed text waiting in the carry's buffer: [start, end). */
struct flowed_span {
	size_t start, end;
};

/* handle_filter() on a copy of span (when not empty) followed by buf[from..to). */
static void filter_copy(struct mi *mi, struct strbuf *line, const struct strbuf *buf,
			struct flowed_span *span, size_t from, size_t to)
{
	strbuf_reset(line);
	strbuf_add(line, buf->buf + span->start, span->end - span->start);
	strbuf_add(line, buf->buf + from, to - from);
	span->start = span->end = 0;
	handle_filter(mi, line);
}

/* handle_filter_flowed() for the decoded line buf[from..to) (its '\n' included), in place. */
static void flowed_in_place(struct mi *mi, struct strbuf *line, struct strbuf *buf,
			    struct flowed_span *span, size_t from, size_t to)
{
	const char *p = buf->buf;
	size_t len = to - from - 1, n;

	if (len && p[from + len - 1] == '\r')
		len--;
	if (len == 3 && !memcmp(p + from, "-- ", 3)) {
		if (span->end > span->start)
			filter_copy(mi, line, buf, span, 0, 0);
		filter_copy(mi, line, buf, span, from, to);
		return;
	}
	if (len && p[from] == ' ') {
		from++;
		len--;
	}
	if (!len || p[from + len - 1] != ' ') {
		filter_copy(mi, line, buf, span, from, to);
		return;
	}
	/* a soft break: the text waits for the rest of its paragraph */
	n = len - !!mi->delsp;
	if (span->end == span->start) {
		span->start = from;
		span->end = from + n;
	} else {
		memmove(buf->buf + span->end, p + from, n);
		span->end += n;
	}
}

/* One base64 or quoted-printable body line: decoded onto the carry, then its lines filtered. */
static void handle_encoded(struct mi *mi, struct strbuf *line, struct carry *c)
{
	struct strbuf *buf = &c->buf;
	struct flowed_span span = { 0, 0 };
	size_t scan = buf->len, r = c->off;
	const char *nl;

	check_encoded_line(mi, line);
	if (mi->te == TE_QP)
		mail_decode_q(buf, line->buf, line->len, 0);
	else
		mail_decode_b(buf, line->buf, line->len);
	while ((nl = memchr(buf->buf + scan, '\n', buf->len - scan))) {
		size_t to = nl - buf->buf + 1;

		if (mi->format_flowed) {
			flowed_in_place(mi, line, buf, &span, r, to);
		} else if (to == buf->len) {
			/* the line ends the buffer (a long one, usually): handed over, not copied */
			strbuf_remove(buf, 0, r);
			strbuf_swap(buf, line);
			strbuf_reset(buf);
			handle_filter_unflowed(mi, line);
			r = scan = 0;
			break;
		} else if (to - r >= 65536 && buf->len - to < to - r) {
			/* a long line, followed by less: handed over too, what follows copied back */
			struct strbuf rest = STRBUF_INIT;

			strbuf_add(&rest, buf->buf + to, buf->len - to);
			strbuf_setlen(buf, to);
			strbuf_remove(buf, 0, r);
			strbuf_swap(buf, line);
			strbuf_swap(buf, &rest);
			strbuf_release(&rest);
			handle_filter_unflowed(mi, line);
			r = scan = 0;
			continue;
		} else {
			strbuf_reset(line);
			strbuf_add(line, buf->buf + r, to - r);
			handle_filter_unflowed(mi, line);
		}
		r = scan = to;
	}
	/* what waits: the flowed text, then the partial line (git's prev) */
	if (span.end == span.start) {
		c->off = r;
	} else {
		if (span.end != r) {
			memmove(buf->buf + span.end, buf->buf + r, buf->len - r);
			strbuf_setlen(buf, span.end + (buf->len - r));
		}
		c->off = span.start;
	}
	/* drop what was used once it is the larger part: amortised linear */
	if (c->off > buf->len / 2) {
		strbuf_remove(buf, 0, c->off);
		c->off = 0;
	}
}

/* The carry as a strbuf of its own (git's prev), for the plain-text path and flushes. */
static struct strbuf *carry_prev(struct carry *c)
{
	if (c->off) {
		strbuf_remove(&c->buf, 0, c->off);
		c->off = 0;
	}
	return &c->buf;
}

/* patchbreak() on a raw line p[0..len) (its '\n' included, CRLF or not). */
static int raw_patchbreak(const char *p, size_t len)
{
	if ((len >= 6 && !memcmp(p, "diff -", 6)) || (len >= 7 && !memcmp(p, "Index: ", 7)))
		return 1;
	if (len < 4 || memcmp(p, "---", 3))
		return 0;
	/* git reads a NUL after the line's last byte */
	if (p[3] == ' ' && !git_isspace(len > 4 ? p[4] : '\0'))
		return 1;
	for (size_t i = 3; i < len; i++) {
		if (p[i] == '\n')
			return 1;
		if (!git_isspace(p[i]))
			break;
	}
	return 0;
}

/*
 * Fast path: once the message proper has started (no in-body headers
 * pending, no scissors, nothing to convert), its lines only matter for
 * where the patch starts. Skips them in place up to the patch break,
 * with the checks handle_commit_msg() would make (NUL bytes, quoted CRs).
 */
static void skip_message_lines(struct mi *mi)
{
	const char *p = mi->p;

	while (p < mi->end) {
		const char *nl = memchr(p, '\n', mi->end - p);
		size_t len = nl ? (size_t)(nl - p + 1) : (size_t)(mi->end - p);

		if (raw_patchbreak(p, len))
			break;
		if (memchr(p, '\0', len))
			mi_error(mi, "NUL byte in the commit message");
		if (len >= 3 && nl && p[len - 2] == '\r' && p[len - 3] == '\r')
			mi->have_quoted_cr = 1;
		p += len;
	}
	mi->p = p;
}

static void handle_body(struct mi *mi, struct strbuf *line)
{
	struct carry carry = CARRY_INIT;
	struct strbuf *prev;

	if (mi->top && !find_boundary(mi, line))
		goto out;
	/*
	 * Plain: the patch can be read in place. Not when git converts the
	 * first patch line from the declared charset (it does, as it ends
	 * the message).
	 */
	mi->plain = !mi->top && mi->te == TE_DONTCARE && !mi->format_flowed &&
		    (mi->opts->no_reencode || !mi->charset.len || mail_charset_is_utf8(mi->charset.buf));
	mi->first_line = 1;
	do {
		if (mi->top && is_multipart_boundary(mi, line)) {
			prev = carry_prev(&carry);
			if (prev->len) {
				handle_filter(mi, prev);
				strbuf_reset(prev);
			}
			summarize_quoted_cr(mi);
			if (!handle_boundary(mi, line))
				goto out;
		}
		if (mi->te == TE_DONTCARE)
			handle_filter_flowed(mi, line, carry_prev(&carry));
		else
			handle_encoded(mi, line, &carry);
		mi->first_line = 0;
		if (mi->input_error) {
			mi->patch_end = mi->p;	/* git stops reading here */
			break;
		}
		if (mi->plain && mi->patch_at && mi->opts->headers_and_paths_only)
			break;	/* the rest is the patch: read in place */
		if (mi->plain && mi->opts->headers_and_paths_only && !mi->filter_stage &&
		    !mi->header_stage && !mi->inbody_accum.len && !mi->opts->scissors &&
		    !mi->opts->keep_cr)
			skip_message_lines(mi);
	} while (get_whole_line(mi, line));

	prev = carry_prev(&carry);
	if (prev->len)
		handle_filter(mi, prev);
	summarize_quoted_cr(mi);
	flush_inbody_accum(mi);
out:
	strbuf_release(&carry.buf);
}

/* ---- what git mailinfo prints ---- */

int mailinfo_date_ok(const char *value, size_t len)
{
	char small[128];
	struct strbuf sb = STRBUF_INIT;
	const char *s = small;
	long long when;
	int tz, ok;

	/* blanks only: git am takes the current time, as for no Date at all */
	while (len && git_isspace(value[len - 1]))
		len--;
	if (!len)
		return 1;
	if (memchr(value, '\0', len))
		return 0;
	/* a C string for parse_date(); on the stack for any real date (the scan reads every one) */
	if (len < sizeof(small)) {
		memcpy(small, value, len);
		small[len] = '\0';
	} else {
		strbuf_add(&sb, value, len);
		s = sb.buf;
	}
	ok = !parse_date(s, &when, &tz);
	strbuf_release(&sb);
	return ok;
}

/* git's cleanup_space(): each run of blanks becomes one space (one pass). */
/* Would cleanup_space() change s[0..len)? Not for the usual text, with single spaces only. */
static int needs_space_cleanup(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] <= ' ' && (s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
				    (s[i] == ' ' && i + 1 < len && s[i + 1] == ' ')))
			return 1;
	return 0;
}

static void cleanup_space(struct strbuf *sb)
{
	size_t w = 0, r;

	if (!needs_space_cleanup(sb->buf, sb->len))
		return;
	/* Nothing to rewrite before the first other blank. */
	for (r = 0; r < sb->len; r++)
		if (git_isspace(sb->buf[r]) &&
		    (sb->buf[r] != ' ' || (r + 1 < sb->len && git_isspace(sb->buf[r + 1]))))
			break;
	w = r;
	for (; r < sb->len; r++) {
		if (git_isspace(sb->buf[r])) {
			sb->buf[w++] = ' ';
			while (r + 1 < sb->len && git_isspace(sb->buf[r + 1]))
				r++;
		} else {
			sb->buf[w++] = sb->buf[r];
		}
	}
	strbuf_setlen(sb, w);
}

static void get_sane_name(struct strbuf *out, const struct strbuf *name, const struct strbuf *email)
{
	const struct strbuf *src = name;

	if (!name->len || name->len > 60 || strpbrk(name->buf, "@<>"))
		src = email;
	else if (name == out)
		return;
	if (src == out)
		return;
	strbuf_reset(out);
	strbuf_addbuf(out, src);
}

static void parse_bogus_from(struct patch_mail *pm, const struct strbuf *line)
{
	const char *bra, *ket;

	if (pm->author_email.len)
		return;
	bra = strchr(line->buf, '<');
	if (!bra)
		return;
	ket = strchr(bra, '>');
	if (!ket)
		return;
	strbuf_reset(&pm->author_email);
	strbuf_add(&pm->author_email, bra + 1, ket - bra - 1);
	strbuf_reset(&pm->author_name);
	strbuf_add(&pm->author_name, line->buf, bra - line->buf);
	g_trim(&pm->author_name);
	get_sane_name(&pm->author_name, &pm->author_name, &pm->author_email);
}

/*
 * git's unquote_quoted_pair(), iteratively: quoted strings lose their
 * quotes and backslashes; comments keep their parentheses (nested ones
 * too) and lose backslashes. The nesting depth is a counter, so a
 * megabyte of '(' costs no stack. An unterminated string or comment
 * ends the value.
 */
static void unquote_quoted_pair(struct strbuf *line)
{
	struct strbuf out = STRBUF_INIT;
	const char *in = line->buf, *end = line->buf + strlen(line->buf);
	size_t depth = 0;
	int in_quote = 0, literal = 0;

	if (!strpbrk(line->buf, "\"(")) {
		/* the usual From: nothing quoted; only what follows a NUL goes */
		strbuf_setlen(line, end - line->buf);
		return;
	}
	strbuf_grow(&out, line->len);
	while (in < end) {
		char c = *in++;

		if (in_quote) {
			if (literal)
				literal = 0;
			else if (c == '\\') {
				literal = 1;
				continue;
			} else if (c == '"') {
				in_quote = 0;
				continue;
			}
			strbuf_addch(&out, c);
		} else if (depth) {
			if (literal) {
				literal = 0;
			} else if (c == '\\') {
				literal = 1;
				continue;
			} else if (c == '(') {
				depth++;
			} else if (c == ')') {
				depth--;
			}
			strbuf_addch(&out, c);
		} else if (c == '"') {
			in_quote = 1;
		} else if (c == '(') {
			depth = 1;
			strbuf_addch(&out, c);
		} else {
			strbuf_addch(&out, c);
		}
	}
	strbuf_swap(&out, line);
	strbuf_release(&out);
}

static void handle_from(struct patch_mail *pm, const struct strbuf *from)
{
	struct strbuf f = STRBUF_INIT;
	char *at;
	size_t el;

	strbuf_addbuf(&f, from);
	unquote_quoted_pair(&f);
	at = strchr(f.buf, '@');
	if (!at) {
		parse_bogus_from(pm, from);
		goto out;
	}
	if (pm->author_email.len && strchr(at + 1, '@'))
		goto out;
	while (at > f.buf) {
		char c = at[-1];
		if (git_isspace(c))
			break;
		if (c == '<') {
			at[-1] = ' ';
			break;
		}
		at--;
	}
	el = strcspn(at, " \n\t\r\v\f>");
	strbuf_reset(&pm->author_email);
	strbuf_add(&pm->author_email, at, el);
	strbuf_remove(&f, at - f.buf, el + (at[el] ? 1 : 0));
	cleanup_space(&f);
	g_trim(&f);
	if (f.len && f.buf[0] == '(' && f.buf[f.len - 1] == ')') {
		strbuf_remove(&f, 0, 1);
		strbuf_setlen(&f, f.len - 1);
	}
	get_sane_name(&pm->author_name, &f, &pm->author_email);
out:
	strbuf_release(&f);
}

void mailinfo_cleanup_subject(struct strbuf *subject, int keep_non_patch)
{
	/*
	 * git removes prefixes in place, one at a time; everything before
	 * its cursor is kept, so reading the input once and copying what
	 * is kept gives the same result in linear time.
	 */
	const char *s = subject->buf;
	size_t n = strlen(subject->buf), i = 0;
	struct strbuf out = STRBUF_INIT;

	strbuf_grow(&out, n);
	while (i < n) {
		const char *pos;
		size_t remove;

		switch (s[i]) {
		case 'r': case 'R':
			if (n - i <= 3)
				break;
			if ((s[i + 1] == 'e' || s[i + 1] == 'E') && s[i + 2] == ':') {
				i += 3;
				continue;
			}
			strbuf_addch(&out, s[i++]);
			break;
		case ' ': case '\t': case ':':
			i++;
			continue;
		case '[':
			pos = strchr(s + i, ']');
			if (!pos)
				break;
			remove = pos - (s + i) + 1;
			if (!keep_non_patch || (remove >= 7 && memmem(s + i, remove, "PATCH", 5))) {
				i += remove;
			} else {
				strbuf_add(&out, s + i, remove);
				i += remove;
				if (i < n && git_isspace(s[i]))
					strbuf_addch(&out, s[i++]);
			}
			continue;
		}
		break;
	}
	strbuf_add(&out, s + i, n - i);
	g_trim(&out);
	strbuf_swap(&out, subject);
	strbuf_release(&out);
}

/* git's handle_info(), into pm. */
static void handle_info(struct mi *mi)
{
	struct patch_mail *pm = mi->pm;

	for (int i = 0; i < H_NR; i++) {
		struct strbuf *hdr;

		if (mi->patch_lines && mi->s_set[i])
			hdr = &mi->s_hdr[i];
		else if (mi->p_set[i])
			hdr = &mi->p_hdr[i];
		else
			continue;
		if (memchr(hdr->buf, '\0', hdr->len)) {
			mi_error(mi, "NUL byte in '%s'", hdr_name[i]);
			mi->input_error = -1;
			/* as git prints it: up to the NUL */
			strbuf_setlen(hdr, strlen(hdr->buf));
		}
		if (!mi->opts->no_reencode && !utf8_valid(hdr->buf, hdr->len)) {
			/*
			 * git would pass these bytes into the commit; we never
			 * emit invalid UTF-8: undeclared 8-bit text is read as
			 * ISO-8859-1, which every byte string is.
			 */
			struct strbuf conv = STRBUF_INIT;
			if (!mi->opts->quiet)
				warning("%s: message %zu: '%s' is not UTF-8, read as ISO-8859-1",
					mi->raw->origin, mi->raw->number, hdr_name[i]);
			if (!mail_convert(&conv, hdr->buf, hdr->len, "ISO-8859-1", "UTF-8"))
				strbuf_swap(&conv, hdr);
			strbuf_release(&conv);
		}
		switch (i) {
		case H_SUBJECT:
			strbuf_addbuf(&pm->subject, hdr);
			if (!mi->opts->keep_subject) {
				mailinfo_cleanup_subject(&pm->subject, mi->opts->keep_non_patch);
				cleanup_space(&pm->subject);
			}
			pm->has_subject = 1;
			break;
		case H_FROM:
			cleanup_space(hdr);
			handle_from(pm, hdr);
			pm->has_author = 1;
			break;
		case H_DATE:
			cleanup_space(hdr);
			strbuf_addbuf(&pm->date, hdr);
			pm->has_date = 1;
			if (!mailinfo_date_ok(pm->date.buf, pm->date.len))
				mi_error(mi, "invalid date '%s'", pm->date.buf);
			break;
		}
	}
	/* the mail's own Subject, for series and threading */
	if (mi->p_set[H_SUBJECT]) {
		strbuf_addbuf(&pm->raw_subject, &mi->p_hdr[H_SUBJECT]);
		cleanup_space(&pm->raw_subject);
		g_trim(&pm->raw_subject);
		strbuf_setlen(&pm->raw_subject, strlen(pm->raw_subject.buf));
	}
}

void mailinfo_header_subject(struct patch_mail *pm, const char *value, size_t len)
{
	/*
	 * As handle_info() does for a mail without in-body headers, default
	 * options. The cleaned subject is a suffix of the value: when the
	 * value needs no space cleanup, neither does it.
	 */
	int clean = !needs_space_cleanup(value, len);

	strbuf_add(&pm->subject, value, len);
	mailinfo_cleanup_subject(&pm->subject, 0);
	strbuf_add(&pm->raw_subject, value, len);
	if (!clean) {
		cleanup_space(&pm->subject);
		cleanup_space(&pm->raw_subject);
	}
	g_trim(&pm->raw_subject);
}

void mailinfo_header_from(struct patch_mail *pm, const char *value, size_t len)
{
	struct strbuf hdr = STRBUF_INIT;

	strbuf_add(&hdr, value, len);
	cleanup_space(&hdr);
	handle_from(pm, &hdr);
	strbuf_release(&hdr);
}

void mailinfo_format_info(struct strbuf *out, const struct patch_mail *pm)
{
	if (pm->has_author)
		strbuf_addf(out, "Author: %s\nEmail: %s\n", pm->author_name.buf, pm->author_email.buf);
	if (pm->has_subject) {
		/* git prints a subject holding newlines (-k) as one line each */
		const char *s = pm->subject.buf, *end = s + strlen(s);
		for (;;) {
			const char *nl = memchr(s, '\n', end - s);
			size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
			strbuf_addf(out, "Subject: %.*s\n", (int)l, s);
			if (!nl)
				break;
			s = nl + 1;
		}
	}
	if (pm->has_date)
		strbuf_addf(out, "Date: %s\n", pm->date.buf);
	strbuf_addch(out, '\n');
}

/* ---- series and paths ---- */

static int is_reply_subject(const char *s)
{
	while (git_isspace(*s))
		s++;
	return !strncasecmp(s, "re:", 3) || !strncasecmp(s, "aw:", 3) ||
	       !strncasecmp(s, "fwd:", 4) || !strncasecmp(s, "fw:", 3);
}

/*
 * Reads the bracket groups of a subject: in a group holding "PATCH" (or
 * any group: "[RFC v2 1/3]"), "vN" is the version and "N/M" the number
 * and total. Only leading groups count ("[PATCH] fix [1/2] ..." is not
 * part 1).
 */
void mailinfo_series_info(const char *subject, size_t len, int *version, int *number, int *total)
{
	size_t i = 0;

	*version = 1;
	*number = *total = 0;
	for (;;) {
		const char *lb, *rb, *p;

		while (i < len && (git_isspace(subject[i]) || subject[i] == ':'))
			i++;
		if (i + 3 <= len && !strncasecmp(subject + i, "re:", 3)) {
			i += 3;
			continue;
		}
		if (i >= len || subject[i] != '[')
			break;
		lb = subject + i;
		rb = memchr(lb, ']', len - i);
		if (!rb)
			break;
		for (p = lb + 1; p < rb; p++) {
			int word_start = p == lb + 1 || !isalnum((unsigned char)p[-1]) ||
					 (p - lb > 5 && !strncasecmp(p - 5, "PATCH", 5));

			if (!word_start)
				continue;
			if ((*p == 'v' || *p == 'V') && p + 1 < rb && isdigit((unsigned char)p[1])) {
				const char *q = p + 1;
				int v = 0;
				while (q < rb && isdigit((unsigned char)*q) && v < 100000)
					v = v * 10 + (*q++ - '0');
				if (q == rb || !isalnum((unsigned char)*q)) {
					*version = v;
					p = q - 1;
				}
			} else if (isdigit((unsigned char)*p)) {
				const char *q = p;
				int n = 0, m = 0;
				while (q < rb && isdigit((unsigned char)*q) && n < 100000)
					n = n * 10 + (*q++ - '0');
				if (q + 1 < rb && *q == '/' && isdigit((unsigned char)q[1])) {
					q++;
					while (q < rb && isdigit((unsigned char)*q) && m < 100000)
						m = m * 10 + (*q++ - '0');
					if (q == rb || !isalnum((unsigned char)*q)) {
						*number = n;
						*total = m;
					}
				}
				p = q - 1;
			}
		}
		i = rb - subject + 1;
	}
}

/* Decodes a C-quoted name "..." (git's quoting) at s[0..len); returns bytes used or 0. */
static size_t unquote_c(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 1;

	if (!len || s[0] != '"')
		return 0;
	while (i < len) {
		char c = s[i++];

		if (c == '"')
			return i;
		if (c != '\\') {
			strbuf_addch(out, c);
			continue;
		}
		if (i >= len)
			return 0;
		c = s[i++];
		switch (c) {
		case 'a': strbuf_addch(out, '\a'); break;
		case 'b': strbuf_addch(out, '\b'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'n': strbuf_addch(out, '\n'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 't': strbuf_addch(out, '\t'); break;
		case 'v': strbuf_addch(out, '\v'); break;
		case '0': case '1': case '2': case '3': {
			int v = c - '0';
			for (int k = 0; k < 2; k++) {
				if (i >= len || s[i] < '0' || s[i] > '7')
					return 0;
				v = v * 8 + (s[i++] - '0');
			}
			strbuf_addch(out, v);
			break;
		}
		default:
			strbuf_addch(out, c);
		}
	}
	return 0;
}

static void add_path(struct strvec *paths, const char *s, size_t len)
{
	/* no git diff names a path holding a NUL byte: garbage, left out */
	if (!len || (len == 9 && !memcmp(s, "/dev/null", 9)) || memchr(s, '\0', len))
		return;
	/* a file's header names it up to four times; the rest is mailinfo_paths_unique()'s */
	for (size_t i = paths->nr > 4 ? paths->nr - 4 : 0; i < paths->nr; i++)
		if (strlen(paths->v[i]) == len && !memcmp(paths->v[i], s, len))
			return;
	strvec_push_mem(paths, s, len);
}

struct path_at {
	const char *path;
	size_t at;
};

static int cmp_path_at(const void *a, const void *b)
{
	const struct path_at *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

void mailinfo_paths_unique(struct strvec *paths)
{
	struct path_at *sorted;
	unsigned char *dup;
	size_t n = paths->nr, out = 0;

	if (n < 2)
		return;
	sorted = xcalloc(n, sizeof(*sorted));
	dup = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		sorted[i].path = paths->v[i];
		sorted[i].at = i;
	}
	/* by name, then by position: the first of each run is the first added */
	qsort(sorted, n, sizeof(*sorted), cmp_path_at);
	for (size_t k = 1; k < n; k++)
		if (!strcmp(sorted[k].path, sorted[k - 1].path))
			dup[sorted[k].at] = 1;
	for (size_t i = 0; i < n; i++) {
		if (dup[i])
			free((char *)paths->v[i]);
		else
			paths->v[out++] = paths->v[i];
	}
	paths->nr = out;
	paths->v[out] = NULL;
	free(sorted);
	free(dup);
}

/* Drops the first directory of name ("a/" of "a/x"), as git apply -p1 does. */
static const char *strip_first_dir(const char *s, size_t len, size_t *rest)
{
	const char *slash = memchr(s, '/', len);

	if (!slash) {
		*rest = len;
		return s;
	}
	*rest = len - (slash - s + 1);
	return slash + 1;
}

static void add_name_unquoted(struct strvec *paths, const char *s, size_t len)
{
	size_t rest;
	const char *n = strip_first_dir(s, len, &rest);

	if (len)
		add_path(paths, n, rest);
}

/* A name as it appears in ---/+++ (strip_prefix: drop one directory) or rename lines. */
static void add_name(struct strvec *paths, const char *s, size_t len, int strip_prefix)
{
	struct strbuf name = STRBUF_INIT;
	const char *slash;

	if (len && s[0] == '"') {
		if (!unquote_c(&name, s, len))
			goto out;
		s = name.buf;
		len = name.len;
	} else {
		/* the usual case: a slice of the line, no copy */
		const char *tab = memchr(s, '\t', len);
		if (tab)
			len = tab - s;
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\r'))
			len--;
	}
	if (len == 9 && !memcmp(s, "/dev/null", 9))
		goto out;
	if (strip_prefix && (slash = memchr(s, '/', len))) {
		len -= slash + 1 - s;
		s = slash + 1;
	}
	add_path(paths, s, len);
out:
	strbuf_release(&name);
}

/*
 * "diff --git a/x b/y" (used when no ---/+++ or rename lines name the
 * files, as for a mode change or a binary diff): quoted names are
 * decoded; unquoted ones are split where both sides name the same file,
 * else at " b/".
 */
static void add_git_header_names(struct strvec *paths, const char *s, size_t len)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (len && s[0] == '"') {
		size_t n = unquote_c(&a, s, len);
		if (n && n < len && s[n] == ' ') {
			const char *r = s + n + 1;
			size_t rl = len - n - 1;
			if (rl && r[0] == '"')
				unquote_c(&b, r, rl);
			else
				strbuf_add(&b, r, rl);
		}
		add_name_unquoted(paths, a.buf, a.len);
		add_name_unquoted(paths, b.buf, b.len);
	} else {
		const char *sp = NULL;

		for (const char *q = memchr(s, ' ', len); q; q = memchr(q + 1, ' ', s + len - q - 1)) {
			size_t la, lb;
			const char *na = strip_first_dir(s, q - s, &la);
			const char *nb = strip_first_dir(q + 1, s + len - q - 1, &lb);
			if (la == lb && !memcmp(na, nb, la)) {
				sp = q;
				break;
			}
			if (q + 1 >= s + len)
				break;
		}
		if (!sp)
			sp = memmem(s, len, " b/", 3);
		if (sp) {
			size_t la, lb;
			const char *na = strip_first_dir(s, sp - s, &la);
			const char *nb = strip_first_dir(sp + 1, s + len - sp - 1, &lb);
			add_path(paths, na, la);
			add_path(paths, nb, lb);
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

static int parse_range(const char **p, const char *end, long *count)
{
	long start = 0;

	if (*p >= end || !isdigit((unsigned char)**p))
		return -1;
	while (*p < end && isdigit((unsigned char)**p) && start < 100000000)
		start = start * 10 + (*(*p)++ - '0');
	*count = 1;
	if (*p < end && **p == ',') {
		(*p)++;
		*count = 0;
		while (*p < end && isdigit((unsigned char)**p) && *count < 100000000)
			*count = *count * 10 + (*(*p)++ - '0');
	}
	return 0;
}

void mailinfo_diff_paths(struct strvec *paths, const char *patch, size_t len)
{
	const char *p = patch, *end = patch + len;
	long old_left = 0, new_left = 0;
	const char *git_hdr = NULL;
	size_t git_hdr_len = 0;
	int named = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p, *v;

		p += l + (nl ? 1 : 0);
		/* CRs before the newline (CRLF mail, as kept or as converted) */
		while (l && line[l - 1] == '\r')
			l--;
		if (old_left > 0 || new_left > 0) {
			/* inside a hunk: nothing here names a file */
			char c = l ? line[0] : ' ';
			if (c == ' ' || !l) {
				old_left--;
				new_left--;
			} else if (c == '-') {
				old_left--;
			} else if (c == '+') {
				new_left--;
			} else if (c != '\\') {
				old_left = new_left = 0;	/* a broken hunk: resync */
			} else {
				continue;
			}
			if (old_left > 0 || new_left > 0 || c == '\\')
				continue;
			continue;
		}
		if (l >= 11 && !memcmp(line, "diff --git ", 11)) {
			if (git_hdr && !named)
				add_git_header_names(paths, git_hdr, git_hdr_len);
			git_hdr = line + 11;
			git_hdr_len = l - 11;
			named = 0;
			continue;
		}
		if (l > 4 && (!memcmp(line, "--- ", 4) || !memcmp(line, "+++ ", 4))) {
			add_name(paths, line + 4, l - 4, 1);
			named = 1;
			continue;
		}
		if ((l > 12 && skip_prefix(line, "rename from ", &v)) ||
		    (l > 10 && skip_prefix(line, "rename to ", &v)) ||
		    (l > 10 && skip_prefix(line, "copy from ", &v)) ||
		    (l > 8 && skip_prefix(line, "copy to ", &v))) {
			add_name(paths, v, line + l - v, 0);
			named = 1;
			continue;
		}
		if (l > 3 && !memcmp(line, "@@ -", 4)) {
			const char *q = line + 4, *qe = line + l;
			if (parse_range(&q, qe, &old_left) < 0 || q + 2 > qe || q[0] != ' ' || q[1] != '+') {
				old_left = new_left = 0;
				continue;
			}
			q += 2;
			if (parse_range(&q, qe, &new_left) < 0)
				old_left = new_left = 0;
			continue;
		}
		if (l == 0 || (l >= 2 && line[0] == '-' && line[1] == '-' && (l == 2 || line[2] == ' '))) {
			/* end of the patch: signature "-- " or a blank line */
			if (git_hdr && !named)
				add_git_header_names(paths, git_hdr, git_hdr_len);
			git_hdr = NULL;
			named = 1;
		}
	}
	if (git_hdr && !named)
		add_git_header_names(paths, git_hdr, git_hdr_len);
}

/* ---- the whole message ---- */

void mailinfo_init(struct patch_mail *pm)
{
	memset(pm, 0, sizeof(*pm));
	strbuf_init(&pm->author_name, 0);
	strbuf_init(&pm->author_email, 0);
	strbuf_init(&pm->date, 0);
	strbuf_init(&pm->subject, 0);
	strbuf_init(&pm->raw_subject, 0);
	strbuf_init(&pm->message, 0);
	strbuf_init(&pm->patch, 0);
	strbuf_init(&pm->message_id, 0);
	strbuf_init(&pm->in_reply_to, 0);
	strvec_init(&pm->references);
	strvec_init(&pm->to);
	strvec_init(&pm->cc);
	strvec_init(&pm->paths);
	pm->version = 1;
}

void mailinfo_reset(struct patch_mail *pm)
{
	strbuf_reset(&pm->author_name);
	strbuf_reset(&pm->author_email);
	strbuf_reset(&pm->date);
	strbuf_reset(&pm->subject);
	strbuf_reset(&pm->raw_subject);
	strbuf_reset(&pm->message);
	strbuf_reset(&pm->patch);
	strbuf_reset(&pm->message_id);
	strbuf_reset(&pm->in_reply_to);
	strvec_clear(&pm->references);
	strvec_clear(&pm->to);
	strvec_clear(&pm->cc);
	strvec_clear(&pm->paths);
	pm->version = 1;
	pm->number = pm->total = 0;
	pm->has_patch = pm->is_reply = 0;
	pm->has_author = pm->has_subject = pm->has_date = 0;
}

static void mi_free(struct mi *mi);

void mailinfo_release(struct patch_mail *pm)
{
	mailinfo_reset(pm);
	mi_free(pm->scratch);
	pm->scratch = NULL;
	strbuf_release(&pm->author_name);
	strbuf_release(&pm->author_email);
	strbuf_release(&pm->date);
	strbuf_release(&pm->subject);
	strbuf_release(&pm->raw_subject);
	strbuf_release(&pm->message);
	strbuf_release(&pm->patch);
	strbuf_release(&pm->message_id);
	strbuf_release(&pm->in_reply_to);
}

/* The parser state lives in pm->scratch between calls: buffers are reused. */
static struct mi *mi_get(struct patch_mail *pm)
{
	struct mi *mi = pm->scratch;

	if (mi)
		return mi;
	mi = xcalloc(1, sizeof(*mi));
	for (int i = 0; i < H_NR; i++) {
		strbuf_init(&mi->p_hdr[i], 0);
		strbuf_init(&mi->s_hdr[i], 0);
	}
	for (int i = 0; i <= MAILINFO_MAX_MIME_DEPTH; i++)
		strbuf_init(&mi->boundary[i], 0);
	strbuf_init(&mi->charset, 0);
	strbuf_init(&mi->inbody_accum, 0);
	strbuf_init(&mi->message_id, 0);
	strbuf_init(&mi->message_id_raw, 0);
	strbuf_init(&mi->err, 0);
	strbuf_init(&mi->hdr_tmp, 0);
	strbuf_init(&mi->line, 0);
	pm->scratch = mi;
	return mi;
}

static void mi_start(struct mi *mi, struct patch_mail *pm, const struct raw_mail *raw,
		     const struct mailinfo_opts *opts)
{
	mi->opts = opts;
	mi->pm = pm;
	mi->raw = raw;
	mi->p = raw->buf;
	mi->end = raw->buf + raw->len;
	mi->line_start = NULL;
	for (int i = 0; i < H_NR; i++) {
		strbuf_reset(&mi->p_hdr[i]);
		strbuf_reset(&mi->s_hdr[i]);
		mi->p_set[i] = mi->s_set[i] = 0;
	}
	for (int i = 0; i <= MAILINFO_MAX_MIME_DEPTH; i++)
		strbuf_reset(&mi->boundary[i]);
	mi->top = 0;
	strbuf_reset(&mi->charset);
	mi->te = TE_DONTCARE;
	mi->format_flowed = mi->delsp = 0;
	strbuf_reset(&mi->inbody_accum);
	mi->header_stage = 1;
	mi->filter_stage = 0;
	mi->patch_lines = 0;
	mi->have_quoted_cr = 0;
	strbuf_reset(&mi->message_id);
	strbuf_reset(&mi->message_id_raw);
	mi->have_message_id = 0;
	mi->input_error = 0;
	strbuf_reset(&mi->err);
	mi->plain = 0;
	mi->patch_at = mi->patch_end = NULL;
}

static void mi_free(struct mi *mi)
{
	if (!mi)
		return;
	for (int i = 0; i < H_NR; i++) {
		strbuf_release(&mi->p_hdr[i]);
		strbuf_release(&mi->s_hdr[i]);
	}
	for (int i = 0; i <= MAILINFO_MAX_MIME_DEPTH; i++)
		strbuf_release(&mi->boundary[i]);
	strbuf_release(&mi->charset);
	strbuf_release(&mi->inbody_accum);
	strbuf_release(&mi->message_id);
	strbuf_release(&mi->message_id_raw);
	strbuf_release(&mi->err);
	strbuf_release(&mi->hdr_tmp);
	strbuf_release(&mi->line);
	free(mi);
}

int mailinfo_parse(struct patch_mail *pm, const struct raw_mail *raw, const struct mailinfo_opts *opts)
{
	struct mi *mi = mi_get(pm);
	int ret = 0;

	mailinfo_reset(pm);
	mi_start(mi, pm, raw, opts);

	while (mi->p < mi->end && git_isspace(*mi->p))
		mi->p++;
	if (mi->p >= mi->end) {
		mi_error(mi, "empty message");
		goto done;
	}
	while (read_header_line(mi, &mi->line)) {
		if (!check_header(mi, &mi->line, mi->p_hdr, mi->p_set, 1))
			extra_header(mi, &mi->line);
	}
	if (mi->have_message_id) {
		struct strvec ids = STRVEC_INIT;
		if (mail_parse_msgids(&ids, mi->message_id_raw.buf, mi->message_id_raw.len))
			strbuf_addstr(&pm->message_id, ids.v[0]);
		strvec_clear(&ids);
	}
	handle_body(mi, &mi->line);
	handle_info(mi);

	mailinfo_series_info(pm->raw_subject.buf, pm->raw_subject.len, &pm->version, &pm->number,
			     &pm->total);
	pm->is_reply = is_reply_subject(pm->raw_subject.buf);
	if (mi->plain && mi->patch_at && opts->headers_and_paths_only)
		/* after an input error git stops reading: so do we */
		mailinfo_diff_paths(&pm->paths, mi->patch_at,
				    (mi->patch_end ? mi->patch_end : mi->end) - mi->patch_at);
	else
		mailinfo_diff_paths(&pm->paths, pm->patch.buf, pm->patch.len);
	mailinfo_paths_unique(&pm->paths);
	pm->has_patch = mi->patch_lines > 0;
	if (opts->headers_and_paths_only) {
		strbuf_reset(&pm->message);
		strbuf_reset(&pm->patch);
	}
done:
	if (mi->err.len || mi->input_error) {
		if (!mi->err.len)
			strbuf_addstr(&mi->err, "cannot parse the message");
		ret = opts->quiet ? -1 : error("%s: message %zu: %s", raw->origin, raw->number, mi->err.buf);
	}
	return ret;
}

int mailinfo_scissors_line(const char *line)
{
	return is_scissors_line(line);
}
