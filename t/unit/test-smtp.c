/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of smtp's last check before an address becomes a command:
 * compose_check_email() refuses such addresses first, so no test through
 * the command can reach this one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "smtp.h"
#include "smtp-reply.h"
#include "strbuf.h"
#include "strvec.h"
#include "wrapper.h"

/* Refused before any connection: port 9 (discard) would answer nothing SMTP. */
static void envelope_injection(void **state)
{
	struct smtp_opts o = { .host = "127.0.0.1", .port = 9, .security = SMTP_PLAIN, .timeout = 1 };
	const char *bad[] = { "a@b>\r\nRCPT TO:<c@d", "a@b\nDATA", "a@b\r", "<a@b" };
	struct strbuf reply = STRBUF_INIT;
	struct strvec rcpt = STRVEC_INIT;
	struct smtp_rcpts r;
	struct smtp *s = smtp_new(&o);

	(void)state;
	assert_non_null(s);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		strvec_clear(&rcpt);
		strvec_push(&rcpt, "ok@example.org");
		strvec_push(&rcpt, bad[i]);
		smtp_rcpts_init(&r, &rcpt, 1);
		assert_int_equal(smtp_send(s, "me@example.org", &r, "x\n", 2, &reply), SMTP_REFUSED);
		assert_non_null(strstr(reply.buf, "could inject a command"));
		assert_int_equal(smtp_send(s, bad[i], &r, "x\n", 2, &reply), SMTP_REFUSED);
		assert_int_equal(r.st[0], SMTP_RCPT_UNTRIED);
		smtp_rcpts_release(&r);
	}
	strvec_clear(&rcpt);
	strbuf_release(&reply);
	smtp_free(s);
}

/* Reads buf in pieces of step bytes: the reply's code, or -1 with why. */
static int reply_in_pieces(const struct strbuf *buf, size_t step, struct strbuf *line,
			   struct strbuf *why)
{
	struct smtp_reply r = SMTP_REPLY_INIT;
	size_t pos = 0, have = 0;
	int code = -1, got;

	for (;;) {
		got = smtp_reply_next_line(&r, buf->buf, have, &pos, line, why);
		if (!got && have < buf->len) {
			have = have + step < buf->len ? have + step : buf->len;
			continue;
		}
		if (got <= 0)
			return -1;
		got = smtp_reply_judge_line(&r, line, &code, why);
		if (got)
			return got < 0 ? -1 : code;
	}
}

/* A line over SMTP_LINE_MAX is refused whether it comes whole or in pieces. */
static void reply_line_bound_whatever_the_pieces(void **state)
{
	struct strbuf buf = STRBUF_INIT, line = STRBUF_INIT, why = STRBUF_INIT;
	const size_t steps[] = { 1, 1000, 16384 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		strbuf_reset(&buf);
		strbuf_addstr(&buf, "250-");
		strbuf_addchars(&buf, 'a', SMTP_LINE_MAX - 4);
		strbuf_addstr(&buf, "\r\n250 ok\r\n");
		assert_int_equal(reply_in_pieces(&buf, steps[i], &line, &why), 250);
		assert_string_equal(line.buf, "250 ok");
		strbuf_reset(&buf);
		strbuf_addstr(&buf, "250-");
		strbuf_addchars(&buf, 'a', SMTP_LINE_MAX - 3);
		strbuf_addstr(&buf, "\r\n250 ok\r\n");
		strbuf_reset(&why);
		assert_int_equal(reply_in_pieces(&buf, steps[i], &line, &why), -1);
		assert_string_equal(why.buf, "the server sent a line too long");
	}
	strbuf_release(&buf);
	strbuf_release(&line);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(envelope_injection),
		cmocka_unit_test(reply_line_bound_whatever_the_pieces),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
