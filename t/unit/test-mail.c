/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the mail core: RFC 2047, quoted-printable, base64,
 * headers, addresses, Message-IDs, subject cleanup, series numbers,
 * diff paths, the mail source and mailinfo_parse() on hostile input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail.h"
#include "mailinfo.h"
#include "source.h"
#include "strbuf.h"
#include "strvec.h"
#include "utf8.h"
#include "wrapper.h"

/* Decodes s with mail_rfc2047_decode; returns its result, *out the text. */
static int decode(const char *s, struct strbuf *out)
{
	strbuf_reset(out);
	return mail_rfc2047_decode(out, s, strlen(s), NULL);
}

/* The reference for mail_find_line(): memmem for "\n<prefix>", byte by byte. */
static const char *naive_find_line(const char *buf, size_t len, const char *prefix, size_t n)
{
	for (size_t i = 0; i + 1 + n <= len; i++)
		if (buf[i] == '\n' && !memcmp(buf + i + 1, prefix, n))
			return buf + i + 1;
	return NULL;
}

static void find_line(void **state)
{
	static const char alphabet[] = "\n\ndiff -@+ g";
	unsigned seed = 12345;

	(void)state;
	/* Every length around the 32-byte blocks, matches at the very end, random text. */
	for (size_t len = 0; len < 200; len++) {
		for (int round = 0; round < 50; round++) {
			char *buf = malloc(len ? len : 1);	/* exact size: ASan sees any over-read */

			for (size_t i = 0; i < len; i++) {
				seed = seed * 1103515245 + 12345;
				buf[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
			}
			if (round == 0 && len >= 12)
				memcpy(buf + len - 12, "\ndiff --git ", 12);
			assert_ptr_equal(mail_find_line(buf, len, "diff --git ", 11),
					 naive_find_line(buf, len, "diff --git ", 11));
			assert_ptr_equal(mail_find_line(buf, len, "@@ ", 3), naive_find_line(buf, len, "@@ ", 3));
			assert_ptr_equal(mail_find_line(buf, len, "di", 2), naive_find_line(buf, len, "di", 2));
			free(buf);
		}
	}
	/* The first byte of the buffer does not start a line. */
	assert_null(mail_find_line("diff --git a b", 14, "diff --git ", 11));
}

static void rfc2047_q_and_b(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(decode("=?UTF-8?q?J=C3=B6rg_M=C3=BCller?=", &out), 0);
	assert_string_equal(out.buf, "J\303\266rg M\303\274ller");
	assert_int_equal(decode("=?ISO-8859-1?Q?caf=E9?= au lait", &out), 0);
	assert_string_equal(out.buf, "caf\303\251 au lait");
	assert_int_equal(decode("=?utf-8?B?w6TDtsO8?=", &out), 0);
	assert_string_equal(out.buf, "\303\244\303\266\303\274");
	/* KOI8-R through iconv */
	assert_int_equal(decode("=?KOI8-R?B?98HT0Q==?=", &out), 0);
	assert_string_equal(out.buf, "\320\222\320\260\321\201\321\217");
	/* latin-1 is understood (git's fallback spelling) */
	assert_int_equal(decode("=?latin-1?q?=E9?=", &out), 0);
	assert_string_equal(out.buf, "\303\251");
	strbuf_release(&out);
}

static void rfc2047_whitespace(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	/* blanks between two words go, blanks before the first stay */
	assert_int_equal(decode("  =?UTF-8?q?a?= \t =?UTF-8?q?b?= c", &out), 0);
	assert_string_equal(out.buf, "  ab c");
	assert_int_equal(decode("x =?UTF-8?q?a?=", &out), 0);
	assert_string_equal(out.buf, "x a");
	assert_int_equal(decode("no words at all", &out), 0);
	assert_string_equal(out.buf, "no words at all");
	strbuf_release(&out);
}

static void rfc2047_malformed(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const char *problem = NULL;

	(void)state;
	/* as git: an error keeps the whole value undecoded */
	assert_int_equal(decode("=?UTF-8?q?a?= and =?broken", &out), -1);
	assert_string_equal(out.buf, "=?UTF-8?q?a?= and =?broken");
	assert_int_equal(decode("=?UTF-8?x?abc?=", &out), -1);
	strbuf_reset(&out);
	assert_int_equal(mail_rfc2047_decode(&out, "=?x-foo?q?abc?=", 15, &problem), -1);
	assert_non_null(problem);
	assert_string_equal(out.buf, "=?x-foo?q?abc?=");
	/* invalid bytes for the charset */
	assert_int_equal(decode("=?UTF-16?q?=00?=", &out), -1);
	/* an RFC 2231 language is accepted */
	assert_int_equal(decode("=?UTF-8*en?q?hi?=", &out), 0);
	assert_string_equal(out.buf, "hi");
	/* =00 gives a NUL byte, kept with its length */
	assert_int_equal(decode("=?UTF-8?q?a=00b?=", &out), 0);
	assert_int_equal(out.len, 3);
	assert_memory_equal(out.buf, "a\0b", 3);
	strbuf_release(&out);
}

static void rfc2047_encode_round_trip(void **state)
{
	static const char *const samples[] = {
		"plain ascii",
		"J\303\266rg M\303\274ller-L\303\274denscheidt",
		"Doe, John (the \"maintainer\")",
		"\344\275\240\345\245\275\344\270\226\347\225\214 a rather long name that needs folding over lines",
	};
	struct strbuf enc = STRBUF_INIT, dec = STRBUF_INIT, unfolded = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++) {
		const char *s = samples[i];
		const char *line;

		strbuf_reset(&enc);
		strbuf_reset(&unfolded);
		mail_rfc2047_encode(&enc, s, strlen(s), 1);
		/* no line over 76 characters, nothing but ASCII */
		line = enc.buf;
		for (const char *p = enc.buf; ; p++) {
			if (*p == '\n' || !*p) {
				assert_true(p - line <= 76);
				line = p + 1;
				if (!*p)
					break;
			} else {
				assert_true((unsigned char)*p < 0x80);
			}
		}
		mail_unfold(&unfolded, enc.buf, enc.len);
		assert_int_equal(decode(unfolded.buf, &dec), 0);
		assert_string_equal(dec.buf, s);
	}
	strbuf_release(&enc);
	strbuf_release(&dec);
	strbuf_release(&unfolded);
}

static void qp_and_base64(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const char *problem = NULL;

	(void)state;
	/* git's lenient line decoders */
	mail_decode_q(&out, "a=3Db=\n", 7, 0);
	assert_string_equal(out.buf, "a=b");
	strbuf_reset(&out);
	mail_decode_q(&out, "x=zz_y\n", 7, 0);
	assert_string_equal(out.buf, "x=zz_y\n");
	strbuf_reset(&out);
	mail_decode_q(&out, "x=00y", 5, 1);
	assert_int_equal(out.len, 3);
	assert_memory_equal(out.buf, "x\0y", 3);
	strbuf_reset(&out);
	mail_decode_b(&out, "aGVs bG8=\n", 10);
	assert_string_equal(out.buf, "hello");

	/* the strict decoders */
	strbuf_reset(&out);
	assert_int_equal(mail_decode_qp(&out, "soft =\nbreak =E9\r\n", 18, &problem), 0);
	assert_string_equal(out.buf, "soft break \351\r\n");
	strbuf_reset(&out);
	assert_int_equal(mail_decode_qp(&out, "bad =G1", 7, &problem), -1);
	assert_string_equal(problem, "invalid quoted-printable");
	strbuf_reset(&out);
	assert_int_equal(mail_decode_base64(&out, "aGVs\r\nbG8=", 10, &problem), 0);
	assert_string_equal(out.buf, "hello");
	strbuf_reset(&out);
	problem = NULL;
	assert_int_equal(mail_decode_base64(&out, "aGVs*bG8=", 9, &problem), -1);
	assert_string_equal(problem, "invalid base64");
	strbuf_release(&out);
}

static void charset_conversion(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(mail_to_utf8(&out, "caf\351", 4, "ISO-8859-1"), 0);
	assert_string_equal(out.buf, "caf\303\251");
	strbuf_reset(&out);
	assert_int_equal(mail_to_utf8(&out, "as is \377", 7, "utf8"), 0);
	assert_int_equal(out.len, 7);
	strbuf_reset(&out);
	assert_int_equal(mail_to_utf8(&out, "x", 1, "x-no-such-charset"), -1);
	assert_int_equal(out.len, 0);
	assert_int_equal(mail_convert(&out, "\377\376a\000", 4, "UTF-16", "UTF-8"), 0);
	assert_string_equal(out.buf, "a");
	strbuf_release(&out);
}

static void headers(void **state)
{
	static const char msg[] =
		"From 1234 Mon Sep 17 00:00:00 2001\n"
		"From: A <a@example.com>\n"
		"Subject: folded\n"
		"\tover two lines  \n"
		"X-Empty:\n"
		"Content-Type: text/plain; charset=\"iso-8859-1\"; format=flowed\n"
		"\n"
		"Body: not a header\n";
	struct strbuf v = STRBUF_INIT;
	struct mail_header h;
	size_t pos = 0, hlen = mail_header_len(msg, strlen(msg)), n = 0;

	(void)state;
	assert_memory_equal(msg + hlen, "Body:", 5);
	while (mail_header_next(msg, hlen, &pos, &h))
		n++;
	assert_int_equal(n, 4);
	assert_int_equal(mail_header_get(msg, hlen, "subject", &v), 1);
	assert_string_equal(v.buf, "folded\tover two lines");
	strbuf_reset(&v);
	assert_int_equal(mail_header_get(msg, hlen, "Body", &v), 0);
	assert_int_equal(mail_header_get(msg, hlen, "content-type", &v), 1);
	{
		struct strbuf p = STRBUF_INIT;
		assert_int_equal(mail_header_param(v.buf, v.len, "charset", &p), 1);
		assert_string_equal(p.buf, "iso-8859-1");
		strbuf_reset(&p);
		assert_int_equal(mail_header_param(v.buf, v.len, "FORMAT", &p), 1);
		assert_string_equal(p.buf, "flowed");
		strbuf_reset(&p);
		assert_int_equal(mail_header_param(v.buf, v.len, "boundary", &p), 0);
		strbuf_release(&p);
	}
	/* a line without a colon ends the block */
	assert_int_equal(mail_header_len("A: b\nno colon\nC: d\n", 19), 5);
	strbuf_release(&v);
}

static void addresses(void **state)
{
	static const char list[] =
		"A <a@example.com>, \"Doe, John\" <jd@example.com>, b@example.com (Bee),"
		" =?UTF-8?q?J=C3=B6rg?= <j@example.com>, undisclosed-recipients:;,"
		" team: x@example.com, y@example.com;, <bare@example.com>";
	struct strvec v = STRVEC_INIT;
	struct mail_address a = MAIL_ADDRESS_INIT;

	(void)state;
	assert_int_equal(mail_parse_address_list(&v, list, strlen(list)), 7);
	assert_string_equal(v.v[0], "A <a@example.com>");
	assert_string_equal(v.v[1], "Doe, John <jd@example.com>");
	assert_string_equal(v.v[2], "Bee <b@example.com>");
	assert_string_equal(v.v[3], "J\303\266rg <j@example.com>");
	assert_string_equal(v.v[4], "x@example.com");
	assert_string_equal(v.v[5], "y@example.com");
	assert_string_equal(v.v[6], "bare@example.com");
	strvec_clear(&v);

	{
		static const char q[] = "\"Q \\\"x\\\"\" <q@example.com>";
		assert_int_equal(mail_parse_address(&a, q, strlen(q)), 0);
	}
	assert_string_equal(a.name.buf, "Q \"x\"");
	assert_string_equal(a.email.buf, "q@example.com");
	assert_int_equal(mail_parse_address(&a, "", 0), -1);
	mail_address_release(&a);
}

static void deep_comments_are_iterative(void **state)
{
	size_t n = 1 << 20;
	struct strbuf s = STRBUF_INIT;
	struct strvec v = STRVEC_INIT;

	(void)state;
	strbuf_addstr(&s, "Deep ");
	strbuf_addchars(&s, '(', n);
	strbuf_addstr(&s, " <deep@example.com>");
	/* an unterminated comment swallows the rest: no address, no crash */
	assert_int_equal(mail_parse_address_list(&v, s.buf, s.len), 0);
	strbuf_addchars(&s, ')', n);
	strbuf_addstr(&s, " <d2@example.com>");
	assert_int_equal(mail_parse_address_list(&v, s.buf, s.len), 1);
	assert_string_equal(v.v[0] + strlen(v.v[0]) - 16, "<d2@example.com>");
	strvec_clear(&v);
	strbuf_release(&s);
}

static void message_ids(void **state)
{
	static const char refs[] = "<a@x> <b@y>\n\t<c@z> junk <>";
	struct strvec v = STRVEC_INIT;

	(void)state;
	assert_int_equal(mail_parse_msgids(&v, refs, strlen(refs)), 3);
	assert_string_equal(v.v[0], "a@x");
	assert_string_equal(v.v[2], "c@z");
	strvec_clear(&v);
	assert_int_equal(mail_parse_msgids(&v, "  bare@id more", 14), 1);
	assert_string_equal(v.v[0], "bare@id");
	strvec_clear(&v);
	assert_int_equal(mail_parse_msgids(&v, "", 0), 0);
}

/*
 * Of more References than MAIL_REFERENCES_MAX: the root and the nearest, the
 * parent last (reliability case 55).
 */
static void references_bounded(void **state)
{
	struct strbuf refs = STRBUF_INIT;
	struct strvec v = STRVEC_INIT;
	char want[32];

	(void)state;
	for (int i = 0; i < MAIL_REFERENCES_MAX; i++)
		strbuf_addf(&refs, "<r%d@x> ", i);
	assert_int_equal(mail_parse_references(&v, refs.buf, refs.len), MAIL_REFERENCES_MAX);
	assert_string_equal(v.v[1], "r1@x");
	strvec_clear(&v);
	for (int i = MAIL_REFERENCES_MAX; i < 10 * MAIL_REFERENCES_MAX; i++)
		strbuf_addf(&refs, "<not an id> <r%d@x>\n\t", i);
	assert_int_equal(mail_parse_references(&v, refs.buf, refs.len), MAIL_REFERENCES_MAX);
	assert_int_equal(v.nr, MAIL_REFERENCES_MAX);
	assert_string_equal(v.v[0], "r0@x");
	snprintf(want, sizeof(want), "r%d@x", 9 * MAIL_REFERENCES_MAX + 1);
	assert_string_equal(v.v[1], want);
	snprintf(want, sizeof(want), "r%d@x", 10 * MAIL_REFERENCES_MAX - 1);
	assert_string_equal(v.v[MAIL_REFERENCES_MAX - 1], want);
	strvec_clear(&v);
	strbuf_release(&refs);
}

static void subject_cleanup(void **state)
{
	static const struct { const char *in, *out, *out_b; } cases[] = {
		{ "[PATCH v2 3/5] usb: fix", "usb: fix", "usb: fix" },
		{ "Re: [PATCH] fix", "fix", "fix" },
		{ "RE: re:[RFC][PATCH 1/2] x", "x", "[RFC]x" },	/* as git -b gives it */
		{ "[RFC] [PATCH] y", "y", "[RFC] y" },
		{ "[PATCH] [usb] z", "z", "[usb] z" },
		{ "  ::: [PATCH]", "", "" },
		{ "[PATCH] Re: keep inner", "keep inner", "keep inner" },
		{ "Reply to this", "Reply to this", "Reply to this" },
		{ "[unclosed bracket", "[unclosed bracket", "[unclosed bracket" },
		{ "re:", "re:", "re:" },
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, cases[i].in);
		mailinfo_cleanup_subject(&sb, 0);
		assert_string_equal(sb.buf, cases[i].out);
		strbuf_reset(&sb);
		strbuf_addstr(&sb, cases[i].in);
		mailinfo_cleanup_subject(&sb, 1);
		assert_string_equal(sb.buf, cases[i].out_b);
	}
	strbuf_release(&sb);
}

static void series_numbers(void **state)
{
	static const struct { const char *s; int v, n, m; } cases[] = {
		{ "[PATCH v2 3/5] x", 2, 3, 5 },
		{ "[PATCH 3/5 v2] x", 2, 3, 5 },
		{ "[PATCHv3 0/7] x", 3, 0, 7 },
		{ "[RFC PATCH net-next v4 10/12] x", 4, 10, 12 },
		{ "Re: [PATCH 1/2] x", 1, 1, 2 },
		{ "[PATCH] fix [1/2] later", 1, 0, 0 },
		{ "[PATCH 5.10 2/3] stable", 1, 2, 3 },
		{ "[RFC][PATCH v2] x", 2, 0, 0 },
		{ "no brackets", 1, 0, 0 },
		{ "[PATCH v2x 1/2] odd", 1, 1, 2 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int v, n, m;
		mailinfo_series_info(cases[i].s, strlen(cases[i].s), &v, &n, &m);
		if (v != cases[i].v || n != cases[i].n || m != cases[i].m)
			fail_msg("'%s': got v%d %d/%d", cases[i].s, v, n, m);
	}
}

static void diff_paths(void **state)
{
	static const char patch[] =
		"---\n"
		" a.c | 2 +-\n"
		"\n"
		"diff --git a/drivers/usb/a.c b/drivers/usb/a.c\n"
		"index 1..2 100644\n"
		"--- a/drivers/usb/a.c\n"
		"+++ b/drivers/usb/a.c\n"
		"@@ -1,3 +1,3 @@\n"
		" x\n"
		"--- not a file header, a removed line\n"
		"+++ not one either\n"
		" y\n"
		"diff --git a/old name.c b/new name.c\n"
		"similarity index 90%\n"
		"rename from old name.c\n"
		"rename to new name.c\n"
		"diff --git a/src.c b/copy.c\n"
		"copy from src.c\n"
		"copy to copy.c\n"
		"diff --git \"a/\\303\\244.c\" \"b/\\303\\244.c\"\n"
		"new file mode 100644\n"
		"--- /dev/null\n"
		"+++ \"b/\\303\\244.c\"\n"
		"@@ -0,0 +1 @@\n"
		"+x\n"
		"diff --git a/bin.dat b/bin.dat\n"
		"Binary files a/bin.dat and b/bin.dat differ\n"
		"diff --git a/mode only b/mode only\n"
		"old mode 100644\n"
		"new mode 100755\n"
		"diff --git a/sp.c b/sp.c\n"
		"--- a/sp.c\t2024-01-01\n"
		"+++ b/sp.c\t2024-01-01\n"
		"-- \n"
		"2.39.5\n";
	static const char *const want[] = {
		"drivers/usb/a.c", "old name.c", "new name.c", "src.c", "copy.c",
		"\303\244.c", "bin.dat", "mode only", "sp.c",
	};
	struct strvec paths = STRVEC_INIT;

	(void)state;
	mailinfo_diff_paths(&paths, patch, strlen(patch));
	mailinfo_paths_unique(&paths);
	assert_int_equal(paths.nr, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_string_equal(paths.v[i], want[i]);
	strvec_clear(&paths);

	/* a plain diff -u (not git): the first directory is dropped, as git apply -p1 */
	mailinfo_diff_paths(&paths, "--- linux.orig/mm/x.c\n+++ linux/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n", 55);
	assert_int_equal(paths.nr, 1);
	assert_string_equal(paths.v[0], "mm/x.c");
	strvec_clear(&paths);
}

static void from_lines(void **state)
{
	static const struct { const char *line; int ok; } cases[] = {
		{ "From e6807f3efca28b30decfecb1732a56c7db1137ee Mon Sep 17 00:00:00 2001\n", 1 },
		{ "From someone@example.com Thu Dec  3 07:13:37 2026\n", 1 },
		{ "From someone Mon Sep 17 00:00:00 1990\n", 1 },
		{ "From someone Mon Sep 17 00:00:00 90\n", 0 },	/* git: the year must be over 90 */
		{ "From the start of time, nothing happened\n", 0 },
		{ "From x 1:00:00 2001\n", 1 },
		{ "From x   :00:00 2001\n", 0 },			/* a digit missing before the colon */
		{ "From short\n", 0 },
		{ ">From e6807f3efca28b30decfecb1732a56c7db1137ee Mon Sep 17 00:00:00 2001\n", 0 },
		{ "From x Mon Sep 17 00:00:00\n2001 on the next line", 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *l = cases[i].line, *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);
		if (mbox_is_from_line(l, len) != cases[i].ok)
			fail_msg("'%s': expected %d", l, cases[i].ok);
	}
}

/* All messages of buf through a buffer source: their bodies, joined by '|'. */
static int read_all(const char *buf, unsigned flags, size_t max, struct strbuf *out)
{
	struct mail_source *src;
	struct raw_mail raw;
	int r, errors = 0, n = 0;

	source_open_buffer(&src, buf, strlen(buf), "buf", flags);
	if (max)
		source_set_max_size(src, max);
	strbuf_reset(out);
	while ((r = source_next(src, &raw))) {
		if (r < 0) {
			errors++;
			continue;
		}
		if (n++)
			strbuf_addch(out, '|');
		strbuf_add(out, raw.buf, raw.len);
	}
	source_close(src);
	return errors;
}

#define SEP "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n"

static void source_mbox_rules(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	/* a From line that is not a separator stays in the body */
	assert_int_equal(read_all("\n\n" SEP "A: 1\n\nFrom here on\n" SEP "A: 2\n\nx\n", 0, 0, &out), 0);
	assert_string_equal(out.buf, "A: 1\n\nFrom here on\n|A: 2\n\nx\n");
	/* mboxrd: one '>' less on >+From lines only */
	assert_int_equal(read_all(SEP "A: 1\n\n>From a\n>>From b\n> From c\n", SOURCE_MBOXRD, 0, &out), 0);
	assert_string_equal(out.buf, "A: 1\n\nFrom a\n>From b\n> From c\n");
	/* mboxo keeps them */
	read_all(SEP "A: 1\n\n>From a\n", 0, 0, &out);
	assert_string_equal(out.buf, "A: 1\n\n>From a\n");
	/* CRLF becomes LF, unless kept */
	read_all(SEP "A: 1\r\n\r\nx\r\ny\n", 0, 0, &out);
	assert_string_equal(out.buf, "A: 1\n\nx\ny\n");
	read_all(SEP "A: 1\r\n\r\nx\r\n", SOURCE_KEEP_CR, 0, &out);
	assert_string_equal(out.buf, "A: 1\r\n\r\nx\r\n");
	/* a file that is not an mbox is one message */
	read_all("Subject: bare\n\nFrom x Mon Sep 17 00:00:00 2001\n", 0, 0, &out);
	assert_string_equal(out.buf, "Subject: bare\n\nFrom x Mon Sep 17 00:00:00 2001\n");
	/* empty input, only blanks: nothing */
	assert_int_equal(read_all("", 0, 0, &out), 0);
	assert_int_equal(out.len, 0);
	assert_int_equal(read_all(" \n\t\n", 0, 0, &out), 0);
	assert_int_equal(out.len, 0);
	/* separators only: empty messages */
	read_all(SEP SEP, 0, 0, &out);
	assert_string_equal(out.buf, "|");
	strbuf_release(&out);
}

static void source_max_size(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(read_all(SEP "A: small\n" SEP "A: this one is too big\n" SEP "A: ok\n", 0, 12, &out), 1);
	assert_string_equal(out.buf, "A: small\n|A: ok\n");
	strbuf_release(&out);
}

static int parse(const char *msg, struct patch_mail *pm, int fast)
{
	struct mailinfo_opts opts = MAILINFO_OPTS_INIT;
	struct raw_mail raw = { msg, strlen(msg), "unit", 7, NULL, 0, NULL };

	opts.headers_and_paths_only = fast;
	return mailinfo_parse(pm, &raw, &opts);
}

static void patch_mail_fields(void **state)
{
	static const char msg[] =
		"From: =?UTF-8?q?J=C3=B6rg?= <j@example.com>\n"
		"To: Greg <greg@kroah.com>, linux-usb@vger.kernel.org\n"
		"Cc: \"Doe, J\" <jd@example.com>\n"
		"Subject: Re: [PATCH v3 2/4] usb: core: fix\n"
		"Date: Mon, 1 Jan 2024 10:00:00 +0100\n"
		"Message-ID: <id-2@example.com>\n"
		"In-Reply-To: <id-0@example.com>\n"
		"References: <id-0@example.com>\n <id-1@example.com>\n"
		"\n"
		"The message.\n"
		"---\n"
		"diff --git a/drivers/usb/core/hub.c b/drivers/usb/core/hub.c\n"
		"--- a/drivers/usb/core/hub.c\n"
		"+++ b/drivers/usb/core/hub.c\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n";
	struct patch_mail pm;

	(void)state;
	mailinfo_init(&pm);
	for (int fast = 0; fast < 2; fast++) {
		assert_int_equal(parse(msg, &pm, fast), 0);
		assert_string_equal(pm.author_name.buf, "J\303\266rg");
		assert_string_equal(pm.author_email.buf, "j@example.com");
		assert_string_equal(pm.subject.buf, "usb: core: fix");
		assert_string_equal(pm.raw_subject.buf, "Re: [PATCH v3 2/4] usb: core: fix");
		assert_string_equal(pm.date.buf, "Mon, 1 Jan 2024 10:00:00 +0100");
		assert_string_equal(pm.message_id.buf, "id-2@example.com");
		assert_string_equal(pm.in_reply_to.buf, "id-0@example.com");
		assert_int_equal(pm.references.nr, 2);
		assert_string_equal(pm.references.v[1], "id-1@example.com");
		assert_int_equal(pm.to.nr, 2);
		assert_string_equal(pm.to.v[1], "linux-usb@vger.kernel.org");
		assert_string_equal(pm.cc.v[0], "Doe, J <jd@example.com>");
		assert_int_equal(pm.version, 3);
		assert_int_equal(pm.number, 2);
		assert_int_equal(pm.total, 4);
		assert_true(pm.is_reply);
		assert_true(pm.has_patch);
		assert_int_equal(pm.paths.nr, 1);
		assert_string_equal(pm.paths.v[0], "drivers/usb/core/hub.c");
		if (fast) {
			assert_int_equal(pm.message.len, 0);
			assert_int_equal(pm.patch.len, 0);
		} else {
			assert_string_equal(pm.message.buf, "The message.\n");
			assert_true(starts_with(pm.patch.buf, "---\ndiff --git"));
		}
	}
	mailinfo_release(&pm);
}

static void patch_mail_hostile(void **state)
{
	struct patch_mail pm;
	struct strbuf m = STRBUF_INIT;

	(void)state;
	mailinfo_init(&pm);
	/* empty */
	assert_int_equal(parse("", &pm, 0), -1);
	assert_int_equal(parse("\n \n", &pm, 0), -1);
	/* only headers, no body, no newline at the end */
	assert_int_equal(parse("Subject: s", &pm, 0), 0);
	assert_string_equal(pm.subject.buf, "s");
	/* a header continuation at the very end */
	assert_int_equal(parse("Subject: s\n ", &pm, 0), 0);
	/* a boundary that never comes */
	assert_int_equal(parse("Content-Type: multipart/mixed; boundary=x\n\nbody\n", &pm, 0), 0);
	assert_false(pm.has_patch);
	/* a megabyte of '(' in From, and a megabyte of '[' in Subject */
	strbuf_addstr(&m, "From: x ");
	strbuf_addchars(&m, '(', 1 << 20);
	strbuf_addstr(&m, " <x@example.com>\nSubject: ");
	strbuf_addchars(&m, '[', 1 << 20);
	strbuf_addstr(&m, "\n\nbody\n");
	assert_int_equal(parse(m.buf, &pm, 0), 0);
	assert_string_equal(pm.author_email.buf, "x@example.com");
	assert_int_equal(pm.subject.len, 1 << 20);
	/* base64 declared, garbage given */
	assert_int_equal(parse("Content-Transfer-Encoding: base64\n\n!!!!\n", &pm, 0), -1);
	/* never invalid UTF-8 out */
	assert_int_equal(parse("From: \377\376 <a@b.c>\nSubject: \300\n\nx\n", &pm, 0), 0);
	assert_true(utf8_valid(pm.author_name.buf, pm.author_name.len));
	assert_true(utf8_valid(pm.subject.buf, pm.subject.len));
	strbuf_release(&m);
	mailinfo_release(&pm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_line),
		cmocka_unit_test(rfc2047_q_and_b),
		cmocka_unit_test(rfc2047_whitespace),
		cmocka_unit_test(rfc2047_malformed),
		cmocka_unit_test(rfc2047_encode_round_trip),
		cmocka_unit_test(qp_and_base64),
		cmocka_unit_test(charset_conversion),
		cmocka_unit_test(headers),
		cmocka_unit_test(addresses),
		cmocka_unit_test(deep_comments_are_iterative),
		cmocka_unit_test(message_ids),
		cmocka_unit_test(references_bounded),
		cmocka_unit_test(subject_cleanup),
		cmocka_unit_test(series_numbers),
		cmocka_unit_test(diff_paths),
		cmocka_unit_test(from_lines),
		cmocka_unit_test(source_mbox_rules),
		cmocka_unit_test(source_max_size),
		cmocka_unit_test(patch_mail_fields),
		cmocka_unit_test(patch_mail_hostile),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
