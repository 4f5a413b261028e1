/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Attestation (see attest.h): the message as both parts see it, the
 * verdict they make together, the per-run cache, the configuration and
 * the policy.
 */
#include "attest.h"
#include "attest-dkim.h"
#include "attest-patatt.h"
#include "config.h"
#include "hashmap.h"
#include "mail.h"
#include "parse-options.h"
#include "quote.h"
#include "sha1.h"
#include "source.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct cached {
	unsigned char sha[SHA1_RAWSZ];
	struct attest_verdict v;
};

struct attest {
	const struct attest_conf *conf;
	struct attest_dkim *dkim;
	struct hashmap seen;	/* Message-ID -> index in cache */
	struct cached *cache;
	size_t cache_nr, cache_alloc;
};

static void verdict_copy(struct attest_verdict *dst, const struct attest_verdict *src)
{
	attest_verdict_release(dst);
	*dst = *src;
	dst->sigs = src->nr ? xcalloc(src->nr, sizeof(*dst->sigs)) : NULL;
	dst->alloc = src->nr;
	for (size_t i = 0; i < src->nr; i++) {
		dst->sigs[i] = src->sigs[i];
		dst->sigs[i].signer = xstrdup(src->sigs[i].signer);
		dst->sigs[i].why = xstrdup(src->sigs[i].why);
	}
}

/* The first signature of sigs[from..to) with verdict c, or to. */
static size_t find_sig(const struct attest_verdict *v, size_t from, size_t to, char c)
{
	for (size_t i = from; i < to; i++)
		if (v->sigs[i].verdict == c)
			return i;
	return to;
}

/*
 * The message's verdict (attest.h): developer signatures sigs[0..ndev)
 * first, then the DKIM ones.
 */
static void decide(struct attest_verdict *v, size_t ndev)
{
	size_t i;

	v->verdict = 'N';
	v->decider = v->nr;
	v->tempfail = 0;
	if (!v->nr)
		return;
	if ((i = find_sig(v, 0, ndev, 'B')) < ndev || (i = find_sig(v, 0, ndev, 'G')) < ndev ||
	    (i = find_sig(v, ndev, v->nr, 'G')) < v->nr || (i = find_sig(v, ndev, v->nr, 'B')) < v->nr) {
		v->verdict = v->sigs[i].verdict;
		v->decider = i;
		return;
	}
	v->verdict = 'U';
	v->decider = 0;
	for (i = 0; i < v->nr; i++)
		if (v->sigs[i].tempfail) {
			v->tempfail = 1;
			v->decider = i;
			break;
		}
}

/* The facts both parts need, read once. */
static void msg_init(struct attest_msg *m, const struct raw_mail *raw)
{
	struct mail_header h;
	size_t pos = 0;

	memset(m, 0, sizeof(*m));
	m->buf = raw->buf;
	m->len = raw->len;
	m->origin = raw->origin;
	m->number = raw->number;
	m->header_len = mail_header_len(raw->buf, raw->len);
	strbuf_init(&m->from_email, 0);
	while (mail_header_next(raw->buf, m->header_len, &pos, &h)) {
		if (h.name_len == 4 && !strncasecmp(h.name, "from", 4)) {
			if (!m->from_count++) {
				struct mail_address a = MAIL_ADDRESS_INIT;
				struct strbuf v = STRBUF_INIT;

				mail_unfold(&v, h.value, h.value_len);
				if (!mail_parse_address(&a, v.buf, v.len))
					strbuf_addbuf(&m->from_email, &a.email);
				mail_address_release(&a);
				strbuf_release(&v);
			}
		} else if (h.name_len == 7 && !strncasecmp(h.name, "subject", 7)) {
			m->subject_count++;
		}
	}
}

static void msg_release(struct attest_msg *m)
{
	strbuf_release(&m->from_email);
}

/* 0, or -1 (reported) when a library that checks signatures cannot be loaded */
static int check_uncached(struct attest *a, const struct raw_mail *raw, struct attest_verdict *v)
{
	struct attest_msg m;
	size_t ndev;
	int ret;

	msg_init(&m, raw);
	ret = attest_patatt_check(a->conf, &m, v);
	ndev = v->nr;
	if (!ret)
		ret = attest_dkim_check(a->dkim, &m, v);
	decide(v, ndev);
	msg_release(&m);
	return ret;
}

int attest_check(struct attest *a, const struct raw_mail *raw, struct attest_verdict *v)
{
	struct strbuf id = STRBUF_INIT;
	struct strvec ids = STRVEC_INIT;
	unsigned char sha[SHA1_RAWSZ];
	size_t hlen = mail_header_len(raw->buf, raw->len);
	uint32_t *slot = NULL;
	int added = 0, ret = 0;

	attest_verdict_release(v);
	if (mail_header_get(raw->buf, hlen, "message-id", &id) &&
	    mail_parse_msgids(&ids, id.buf, id.len)) {
		sha1_buf(sha, raw->buf, raw->len);
		slot = hashmap_put(&a->seen, ids.v[0], strlen(ids.v[0]), &added);
		if (!added && !memcmp(a->cache[*slot].sha, sha, sizeof(sha))) {
			verdict_copy(v, &a->cache[*slot].v);
			goto out;
		}
	}
	ret = check_uncached(a, raw, v);
	/* a DNS failure is not kept (the next message may find DNS back), nor a failed check */
	if (slot && !v->tempfail && !ret) {
		struct cached *c;

		if (added) {
			ALLOC_GROW(a->cache, a->cache_nr + 1, a->cache_alloc);
			*slot = a->cache_nr++;
			memset(&a->cache[*slot].v, 0, sizeof(a->cache[*slot].v));
		}
		c = &a->cache[*slot];
		memcpy(c->sha, sha, sizeof(sha));
		verdict_copy(&c->v, v);
	} else if (slot && added) {
		/* keep the map and the cache in step: an empty entry nothing matches */
		ALLOC_GROW(a->cache, a->cache_nr + 1, a->cache_alloc);
		*slot = a->cache_nr++;
		memset(&a->cache[*slot], 0, sizeof(a->cache[*slot]));
		a->cache[*slot].v.verdict = 'N';
		memset(a->cache[*slot].sha, 0xff, sizeof(sha));
	}
out:
	strvec_clear(&ids);
	strbuf_release(&id);
	return ret;
}

struct attest *attest_new(const struct attest_conf *conf)
{
	struct attest *a = xcalloc(1, sizeof(*a));

	a->conf = conf;
	a->dkim = attest_dkim_new(conf);
	return a;
}

void attest_free(struct attest *a)
{
	if (!a)
		return;
	attest_dkim_free(a->dkim);
	for (size_t i = 0; i < a->cache_nr; i++)
		attest_verdict_release(&a->cache[i].v);
	free(a->cache);
	hashmap_release(&a->seen);
	free(a);
}

void attest_format(struct strbuf *out, const struct attest_verdict *v)
{
	const struct attest_sig *s = v->decider < v->nr ? &v->sigs[v->decider] : NULL;

	strbuf_addch(out, v->verdict);
	if (!s)
		return;
	strbuf_addch(out, ' ');
	quote_field(out, s->signer, strlen(s->signer));
	if (*s->why) {
		strbuf_addstr(out, ": ");
		quote_field(out, s->why, strlen(s->why));
	}
}

void attest_mark(struct strbuf *out, enum attest_policy p, const struct attest_verdict *v)
{
	if (p == ATTEST_OFF || (p == ATTEST_CHECK && v->verdict == 'N'))
		return;
	strbuf_addstr(out, " [");
	attest_format(out, v);
	strbuf_addch(out, ']');
}

enum maint_result attest_apply_policy(enum attest_policy p, const struct attest_verdict *v,
				      const char *what)
{
	struct strbuf why = STRBUF_INIT;
	enum maint_result ret = RESULT_OK;

	if (p < ATTEST_SOFTFAIL || v->verdict == 'G')
		return RESULT_OK;
	if (v->verdict == 'N')
		strbuf_addstr(&why, "not signed");
	else
		attest_format(&why, v);
	if (p == ATTEST_SOFTFAIL) {
		warning("%s: %s", what, why.buf);
	} else if (v->tempfail) {
		error("%s: %s; cannot check it now (attest.policy hardfail)", what, why.buf);
		ret = RESULT_TEMPFAIL;
	} else {
		error("%s: %s (attest.policy hardfail)", what, why.buf);
		ret = RESULT_NO;
	}
	strbuf_release(&why);
	return ret;
}

/* ---- configuration ---- */

static const char *const policy_names[] = { "off", "check", "softfail", "hardfail" };

int attest_policy_parse(const char *s, enum attest_policy *out)
{
	for (size_t i = 0; i < sizeof(policy_names) / sizeof(*policy_names); i++)
		if (!strcmp(s, policy_names[i])) {
			*out = (enum attest_policy)i;
			return 0;
		}
	return -1;
}

const char *attest_policy_name(enum attest_policy p)
{
	return policy_names[p];
}

int attest_opt_policy(const struct option *opt, const char *arg, int unset)
{
	enum attest_policy p;

	(void)unset;
	if (attest_policy_parse(arg, &p) < 0)
		return error("--attest takes off, check, softfail or hardfail, not '%s'", arg);
	*(const char **)opt->value = arg;
	return 0;
}

/* $XDG_DATA_HOME/<sub> or ~/.local/share/<sub>; NULL when neither is known. */
static char *data_dir(const char *sub)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	if (xdg && *xdg)
		strbuf_addf(&sb, "%s/%s", xdg, sub);
	else if (home && *home)
		strbuf_addf(&sb, "%s/.local/share/%s", home, sub);
	else
		return NULL;
	return strbuf_detach(&sb, NULL);
}

void attest_conf_init(struct attest_conf *c)
{
	struct attest_conf blank = ATTEST_CONF_INIT;

	*c = blank;
}

int attest_conf_load(struct attest_conf *c, const struct maint_config *cfg, const char *policy_arg)
{
	const struct config_entry *e;
	const char *policy = policy_arg;
	char *dir;

	if (!policy && cfg)
		policy = config_get(cfg, "attest", NULL, "policy");
	/* the INI reader checked attest.policy's value against the table */
	if (policy && attest_policy_parse(policy, &c->policy) < 0)
		return error("unknown attestation policy '%s'", policy);
	if (cfg && (e = config_get_entry(cfg, "attest", NULL, "timeout"))) {
		char *end;
		long t;

		errno = 0;
		t = strtol(e->value, &end, 10);
		if (errno || *end || t < 1 || t > 3600)
			return error("%s:%d: attest.timeout must be 1 to 3600 seconds, not '%s'", e->file,
				     e->line, e->value);
		c->timeout = (int)t;
	}
	if (cfg && (e = config_get_entry(cfg, "attest", NULL, "dkim-keys")))
		c->dkim_keys = xstrdup(e->value);
	if (cfg) {
		config_git_strings(cfg, "patatt.keyringsrc", &c->keyrings);
		c->gpg_program = config_git_string(cfg, "gpg.program");
	}
	strvec_push(&c->keyrings, "ref:::.keys");
	strvec_push(&c->keyrings, "ref:::.local-keys");
	strvec_push(&c->keyrings, "ref::refs/meta/keyring:");
	if ((dir = data_dir("patatt/public"))) {
		strvec_push(&c->keyrings, dir);
		free(dir);
	}
	if ((dir = data_dir("b4/keyring"))) {
		strvec_push(&c->keyrings, dir);
		free(dir);
	}
	return 0;
}

void attest_conf_release(struct attest_conf *c)
{
	free(c->dkim_keys);
	free(c->gpg_program);
	strvec_clear(&c->keyrings);
	c->dkim_keys = c->gpg_program = NULL;
}
