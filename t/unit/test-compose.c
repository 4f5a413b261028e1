/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of notify's pure parts: compose (checks, dates, folding,
 * encodings) and template expansion.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "mail.h"
#include "strbuf.h"
#include "template.h"
#include "wrapper.h"

static int text_ok(const char *s)
{
	const char *why;

	return compose_check_text(s, strlen(s), &why) == 0;
}

static int email_ok(const char *s)
{
	const char *why;

	return compose_check_email(s, &why) == 0;
}

static int msgid_ok(const char *s)
{
	const char *why;

	return compose_check_msgid(s, &why) == 0;
}

static void checks(void **state)
{
	(void)state;
	assert_true(text_ok("J\303\266rg M\303\274ller"));
	assert_true(text_ok("tab\tinside"));
	assert_false(text_ok("Eve\r\nBcc: x@y"));
	assert_false(text_ok("Eve\rBcc"));
	assert_false(text_ok("Eve\nBcc"));
	assert_false(text_ok("esc\033[31m"));
	assert_false(text_ok("del\177"));
	assert_false(text_ok("c1 \302\205 next line"));
	assert_false(text_ok("ls \342\200\250 here"));
	assert_false(text_ok("ps \342\200\251 here"));
	assert_false(text_ok("latin1 \351"));
	assert_false(compose_check_text("nul\0x", 5, &(const char *){ NULL }) == 0);

	assert_true(email_ok("a@example.com"));
	assert_true(email_ok("first.last+tag@sub.example.co.uk"));
	assert_true(email_ok("x@[192.0.2.1]"));
	assert_false(email_ok("a@b>\r\nRCPT TO:<c@d>"));
	assert_false(email_ok("a@b> RCPT TO:<c@d"));
	assert_false(email_ok("a b@c.d"));
	assert_false(email_ok("no-at-sign"));
	assert_false(email_ok("@example.com"));
	assert_false(email_ok("a@"));
	assert_false(email_ok(".a@example.com"));
	assert_false(email_ok("a..b@example.com"));
	assert_false(email_ok("a@exa_mple.com"));
	assert_false(email_ok("a@example..com"));
	assert_false(email_ok("-oQ/tmp@example.com"));
	assert_false(email_ok("j\303\266rg@example.de"));

	assert_true(msgid_ok("<a.b@c>"));
	assert_false(msgid_ok("a@b"));
	assert_false(msgid_ok("<a b@c>"));
	assert_false(msgid_ok("<a@b>\r\nBcc: x"));
	assert_false(msgid_ok("<ab>"));
	assert_false(msgid_ok("<a@b@c>"));
}

static void dates(void **state)
{
	static const struct { long long when; int tz; const char *want; } cases[] = {
		{ 0, 0, "Thu, 1 Jan 1970 00:00:00 +0000" },
		{ 1112354055, 120, "Fri, 1 Apr 2005 13:14:15 +0200" },
		{ 1112911993, -420, "Thu, 7 Apr 2005 15:13:13 -0700" },
		{ 951782400, 0, "Tue, 29 Feb 2000 00:00:00 +0000" },
		{ -1, 0, "Wed, 31 Dec 1969 23:59:59 +0000" },
		{ 4102444799LL, 330, "Fri, 1 Jan 2100 05:29:59 +0530" },
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&sb);
		compose_date(&sb, cases[i].when, cases[i].tz);
		assert_string_equal(sb.buf, cases[i].want);
	}
	strbuf_release(&sb);
}

/* Every header line within 78 characters, all ASCII. */
static void assert_header_lines_short(const char *msg)
{
	const char *end = strstr(msg, "\n\n");
	const char *line = msg;

	assert_non_null(end);
	for (const char *p = msg; p <= end; p++) {
		if (*p == '\n') {
			assert_true(p - line <= 78);
			line = p + 1;
		} else {
			assert_true((unsigned char)*p < 0x80);
		}
	}
}

static void message_layout(void **state)
{
	struct compose_mail m = COMPOSE_MAIL_INIT;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT, unfolded = STRBUF_INIT;
	char email[64], name[64];

	(void)state;
	m.from.name = "Greg";
	m.from.email = "greg@example.org";
	compose_addrs_add(&m.to, "\344\275\240\345\245\275 \344\270\226\347\225\214 with a long name", "w@example.cn");
	for (int i = 0; i < 12; i++) {
		snprintf(email, sizeof(email), "person%d@example.org", i);
		snprintf(name, sizeof(name), i % 2 ? "Person Number %d" : "N\303\272mero %d", i);
		compose_addrs_add(&m.cc, name, email);
	}
	assert_int_equal(compose_addrs_add(&m.cc, "dup", "PERSON1@example.org"), 0);
	m.subject = "Re: [PATCH v3 07/12] a subject that is long enough to need folding across lines";
	m.message_id = "<id@example.org>";
	m.in_reply_to = "<parent@example.org>";
	strvec_push(&m.references, "<root-with-a-long-id-0123456789@example.org>");
	strvec_push(&m.references, "<another-long-id-0123456789-abcdef@example.org>");
	strvec_push(&m.references, "<parent@example.org>");
	m.date = 0;
	m.tz = 0;
	m.body = "hello\n";
	m.body_len = 6;
	assert_int_equal(compose_message(&out, &m, &why), 0);
	assert_header_lines_short(out.buf);
	/* folding only ever inserts "\n" before a blank: unfolding gives the subject back */
	mail_header_get(out.buf, out.len, "Subject", &unfolded);
	assert_string_equal(unfolded.buf, m.subject);
	assert_non_null(strstr(out.buf, "Content-Transfer-Encoding: 7bit\n\nhello\n"));

	/* a bad value: nothing written, the reason given */
	strbuf_reset(&out);
	m.cc.v[3].email[0] = '\r';
	assert_int_equal(compose_message(&out, &m, &why), -1);
	assert_int_equal(out.len, 0);
	assert_non_null(strstr(why.buf, "the Cc address"));

	compose_mail_release(&m);
	strbuf_release(&out);
	strbuf_release(&why);
	strbuf_release(&unfolded);
}

static void quoted_printable_round_trip(void **state)
{
	struct compose_mail m = COMPOSE_MAIL_INIT;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT, dec = STRBUF_INIT, body = STRBUF_INIT;
	const char *problem = NULL, *start;

	(void)state;
	strbuf_addstr(&body, ".leading dot\n");
	strbuf_addchars(&body, 'x', 1200);
	strbuf_addstr(&body, " = caf\303\251 \t\nlast line \n");
	m.from.name = "";
	m.from.email = "a@example.org";
	compose_addrs_add(&m.to, "", "b@example.org");
	m.subject = "s";
	m.message_id = "<i@example.org>";
	m.body = body.buf;
	m.body_len = body.len;
	assert_int_equal(compose_message(&out, &m, &why), 0);
	assert_non_null(strstr(out.buf, "Content-Transfer-Encoding: quoted-printable\n"));
	start = strstr(out.buf, "\n\n") + 2;
	for (const char *p = start, *line = start; *p; p++)
		if (*p == '\n') {
			assert_true(p - line <= 76);
			line = p + 1;
		}
	assert_int_equal(mail_decode_qp(&dec, start, out.buf + out.len - start, &problem), 0);
	assert_int_equal(dec.len, body.len);
	assert_memory_equal(dec.buf, body.buf, body.len);
	compose_mail_release(&m);
	strbuf_release(&out);
	strbuf_release(&why);
	strbuf_release(&dec);
	strbuf_release(&body);
}

static void message_ids(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const char *why;

	(void)state;
	compose_message_id(&a, "applied\nabc\n<x@y>", 17, "maint@example.org");
	compose_message_id(&b, "applied\nabc\n<x@y>", 17, "maint@example.org");
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(compose_check_msgid(a.buf, &why), 0);
	strbuf_reset(&b);
	compose_message_id(&b, "applied\nabd\n<x@y>", 17, "maint@example.org");
	assert_string_not_equal(a.buf, b.buf);
	assert_non_null(strstr(b.buf, "@example.org>"));
	/* the domain after the last '@' (a quoted local part may hold one); none: localhost */
	strbuf_reset(&b);
	compose_message_id(&b, "applied\nabc\n<x@y>", 17, "\"a@b\"@example.org");
	assert_string_equal(a.buf, b.buf);
	strbuf_reset(&b);
	compose_message_id(&b, "applied\nabc\n<x@y>", 17, "maint");
	assert_non_null(strstr(b.buf, "@localhost>"));
	strbuf_release(&a);
	strbuf_release(&b);
}

static void templates(void **state)
{
	static const char *const names[] = { "a", "b-c", "empty", NULL };
	const struct template_var vars[] = { { "a", "A" }, { "b-c", "two\nlines" }, { "empty", "" } };
	static const char text[] =
		"x %(a) y\n"
		"only %(empty) here\n"
		"%(a)%(empty)\n"
		"%(b-c)\n"
		"100% %%(a) %(\n"
		"no newline %(a)";
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(template_check(text, strlen(text), names, "t"), 0);
	assert_int_equal(template_check("%(nope)", 7, names, "t"), -1);
	template_expand(&out, text, strlen(text), vars, ARRAY_SIZE(vars));
	assert_string_equal(out.buf, "x A y\nA\ntwo\nlines\n100% %(a) %(\nno newline A");
	strbuf_release(&out);
}

/* A value from mail (a Date header) cannot drive a terminal or add a line break of its own. */
static void template_values_neutralised(void **state)
{
	const struct template_var vars[] = {
		{ "date", "Mon, 1 Jan 2024\033[2J\033]0;x\a \r+0000 \xc2\x9b" "1m" },
		{ "reason", "two\tfields\nlines" },
	};
	static const char text[] = "On %(date) you wrote: %(reason) (%%(date))";
	struct strbuf out = STRBUF_INIT;

	(void)state;
	template_expand(&out, text, strlen(text), vars, ARRAY_SIZE(vars));
	assert_string_equal(out.buf, "On Mon, 1 Jan 2024?[2J?]0;x? ?+0000 ?1m you wrote: two\tfields\nlines (%(date))");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checks),
		cmocka_unit_test(dates),
		cmocka_unit_test(message_layout),
		cmocka_unit_test(quoted_printable_round_trip),
		cmocka_unit_test(message_ids),
		cmocka_unit_test(templates),
		cmocka_unit_test(template_values_neutralised),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
