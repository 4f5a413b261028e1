/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of parse_date() (common/base/date.c): dates a commit cannot
 * hold are refused, not wrapped or overflowed (reliability case 42; the
 * inputs the date fuzz target found are in t/fuzz/regressions/date/).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <time.h>

#include "date.h"

static void refuses_what_a_commit_cannot_hold(void **state)
{
	static const char *const bad[] = {
		"1.1.922337203685477580",		/* a year of 18 digits */
		"@12345678901234567890 +0000",		/* seconds of 20 digits */
		"@9999999999999999999 +0000",		/* 19 digits: past 2^63 - 1 */
		"Thu, 1 Jan 1970 00:00:00 +0100",	/* before the epoch in UTC */
		"Sat, 1 Jan 10000 00:00:00 +0000",	/* a year past 9999 */
		"@253402300800 +0000",			/* 10000-01-01 00:00:00 UTC */
		"@999999999999999999 -0130",		/* 18 digits, but past 9999 */
	};
	long long when;
	int tz;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(parse_date(bad[i], &when, &tz), -1);
}

static void keeps_the_edges(void **state)
{
	long long when;
	int tz;

	(void)state;
	assert_int_equal(parse_date("Thu, 1 Jan 1970 00:00:00 +0000", &when, &tz), 0);
	assert_int_equal(when, 0);
	assert_int_equal(parse_date("Thu, 1 Jan 1970 01:00:00 +0100", &when, &tz), 0);
	assert_int_equal(when, 0);
	assert_int_equal(tz, 60);
	assert_int_equal(parse_date("@253402300799 -0130", &when, &tz), 0);
	assert_int_equal(when, 253402300799LL);	/* 9999-12-31 23:59:59 UTC */
	assert_int_equal(tz, -90);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refuses_what_a_commit_cannot_hold),
		cmocka_unit_test(keeps_the_edges),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
