/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DKIM signatures (see attest.h), verified by libopendkim: this file
 * hands it the message (CRLF line ends, as on the wire) and the keys, and
 * reads back what it found per signature. The keys come through our own
 * lookup (dkim_set_key_lookup()), so that "no such key" (U), "DNS cannot
 * answer now" (U, tempfail) and "the record is unusable" (B) stay apart,
 * every query has a timeout, and a key is fetched once per run:
 *
 *   - attest.dkim-keys: the whole file read once, "<selector>._domainkey.
 *     <domain> <record>" per line (blank lines and '#' comments skipped);
 *   - else DNS, a TXT query through the system resolver (res_nquery(),
 *     attest.timeout seconds per try, two tries), its character strings
 *     joined. NXDOMAIN or no TXT record: no key. Anything else (timeout,
 *     SERVFAIL, refused): DNS is down, and every later query of the run
 *     fails at once the same way, so a mailbox costs one timeout, not one
 *     per message.
 *
 * libopendkim is loaded when the first DKIM-Signature is checked
 * (dynlib.h), with the resolver's parser of DNS answers (libresolv): most
 * mail the programs read carries none, and linked, the two (with
 * libopendkim's libdb, libbsd and libmd) were mapped and relocated by
 * every run of every program that reads mail.
 *
 * The one file that includes <opendkim/dkim.h>.
 */
#include "attest-dkim.h"
#include "dynlib.h"
#include "hashmap.h"
#include "mail.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <arpa/nameser.h>
#include <ctype.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <dkim.h>

/*
 * The functions taken from libopendkim and libresolv when they are
 * loaded: libdkim.<name> is dkim_<name>, resolv.<name> is ns_<name>, each
 * with the type their headers give it. (res_ninit(), res_nquery() and
 * res_nclose() are the C library's.)
 */
#define LIBDKIM_FUNCTIONS(X) \
	X(init) \
	X(close) \
	X(set_key_lookup) \
	X(verify) \
	X(free) \
	X(header) \
	X(eoh) \
	X(body) \
	X(eom) \
	X(getsiglist) \
	X(get_user_context) \
	X(set_user_context) \
	X(sig_getbh) \
	X(sig_getcanonlen) \
	X(sig_getcanons) \
	X(sig_getdomain) \
	X(sig_geterror) \
	X(sig_geterrorstr) \
	X(sig_getflags) \
	X(sig_getselector) \
	X(sig_getsignalg) \
	X(sig_gettagvalue) \
	X(sig_hdrsigned)
#define RESOLV_FUNCTIONS(X) \
	X(initparse) \
	X(parserr)

static struct {
#define LIBDKIM_FIELD(name) __typeof__(dkim_##name) *name;
	LIBDKIM_FUNCTIONS(LIBDKIM_FIELD)
#undef LIBDKIM_FIELD
} libdkim;

static struct {
#define RESOLV_FIELD(name) __typeof__(ns_##name) *name;
	RESOLV_FUNCTIONS(RESOLV_FIELD)
#undef RESOLV_FIELD
} resolv;

/* 0, or -1 reported: nothing of libdkim or resolv may be called */
static int libdkim_load(void)
{
	/* libopendkim.so.11: OpenDKIM 2.10's ABI (Debian since 2015) */
	static struct dynlib dkim_lib = DYNLIB_INIT("libopendkim.so.11", "libopendkim (DKIM signatures)");
	static struct dynlib resolv_lib = DYNLIB_INIT("libresolv.so.2", "the resolver (DKIM keys from DNS)");
#define LIBDKIM_ENTRY(name) DYNLIB_FN(dkim_, name, libdkim)
#define RESOLV_ENTRY(name) DYNLIB_FN(ns_, name, resolv)
	static const struct dynlib_fn dkim_fns[] = { LIBDKIM_FUNCTIONS(LIBDKIM_ENTRY) };
	static const struct dynlib_fn resolv_fns[] = { RESOLV_FUNCTIONS(RESOLV_ENTRY) };
#undef LIBDKIM_ENTRY
#undef RESOLV_ENTRY

	if (dynlib_load(&dkim_lib, dkim_fns, ARRAY_SIZE(dkim_fns)) < 0 ||
	    dynlib_load(&resolv_lib, resolv_fns, ARRAY_SIZE(resolv_fns)) < 0)
		return -1;
	return 0;
}

enum key_status { KEY_FOUND, KEY_NONE, KEY_TEMPFAIL, KEY_BAD };

struct key_rec {
	enum key_status status;
	char *rec;		/* the record, KEY_FOUND */
	size_t len;
	char *why;		/* KEY_TEMPFAIL, KEY_BAD */
};

struct attest_dkim {
	const struct attest_conf *conf;
	DKIM_LIB *lib;		/* once the first signature is checked */
	struct hashmap names;	/* "<selector>._domainkey.<domain>", lower case -> recs */
	struct key_rec *recs;
	size_t nr, alloc;
	int file_read;
	char *dns_down;		/* why DNS failed, once it has */
};

/* What one message's lookups found, for reading its signatures afterwards. */
struct lookup {
	DKIM_SIGINFO *sig;
	const struct key_rec *rec;
	int too_long;		/* more than libopendkim's buffer holds */
};
struct msg_ctx {
	struct attest_dkim *d;
	struct lookup *v;
	size_t nr, alloc;
};

static struct key_rec *add_rec(struct attest_dkim *d, const char *name, enum key_status st)
{
	int added;
	uint32_t *slot = hashmap_put(&d->names, name, strlen(name), &added);
	struct key_rec *r;

	if (!added) {
		r = &d->recs[*slot];
		free(r->rec);
		free(r->why);
	} else {
		ALLOC_GROW(d->recs, d->nr + 1, d->alloc);
		*slot = d->nr++;
		r = &d->recs[*slot];
	}
	memset(r, 0, sizeof(*r));
	r->status = st;
	return r;
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = tolower((unsigned char)*s);
}

/* Reads attest.dkim-keys into the cache (once); -1 when it cannot be read (reported). */
static int read_key_file(struct attest_dkim *d)
{
	struct strbuf file = STRBUF_INIT;
	const char *p, *end;

	d->file_read = 1;
	if (strbuf_read_file(&file, d->conf->dkim_keys, 0) < 0)
		return error_errno("cannot read the DKIM keys in '%s'", d->conf->dkim_keys);
	for (p = file.buf, end = file.buf + file.len; p < end;) {
		const char *nl = memchr(p, '\n', end - p), *le = nl ? nl : end, *sp = p;
		struct key_rec *r;
		char *name;

		while (sp < le && !isspace((unsigned char)*sp))
			sp++;
		if (sp > p && *p != '#') {
			name = xstrndup(p, sp - p);
			lower(name);
			while (sp < le && isspace((unsigned char)*sp))
				sp++;
			r = add_rec(d, name, KEY_FOUND);
			r->len = le - sp;
			while (r->len && isspace((unsigned char)sp[r->len - 1]))
				r->len--;
			r->rec = xstrndup(sp, r->len);
			free(name);
		}
		p = le + 1;
	}
	strbuf_release(&file);
	return 0;
}

/* The TXT record of name from DNS into r. */
static void dns_lookup(struct attest_dkim *d, const char *name, struct key_rec *r)
{
	struct __res_state rs;
	unsigned char *ans = xmalloc(NS_MAXMSG);
	struct strbuf txt = STRBUF_INIT;
	ns_msg msg;
	int n;

	memset(&rs, 0, sizeof(rs));
	if (res_ninit(&rs) < 0) {
		r->status = KEY_TEMPFAIL;
		r->why = xstrdup("the resolver cannot start");
		goto out;
	}
	rs.retrans = d->conf->timeout;
	rs.retry = 2;
	n = res_nquery(&rs, name, ns_c_in, ns_t_txt, ans, NS_MAXMSG);
	if (n < 0) {
		if (rs.res_h_errno == HOST_NOT_FOUND || rs.res_h_errno == NO_DATA) {
			r->status = KEY_NONE;
		} else {
			r->status = KEY_TEMPFAIL;
			r->why = xstrdup(rs.res_h_errno == TRY_AGAIN ? "DNS did not answer in time" :
					 "DNS failed");
		}
		goto out;
	}
	if (resolv.initparse(ans, n, &msg) < 0) {
		r->status = KEY_BAD;
		r->why = xstrdup("the DNS answer is malformed");
		goto out;
	}
	r->status = KEY_NONE;
	for (int i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
		const unsigned char *p, *end;
		ns_rr rr;

		if (resolv.parserr(&msg, ns_s_an, i, &rr) < 0 || ns_rr_type(rr) != ns_t_txt)
			continue;
		/* the record's character strings, joined */
		for (p = ns_rr_rdata(rr), end = p + ns_rr_rdlen(rr); p < end && p + 1 + *p <= end; p += 1 + *p)
			strbuf_add(&txt, p + 1, *p);
		r->status = KEY_FOUND;
		r->len = txt.len;
		r->rec = strbuf_detach(&txt, NULL);
		break;
	}
out:
	res_nclose(&rs);
	if (r->status == KEY_TEMPFAIL)
		d->dns_down = xstrdup(r->why);
	strbuf_release(&txt);
	free(ans);
}

/* The key record of name (lower case), fetched once per run. */
static const struct key_rec *lookup(struct attest_dkim *d, const char *name)
{
	uint32_t *slot;
	struct key_rec *r;

	if (d->conf->dkim_keys && !d->file_read)
		read_key_file(d);
	if ((slot = hashmap_get(&d->names, name, strlen(name))))
		return &d->recs[*slot];
	r = add_rec(d, name, KEY_NONE);
	if (d->conf->dkim_keys)
		return r;
	if (d->dns_down) {
		r->status = KEY_TEMPFAIL;
		r->why = xstrdup(d->dns_down);
		return r;
	}
	dns_lookup(d, name, r);
	return r;
}

static DKIM_CBSTAT key_lookup(DKIM *dkim, DKIM_SIGINFO *sig, u_char *buf, size_t buflen)
{
	struct msg_ctx *c = libdkim.get_user_context(dkim);
	const char *sel = (const char *)libdkim.sig_getselector(sig);
	const char *dom = (const char *)libdkim.sig_getdomain(sig);
	struct strbuf name = STRBUF_INIT;
	const struct key_rec *r;
	struct lookup *l;

	if (!sel || !dom)
		return DKIM_CBSTAT_NOTFOUND;
	strbuf_addf(&name, "%s._domainkey.%s", sel, dom);
	lower(name.buf);
	r = lookup(c->d, name.buf);
	strbuf_release(&name);
	ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	l = &c->v[c->nr++];
	l->sig = sig;
	l->rec = r;
	l->too_long = 0;
	switch (r->status) {
	case KEY_NONE:
		return DKIM_CBSTAT_NOTFOUND;
	case KEY_TEMPFAIL:
		return DKIM_CBSTAT_TRYAGAIN;
	case KEY_BAD:
		return DKIM_CBSTAT_ERROR;
	case KEY_FOUND:
		break;
	}
	if (r->len + 1 > buflen) {
		l->too_long = 1;
		return DKIM_CBSTAT_ERROR;
	}
	memcpy(buf, r->rec, r->len + 1);
	return DKIM_CBSTAT_CONTINUE;
}

struct attest_dkim *attest_dkim_new(const struct attest_conf *conf)
{
	struct attest_dkim *d = xcalloc(1, sizeof(*d));

	d->conf = conf;
	return d;
}

/* Loads libopendkim and starts it (once): 0, or -1 reported. */
static int start_libdkim(struct attest_dkim *d)
{
	if (d->lib)
		return 0;
	if (libdkim_load() < 0)
		return -1;
	if (!(d->lib = libdkim.init(NULL, NULL)))
		return error("libopendkim cannot start");
	libdkim.set_key_lookup(d->lib, key_lookup);
	return 0;
}

void attest_dkim_free(struct attest_dkim *d)
{
	if (!d)
		return;
	if (d->lib)
		libdkim.close(d->lib);
	for (size_t i = 0; i < d->nr; i++) {
		free(d->recs[i].rec);
		free(d->recs[i].why);
	}
	free(d->recs);
	free(d->dns_down);
	hashmap_release(&d->names);
	free(d);
}

/* Appends buf[0..len) to out with every LF not after a CR made CRLF. */
static void add_crlf(struct strbuf *out, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n' && (!i || buf[i - 1] != '\r'))
			strbuf_addch(out, '\r');
		strbuf_addch(out, buf[i]);
	}
}

/* The number of DKIM-Signature headers of m. */
static size_t count_sigs(const struct attest_msg *m)
{
	struct mail_header h;
	size_t pos = 0, nsig = 0;

	while (mail_header_next(m->buf, m->header_len, &pos, &h))
		if (h.name_len == 14 && !strncasecmp(h.name, "dkim-signature", 14))
			nsig++;
	return nsig;
}

/* Hands m to dkim. */
static void feed(DKIM *dkim, const struct attest_msg *m)
{
	struct strbuf line = STRBUF_INIT;
	struct mail_header h;
	size_t pos = 0;

	while (mail_header_next(m->buf, m->header_len, &pos, &h)) {
		strbuf_reset(&line);
		add_crlf(&line, h.name, h.value + h.value_len - h.name);
		libdkim.header(dkim, (u_char *)line.buf, line.len);
	}
	if (libdkim.eoh(dkim) == DKIM_STAT_OK) {
		strbuf_reset(&line);
		add_crlf(&line, m->buf + m->header_len, m->len - m->header_len);
		libdkim.body(dkim, (u_char *)line.buf, line.len);
	}
	libdkim.eom(dkim, NULL);
	strbuf_release(&line);
}

static const struct lookup *lookup_of(const struct msg_ctx *c, DKIM_SIGINFO *sig)
{
	for (size_t i = 0; i < c->nr; i++)
		if (c->v[i].sig == sig)
			return &c->v[i];
	return NULL;
}

/* The domain a signature speaks for: i='s, else d= (as b4 reads it), into out. */
static void sig_identity(DKIM_SIGINFO *sig, struct strbuf *out)
{
	const char *i = (const char *)libdkim.sig_gettagvalue(sig, false, (u_char *)"i");
	const char *at = i ? strrchr(i, '@') : NULL;
	const char *d = (const char *)libdkim.sig_getdomain(sig);

	strbuf_addstr(out, at ? at + 1 : d ? d : "");
	lower(out->buf);
}

/*
 * The length of the body as c= canonicalises it (RFC 6376 3.4.3, 3.4.4),
 * which an l= must reach to cover it all. libopendkim's own count keeps
 * the trailing empty lines both canonicalisations drop.
 */
static size_t canon_body_len(const char *body, size_t len, int relaxed)
{
	size_t total = 0, pending = 0;	/* pending: empty lines not yet known to be inside */
	const char *p = body, *end = body + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *le = nl ? nl : end;
		size_t n = 0;

		if (le > p && le[-1] == '\r')
			le--;
		if (relaxed) {
			/* a run of blanks is one space, none at the end of the line */
			int blank = 0;

			for (const char *c = p; c < le; c++) {
				if (*c == ' ' || *c == '\t') {
					blank = 1;
				} else {
					n += blank + 1;
					blank = 0;
				}
			}
		} else {
			n = le - p;
		}
		if (!n) {
			pending += 2;
		} else {
			total += pending + n + 2;
			pending = 0;
		}
		p = nl ? nl + 1 : end;
	}
	/* simple: an empty body is one CRLF */
	return !total && !relaxed ? 2 : total;
}

/* One signature's verdict into v. */
static void check_sig(DKIM *dkim, DKIM_SIGINFO *sig, const struct msg_ctx *c, const struct attest_msg *m,
		      struct attest_verdict *v)
{
	struct strbuf signer = STRBUF_INIT, who = STRBUF_INIT, why = STRBUF_INIT;
	const struct lookup *l = lookup_of(c, sig);
	const struct key_rec *r = l ? l->rec : NULL;
	const char *at = strrchr(m->from_email.buf, '@');
	ssize_t msglen = 0, canonlen = 0, signlen = -1;
	dkim_canon_t hc, bc;
	dkim_alg_t alg;
	size_t blen = 0;
	char verdict = 'B';

	sig_identity(sig, &who);
	strbuf_addf(&signer, "DKIM/%s", who.buf);
	if (r && r->status == KEY_NONE) {
		verdict = 'U';
		strbuf_addf(&why, "no key %s._domainkey.%s", libdkim.sig_getselector(sig), libdkim.sig_getdomain(sig));
	} else if (r && r->status == KEY_TEMPFAIL) {
		verdict = 'U';
		strbuf_addstr(&why, r->why);
	} else if (r && r->status == KEY_BAD) {
		strbuf_addstr(&why, r->why);
	} else if (l && l->too_long) {
		strbuf_addf(&why, "the key record is too long (%zu bytes)", r->len);
	} else if (!(libdkim.sig_getflags(sig) & DKIM_SIGFLAG_PASSED) ||
		   libdkim.sig_getbh(sig) != DKIM_SIGBH_MATCH) {	/* DKIM_SIG_CHECK(), through libdkim */
		int err = libdkim.sig_geterror(sig);

		if (libdkim.sig_getbh(sig) == DKIM_SIGBH_MISMATCH)
			strbuf_addstr(&why, "body hash mismatch");
		else if (err != DKIM_SIGERROR_OK && err != DKIM_SIGERROR_UNKNOWN)
			strbuf_addstr(&why, libdkim.sig_geterrorstr(err));
		else
			strbuf_addstr(&why, "the signature does not verify");
	} else if (libdkim.sig_getsignalg(sig, &alg) == DKIM_STAT_OK && alg == DKIM_SIGN_RSASHA1) {
		/* RFC 8301: SHA-1 signatures are not to be taken as valid (dkimpy refuses them too) */
		strbuf_addstr(&why, "rsa-sha1 is not accepted");
	} else if (libdkim.sig_getcanonlen(dkim, sig, &msglen, &canonlen, &signlen) == DKIM_STAT_OK &&
		   signlen >= 0 && libdkim.sig_getcanons(sig, &hc, &bc) == DKIM_STAT_OK &&
		   (size_t)signlen < (blen = canon_body_len(m->buf + m->header_len, m->len - m->header_len,
							    bc == DKIM_CANON_RELAXED))) {
		strbuf_addf(&why, "l= covers %zd of the body's %zu bytes", signlen, blen);
	} else if (!libdkim.sig_hdrsigned(sig, (u_char *)"subject")) {
		strbuf_addstr(&why, "h= does not sign Subject");
	} else if (attest_msg_flaw(m, &why)) {
		;
	} else if (!at || strcasecmp(at + 1, who.buf)) {
		strbuf_addf(&why, "signed by %s, not the From domain %s", who.buf, at ? at + 1 : "(none)");
	} else {
		verdict = 'G';
	}
	if (verdict == 'U' && r && r->status == KEY_TEMPFAIL) {
		attest_add_sig(v, verdict, signer.buf, "%s", why.buf);
		v->sigs[v->nr - 1].tempfail = 1;
	} else {
		attest_add_sig(v, verdict, signer.buf, "%s", why.buf);
	}
	strbuf_release(&signer);
	strbuf_release(&who);
	strbuf_release(&why);
}

int attest_dkim_check(struct attest_dkim *d, const struct attest_msg *m, struct attest_verdict *v)
{
	struct msg_ctx c = { d };
	DKIM_SIGINFO **sigs = NULL;
	DKIM_STAT st;
	DKIM *dkim;
	size_t nsig;
	int n = 0;

	/* no DKIM-Signature, nothing for libopendkim to find: it is not even loaded */
	if (!d || !(nsig = count_sigs(m)))
		return 0;
	if (start_libdkim(d) < 0)
		return -1;
	if (!(dkim = libdkim.verify(d->lib, (const u_char *)"attest", NULL, &st)))
		return 0;
	libdkim.set_user_context(dkim, &c);
	feed(dkim, m);
	if (libdkim.getsiglist(dkim, &sigs, &n) == DKIM_STAT_OK)
		for (int i = 0; i < n; i++)
			check_sig(dkim, sigs[i], &c, m, v);
	/* what libopendkim could not even read is a bad signature too */
	for (size_t i = n > 0 ? (size_t)n : 0; i < nsig; i++)
		attest_add_sig(v, 'B', "DKIM", "the DKIM-Signature header is malformed");
	libdkim.free(dkim);
	free(c.v);
	return 0;
}
