/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-attest: the verdicts of common/mail/attest.h for each message of
 * the inputs (source.h rules), one line per message:
 *
 *   <number> <verdict> <signer>: <why>       (attest_format())
 *
 * and with --all one more line per signature, indented by a tab:
 * "<verdict> <signer>: <why>" (" tempfail" when DNS failed).
 *
 *   --dkim-keys=<file>    attest.dkim-keys
 *   --keyring=<source>    a patatt key source (repeatable); without one
 *                         the default sources (attest_conf_load())
 *   --timeout=<seconds>   attest.timeout
 *   --twice               check every message twice (the cache)
 */
#include "attest.h"
#include "parse-options.h"
#include "source.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <string.h>

static const char *const usage_str[] = { "test-attest [<options>] [<mbox>...]", NULL };

int cmd_main(int argc, const char **argv)
{
	struct attest_conf conf = ATTEST_CONF_INIT;
	struct strvec keyrings = STRVEC_INIT;
	const char *keys = NULL;
	int all = 0, twice = 0, timeout = 0;
	struct option options[] = {
		OPT_STRING(0, "dkim-keys", &keys, "file", "DKIM keys"),
		OPT_STRING_LIST(0, "keyring", &keyrings, "source", "patatt key source"),
		OPT_INTEGER(0, "timeout", &timeout, "seconds", "DNS timeout"),
		OPT_BOOL(0, "all", &all, "every signature"),
		OPT_BOOL(0, "twice", &twice, "check each message twice"),
		OPT_END()
	};
	struct attest_verdict v = ATTEST_VERDICT_INIT;
	struct mail_source *src;
	struct raw_mail raw;
	struct strbuf out = STRBUF_INIT;
	struct attest *a;
	int rc;

	argc = parse_options(argc, argv, options, usage_str, 0);
	if (attest_conf_load(&conf, NULL, NULL) < 0)
		return 128;
	if (keyrings.nr) {
		strvec_clear(&conf.keyrings);
		for (size_t i = 0; i < keyrings.nr; i++)
			strvec_push(&conf.keyrings, keyrings.v[i]);
	}
	if (keys)
		conf.dkim_keys = xstrdup(keys);
	if (timeout)
		conf.timeout = timeout;
	if (!(a = attest_new(&conf)))
		return 128;
	if (source_open(&src, argv, argc, 0) < 0)
		return 128;
	while ((rc = source_next(src, &raw)) != 0) {
		if (rc < 0)
			continue;
		for (int pass = 0; pass <= twice; pass++) {
			attest_check(a, &raw, &v);
			strbuf_reset(&out);
			strbuf_addf(&out, "%zu ", raw.number);
			attest_format(&out, &v);
			strbuf_addch(&out, '\n');
			for (size_t i = 0; all && i < v.nr; i++)
				strbuf_addf(&out, "\t%c %s: %s%s\n", v.sigs[i].verdict, v.sigs[i].signer,
					    v.sigs[i].why, v.sigs[i].tempfail ? " tempfail" : "");
			fwrite(out.buf, 1, out.len, stdout);
		}
	}
	source_close(src);
	attest_verdict_release(&v);
	attest_free(a);
	attest_conf_release(&conf);
	strvec_clear(&keyrings);
	strbuf_release(&out);
	return 0;
}
