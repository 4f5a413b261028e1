/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ascii.h"
#include "msg.h"
#include "mail.h"
#include "mailinfo.h"
#include "trailers.h"
#include "wrapper.h"

/* Nested multipart levels looked into for a reply's text, as the mail parser allows. */
#define REPLY_MIME_DEPTH MAILINFO_MAX_MIME_DEPTH

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* s[0..*len) without blanks at both ends: returns the new start. */
static const char *trim(const char *s, size_t *len)
{
	while (*len && ascii_isspace(*s)) {
		s++;
		(*len)--;
	}
	while (*len && ascii_isspace(s[*len - 1]))
		(*len)--;
	return s;
}

void trailer_list_release(struct trailer_list *tl)
{
	for (size_t i = 0; i < tl->nr; i++) {
		free(tl->v[i].line);
		free(tl->v[i].token);
		free(tl->v[i].value);
		free(tl->v[i].name);
		free(tl->v[i].email);
	}
	free(tl->v);
	tl->v = NULL;
	tl->nr = tl->alloc = 0;
}

struct trailer *trailer_list_add(struct trailer_list *tl, const char *token, size_t token_len,
				 const char *value, size_t value_len)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT, line = STRBUF_INIT;
	struct trailer *t;

	if (trailer_parse_person(value, value_len, &name, &email) < 0) {
		strbuf_reset(&name);
		strbuf_reset(&email);
	}
	strbuf_add(&line, token, token_len);
	strbuf_addstr(&line, ": ");
	strbuf_add(&line, value, value_len);
	ALLOC_GROW(tl->v, tl->nr + 1, tl->alloc);
	t = &tl->v[tl->nr++];
	t->line = strbuf_detach(&line, NULL);
	t->token = xstrndup(token, token_len);
	t->value = xstrndup(value, value_len);
	t->name = strbuf_detach(&name, NULL);
	t->email = strbuf_detach(&email, NULL);
	return t;
}

/* ---- one value as one person ---- */

/* b4's "\S+@\S+\.\S+", without the characters that end an address in a header. */
static int is_address(const char *s, size_t len)
{
	const char *at = memchr(s, '@', len);
	size_t i;

	if (!at || at == s || memchr(at + 1, '@', len - (at + 1 - s)))
		return 0;
	for (i = 0; i < len; i++)
		if (ascii_isspace(s[i]) || strchr("<>()[],;:\"\\", s[i]) || (unsigned char)s[i] < 0x20)
			return 0;
	/* a dot with something on both sides, after the '@' */
	for (const char *d = at + 2; d < s + len - 1; d++)
		if (*d == '.')
			return 1;
	return 0;
}

/* A display name: quoted ("Doe, Jane", backslash escapes undone) or as written. */
static void add_name(struct strbuf *name, const char *s, size_t len)
{
	s = trim(s, &len);
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		for (size_t i = 1; i + 1 < len; i++) {
			if (s[i] == '\\' && i + 2 < len)
				i++;
			strbuf_addch(name, s[i]);
		}
		return;
	}
	strbuf_add(name, s, len);
}

/*
 * The value without b4's "extinfo" comment: " # for the USB part" at its
 * end (from the first " #": an address holds no blank).
 */
static size_t without_comment(const char *s, size_t len)
{
	for (size_t i = 1; i + 1 < len; i++)
		if (s[i] == '#' && ascii_isspace(s[i - 1])) {
			while (i && ascii_isspace(s[i - 1]))
				i--;
			return i;
		}
	return len;
}

int trailer_parse_person(const char *value, size_t len, struct strbuf *name, struct strbuf *email)
{
	const char *lt, *paren;

	value = trim(value, &len);
	len = without_comment(value, len);
	if (!len)
		return -1;
	lt = memchr(value, '<', len);
	if (lt) {
		/* Name <a@b.c>, "Name" <a@b.c>, <a@b.c> */
		const char *gt = value + len - 1;

		if (*gt != '>' || !is_address(lt + 1, gt - lt - 1) || memchr(value, '>', gt - value))
			return -1;
		add_name(name, value, lt - value);
		strbuf_add(email, lt + 1, gt - lt - 1);
		return 0;
	}
	paren = memchr(value, '(', len);
	if (paren) {
		/* a@b.c (Name) */
		size_t alen = paren - value;
		const char *a = trim(value, &alen);

		if (value[len - 1] != ')' || !is_address(a, alen) ||
		    memchr(paren + 1, '(', value + len - paren - 2) ||
		    memchr(paren + 1, ')', value + len - paren - 2))
			return -1;
		add_name(name, paren + 1, value + len - paren - 2);
		strbuf_add(email, a, alen);
		return 0;
	}
	if (!is_address(value, len))
		return -1;
	strbuf_add(email, value, len);
	return 0;
}

/* ---- a reply's text ---- */

struct part_info {
	struct strbuf type;	/* "text/plain", lower case */
	struct strbuf ct;	/* the whole Content-Type value */
	struct strbuf cte;
	struct strbuf disposition;
};

static void part_info_read(struct part_info *pi, const char *buf, size_t hlen)
{
	size_t n;
	const char *t;

	strbuf_init(&pi->type, 0);
	strbuf_init(&pi->ct, 0);
	strbuf_init(&pi->cte, 0);
	strbuf_init(&pi->disposition, 0);
	if (!mail_header_get(buf, hlen, "Content-Type", &pi->ct))
		strbuf_addstr(&pi->ct, "text/plain");
	n = strcspn(pi->ct.buf, ";");
	t = trim(pi->ct.buf, &n);
	for (size_t i = 0; i < n; i++)
		strbuf_addch(&pi->type, t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
	if (!pi->type.len)
		strbuf_addstr(&pi->type, "text/plain");
	mail_header_get(buf, hlen, "Content-Transfer-Encoding", &pi->cte);
	strbuf_trim(&pi->cte);
	mail_header_get(buf, hlen, "Content-Disposition", &pi->disposition);
}

static void part_info_release(struct part_info *pi)
{
	strbuf_release(&pi->type);
	strbuf_release(&pi->ct);
	strbuf_release(&pi->cte);
	strbuf_release(&pi->disposition);
}

/* Is line[0..len) (without its newline) the delimiter "--<b>" (1) or the close "--<b>--" (2)? */
static int boundary_line(const char *line, size_t len, const struct strbuf *b)
{
	while (len && (line[len - 1] == '\r' || is_blank(line[len - 1])))
		len--;
	if (len < b->len + 2 || line[0] != '-' || line[1] != '-' || memcmp(line + 2, b->buf, b->len))
		return 0;
	if (len == b->len + 2)
		return 1;
	return len == b->len + 4 && line[len - 2] == '-' && line[len - 1] == '-' ? 2 : 0;
}

/*
 * RFC 3676: a line ending in a blank (not the signature "-- ") goes on
 * in the next; "> " quote marks and a space-stuffing blank are not part
 * of the text. Quoted lines are kept with their marks (they are skipped
 * later), only their flowing is undone.
 */
static void unflow(struct strbuf *out, const char *s, size_t len, int delsp)
{
	int joining = 0;
	size_t depth_prev = 0;

	while (len) {
		const char *nl = memchr(s, '\n', len);
		size_t l = nl ? (size_t)(nl - s) : len, depth = 0, start;

		while (depth < l && s[depth] == '>')
			depth++;
		start = depth;
		if (start < l && s[start] == ' ')
			start++;	/* space-stuffing */
		if (joining && depth == depth_prev) {
			strbuf_add(out, s + start, l - start);
		} else {
			if (joining)
				strbuf_addch(out, '\n');
			strbuf_add(out, s, depth);
			if (depth)
				strbuf_addch(out, ' ');
			strbuf_add(out, s + start, l - start);
		}
		joining = l > start && s[l - 1] == ' ' && !(l - start == 3 && !memcmp(s + start, "-- ", 3));
		if (joining && delsp)
			strbuf_setlen(out, out->len - 1);
		if (!joining)
			strbuf_addch(out, '\n');
		depth_prev = depth;
		if (!nl)
			break;
		len -= l + 1;
		s += l + 1;
	}
	if (joining)
		strbuf_addch(out, '\n');
}

/*
 * A reply's text as trailers_from_reply() reads it: copied into out, or,
 * when in_place is set and the text is the part's bytes as they are,
 * pointed at in the mail (see text_in_place()).
 */
struct reply_text {
	struct strbuf *out;
	const char **in_place;	/* NULL: always copy */
	size_t *in_place_len;
};

static int is_flowed(const struct part_info *pi)
{
	struct strbuf format = STRBUF_INIT;
	int flowed = mail_header_param(pi->ct.buf, pi->ct.len, "format", &format) &&
		     !strcasecmp(format.buf, "flowed");

	strbuf_release(&format);
	return flowed;
}

/*
 * The part's text without a copy, when copying would not change it: no
 * transfer encoding, UTF-8 or no charset (mail_to_utf8() copies those as
 * they are), not flowed, and no NUL or CR (the copy drops NULs and the
 * CRs of CRLF). Only the lines before the first "diff --git " are
 * looked at and given: trailers_from_reply() stops at that line, and
 * each of the copy's steps keeps a line that starts after a newline
 * where it was, so the trailers are the same. 1 when done.
 */
static int text_in_place(const struct reply_text *rt, const char *body, size_t len,
			 const struct part_info *pi, const char *charset)
{
	const char *diff;
	size_t n;

	if (!rt->in_place || !strcasecmp(pi->cte.buf, "base64") ||
	    !strcasecmp(pi->cte.buf, "quoted-printable") ||
	    (*charset && !mail_charset_is_utf8(charset)) || is_flowed(pi))
		return 0;
	diff = mail_first_line(body, len, "diff --git ", 11);
	n = diff ? (size_t)(diff - body) : len;
	if (memchr(body, '\0', n) || memchr(body, '\r', n))
		return 0;
	*rt->in_place = body;
	*rt->in_place_len = n;
	return 1;
}

static int text_part(const struct reply_text *rt, const char *body, size_t len, const struct part_info *pi)
{
	struct strbuf raw = STRBUF_INIT, utf8 = STRBUF_INIT, charset = STRBUF_INIT, flow = STRBUF_INIT;
	struct strbuf *out = rt->out;
	const char *problem;
	int ret = 0;

	mail_header_param(pi->ct.buf, pi->ct.len, "charset", &charset);
	if (text_in_place(rt, body, len, pi, charset.buf))
		goto out;
	if (!strcasecmp(pi->cte.buf, "base64"))
		mail_decode_base64(&raw, body, len, &problem);
	else if (!strcasecmp(pi->cte.buf, "quoted-printable"))
		mail_decode_qp(&raw, body, len, &problem);
	else
		strbuf_add(&raw, body, len);
	if (mail_to_utf8(&utf8, raw.buf, raw.len, charset.buf) < 0) {
		ret = -1;
		goto out;
	}
	/* CRLF line ends as LF; a NUL is no text */
	for (size_t i = 0; i < utf8.len; i++)
		if (!utf8.buf[i] || (utf8.buf[i] == '\r' && (i + 1 == utf8.len || utf8.buf[i + 1] == '\n')))
			continue;
		else
			strbuf_addch(&flow, utf8.buf[i]);
	if (is_flowed(pi)) {
		struct strbuf delsp = STRBUF_INIT;
		int del = mail_header_param(pi->ct.buf, pi->ct.len, "delsp", &delsp) &&
			  !strcasecmp(delsp.buf, "yes");

		unflow(out, flow.buf, flow.len, del);
		strbuf_release(&delsp);
	} else {
		strbuf_addbuf(out, &flow);
	}
out:
	strbuf_release(&raw);
	strbuf_release(&utf8);
	strbuf_release(&charset);
	strbuf_release(&flow);
	return ret;
}

static int find_text(const struct reply_text *rt, const char *buf, size_t len, int depth);

/* The first part of a multipart body that has text. */
static int multipart_text(const struct reply_text *rt, const char *body, size_t len,
			  const struct part_info *pi, int depth)
{
	struct strbuf b = STRBUF_INIT;
	const char *part = NULL;
	size_t pos = 0;
	int ret = -1;

	if (depth >= REPLY_MIME_DEPTH || !mail_header_param(pi->ct.buf, pi->ct.len, "boundary", &b) ||
	    !b.len)
		goto out;
	while (pos < len) {
		const char *line = body + pos, *nl = memchr(line, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - line) : len - pos;
		int kind = boundary_line(line, l, &b);

		if (kind && part) {
			/* the part ends before the newline that precedes the delimiter */
			size_t plen = line - part;

			if (plen && part[plen - 1] == '\n')
				plen--;
			if (plen && part[plen - 1] == '\r')
				plen--;
			if (!find_text(rt, part, plen, depth + 1)) {
				ret = 0;
				goto out;
			}
		}
		if (kind == 2)
			break;
		if (kind)
			part = nl ? nl + 1 : body + len;
		pos += l + (nl != NULL);
	}
out:
	strbuf_release(&b);
	return ret;
}

static int find_text(const struct reply_text *rt, const char *buf, size_t len, int depth)
{
	struct part_info pi;
	size_t hlen = mail_header_len(buf, len);
	int ret = -1;

	part_info_read(&pi, buf, hlen);
	if (starts_with(pi.type.buf, "multipart/"))
		ret = multipart_text(rt, buf + hlen, len - hlen, &pi, depth);
	else if (!strcmp(pi.type.buf, "text/plain") &&
		 strncasecmp(pi.disposition.buf, "attachment", 10))
		ret = text_part(rt, buf + hlen, len - hlen, &pi);
	part_info_release(&pi);
	return ret;
}

int trailers_reply_text(struct strbuf *out, const char *mail, size_t len)
{
	struct reply_text rt = { out, NULL, NULL };
	size_t start = out->len;

	if (find_text(&rt, mail, len, 0) < 0) {
		strbuf_setlen(out, start);
		return -1;
	}
	return 0;
}

int trailers_of_reply(struct trailer_list *out, const char *mail, size_t len)
{
	struct strbuf copy = STRBUF_INIT;
	const char *text = NULL;
	size_t text_len = 0;
	struct reply_text rt = { &copy, &text, &text_len };
	int ret = find_text(&rt, mail, len, 0);

	if (!ret)
		trailers_from_reply(out, text ? text : copy.buf, text ? text_len : copy.len);
	strbuf_release(&copy);
	return ret < 0 ? -1 : 0;
}

/* ---- the trailers of a reply's text ---- */

static const char *const not_trailers[] = {
	"from", "to", "cc", "bcc", "reply-to", "author", "subject", "date", "sent", "phone", "email",
};

/* The length of a well-formed "Token:" at line (the colon not counted), or 0. */
static size_t token_len(const char *line, size_t len)
{
	size_t i = 0;

	if (!len || !ascii_isalnum(line[0]))
		return 0;
	while (i < len && (ascii_isalnum(line[i]) || line[i] == '-'))
		i++;
	if (i < 2 || i + 2 > len || line[i] != ':' || !is_blank(line[i + 1]))
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(not_trailers); k++)
		if (strlen(not_trailers[k]) == i && !strncasecmp(line, not_trailers[k], i))
			return 0;
	return i;
}

/* "Fixes: 0123abcd ("subject")": a commit id of 8 to 40 hex digits first. */
static int is_fixes(const char *token, size_t tlen, const char *value, size_t vlen)
{
	size_t n = 0;

	if (tlen != 5 || strncasecmp(token, "fixes", 5))
		return 0;
	while (n < vlen && hex_digit((unsigned char)value[n]) >= 0)
		n++;
	return n >= 8 && n <= 40 && (n == vlen || is_blank(value[n]));
}

struct text_lines {
	const char *text;
	size_t len, pos;
};

/* The next line (without newline and trailing CR) of tl; 0 at the end. */
static int next_line(struct text_lines *tl, const char **line, size_t *len)
{
	const char *s = tl->text + tl->pos, *nl;
	size_t l;

	if (tl->pos >= tl->len)
		return 0;
	nl = memchr(s, '\n', tl->len - tl->pos);
	l = nl ? (size_t)(nl - s) : tl->len - tl->pos;
	tl->pos += l + (nl != NULL);
	while (l && s[l - 1] == '\r')
		l--;
	*line = s;
	*len = l;
	return 1;
}

static int peek_line(const struct text_lines *tl, const char **line, size_t *len)
{
	struct text_lines copy = *tl;

	return next_line(&copy, line, len);
}

static int line_starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

/* Does the line end the replier's text (see the header)? */
static int ends_own_text(const char *line, size_t len, const struct text_lines *tl)
{
	static const char *const header_next[] = { "Sent: ", "Date: ", "To: ", "Subject: " };
	const char *next;
	size_t nlen;
	struct strbuf sb = STRBUF_INIT;
	int scissors;

	if ((len == 3 && !memcmp(line, "-- ", 3)) || (len == 2 && !memcmp(line, "--", 2)))
		return 1;
	if (line_starts(line, len, "-----Original Message-----") ||
	    line_starts(line, len, "---------- Forwarded message") ||
	    line_starts(line, len, "diff --git ") || line_starts(line, len, "Index: "))
		return 1;
	if (line_starts(line, len, "--- ") && peek_line(tl, &next, &nlen) &&
	    line_starts(next, nlen, "+++ "))
		return 1;
	if (line_starts(line, len, "From: ") && peek_line(tl, &next, &nlen))
		for (size_t i = 0; i < ARRAY_SIZE(header_next); i++)
			if (line_starts(next, nlen, header_next[i]))
				return 1;
	if (!memchr(line, '8', len) && !memchr(line, '%', len))
		return 0;
	strbuf_add(&sb, line, len);
	scissors = mailinfo_scissors_line(sb.buf);
	strbuf_release(&sb);
	return scissors;
}

static int is_quoted(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && is_blank(line[i]))
		i++;
	return i < len && line[i] == '>';
}

/* "<jane@example.com>" alone on a line: the address of a name cut by a mailer. */
static int lone_address(const char *line, size_t len)
{
	line = trim(line, &len);
	return len > 2 && line[0] == '<' && line[len - 1] == '>' && is_address(line + 1, len - 2);
}

/* A C0 control character other than tab, or DEL. */
static int has_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return 1;
	return 0;
}

/*
 * "Jane <jane@x.org<mailto:jane@x.org>>", as a mailer that turns HTML
 * mail back into text writes an address: the "<mailto:...>" go, as b4
 * drops them.
 */
static void drop_mailto(struct strbuf *value)
{
	static const char tag[] = "<mailto:";
	char *p;

	while ((p = memmem(value->buf, value->len, tag, sizeof(tag) - 1))) {
		char *end = memchr(p + sizeof(tag) - 1, '>', value->buf + value->len - p - (sizeof(tag) - 1));
		size_t from = p - value->buf;

		if (!end || end == p + sizeof(tag) - 1)
			break;
		strbuf_remove(value, from, end + 1 - p);
	}
}

void trailers_from_reply(struct trailer_list *out, const char *text, size_t len)
{
	struct text_lines tl = { text, len, 0 };
	struct strbuf value = STRBUF_INIT, name = STRBUF_INIT, email = STRBUF_INIT;
	const char *line, *next;
	size_t l, nlen;

	while (next_line(&tl, &line, &l)) {
		size_t tok, vlen;
		const char *v;

		if (ends_own_text(line, l, &tl))
			break;
		if (is_quoted(line, l) || !(tok = token_len(line, l)))
			continue;
		vlen = l - tok - 1;
		v = trim(line + tok + 1, &vlen);
		if (!vlen)
			continue;
		strbuf_reset(&value);
		strbuf_add(&value, v, vlen);
		if (!memchr(v, '@', vlen) && peek_line(&tl, &next, &nlen) && lone_address(next, nlen)) {
			next_line(&tl, &next, &nlen);
			next = trim(next, &nlen);
			strbuf_addch(&value, ' ');
			strbuf_add(&value, next, nlen);
		}
		drop_mailto(&value);
		strbuf_reset(&name);
		strbuf_reset(&email);
		/* a lone CR, ESC ... would carry more than one line into a commit or a listing */
		if (has_control(value.buf, value.len))
			continue;
		if (!trailer_parse_person(value.buf, value.len, &name, &email) ||
		    is_fixes(line, tok, value.buf, value.len))
			trailer_list_add(out, line, tok, value.buf, value.len);
	}
	strbuf_release(&value);
	strbuf_release(&name);
	strbuf_release(&email);
}

int trailers_in_reply(const char *mail, size_t len)
{
	struct trailer_list tl = TRAILER_LIST_INIT;
	size_t hlen = mail_header_len(mail, len);
	int found;

	/* a trailer names a person by address, or is a Fixes: line; base64 hides both */
	if (!memchr(mail + hlen, '@', len - hlen) && !memmem(mail, len, "ixes:", 5) &&
	    !memmem(mail, len, "ase64", 5) && !memmem(mail, len, "ASE64", 5))
		return 0;
	trailers_of_reply(&tl, mail, len);
	found = tl.nr > 0;
	trailer_list_release(&tl);
	return found;
}

/* ---- a commit message's trailer block ---- */

struct block_item {
	const char *s;
	size_t len;		/* the item: a line, or a trailer with its continuation lines, without the last newline */
	long sep;		/* its separator, or -1 for a line that is no trailer */
};

struct block {
	struct block_item *v;
	size_t nr, alloc;
	size_t start, end;	/* the block in the message */
};

/* git's trailer_info_get(): the block's lines, a blank-led line continuing the trailer before it. */
static void block_read(struct block *b, const char *msg, size_t len, const struct trailer_conf *tc)
{
	int last_is_trailer = 0;
	size_t off;

	memset(b, 0, sizeof(*b));
	msg_trailer_block(msg, len, tc, &b->start, &b->end);
	for (off = b->start; off < b->end;) {
		const char *line = msg + off, *nl = memchr(line, '\n', b->end - off);
		size_t l = nl ? (size_t)(nl - line) : b->end - off;

		if (last_is_trailer && ascii_isspace(line[0])) {
			b->v[b->nr - 1].len = line + l - b->v[b->nr - 1].s;
		} else {
			ALLOC_GROW(b->v, b->nr + 1, b->alloc);
			b->v[b->nr].s = line;
			b->v[b->nr].len = l;
			b->v[b->nr].sep = msg_trailer_separator(line, line + l, tc);
			last_is_trailer = b->v[b->nr].sep >= 1;
			b->nr++;
		}
		off += l + (nl != NULL);
	}
}

void trailers_of_message(struct trailer_list *out, const char *msg, size_t len,
			 const struct trailer_conf *tc)
{
	struct block b;
	struct strbuf value = STRBUF_INIT;

	block_read(&b, msg, len, tc);
	for (size_t i = 0; i < b.nr; i++) {
		const struct block_item *it = &b.v[i];
		size_t tlen = it->sep, vlen;
		const char *tok, *v;

		if (it->sep < 1 || it->s[0] == '#')
			continue;
		tok = trim(it->s, &tlen);
		vlen = it->len - it->sep - 1;
		v = trim(it->s + it->sep + 1, &vlen);
		/* continuation lines read as one line */
		strbuf_reset(&value);
		for (size_t k = 0; k < vlen; k++) {
			if (v[k] != '\n') {
				strbuf_addch(&value, v[k]);
				continue;
			}
			while (k + 1 < vlen && ascii_isspace(v[k + 1]))
				k++;
			strbuf_addch(&value, ' ');
		}
		trailer_list_add(out, tok, tlen, value.buf, value.len);
	}
	strbuf_release(&value);
	free(b.v);
}

/* ---- who gave a trailer ---- */

/* The address in lower case, the "+tag" of its local part dropped. */
static void address_key(struct strbuf *out, const char *email)
{
	const char *at = strchr(email, '@'), *plus;

	for (const char *c = email; *c; c++)
		strbuf_addch(out, *c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	plus = at ? memchr(email, '+', at - email) : NULL;
	if (plus)
		strbuf_remove(out, plus - email, at - plus);
}

static size_t count_dots(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '.';
	return n;
}

/* "linux.intel.com" is "intel.com" one level deeper. */
static int subdomain_of(const char *deep, const char *shallow)
{
	size_t d = strlen(deep), s = strlen(shallow);

	return d > s + 1 && deep[d - s - 1] == '.' && !strcmp(deep + d - s, shallow) &&
	       count_dots(deep) == count_dots(shallow) + 1;
}

/* b4's email_eq(..., fuzzy=True). */
static int same_address(const char *a, const char *b)
{
	struct strbuf ka = STRBUF_INIT, kb = STRBUF_INIT;
	const char *ata, *atb;
	int ret = 0;

	address_key(&ka, a);
	address_key(&kb, b);
	ata = strchr(ka.buf, '@');
	atb = strchr(kb.buf, '@');
	if (!strcmp(ka.buf, kb.buf))
		ret = 1;
	else if (ata && atb && ata - ka.buf == atb - kb.buf && !memcmp(ka.buf, kb.buf, ata - ka.buf))
		ret = subdomain_of(ata + 1, atb + 1) || subdomain_of(atb + 1, ata + 1);
	strbuf_release(&ka);
	strbuf_release(&kb);
	return ret;
}

int trailer_is_from(const struct trailer *t, const char *from_name, const char *from_email)
{
	if (!*t->email)
		return 1;
	if (same_address(t->email, from_email))
		return 1;
	return *t->name && *from_name && !strcasecmp(t->name, from_name);
}

/* ---- adding trailers as git interpret-trailers does ---- */

/* git's token_len_without_separator(): the token without its final punctuation. */
static size_t token_core_len(const char *tok, size_t len)
{
	while (len && !ascii_isalnum(tok[len - 1]))
		len--;
	return len;
}

/* git's same_token(): the shorter token is a case-blind prefix of the longer. */
static int same_token(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t la = token_core_len(a, alen), lb = token_core_len(b, blen);

	return !strncasecmp(a, b, la < lb ? la : lb);
}

struct item {
	struct strbuf token, value;	/* token.len == 0: a line that is no trailer, in value */
	int is_trailer;
};

static void item_set(struct item *it, const char *s, size_t len, long sep)
{
	strbuf_init(&it->token, 0);
	strbuf_init(&it->value, 0);
	it->is_trailer = sep >= 1;
	if (!it->is_trailer) {
		strbuf_add(&it->value, s, len);
		return;
	}
	strbuf_add(&it->token, s, sep);
	strbuf_trim(&it->token);
	strbuf_add(&it->value, s + sep + 1, len - sep - 1);
	strbuf_trim(&it->value);
}

static int value_exists(const struct item *items, size_t nr, const struct item *arg)
{
	for (size_t i = 0; i < nr; i++)
		if (items[i].is_trailer &&
		    same_token(items[i].token.buf, items[i].token.len, arg->token.buf, arg->token.len) &&
		    !strcasecmp(items[i].value.buf, arg->value.buf))
			return 1;
	return 0;
}

/* git's print_tok_val(). */
static void print_item(struct strbuf *out, const struct item *it, const char *seps)
{
	size_t n = it->token.len;

	if (!it->is_trailer) {
		strbuf_addbuf(out, &it->value);
		strbuf_addch(out, '\n');
		return;
	}
	while (n && ascii_isspace(it->token.buf[n - 1]))
		n--;
	if (!n)
		return;
	strbuf_addbuf(out, &it->token);
	if (!strchr(seps, it->token.buf[n - 1])) {
		strbuf_addch(out, seps[0]);
		strbuf_addch(out, ' ');
	}
	strbuf_addbuf(out, &it->value);
	strbuf_addch(out, '\n');
}

static int ends_with_blank_line(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	i = len - 1;	/* the last line's newline belongs to it */
	while (i > 0 && s[i - 1] != '\n')
		i--;
	for (; i < len && s[i] != '\n'; i++)
		if (!ascii_isspace(s[i]))
			return 0;
	return 1;
}

void trailers_add_to_message(struct strbuf *msg, const struct trailer_conf *tc,
			     const char *const *lines, size_t nr)
{
	const char *seps = tc && tc->separators ? tc->separators : ":";
	struct strbuf out = STRBUF_INIT;
	struct item *items;
	size_t nitems = 0;
	struct block b;

	if (!nr)
		return;
	block_read(&b, msg->buf, msg->len, tc);
	items = xcalloc(st_add(b.nr, nr) + 1, sizeof(*items));
	for (size_t i = 0; i < b.nr; i++)
		if (b.v[i].s[0] != '#')	/* git drops comments from the block it rewrites */
			item_set(&items[nitems++], b.v[i].s, b.v[i].len, b.v[i].sep);
	for (size_t i = 0; i < nr; i++) {
		const char *line = lines[i], *end = line + strlen(line);
		long sep = msg_trailer_separator(line, end, tc);
		struct item arg;

		if (sep < 1)
			sep = (const char *)memchr(line, ':', end - line) ? strchr(line, ':') - line : -1;
		if (sep < 1)
			continue;	/* not a trailer: nothing to add */
		item_set(&arg, line, end - line, sep);
		if (value_exists(items, nitems, &arg)) {
			strbuf_release(&arg.token);
			strbuf_release(&arg.value);
			continue;
		}
		items[nitems++] = arg;
	}
	strbuf_add(&out, msg->buf, b.start);
	if (!ends_with_blank_line(msg->buf, b.start))
		strbuf_addch(&out, '\n');
	for (size_t i = 0; i < nitems; i++) {
		print_item(&out, &items[i], seps);
		strbuf_release(&items[i].token);
		strbuf_release(&items[i].value);
	}
	strbuf_add(&out, msg->buf + b.end, msg->len - b.end);
	strbuf_release(msg);
	*msg = out;
	free(items);
	free(b.v);
}
