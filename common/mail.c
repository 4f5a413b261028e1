/*
 * Mail parsing pieces: headers, RFC 2047, addresses, Message-IDs, MIME
 * parameters, quoted-printable, base64, iconv. See mail.h.
 */
#include "mail.h"
#include "wrapper.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <string.h>

/* ---- header block ---- */

/* git mailinfo's is_rfc2822_header(): "name:" with name of printable non-space bytes, or a From_ line. */
static int is_header_line(const char *p, size_t len)
{
	if ((len >= 5 && !memcmp(p, "From ", 5)) || (len >= 6 && !memcmp(p, ">From ", 6)))
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

	for (size_t i = 0; i < len; i++) {
		char c = value[i];

		if (c == '\r' && i + 1 < len && value[i + 1] == '\n')
			continue;
		if (c == '\n')
			continue;
		strbuf_addch(out, c);
	}
	while (out->len > start && isspace((unsigned char)out->buf[out->len - 1]))
		out->len--;
	out->buf[out->len] = '\0';
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

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
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

static int hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
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
		h = i + 2 < len + 0 ? hex_value(in[i + 1]) : -1;
		l = i + 2 < len ? hex_value(in[i + 2]) : -1;
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

/*
 * Decodes one encoded word at in[0..len) if it is one: returns its
 * length, or 0. *bad is set when it looks like a word but cannot be
 * decoded.
 */
static size_t decode_word(struct strbuf *out, const char *in, size_t len, const char **problem, int *bad)
{
	const char *p = in + 2, *end = in + len, *cs, *cs_end, *text, *text_end;
	char enc;
	char charset[64];
	struct strbuf raw = STRBUF_INIT;
	size_t n;

	if (len < 8 || in[0] != '=' || in[1] != '?')
		return 0;
	cs = p;
	while (p < end && *p != '?' && !isspace((unsigned char)*p))
		p++;
	if (p >= end || *p != '?' || p == cs)
		return 0;
	cs_end = p++;
	if (p + 2 > end || p[1] != '?')
		return 0;
	enc = tolower((unsigned char)*p);
	if (enc != 'b' && enc != 'q')
		return 0;
	text = p + 2;
	text_end = text;
	while (text_end + 1 < end && !(text_end[0] == '?' && text_end[1] == '='))
		text_end++;
	if (text_end + 1 >= end)
		return 0;
	n = text_end + 2 - in;

	/* charset, without an RFC 2231 "*language" suffix */
	{
		size_t cl = cs_end - cs;
		const char *star = memchr(cs, '*', cl);
		if (star)
			cl = star - cs;
		if (cl >= sizeof(charset))
			cl = sizeof(charset) - 1;
		memcpy(charset, cs, cl);
		charset[cl] = '\0';
	}
	if (enc == 'b') {
		if (mail_decode_base64(&raw, text, text_end - text, problem) < 0) {
			*bad = 1;
		}
	} else {
		for (const char *q = text; q < text_end; q++) {
			if (*q == '_') {
				strbuf_addch(&raw, ' ');
			} else if (*q == '=' && q + 2 < text_end + 0 + 1 && hex_value(q[1]) >= 0 &&
				   q + 2 < text_end && hex_value(q[2]) >= 0) {
				strbuf_addch(&raw, (hex_value(q[1]) << 4) | hex_value(q[2]));
				q += 2;
			} else {
				strbuf_addch(&raw, *q);
			}
		}
	}
	if (!strcasecmp(charset, "utf-8") || !strcasecmp(charset, "utf8") ||
	    !strcasecmp(charset, "us-ascii")) {
		strbuf_addbuf(out, &raw);
	} else if (mail_convert(out, raw.buf, raw.len, charset, "UTF-8") < 0) {
		if (problem)
			*problem = "cannot convert from charset";
		*bad = 1;
		strbuf_addbuf(out, &raw);
	}
	strbuf_release(&raw);
	return n;
}

int mail_rfc2047_decode(struct strbuf *out, const char *in, size_t len, const char **problem)
{
	size_t i = 0, pending_ws = 0;
	int bad = 0, last_was_word = 0;

	while (i < len) {
		if (in[i] == '=' && i + 1 < len && in[i + 1] == '?') {
			size_t n = decode_word(out, in + i, len - i, problem, &bad);
			if (n) {
				i += n;
				last_was_word = 1;
				pending_ws = 0;
				continue;
			}
		}
		if (last_was_word && (in[i] == ' ' || in[i] == '\t')) {
			size_t j = i;
			while (j < len && (in[j] == ' ' || in[j] == '\t'))
				j++;
			if (j + 1 < len && in[j] == '=' && in[j + 1] == '?') {
				/* blanks between two encoded words are dropped, if the next is one */
				struct strbuf tmp = STRBUF_INIT;
				int tbad = 0;
				size_t n = decode_word(&tmp, in + j, len - j, problem, &tbad);
				strbuf_release(&tmp);
				if (n) {
					i = j;
					continue;
				}
			}
			strbuf_add(out, in + i, j - i);
			i = j;
			last_was_word = 0;
			continue;
		}
		strbuf_addch(out, in[i++]);
		last_was_word = 0;
	}
	(void)pending_ws;
	return bad ? -1 : 0;
}

void mail_rfc2047_encode(struct strbuf *out, const char *s, size_t len, int phrase)
{
	static const char specials[] = "()<>@,;:\\\".[]";
	int need = 0;
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
	strbuf_addstr(out, "=?UTF-8?q?");
	line = 10;
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
		if (!angle.len)
			continue;
		strbuf_reset(&name);
		mail_rfc2047_decode(&name, phrase.buf, phrase.len, NULL);
		if (name.len)
			strvec_pushf(out, "%s <%s>", name.buf, angle.buf);
		else
			strvec_push(out, angle.buf);
		n++;
	}
	strbuf_release(&phrase);
	strbuf_release(&angle);
	strbuf_release(&comment);
	strbuf_release(&bare);
	strbuf_release(&name);
	return n;
}

size_t mail_parse_msgids(struct strvec *out, const char *in, size_t len)
{
	size_t n = 0, i = 0;

	while (i < len) {
		const char *lt = memchr(in + i, '<', len - i), *gt;

		if (!lt)
			break;
		gt = memchr(lt, '>', in + len - lt);
		if (!gt)
			break;
		if (gt > lt + 1) {
			strvec_push_mem(out, lt + 1, gt - lt - 1);
			n++;
		}
		i = gt - in + 1;
	}
	if (!n) {
		size_t s = 0, e;
		while (s < len && isspace((unsigned char)in[s]))
			s++;
		e = s;
		while (e < len && !isspace((unsigned char)in[e]))
			e++;
		if (e > s) {
			strvec_push_mem(out, in + s, e - s);
			n++;
		}
	}
	return n;
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
