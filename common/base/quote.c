/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Quoting text from mail, patches and refs for output. See quote.h.
 */
#include "quote.h"
#include "usage.h"

#include <string.h>

/* The length of the valid UTF-8 character (not C1) at s[0..left), or 0. */
static size_t utf8_char_len(const unsigned char *s, size_t left)
{
	size_t n;
	unsigned cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (left < n)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
		return 0;	/* overlong, out of range, a surrogate, or C1 */
	return n;
}

/* Bytes of path[i..len) written as they are: printable ASCII but '"' and '\\', or valid UTF-8. */
static size_t plain_len(const char *path, size_t i, size_t len, unsigned flags)
{
	unsigned char c = path[i];

	if (c >= 0x80)
		return flags & QUOTE_ASCII ? 0 : utf8_char_len((const unsigned char *)path + i, len - i);
	if (c < 0x20 || c == 0x7f || c == '"' || c == '\\' || (c == ' ' && (flags & QUOTE_SPACE)))
		return 0;
	return 1;
}

/* The letter git writes after a backslash for c in a quoted name, or 0 (octal). */
static int c_escape(unsigned char c)
{
	switch (c) {
	case '\a': return 'a';
	case '\b': return 'b';
	case '\t': return 't';
	case '\n': return 'n';
	case '\v': return 'v';
	case '\f': return 'f';
	case '\r': return 'r';
	case '"': return '"';
	case '\\': return '\\';
	}
	return 0;
}

void quote_path(struct strbuf *out, const char *path, size_t len, unsigned flags)
{
	size_t i, n;

	for (i = 0; i < len && (n = plain_len(path, i, len, flags)); i += n)
		;
	if (i == len) {
		strbuf_add(out, path, len);
		return;
	}
	strbuf_addch(out, '"');
	for (i = 0; i < len; ) {
		unsigned char c = path[i];
		int e;

		n = plain_len(path, i, len, flags);
		if (!n && c == ' ')
			n = 1;	/* QUOTE_SPACE: inside the quotes it is a space again */
		if (n) {
			strbuf_add(out, path + i, n);
			i += n;
			continue;
		}
		if ((e = c_escape(c)))
			strbuf_addf(out, "\\%c", e);
		else
			strbuf_addf(out, "\\%03o", c);
		i++;
	}
	strbuf_addch(out, '"');
}

void quote_field(struct strbuf *out, const char *s, size_t len)
{
	size_t start = out->len;

	strbuf_add(out, s, len);
	strbuf_setlen(out, start + neutralise_field(out->buf + start, len));
}

const char *quote_url(struct strbuf *out, const char *url)
{
	static const char scheme_chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.";
	const char *scheme_end = strstr(url, "://"), *host = url, *at;
	size_t start = out->len;

	/* a scheme is letters, digits, '+', '-', '.' (RFC 3986 3.1): else no URL */
	if (scheme_end && scheme_end > url && strspn(url, scheme_chars) == (size_t)(scheme_end - url)) {
		host = scheme_end + 3;
		quote_field(out, url, host - url);
		/* the last '@' of the authority: a password may hold a raw '@' */
		at = memrchr(host, '@', strcspn(host, "/?#"));
		if (at)
			host = at + 1;
	}
	quote_field(out, host, strlen(host));
	return out->buf + start;
}

int url_unquote(struct strbuf *out, const char *s, size_t len, unsigned flags)
{
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)s[i];

		if (c == '%') {
			int hi = i + 2 < len ? hex_digit(s[i + 1]) : -1;
			int lo = i + 2 < len ? hex_digit(s[i + 2]) : -1;

			if (hi < 0 || lo < 0)
				return -1;
			c = hi * 16 + lo;
			i += 2;
		}
		if (!c || ((flags & URL_NO_CONTROLS) && (c < 0x20 || c == 0x7f)))
			return -1;
		strbuf_addch(out, c);
	}
	return 0;
}
