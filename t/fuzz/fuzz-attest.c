/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for attestation (common/mail/attest.h): the bytes are a
 * message, checked with DKIM keys from an empty key file and a keyring
 * that does not exist (no DNS, no key: every signature header is parsed,
 * canonicalised and reaches the key lookup), and its first header
 * value is read as patatt's tags. Checks that
 *  - every verdict is G, B, U or N, and a message without signatures is N;
 *  - no signature is G (there are no keys to make one good);
 *  - a second check of the same bytes gives the same verdict (the cache);
 *  - every tag name and value lies in the input, without a blank, ';' in
 *    no name, and no name twice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attest.h"
#include "attest-patatt.h"
#include "mail.h"
#include "source.h"
#include "strbuf.h"
#include "strvec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct attest_conf conf = ATTEST_CONF_INIT;
static struct attest *att;

static void check_tags(const char *value, size_t len)
{
	struct strvec tags = STRVEC_INIT;

	attest_patatt_tags(&tags, value, len);
	if (tags.nr % 2)
		abort();
	for (size_t i = 0; i < tags.nr; i += 2) {
		if (strchr(tags.v[i], ';') || strchr(tags.v[i], '=') || strpbrk(tags.v[i], " \t\r\n") ||
		    strpbrk(tags.v[i + 1], " \t\r\n;"))
			abort();
		for (size_t j = 0; j < i; j += 2)
			if (!strcmp(tags.v[i], tags.v[j]))
				abort();
	}
	strvec_clear(&tags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct attest_verdict v = ATTEST_VERDICT_INIT, again = ATTEST_VERDICT_INIT;
	struct raw_mail raw = { 0 };
	struct mail_header h;
	size_t pos = 0;

	if (!att) {
		conf.dkim_keys = "/dev/null";
		strvec_push(&conf.keyrings, "/nonexistent-keyring");
		att = attest_new(&conf);
	}
	raw.buf = (const char *)data;
	raw.len = size;
	raw.origin = "fuzz";
	raw.number = 1;
	raw.offset = -1;
	if (mail_header_next(raw.buf, mail_header_len(raw.buf, raw.len), &pos, &h))
		check_tags(h.value, h.value_len);
	attest_check(att, &raw, &v);
	if (!strchr("GBUN", v.verdict) || (v.verdict == 'N') != (v.nr == 0))
		abort();
	for (size_t i = 0; i < v.nr; i++)
		if (v.sigs[i].verdict == 'G' || !strchr("BU", v.sigs[i].verdict))
			abort();
	attest_check(att, &raw, &again);
	if (again.verdict != v.verdict || again.nr != v.nr)
		abort();
	attest_verdict_release(&v);
	attest_verdict_release(&again);
	return 0;
}
