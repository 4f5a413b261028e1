/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for every date parser: parse_date() (common/mail/ident.c: mail
 * Date headers and GIT_*_DATE, what goes into commits) and
 * select_parse_date() (common/mail/select.c: --since/--until and the dates
 * mbox-split sorts by). The bytes, cut at the first NUL, are the text;
 * TZ is UTC. Checks, besides the sanitizers (integer overflow is UB):
 *  - a date parse_date() accepts is one git fsck accepts in a commit:
 *    seconds from 0 to 2^63-1, a zone of at most 23:59;
 *  - the date written as git writes it (ident_add_date()) reads back
 *    as the same date (when it has more than 8 digits: like git's,
 *    the parser takes a shorter number for a day or a year);
 *  - select_parse_date("@<n>") gives n back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ident.h"
#include "select.h"
#include "strbuf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf text = STRBUF_INIT, again = STRBUF_INIT;
	long long when, when2;
	int tz, tz2;
	time_t t, t2;

	if (size > 256)
		return 0;
	strbuf_add(&text, data, size);	/* NUL-terminated copy; parsers stop at a NUL */
	if (!parse_date(text.buf, &when, &tz)) {
		if (when < 0 || tz < -(23 * 60 + 59) || tz > 23 * 60 + 59)
			abort();
		ident_add_date(&again, when, tz);
		if (when >= 100000000 &&
		    (parse_date(again.buf, &when2, &tz2) || when2 != when || tz2 != tz))
			abort();
	}
	if (!select_parse_date(text.buf, &t)) {
		strbuf_reset(&again);
		strbuf_addf(&again, "@%lld", (long long)t);
		if (select_parse_date(again.buf, &t2) || t2 != t)
			abort();
	}
	strbuf_release(&text);
	strbuf_release(&again);
	return 0;
}
