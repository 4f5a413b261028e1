/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The describe-contains engine (see describe-contains.h).
 */
#include "describe-contains.h"
#include "oid.h"
#include "strbuf.h"
#include "usage.h"

#include <stdio.h>

void dc_options_release(struct dc_options *o)
{
	strvec_clear(&o->match);
	strvec_clear(&o->exclude);
}

void dc_describe_options(struct describe_options *out, const struct dc_options *o)
{
	out->all = o->all;
	out->match = &o->match;
	out->exclude = &o->exclude;
	out->use_graph = o->use_graph;
	out->use_cache = o->use_cache;
}

/*
 * Answers one commit-ish: prints its name and returns 0; returns 1 when
 * nothing contains it, -1 when it cannot be resolved or read, and
 * DESCRIBE_FALLBACK (nothing printed). *oid is set when resolution succeeded.
 */
static int answer(struct describer *d, const struct dc_options *o, const char *rev,
		  git_oid *oid, struct strbuf *out)
{
	int rc;

	strbuf_reset(out);
	rc = describer_resolve(d, rev, oid);
	if (rc < 0)
		return rc == DESCRIBE_FALLBACK ? rc : -1;
	if (o->release)
		rc = describe_release(d, oid, &o->match, &o->exclude, out);
	else
		rc = describe_contains(d, oid, out);
	if (rc < 0)
		return rc == DESCRIBE_FALLBACK ? rc : -1;
	if (!rc) {
		/* git allows C1 controls (a CSI) in tag names: one line, nothing for the terminal */
		strbuf_setlen(out, neutralise_field(out->buf, out->len));
		strbuf_addch(out, '\n');
		fwrite(out->buf, 1, out->len, stdout);
	}
	return rc;
}

/* Standard output flushed: 0, or -1 (reported). */
static int flush_stdout(void)
{
	if (fflush(stdout))
		return error_errno("write error on standard output");
	return 0;
}

enum maint_result dc_run_args(struct describer *d, const struct dc_options *o, int argc,
			      const char **argv, const struct dc_fallback *fb)
{
	static const char *head[] = { "HEAD", NULL };
	struct strbuf out = STRBUF_INIT;
	enum maint_result ret = RESULT_OK;
	int i;

	if (!argc) {
		argc = 1;
		argv = head;
	}
	for (i = o->answered; i < argc; i++) {
		git_oid oid;
		char hex[GIT_OID_HEXSZ + 1];
		int rc = answer(d, o, argv[i], &oid, &out);

		if (rc == DESCRIBE_FALLBACK) {
			if (!fb)
				BUG("no fallback for '%s'", argv[i]);
			strbuf_release(&out);
			if (flush_stdout() < 0)
				return RESULT_FATAL;
			fb->args(fb->ctx, argc - i, argv + i);
			BUG("the fallback returned");
		} else if (rc < 0) {
			ret = RESULT_NO;
		} else if (rc > 0) {
			/* like git: what was named so far, then the failure, and no more */
			fflush(stdout);
			error("cannot describe '%s'", oid_to_hex(&oid, hex));
			ret = RESULT_FATAL;
			break;
		}
	}
	strbuf_release(&out);
	return ret;
}

enum maint_result dc_run_stdin(struct describer *d, const struct dc_options *o,
			       const struct dc_fallback *fb)
{
	struct strbuf line = STRBUF_INIT, out = STRBUF_INIT;
	enum maint_result ret = RESULT_OK;

	while (strbuf_getline(&line, stdin) != EOF) {
		git_oid oid;
		int rc;

		strbuf_trim(&line);
		if (!line.len)
			continue;
		rc = answer(d, o, line.buf, &oid, &out);
		if (rc == DESCRIBE_FALLBACK) {
			if (!fb)
				BUG("no fallback for '%s'", line.buf);
			ret = flush_stdout() < 0 ? RESULT_FATAL :
			      result_worse(ret, fb->input(fb->ctx, line.buf));
			break;
		}
		if (rc) {
			/* the command's output: git's "<name> undefined" line */
			strbuf_setlen(&line, neutralise_field(line.buf, line.len));
			strbuf_addstr(&line, " undefined\n");
			fwrite(line.buf, 1, line.len, stdout);
			ret = RESULT_NO;
		}
		if (flush_stdout() < 0) {
			ret = RESULT_FATAL;
			break;
		}
	}
	strbuf_release(&line);
	strbuf_release(&out);
	return ret;
}
