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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(envelope_injection),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
