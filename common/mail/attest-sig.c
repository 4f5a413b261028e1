/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the signature checkers share (see attest-sig.h): a verdict's
 * signatures, and what makes a message's signatures worthless.
 */
#include "attest-sig.h"
#include "wrapper.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void attest_verdict_release(struct attest_verdict *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		free(v->sigs[i].signer);
		free(v->sigs[i].why);
	}
	free(v->sigs);
	v->sigs = NULL;
	v->nr = v->alloc = 0;
	v->verdict = 'N';
	v->tempfail = 0;
	v->decider = 0;
}

const char *attest_signer(const struct attest_verdict *v)
{
	return v->decider < v->nr ? v->sigs[v->decider].signer : "";
}

void attest_add_sig(struct attest_verdict *v, char verdict, const char *signer, const char *fmt, ...)
{
	struct attest_sig *s;
	struct strbuf why = STRBUF_INIT;
	va_list ap;

	ALLOC_GROW(v->sigs, v->nr + 1, v->alloc);
	s = &v->sigs[v->nr++];
	memset(s, 0, sizeof(*s));
	s->verdict = verdict;
	s->signer = xstrdup(signer);
	va_start(ap, fmt);
	strbuf_vaddf(&why, fmt, ap);
	va_end(ap);
	s->why = strbuf_detach(&why, NULL);
}

/* What makes any signature of m worthless, or NULL. */
const char *attest_msg_flaw(const struct attest_msg *m, struct strbuf *buf)
{
	strbuf_reset(buf);
	if (m->from_count > 1)
		strbuf_addf(buf, "the message has %zu From headers", m->from_count);
	else if (m->subject_count > 1)
		strbuf_addf(buf, "the message has %zu Subject headers", m->subject_count);
	else if (!m->from_count)
		strbuf_addstr(buf, "the message has no From header");
	return buf->len ? buf->buf : NULL;
}
