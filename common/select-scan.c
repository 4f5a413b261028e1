/*
 * The fast path of selection (see select_scan() in select.h): reads only
 * the headers selection needs and the diff's header lines, with the
 * mail core's pieces (common/mail.h, common/mailinfo.h), and hands every
 * message it is not sure about to patch_mail_parse().
 */

#include <string.h>
#include <strings.h>

#include "mail.h"
#include "mailinfo.h"
#include "select.h"
#include "source.h"

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

/* mail_unfold(), without the per-byte copy for the usual one-line value. */
static void unfold(struct strbuf *out, const char *v, size_t len)
{
	if (memchr(v, '\n', len)) {
		mail_unfold(out, v, len);
		return;
	}
	while (len && (v[len - 1] == ' ' || v[len - 1] == '\t' || v[len - 1] == '\r'))
		len--;
	strbuf_add(out, v, len);
}

/*
 * The author's address. Only the email matters to selection (series are
 * grouped by it); "Name <a@b>" with a plain name is split here, anything
 * else (quotes, comments, encoded words) goes to the mail core's parser.
 */
static void from_address(struct patch_mail *pm, const struct strbuf *v)
{
	const char *lt = memchr(v->buf, '<', v->len);
	struct mail_address a = MAIL_ADDRESS_INIT;

	if (lt && v->buf[v->len - 1] == '>' && !memchr(v->buf, '"', v->len) &&
	    !memchr(v->buf, '(', v->len) && !has_encoded_word(v->buf, v->len) &&
	    memchr(lt, '@', v->buf + v->len - lt) && !memchr(lt + 1, '<', v->buf + v->len - lt - 1)) {
		const char *name_end = lt;

		while (name_end > v->buf && (name_end[-1] == ' ' || name_end[-1] == '\t'))
			name_end--;
		strbuf_add(&pm->author_name, v->buf, name_end - v->buf);
		strbuf_add(&pm->author_email, lt + 1, v->buf + v->len - lt - 2);
		return;
	}
	if (!mail_parse_address(&a, v->buf, v->len)) {
		strbuf_addbuf(&pm->author_name, &a.name);
		strbuf_addbuf(&pm->author_email, &a.email);
	}
	mail_address_release(&a);
}

static const char *line_at(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !memcmp(p, prefix, n) ? p : NULL;
}

/* The first line of body[0..end) starting with "diff --git ", or NULL. */
static const char *find_diff(const char *body, const char *end)
{
	if (line_at(body, end, "diff --git "))
		return body;
	return mail_find_line(body, end - body, "diff --git ", 11);
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
	const char *buf = raw->buf, *end = raw->buf + raw->len, *body, *p;
	/* Scratch space kept between messages: fields the fast path leaves empty. */
	struct strbuf *val = &pm->message, *decoded = &pm->patch;
	struct mail_header h;
	size_t pos = 0;
	int have_from = 0, have_subject = 0, ok = 0;
	enum { CTE_PLAIN, CTE_QP, CTE_B64 } cte = CTE_PLAIN;

	patch_mail_reset(pm);
	while (pos < raw->len && (buf[pos] == '\n' || buf[pos] == '\r' || buf[pos] == ' '))
		pos++;
	while (mail_header_next(buf, raw->len, &pos, &h)) {
		if (name_is(&h, "content-transfer-encoding")) {
			if (value_starts(&h, "base64"))
				cte = CTE_B64;
			else if (value_starts(&h, "quoted-printable"))
				cte = CTE_QP;
		} else if (name_is(&h, "content-type")) {
			if (!value_starts(&h, "text/plain"))
				goto done;
			strbuf_reset(val);
			if (mail_header_param(h.value, h.value_len, "charset", val) &&
			    !mail_charset_is_utf8(val->buf) && strcasecmp(val->buf, "us-ascii"))
				goto done;
		} else if (name_is(&h, "from") && !have_from) {
			have_from = 1;
			strbuf_reset(val);
			unfold(val, h.value, h.value_len);
			from_address(pm, val);
		} else if (name_is(&h, "subject") && !have_subject) {
			have_subject = 1;
			strbuf_reset(val);
			unfold(val, h.value, h.value_len);
			if (has_encoded_word(val->buf, val->len))
				mail_rfc2047_decode(&pm->raw_subject, val->buf, val->len, NULL);
			else
				strbuf_addbuf(&pm->raw_subject, val);
		} else if (name_is(&h, "message-id") && !pm->message_id.len) {
			struct strvec ids = STRVEC_INIT;

			if (mail_parse_msgids(&ids, h.value, h.value_len))
				strbuf_addstr(&pm->message_id, ids.v[0]);
			strvec_clear(&ids);
		} else if (name_is(&h, "in-reply-to") && !pm->in_reply_to.len) {
			struct strvec ids = STRVEC_INIT;

			if (mail_parse_msgids(&ids, h.value, h.value_len))
				strbuf_addstr(&pm->in_reply_to, ids.v[0]);
			strvec_clear(&ids);
		} else if (name_is(&h, "references") && !pm->references.nr) {
			mail_parse_msgids(&pm->references, h.value, h.value_len);
		}
	}
	/* The body: after the blank line that ends the headers. */
	body = buf + pos;
	if (body < end && *body == '\r')
		body++;
	if (body < end && *body == '\n')
		body++;
	/* A single encoded text part: decode it as the mail core does, then scan that. */
	if (cte != CTE_PLAIN) {
		if (cte == CTE_B64) {
			mail_decode_b(decoded, body, end - body);
		} else {
			for (p = body; p < end; ) {
				const char *nl = memchr(p, '\n', end - p);
				const char *next = nl ? nl + 1 : end;

				mail_decode_q(decoded, p, next - p, 0);
				p = next;
			}
		}
		if (memchr(decoded->buf, '\r', decoded->len) || memchr(decoded->buf, '\0', decoded->len))
			goto done;
		body = decoded->buf;
		end = decoded->buf + decoded->len;
	}
	/* In-body From:/Subject:/Date: lines change the author: leave those to the parser. */
	for (p = body; p < end && (*p == '\n' || *p == '\r'); p++)
		;
	if (line_at(p, end, "From:") || line_at(p, end, "Subject:") || line_at(p, end, "Date:") ||
	    line_at(p, end, ">From:"))
		goto done;
	p = find_diff(body, end);
	if (p) {
		pm->has_patch = 1;
		diff_header_paths(pm, p, end);
	} else if (mail_find_line(body, end - body, "+++ ", 4)) {
		goto done;	/* maybe a diff without "diff --git": the parser knows */
	}
	strbuf_addbuf(&pm->subject, &pm->raw_subject);
	mailinfo_cleanup_subject(&pm->subject, 0);
	mailinfo_series_info(pm->raw_subject.buf, pm->raw_subject.len, &pm->version,
			     &pm->number, &pm->total);
	pm->is_reply = is_reply_subject(pm->raw_subject.buf);
	ok = have_from;
done:
	strbuf_reset(val);
	strbuf_reset(decoded);
	return ok;
}
