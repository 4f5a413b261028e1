/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mail parsing pieces: headers, RFC 2047, addresses, Message-IDs, MIME
 * parameters, quoted-printable, base64, iconv. See mail.h.
 */
#include "mail.h"
#include "ascii.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <string.h>

/* ---- header block ---- */

/*
 * Does p[0..len) start with prefix (of n bytes) followed by more than
 * blanks? git trims a header line before testing it for "From ".
 */
static int from_prefix(const char *p, size_t len, const char *prefix, size_t n)
{
	if (len < n || memcmp(p, prefix, n))
		return 0;
	for (size_t i = n; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			return 1;
	return 0;
}

/* git mailinfo's is_rfc2822_header(): "name:" with name of printable non-space bytes, or a From_ line. */
static int is_header_line(const char *p, size_t len)
{
	if (from_prefix(p, len, "From ", 5) || from_prefix(p, len, ">From ", 6))
		return 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c == ':')
			return 1;
		if ((c >= 33 && c <= 57) || (c >= 59 && c <= 126))
			continue;
		return 0;
	}
	return 0;
}

static size_t line_len(const char *p, size_t len)
{
	const char *nl = memchr(p, '\n', len);

	return nl ? (size_t)(nl - p + 1) : len;
}

static int is_blank_line(const char *p, size_t l)
{
	for (size_t i = 0; i < l; i++)
		if (!isspace((unsigned char)p[i]))
			return 0;
	return 1;
}

size_t mail_header_len(const char *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		size_t l = line_len(buf + pos, len - pos);

		if (is_blank_line(buf + pos, l))
			return pos + l;
		if (!is_header_line(buf + pos, l))
			return pos;
		pos += l;
		/* continuation lines */
		while (pos < len && (buf[pos] == ' ' || buf[pos] == '\t')) {
			l = line_len(buf + pos, len - pos);
			pos += l;
		}
	}
	return pos;
}

int mail_header_next(const char *buf, size_t len, size_t *pos, struct mail_header *h)
{
	while (*pos < len) {
		const char *p = buf + *pos;
		size_t l = line_len(p, len - *pos), end, colon;

		if (is_blank_line(p, l) || !is_header_line(p, l))
			return 0;
		end = *pos + l;
		while (end < len && (buf[end] == ' ' || buf[end] == '\t'))
			end += line_len(buf + end, len - end);
		*pos = end;
		if ((l >= 5 && !memcmp(p, "From ", 5)) || (l >= 6 && !memcmp(p, ">From ", 6)))
			continue;
		colon = (const char *)memchr(p, ':', l) - p;
		h->name = p;
		h->name_len = colon;
		h->value = p + colon + 1;
		h->value_len = (buf + end) - h->value;
		while (h->value_len && (h->value[0] == ' ' || h->value[0] == '\t')) {
			h->value++;
			h->value_len--;
		}
		while (h->value_len && (h->value[h->value_len - 1] == '\n' ||
					h->value[h->value_len - 1] == '\r'))
			h->value_len--;
		return 1;
	}
	return 0;
}

int mail_header_get(const char *buf, size_t len, const char *name, struct strbuf *out)
{
	size_t pos = 0, nlen = strlen(name);
	struct mail_header h;

	while (mail_header_next(buf, len, &pos, &h)) {
		if (h.name_len == nlen && !strncasecmp(h.name, name, nlen)) {
			mail_unfold(out, h.value, h.value_len);
			return 1;
		}
	}
	return 0;
}

void mail_unfold(struct strbuf *out, const char *value, size_t len)
{
	size_t start = out->len;
	const char *p = value, *end = value + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *stop = nl ? nl : end;

		if (nl && stop > p && stop[-1] == '\r')
			stop--;
		strbuf_add(out, p, stop - p);
		if (!nl)
			break;
		p = nl + 1;
	}
	while (out->len > start && isspace((unsigned char)out->buf[out->len - 1]))
		out->len--;
	out->buf[out->len] = '\0';
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_AVX2_SEARCH 1

__attribute__((target("avx2")))
static const char *find_line_avx2(const char *buf, size_t len, const char *prefix, size_t n)
{
	const __m256i nl = _mm256_set1_epi8('\n'), first = _mm256_set1_epi8(prefix[0]);
	const char *p = buf, *end = buf + len;

	/* Candidates p[i] == '\n' && p[i + 1] == prefix[0]; loads stay inside buf. */
	while (end - p > 32 + (ptrdiff_t)n) {
		__m256i a = _mm256_loadu_si256((const __m256i *)p);
		__m256i b = _mm256_loadu_si256((const __m256i *)(p + 1));
		unsigned m = _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, nl),
								   _mm256_cmpeq_epi8(b, first)));

		while (m) {
			const char *c = p + __builtin_ctz(m) + 1;

			if (!memcmp(c + 1, prefix + 1, n - 1))
				return c;
			m &= m - 1;
		}
		p += 32;
	}
	for (; end - p > (ptrdiff_t)n; p++)
		if (*p == '\n' && !memcmp(p + 1, prefix, n))
			return p + 1;
	return NULL;
}
#endif

const char *mail_find_line(const char *buf, size_t len, const char *prefix, size_t n)
{
	const char *p = buf, *end = buf + len;

#ifdef HAVE_AVX2_SEARCH
	if (__builtin_cpu_supports("avx2"))
		return find_line_avx2(buf, len, prefix, n);
#endif
	while (p < end && (p = memmem(p, end - p, prefix, n))) {
		if (p > buf && p[-1] == '\n')
			return p;
		p++;
	}
	return NULL;
}

const char *mail_first_line(const char *buf, size_t len, const char *prefix, size_t n)
{
	if (len >= n && !memcmp(buf, prefix, n))
		return buf;
	return mail_find_line(buf, len, prefix, n);
}

/* ---- charset conversion ---- */

int mail_convert(struct strbuf *out, const char *in, size_t len, const char *from, const char *to)
{
	iconv_t cd = iconv_open(to, from);
	char *ip = (char *)in;
	size_t il = len, start = out->len;

	if (cd == (iconv_t)-1)
		return -1;
	strbuf_grow(out, len + 16);
	for (;;) {
		char *op = out->buf + out->len;
		size_t ol = out->alloc - out->len - 1, before = ol;
		size_t r = iconv(cd, il ? &ip : NULL, il ? &il : NULL, &op, &ol);

		out->len += before - ol;
		out->buf[out->len] = '\0';
		if (r != (size_t)-1) {
			if (!il)
				break;
			continue;
		}
		if (errno == E2BIG) {
			strbuf_grow(out, il + 64);
			continue;
		}
		iconv_close(cd);
		strbuf_setlen(out, start);
		return -1;
	}
	/* flush shift state */
	for (;;) {
		char *op = out->buf + out->len;
		size_t ol = out->alloc - out->len - 1, before = ol;
		size_t r = iconv(cd, NULL, NULL, &op, &ol);

		out->len += before - ol;
		out->buf[out->len] = '\0';
		if (r != (size_t)-1)
			break;
		if (errno != E2BIG) {
			iconv_close(cd);
			strbuf_setlen(out, start);
			return -1;
		}
		strbuf_grow(out, 64);
	}
	iconv_close(cd);
	return 0;
}

/* ---- base64 and quoted-printable ---- */

static signed char b64_table[256];

static int b64_value(unsigned char c)
{
	if (!b64_table['A' + 1]) {
		/* filled once: -1 everywhere, then the alphabet */
		static const char alphabet[] =
			"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		signed char t[256];
		memset(t, -1, sizeof(t));
		for (int i = 0; i < 64; i++)
			t[(unsigned char)alphabet[i]] = i;
		memcpy(b64_table, t, sizeof(t));
	}
	return b64_table[c];
}

int mail_decode_base64(struct strbuf *out, const char *in, size_t len, const char **problem)
{
	unsigned acc = 0;
	int bits = 0, bad = 0;

	strbuf_grow(out, len / 4 * 3 + 3);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = in[i];
		int v;

		if (c == '=')
			break;
		v = b64_value(c);
		if (v < 0) {
			if (!isspace(c))
				bad = 1;
			continue;
		}
		acc = (acc << 6) | v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			strbuf_addch(out, (acc >> bits) & 0xff);
		}
	}
	if (bad) {
		if (problem)
			*problem = "invalid base64";
		return -1;
	}
	return 0;
}

int mail_decode_qp(struct strbuf *out, const char *in, size_t len, const char **problem)
{
	int bad = 0;

	strbuf_grow(out, len);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = in[i];
		int h, l;

		if (c != '=') {
			strbuf_addch(out, c);
			continue;
		}
		if (i + 1 < len && in[i + 1] == '\n') {
			i++;
			continue;
		}
		if (i + 2 < len && in[i + 1] == '\r' && in[i + 2] == '\n') {
			i += 2;
			continue;
		}
		if (i + 1 == len)
			continue;	/* soft break at the very end */
		h = i + 2 < len + 0 ? hex_digit(in[i + 1]) : -1;
		l = i + 2 < len ? hex_digit(in[i + 2]) : -1;
		if (h >= 0 && l >= 0) {
			strbuf_addch(out, (h << 4) | l);
			i += 2;
			continue;
		}
		bad = 1;
		strbuf_addch(out, c);
	}
	if (bad) {
		if (problem)
			*problem = "invalid quoted-printable";
		return -1;
	}
	return 0;
}

/* ---- RFC 2047 ---- */

int mail_charset_is_utf8(const char *charset)
{
	return !strcasecmp(charset, "utf-8") || !strcasecmp(charset, "utf8");
}

/* git's fallback spellings for charset names iconv may not know. */
static const char *fallback_charset(const char *name)
{
	if (mail_charset_is_utf8(name))
		return "UTF-8";
	if (!strcasecmp(name, "latin-1"))
		return "ISO-8859-1";
	return name;
}

int mail_to_utf8(struct strbuf *out, const char *in, size_t len, const char *charset)
{
	if (!charset || !*charset || mail_charset_is_utf8(charset)) {
		strbuf_add(out, in, len);
		return 0;
	}
	if (!mail_convert(out, in, len, charset, "UTF-8"))
		return 0;
	return mail_convert(out, in, len, fallback_charset(charset), "UTF-8");
}

/* quoted-printable as git decodes it: stops at "=\n" (soft break) or the end. */
void mail_decode_q(struct strbuf *out, const char *in, size_t len, int rfc2047)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = in[i];

		if (c == '=') {
			int h, l;

			if (i + 1 >= len || in[i + 1] == '\n')
				break;
			h = hex_digit(in[i + 1]);
			l = i + 2 < len ? hex_digit(in[i + 2]) : -1;
			if (h >= 0 && l >= 0) {
				strbuf_addch(out, (h << 4) | l);
				i += 2;
				continue;
			}
		}
		if (rfc2047 && c == '_')
			c = ' ';
		strbuf_addch(out, c);
	}
}

/* base64 as git decodes it: bytes outside the alphabet (and '=') are skipped. */
void mail_decode_b(struct strbuf *out, const char *in, size_t len)
{
	unsigned acc = 0;
	int pos = 0;
	char *o;

	/* at most 3 bytes per 4 in: written in place, no check per byte */
	strbuf_grow(out, len / 4 * 3 + 3);
	o = out->buf + out->len;
	b64_value('A');
	for (size_t i = 0; i < len; i++) {
		int v = b64_table[(unsigned char)in[i]];

		if (v < 0)
			continue;
		switch (pos++) {
		case 0:
			acc = v << 2;
			break;
		case 1:
			*o++ = acc | (v >> 4);
			acc = (v & 15) << 4;
			break;
		case 2:
			*o++ = acc | (v >> 2);
			acc = (v & 3) << 6;
			break;
		case 3:
			*o++ = acc | v;
			acc = pos = 0;
			break;
		}
	}
	strbuf_setlen(out, o - out->buf);
}

int mail_rfc2047_decode(struct strbuf *out, const char *in, size_t len, const char **problem)
{
	const char *p = in, *end = in + len;
	struct strbuf res = STRBUF_INIT, charset = STRBUF_INIT, dec = STRBUF_INIT;
	const char *why = NULL;

	if (!memmem(in, len, "=?", 2)) {
		strbuf_add(out, in, len);
		return 0;
	}

	while (p < end) {
		const char *ep = memmem(p, end - p, "=?", 2), *cp, *text;

		if (!ep)
			break;
		if (ep != p) {
			/* keep what precedes the word, unless it is blanks after a word */
			const char *s = p;
			while (s < ep && git_isspace(*s))
				s++;
			if (s != ep || p == in)
				strbuf_add(&res, p, ep - p);
		}
		ep += 2;
		cp = ep < end ? memchr(ep, '?', end - ep) : NULL;
		if (!cp || cp + 3 > end || cp[1] == '\0' || cp[2] != '?') {
			why = "malformed encoded word";
			goto fail;
		}
		strbuf_reset(&charset);
		strbuf_add(&charset, ep, cp - ep);
		text = cp + 3;
		ep = memmem(text, end - text, "?=", 2);
		if (!ep) {
			why = "unterminated encoded word";
			goto fail;
		}
		strbuf_reset(&dec);
		switch (tolower((unsigned char)cp[1])) {
		case 'b':
			mail_decode_b(&dec, text, ep - text);
			break;
		case 'q':
			mail_decode_q(&dec, text, ep - text, 1);
			break;
		default:
			why = "unknown encoding in encoded word";
			goto fail;
		}
		if (mail_to_utf8(&res, dec.buf, dec.len, charset.buf) < 0) {
			/* an RFC 2231 language suffix ("utf-8*en") is allowed */
			char *star = strchr(charset.buf, '*');
			if (star && star != charset.buf) {
				strbuf_setlen(&charset, star - charset.buf);
				if (!mail_to_utf8(&res, dec.buf, dec.len, charset.buf))
					goto converted;
			}
			why = "cannot convert encoded word to UTF-8";
			goto fail;
		}
converted:
		p = ep + 2;
	}
	strbuf_add(&res, p, end - p);
	strbuf_addbuf(out, &res);
	strbuf_release(&res);
	strbuf_release(&charset);
	strbuf_release(&dec);
	return 0;
fail:
	/* as git: the whole value stays undecoded */
	strbuf_add(out, in, len);
	if (problem)
		*problem = why;
	strbuf_release(&res);
	strbuf_release(&charset);
	strbuf_release(&dec);
	return -1;
}

void mail_rfc2047_encode(struct strbuf *out, const char *s, size_t len, int phrase)
{
	mail_rfc2047_encode_at(out, s, len, phrase ? MAIL_ENCODE_PHRASE : 0, 0);
}

void mail_rfc2047_encode_at(struct strbuf *out, const char *s, size_t len, unsigned flags, size_t col)
{
	static const char specials[] = "()<>@,;:\\\".[]";
	int phrase = !!(flags & MAIL_ENCODE_PHRASE);
	int need = !!(flags & MAIL_ENCODE_ALWAYS);
	size_t line = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		if (c < 0x20 || c >= 0x7f || (phrase && strchr(specials, c)) ||
		    (c == '=' && i + 1 < len && s[i + 1] == '?'))
			need = 1;
	}
	if (!need) {
		strbuf_add(out, s, len);
		return;
	}
	/* room for the first word's first character, else start on a new line */
	if (col + 10 + 12 + 2 > 75) {
		strbuf_addstr(out, "\n ");
		col = 1;
	}
	strbuf_addstr(out, "=?UTF-8?q?");
	line = col + 10;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		size_t clen = 1;

		/* keep a UTF-8 sequence in one word */
		if (c >= 0xc0) {
			while (i + clen < len && ((unsigned char)s[i + clen] & 0xc0) == 0x80)
				clen++;
		}
		if (line + clen * 3 + 2 > 75) {
			strbuf_addstr(out, "?=\n =?UTF-8?q?");
			line = 11;
		}
		for (size_t k = 0; k < clen; k++) {
			c = s[i + k];
			if (c == ' ') {
				strbuf_addch(out, '_');
				line++;
			} else if (isalnum(c) || (c < 0x80 && strchr("!*+-/", c))) {
				strbuf_addch(out, c);
				line++;
			} else {
				strbuf_addf(out, "=%02X", c);
				line += 3;
			}
		}
		i += clen - 1;
	}
	strbuf_addstr(out, "?=");
}

/* ---- addresses ---- */

void mail_address_release(struct mail_address *a)
{
	strbuf_release(&a->name);
	strbuf_release(&a->email);
}

/*
 * One address of a list, from in[*pos..len): an iterative scanner that
 * tracks quotes, comment depth (a counter, no recursion) and angle
 * brackets. Returns 1 if an element was read (possibly empty).
 */
static int next_address(const char *in, size_t len, size_t *pos, struct strbuf *phrase,
			struct strbuf *angle, struct strbuf *comment, struct strbuf *bare)
{
	size_t i = *pos;
	size_t depth = 0;
	int in_quote = 0, in_angle = 0, seen_angle = 0;

	if (i >= len)
		return 0;
	strbuf_reset(phrase);
	strbuf_reset(angle);
	strbuf_reset(comment);
	strbuf_reset(bare);

	/* the common case: no quotes, comments, escapes or groups */
	{
		size_t j = i;
		int simple = 1;

		for (; j < len && in[j] != ','; j++) {
			char c = in[j];
			if (c == '"' || c == '(' || c == '\\' || c == ':' || c == ';') {
				simple = 0;
				break;
			}
		}
		if (simple) {
			const char *el = in + i, *lt = memchr(el, '<', j - i), *gt = NULL;

			if (lt)
				gt = memchr(lt, '>', in + j - lt);
			if (!lt || gt) {
				if (lt) {
					strbuf_add(phrase, el, lt - el);
					strbuf_add(angle, lt + 1, gt - lt - 1);
				} else {
					strbuf_add(angle, el, j - i);
					strbuf_add(bare, el, j - i);
				}
				strbuf_trim(phrase);
				strbuf_trim(angle);
				strbuf_trim(bare);
				*pos = j < len ? j + 1 : j;
				return 1;
			}
		}
	}
	for (; i < len; i++) {
		char c = in[i];

		if (in_quote) {
			if (c == '\\' && i + 1 < len) {
				strbuf_addch(phrase, in[++i]);
				continue;
			}
			if (c == '"') {
				in_quote = 0;
				continue;
			}
			strbuf_addch(phrase, c);
			continue;
		}
		if (depth) {
			if (c == '\\' && i + 1 < len) {
				strbuf_addch(comment, in[++i]);
				continue;
			}
			if (c == '(')
				depth++;
			else if (c == ')')
				depth--;
			if (depth)
				strbuf_addch(comment, c);
			continue;
		}
		if (in_angle) {
			if (c == '>') {
				in_angle = 0;
				continue;
			}
			strbuf_addch(angle, c);
			continue;
		}
		if (c == '"') {
			in_quote = 1;
			continue;
		}
		if (c == '(') {
			depth = 1;
			if (comment->len)
				strbuf_addch(comment, ' ');
			continue;
		}
		if (c == '<') {
			in_angle = 1;
			seen_angle = 1;
			strbuf_reset(angle);
			continue;
		}
		if (c == ',') {
			i++;
			break;
		}
		if (c == ':' && !seen_angle) {
			/* group "name:" - the members follow */
			strbuf_reset(phrase);
			strbuf_reset(bare);
			continue;
		}
		if (c == ';')
			continue;
		strbuf_addch(phrase, c);
		strbuf_addch(bare, c);
	}
	*pos = i;
	strbuf_trim(phrase);
	strbuf_trim(angle);
	strbuf_trim(comment);
	strbuf_trim(bare);
	if (!seen_angle) {
		/* "a@b (Name)" */
		strbuf_reset(angle);
		strbuf_addbuf(angle, bare);
		strbuf_reset(phrase);
		strbuf_addbuf(phrase, comment);
	}
	return 1;
}

int mail_parse_address(struct mail_address *a, const char *in, size_t len)
{
	struct strbuf phrase = STRBUF_INIT, angle = STRBUF_INIT, comment = STRBUF_INIT, bare = STRBUF_INIT;
	size_t pos = 0;
	int ret = -1;

	strbuf_reset(&a->name);
	strbuf_reset(&a->email);
	while (next_address(in, len, &pos, &phrase, &angle, &comment, &bare)) {
		if (!angle.len && !phrase.len)
			continue;
		mail_rfc2047_decode(&a->name, phrase.buf, phrase.len, NULL);
		strbuf_addbuf(&a->email, &angle);
		ret = 0;
		break;
	}
	strbuf_release(&phrase);
	strbuf_release(&angle);
	strbuf_release(&comment);
	strbuf_release(&bare);
	return ret;
}

size_t mail_parse_address_list(struct strvec *out, const char *in, size_t len)
{
	struct strbuf phrase = STRBUF_INIT, angle = STRBUF_INIT, comment = STRBUF_INIT, bare = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT;
	size_t pos = 0, n = 0;

	while (next_address(in, len, &pos, &phrase, &angle, &comment, &bare)) {
		/* "a@b" or "<local>"; a bare word is a group name or garbage */
		if (!angle.len || (!memchr(angle.buf, '@', angle.len) && angle.len == bare.len &&
				   !memcmp(angle.buf, bare.buf, bare.len)))
			continue;
		strbuf_reset(&name);
		mail_rfc2047_decode(&name, phrase.buf, phrase.len, NULL);
		if (name.len) {
			strbuf_addstr(&name, " <");
			strbuf_addbuf(&name, &angle);
			strbuf_addch(&name, '>');
		} else {
			strbuf_addbuf(&name, &angle);
		}
		strvec_push_mem(out, name.buf, name.len);
		n++;
	}
	strbuf_release(&phrase);
	strbuf_release(&angle);
	strbuf_release(&comment);
	strbuf_release(&bare);
	strbuf_release(&name);
	return n;
}

/*
 * Can s[0..len) be a message id: not empty, no blank, no control
 * character (C0, DEL, C1 in UTF-8) and no '<'? What passes stays one
 * word on one line wherever it is written (a Link: trailer, a note).
 */
static int msgid_ok(const char *s, size_t len)
{
	if (!len)
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c <= ' ' || c == 0x7f || c == '<' ||
		    (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] <= 0x9f &&
		     (unsigned char)s[i + 1] >= 0x80))
			return 0;
	}
	return 1;
}

/*
 * mail_parse_msgids(), adding to out (when not NULL) only the ids whose
 * number (from 0) is not in [skip_from, skip_to); returns how many ids
 * in holds.
 */
static size_t parse_msgids(struct strvec *out, const char *in, size_t len, size_t skip_from,
			   size_t skip_to)
{
	size_t n = 0, i = 0;
	int bracketed = 0;

	while (i < len) {
		const char *lt = memchr(in + i, '<', len - i), *gt, *last;

		if (!lt)
			break;
		gt = memchr(lt, '>', in + len - lt);
		if (!gt)
			break;
		/* "<<a>": the id is what follows the last '<' */
		last = memrchr(lt, '<', gt - lt);
		bracketed = 1;
		if (msgid_ok(last + 1, gt - last - 1)) {
			if (out && (n < skip_from || n >= skip_to))
				strvec_push_mem(out, last + 1, gt - last - 1);
			n++;
		}
		i = gt - in + 1;
	}
	if (!bracketed) {
		size_t s = 0, e;
		while (s < len && isspace((unsigned char)in[s]))
			s++;
		e = s;
		while (e < len && !isspace((unsigned char)in[e]))
			e++;
		if (msgid_ok(in + s, e - s)) {
			if (out)
				strvec_push_mem(out, in + s, e - s);
			n++;
		}
	}
	return n;
}

size_t mail_parse_msgids(struct strvec *out, const char *in, size_t len)
{
	return parse_msgids(out, in, len, 0, 0);
}

size_t mail_parse_references(struct strvec *out, const char *in, size_t len)
{
	size_t n = parse_msgids(NULL, in, len, 0, 0);

	if (n <= MAIL_REFERENCES_MAX)
		return parse_msgids(out, in, len, 0, 0);
	parse_msgids(out, in, len, 1, n - (MAIL_REFERENCES_MAX - 1));
	return MAIL_REFERENCES_MAX;
}

/* ---- MIME parameters ---- */

int mail_header_param(const char *value, size_t len, const char *param, struct strbuf *out)
{
	size_t plen = strlen(param), i = 0;
	int in_quote = 0;

	/* skip the main value, then look at each ";name=value" */
	while (i < len) {
		if (in_quote) {
			if (value[i] == '\\')
				i++;
			else if (value[i] == '"')
				in_quote = 0;
			i++;
			continue;
		}
		if (value[i] == '"') {
			in_quote = 1;
			i++;
			continue;
		}
		if (value[i] != ';') {
			i++;
			continue;
		}
		i++;
		while (i < len && isspace((unsigned char)value[i]))
			i++;
		if (len - i > plen && !strncasecmp(value + i, param, plen)) {
			size_t j = i + plen;
			while (j < len && isspace((unsigned char)value[j]))
				j++;
			if (j < len && value[j] == '=') {
				j++;
				while (j < len && isspace((unsigned char)value[j]))
					j++;
				if (j < len && value[j] == '"') {
					j++;
					while (j < len && value[j] != '"') {
						if (value[j] == '\\' && j + 1 < len)
							j++;
						strbuf_addch(out, value[j++]);
					}
				} else {
					while (j < len && value[j] != ';' && !isspace((unsigned char)value[j]))
						strbuf_addch(out, value[j++]);
				}
				return 1;
			}
		}
	}
	return 0;
}
