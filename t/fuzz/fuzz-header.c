/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for header parsing and RFC 2047 (common/mail/mail.c and the
 * header half of common/mail/mailinfo.c): the bytes are a header block. Every
 * header is found, unfolded, decoded, parsed as an address list, an
 * address and Message-IDs, and given to the From/Subject readers of
 * mailinfo, checking that
 *  - a header's name and value lie inside the input, and
 *    mail_header_get() finds the first header of a name with the value
 *    unfolding gives;
 *  - unfolded values hold no line break followed by a blank;
 *  - a value mail_rfc2047_decode() refuses is appended unchanged;
 *  - valid UTF-8 text encoded with mail_rfc2047_encode() (as a phrase
 *    and not), then unfolded and decoded, is the text again;
 *  - from values that decode to valid UTF-8, the cleaned subject and
 *    author name are valid UTF-8 and the series numbers not negative.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail.h"
#include "mailinfo.h"
#include "strbuf.h"
#include "strvec.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void roundtrip(const char *s, size_t len, int phrase)
{
	struct strbuf enc = STRBUF_INIT, unfolded = STRBUF_INIT, dec = STRBUF_INIT;
	const char *problem = NULL;
	int printable = 1;

	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			printable = 0;
	/* printable ASCII is kept as it is, and may hold "=?...?=" of its own */
	if (printable || !utf8_valid(s, len) || memchr(s, '\0', len))
		return;
	mail_rfc2047_encode(&enc, s, len, phrase);
	mail_unfold(&unfolded, enc.buf, enc.len);
	if (mail_rfc2047_decode(&dec, unfolded.buf, unfolded.len, &problem) < 0 ||
	    dec.len != len || memcmp(dec.buf, s, len))
		abort();
	strbuf_release(&enc);
	strbuf_release(&unfolded);
	strbuf_release(&dec);
}

static void one_header(const char *buf, size_t len, const struct mail_header *h, int first)
{
	struct strbuf value = STRBUF_INIT, dec = STRBUF_INIT, got = STRBUF_INIT;
	struct strvec list = { 0 };
	struct mail_address addr = MAIL_ADDRESS_INIT;
	const char *problem = NULL;
	char name[64];

	strvec_init(&list);
	if (h->name < buf || h->name + h->name_len > buf + len ||
	    h->value < buf || h->value + h->value_len > buf + len)
		abort();
	mail_unfold(&value, h->value, h->value_len);
	for (size_t i = 0; i + 1 < value.len; i++)
		if (value.buf[i] == '\n' && (value.buf[i + 1] == ' ' || value.buf[i + 1] == '\t'))
			abort();
	if (first && h->name_len < sizeof(name) && !memchr(h->name, '\0', h->name_len)) {
		memcpy(name, h->name, h->name_len);
		name[h->name_len] = '\0';
		if (mail_header_get(buf, len, name, &got) != 1 || strbuf_cmp(&got, &value))
			abort();
	}
	if (mail_rfc2047_decode(&dec, value.buf, value.len, &problem) < 0 &&
	    (dec.len != value.len || memcmp(dec.buf, value.buf, value.len)))
		abort();
	roundtrip(dec.buf, dec.len, 0);
	roundtrip(dec.buf, dec.len, 1);
	mail_parse_address_list(&list, value.buf, value.len);
	mail_parse_address(&addr, value.buf, value.len);
	mail_parse_msgids(&list, value.buf, value.len);
	mail_parse_references(&list, value.buf, value.len);
	strbuf_reset(&got);
	mail_header_param(value.buf, value.len, "charset", &got);
	mail_address_release(&addr);
	strvec_clear(&list);
	strbuf_release(&value);
	strbuf_release(&dec);
	strbuf_release(&got);
}

/*
 * The value as mailinfo_header_from/subject() take it (mailinfo.h, as
 * select_scan() gives it): unfolded and decoded into out, valid UTF-8
 * without NUL bytes; else 0.
 */
static int clean_value(struct strbuf *out, const struct mail_header *h)
{
	struct strbuf value = STRBUF_INIT;
	int ok;

	strbuf_reset(out);
	mail_unfold(&value, h->value, h->value_len);
	ok = !mail_rfc2047_decode(out, value.buf, value.len, NULL) &&
	     utf8_valid(out->buf, out->len) && !memchr(out->buf, '\0', out->len);
	strbuf_release(&value);
	return ok;
}

/* Is the header at index i the first one with its name? */
static int first_of_name(const char *buf, size_t len, const struct mail_header *h)
{
	struct mail_header o;
	size_t pos = 0;

	while (mail_header_next(buf, len, &pos, &o))
		if (o.name_len == h->name_len && !strncasecmp(o.name, h->name, h->name_len))
			return o.name == h->name;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	size_t len = mail_header_len(buf, size), pos = 0, n = 0;
	struct mail_header h;
	struct patch_mail pm;
	struct strbuf value = STRBUF_INIT;

	if (len > size)
		abort();
	mailinfo_init(&pm);
	while (mail_header_next(buf, len, &pos, &h) && n++ < 64) {
		one_header(buf, len, &h, first_of_name(buf, len, &h));
		if (!clean_value(&value, &h))
			continue;
		if (h.name_len == 4 && !strncasecmp(h.name, "From", 4))
			mailinfo_header_from(&pm, value.buf, value.len);
		else if (h.name_len == 7 && !strncasecmp(h.name, "Subject", 7))
			mailinfo_header_subject(&pm, value.buf, value.len);
	}
	strbuf_release(&value);
	if (!utf8_valid(pm.subject.buf, pm.subject.len) ||
	    !utf8_valid(pm.author_name.buf, pm.author_name.len) ||
	    pm.version < 0 || pm.number < 0 || pm.total < 0)
		abort();
	mailinfo_release(&pm);
	return 0;
}
