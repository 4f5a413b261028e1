/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fast path of selection (see select_scan() in select.h): reads only
 * the headers selection needs and the diff's header lines, with the
 * mail core's pieces (common/mail/mail.h, common/mail/mailinfo.h), and hands every
 * message it is not sure about to mailinfo_parse().
 */

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "ascii.h"
#include "mail.h"
#include "mailinfo.h"
#include "select.h"
#include "source.h"
#include "utf8.h"

static int name_is(const struct mail_header *h, const char *name)
{
	size_t n = strlen(name);

	return h->name_len == n && !strncasecmp(h->name, name, n);
}

static int value_starts(const struct mail_header *h, const char *prefix)
{
	const char *v = h->value;
	size_t len = h->value_len, n = strlen(prefix);

	while (len && (*v == ' ' || *v == '\t')) {
		v++;
		len--;
	}
	return len >= n && !strncasecmp(v, prefix, n);
}

/*
 * Does a Content-Type value declare no charset or UTF-8, read as the
 * parser reads it (git's slurp_attr(): "charset=" anywhere, then up to a
 * quote, or to ';' or a blank)? Any other is converted by the parser.
 */
static int charset_is_utf8(const char *v)
{
	const char *p = strcasestr(v, "charset=");
	char name[32];
	size_t n;

	if (!p)
		return 1;
	p += 8;
	n = *p == '"' ? strcspn(++p, "\"") : strcspn(p, "; \t");
	if (!n)
		return 1;
	if (n >= sizeof(name))
		return 0;
	memcpy(name, p, n);
	name[n] = '\0';
	return mail_charset_is_utf8(name);
}

/* Same rule as the mail core's reply test (mailinfo.c). */
static int is_reply_subject(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !strncasecmp(s, "re:", 3) || !strncasecmp(s, "aw:", 3) ||
	       !strncasecmp(s, "fwd:", 4) || !strncasecmp(s, "fw:", 3);
}

/* Might s[0..len) hold an RFC 2047 encoded word ("=?")? memmem() costs more on short values. */
static int has_encoded_word(const char *s, size_t len)
{
	const char *eq;

	while (len > 1 && (eq = memchr(s, '=', len - 1))) {
		if (eq[1] == '?')
			return 1;
		len -= eq + 1 - s;
		s = eq + 1;
	}
	return 0;
}

/* Does s[0..len) hold a byte that is not ASCII? */
static int has_8bit(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 1;
	return 0;
}

/*
 * A folded header value unfolded as the parser does it (git's
 * read_one_header_line()): each line loses its trailing blanks, each
 * continuation line's first blank becomes a space.
 */
static void unfold(struct strbuf *out, const char *v, size_t len)
{
	const char *end = v + len;
	int first = 1;

	/* mail_header_next() skipped spaces and tabs; the parser skips a CR too */
	while (v < end && git_isspace(*v))
		v++;

	while (v < end) {
		const char *nl = memchr(v, '\n', end - v);
		const char *stop = nl ? nl : end;
		size_t start = out->len;

		strbuf_add(out, v, stop - v);
		if (!first && out->len > start)
			out->buf[start] = ' ';
		while (out->len > start && git_isspace(out->buf[out->len - 1]))
			out->len--;
		out->buf[out->len] = '\0';
		first = 0;
		v = nl ? nl + 1 : end;
	}
}

/* A header's value unfolded: in place when it is one line (only trimmed), else in buf. */
static void unfolded(struct strbuf *buf, const struct mail_header *h, const char **v, size_t *len)
{
	if (!memchr(h->value, '\n', h->value_len)) {
		*v = h->value;
		*len = h->value_len;
		while (*len && git_isspace(**v)) {
			(*v)++;
			(*len)--;
		}
		while (*len && git_isspace((*v)[*len - 1]))
			(*len)--;
		return;
	}
	strbuf_reset(buf);
	unfold(buf, h->value, h->value_len);
	*v = buf->buf;
	*len = buf->len;
}

/*
 * The decoded text of a From or Subject header into out, as the parser
 * decodes it; 0 when the parser must see it (a bad encoded word, a NUL
 * byte, invalid UTF-8: it reports those, or converts and warns).
 */
static int header_text(struct strbuf *out, const struct mail_header *h, struct strbuf *tmp)
{
	const char *problem = NULL;

	strbuf_reset(out);
	strbuf_reset(tmp);
	unfold(tmp, h->value, h->value_len);
	if (!has_encoded_word(tmp->buf, tmp->len))
		strbuf_addbuf(out, tmp);
	else if (mail_rfc2047_decode(out, tmp->buf, tmp->len, &problem) < 0)
		return 0;
	return !memchr(out->buf, '\0', out->len) && utf8_valid(out->buf, out->len);
}

static const char *line_at(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !memcmp(p, prefix, n) ? p : NULL;
}

/* line_at(), ignoring case. */
static const char *line_at_i(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !strncasecmp(p, prefix, n) ? p : NULL;
}

/*
 * Does body[0..end) hold a line where the parser's patch would start
 * (git's patchbreak(): "diff -", "Index: ", "---" with a name or
 * nothing after it)? Looked for only when there is no "diff --git" line.
 */
static int maybe_patch(const char *body, const char *end)
{
	static const char *const starts[] = { "---", "diff -", "Index: " };

	for (size_t i = 0; i < sizeof(starts) / sizeof(*starts); i++) {
		size_t n = strlen(starts[i]);

		if (mail_first_line(body, end - body, starts[i], n))
			return 1;
	}
	return 0;
}

/* The parser's check of a base64 body line p[0..end) (its '\n' included). */
static int b64_line_ok(const char *p, const char *end)
{
	size_t n = 0;
	int pad = 0;

	for (; p < end; p++) {
		unsigned char c = *p;

		if (c == '=') {
			pad = 1;
			n++;
		} else if (ascii_isalnum(c) || c == '+' || c == '/') {
			if (pad)
				return 0;
			n++;
		} else if (!git_isspace(c)) {
			return 0;
		}
	}
	return n % 4 == 0;
}

/* The parser's check of a quoted-printable body line p[0..end) (its '\n' included). */
static int qp_line_ok(const char *p, const char *end)
{
	const char *eq;

	while ((eq = memchr(p, '=', end - p))) {
		if (eq + 1 == end || eq[1] == '\n')
			return 1;
		if (eq + 2 < end && isxdigit((unsigned char)eq[1]) && isxdigit((unsigned char)eq[2])) {
			p = eq + 3;
			continue;
		}
		return 0;
	}
	return 1;
}

/*
 * The paths of the diff starting at p: only the header of each file
 * (from its "diff --git" line to its first hunk) is handed to the mail
 * core's path reader, so the hunks are skipped, not read line by line.
 */
static void diff_header_paths(struct patch_mail *pm, const char *p, const char *end)
{
	while (p && p < end) {
		const char *next = mail_find_line(p + 11, end - p - 11, "diff --git ", 11);
		const char *stop = next ? next : end;
		const char *hunk = mail_find_line(p, stop - p, "@@ ", 3);

		mailinfo_diff_paths(&pm->paths, p, (hunk ? hunk : stop) - p);
		p = next;
	}
}

int select_scan(struct patch_mail *pm, const struct raw_mail *raw)
{
	const char *buf = raw->buf, *end = raw->buf + raw->len, *body, *diff, *p;
	/* Scratch space kept between messages: fields the fast path leaves empty. */
	struct strbuf *val = &pm->message, *decoded = &pm->patch;
	/* Of a header given twice the last one counts, as in the parser (and git mailinfo). */
	struct mail_header h, from = { 0 }, subject = { 0 }, msgid = { 0 }, refs = { 0 };
	size_t pos = 0;
	int ok = 0;
	enum { CTE_PLAIN, CTE_QP, CTE_B64 } cte = CTE_PLAIN;

	mailinfo_reset(pm);
	while (pos < raw->len && (buf[pos] == '\n' || buf[pos] == '\r' || buf[pos] == ' '))
		pos++;
	while (mail_header_next(buf, raw->len, &pos, &h)) {
		/*
		 * The parser decodes every one of these (and reports a bad
		 * encoded word) even where the value is not used: leave an
		 * encoded word there to it, and a repeated From or Subject.
		 */
		if ((name_is(&h, "date") || name_is(&h, "message-id") || name_is(&h, "content-type") ||
		     name_is(&h, "content-transfer-encoding")) && has_encoded_word(h.value, h.value_len))
			goto done;
		if (name_is(&h, "content-transfer-encoding")) {
			/* anywhere in the value, as the parser (git) looks */
			strbuf_reset(val);
			unfold(val, h.value, h.value_len);
			cte = strcasestr(val->buf, "base64") ? CTE_B64 :
			      strcasestr(val->buf, "quoted-printable") ? CTE_QP : CTE_PLAIN;
		} else if (name_is(&h, "content-type")) {
			strbuf_reset(val);
			unfold(val, h.value, h.value_len);
			if (!value_starts(&h, "text/plain"))
				goto done;
			/* what git format-patch writes, else the parser's rules */
			if (strcasecmp(val->buf, "text/plain; charset=UTF-8") &&
			    (strcasestr(val->buf, "boundary=") || strcasestr(val->buf, "format=") ||
			     strcasestr(val->buf, "delsp=") || !charset_is_utf8(val->buf)))
				goto done;
		} else if (name_is(&h, "date")) {
			const char *v;
			size_t len;

			/* a date the parser refuses is for it to report (8-bit: it converts first) */
			unfolded(val, &h, &v, &len);
			if (!mailinfo_date_ok(v, len) || has_8bit(v, len))
				goto done;
		} else if (name_is(&h, "from")) {
			if (from.name)
				goto done;
			from = h;
		} else if (name_is(&h, "subject")) {
			if (subject.name)
				goto done;
			subject = h;
		} else if (name_is(&h, "message-id")) {
			msgid = h;
		} else if (name_is(&h, "in-reply-to")) {
			struct strvec ids = STRVEC_INIT;
			const char *v;
			size_t len;

			unfolded(val, &h, &v, &len);
			if (mail_parse_msgids(&ids, v, len)) {
				strbuf_reset(&pm->in_reply_to);
				strbuf_addstr(&pm->in_reply_to, ids.v[0]);
			}
			strvec_clear(&ids);
		} else if (name_is(&h, "references")) {
			refs = h;
		}
	}
	if (from.name) {
		if (!header_text(val, &from, decoded))
			goto done;
		mailinfo_header_from(pm, val->buf, val->len);
	}
	if (subject.name) {
		if (!header_text(val, &subject, decoded))
			goto done;
		mailinfo_header_subject(pm, val->buf, val->len);
	}
	strbuf_reset(decoded);
	if (msgid.name) {
		struct strvec ids = STRVEC_INIT;
		const char *v;
		size_t len;

		unfolded(val, &msgid, &v, &len);
		if (mail_parse_msgids(&ids, v, len))
			strbuf_addstr(&pm->message_id, ids.v[0]);
		strvec_clear(&ids);
	}
	if (refs.name) {
		const char *v;
		size_t len;

		unfolded(val, &refs, &v, &len);
		mail_parse_references(&pm->references, v, len);
	}
	/* The body: after the blank line that ends the headers. */
	body = buf + pos;
	/* only a CR before the '\n' is part of the blank line; a CR starting a line is text */
	if (end - body > 1 && body[0] == '\r' && body[1] == '\n')
		body++;
	if (body < end && *body == '\n') {
		body++;
	} else if (body < end) {
		/*
		 * No blank line: the line that ended the headers is read
		 * trimmed (git's read_one_header_line), so with blanks at
		 * its end it is the parser's to read.
		 */
		const char *nl = memchr(body, '\n', end - body), *le = nl ? nl : end;

		if (le > body && (le[-1] == ' ' || le[-1] == '\t' || le[-1] == '\r'))
			goto done;
	}
	/*
	 * A single encoded text part: checked line by line as the parser
	 * checks it (a bad one is left to it, to be reported), decoded as
	 * the mail core does, then scanned like a plain body.
	 */
	if (cte != CTE_PLAIN) {
		for (p = body; p < end; ) {
			const char *nl = memchr(p, '\n', end - p);
			const char *next = nl ? nl + 1 : end;

			if (!(cte == CTE_B64 ? b64_line_ok(p, next) : qp_line_ok(p, next)))
				goto done;
			if (cte == CTE_QP)
				mail_decode_q(decoded, p, next - p, 0);
			p = next;
		}
		if (cte == CTE_B64)
			mail_decode_b(decoded, body, end - body);
		if (memchr(decoded->buf, '\r', decoded->len))
			goto done;	/* the parser reads every decoded line for quoted CRLF */
		body = decoded->buf;
		end = decoded->buf + decoded->len;
	}
	/* NUL bytes and CRs (quoted CRLF) before the diff: the parser reports those. */
	diff = mail_first_line(body, end - body, "diff --git ", 11);
	if (memchr(buf, '\0', pos) || memchr(body, '\0', (diff ? diff : end) - body) ||
	    memchr(body, '\r', (diff ? diff : end) - body))
		goto done;
	/*
	 * In-body headers (From:, Subject:, Date: in any case), a "[PATCH]"
	 * subject line or a ">From" line where the message starts change
	 * what the parser reads: leave those to it.
	 */
	for (p = body; p < end && (*p == '\n' || *p == '\r'); p++)
		;
	if (line_at_i(p, end, "from:") || line_at_i(p, end, "subject:") || line_at_i(p, end, "date:") ||
	    line_at(p, end, ">From") || line_at(p, end, "[PATCH]"))
		goto done;
	if (diff) {
		pm->has_patch = 1;
		diff_header_paths(pm, diff, end);
		mailinfo_paths_unique(&pm->paths);
	} else if (maybe_patch(body, end)) {
		goto done;	/* a diff without "diff --git", or a "---" line: the parser knows */
	}
	mailinfo_series_info(pm->raw_subject.buf, pm->raw_subject.len, &pm->version,
			     &pm->number, &pm->total);
	pm->is_reply = is_reply_subject(pm->raw_subject.buf);
	ok = !!from.name;
done:
	strbuf_reset(val);
	strbuf_reset(decoded);
	return ok;
}
