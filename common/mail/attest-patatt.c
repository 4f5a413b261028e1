/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * patatt developer signatures (X-Developer-Signature v1, see attest.h):
 * the header canonicalisation patatt applies, the body git mailinfo
 * extracts, keys from patatt's keyring layout, ed25519 with OpenSSL and
 * OpenPGP through gpg (attest-gpg.c).
 *
 * What patatt signs, and so what is checked here:
 *   - the body: mailinfo's message and patch, one after the other, with
 *     the line ends at its end removed, then every line ended by CRLF;
 *     its SHA-256, base64, is bh=;
 *   - the headers h= names (From and Subject at least), each the last
 *     one of that name not yet used, From and Subject replaced by what
 *     mailinfo makes of them ("Author <email>", the subject cleaned as
 *     git am cleans it), as "name:value\r\n" with the value canonicalised
 *     (encoded words decoded when it holds "?q?", line ends removed, runs
 *     of blanks made one space, trimmed);
 *   - then "x-developer-signature:" and the signature header's own value,
 *     canonicalised the same way, up to the last "b=" in it.
 * The SHA-256 of that is what the key signed: b= is the base64 of the
 * ed25519 signature followed by the 32 bytes signed (libsodium's
 * combined form), or an OpenPGP signed message holding them.
 *
 * This is the one file that talks to OpenSSL (libcrypto), which it loads
 * when the first developer signature is checked (dynlib.h): linked, its
 * ~21,000 relocations were most of what ld.so did for every program that
 * reads mail, and most mail is not signed so.
 */
#include "attest-patatt.h"
#include "ascii.h"
#include "attest-gpg.h"
#include "dynlib.h"
#include "gitdir.h"
#include "mail.h"
#include "mailinfo.h"
#include "source.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ED25519_KEY_LEN 32
#define ED25519_SIG_LEN 64

/* The functions taken from libcrypto when it is loaded: evp.<name> is EVP_<name>. */
#define EVP_FUNCTIONS(X) \
	X(Digest) \
	X(sha256) \
	X(PKEY_new_raw_public_key) \
	X(PKEY_free) \
	X(MD_CTX_new) \
	X(MD_CTX_free) \
	X(DigestVerifyInit) \
	X(DigestVerify)

static struct {
#define EVP_FIELD(name) __typeof__(EVP_##name) *name;
	EVP_FUNCTIONS(EVP_FIELD)
#undef EVP_FIELD
} evp;

/* 0, or -1 reported: nothing of evp may be called */
static int libcrypto_load(void)
{
	/* libcrypto.so.3: OpenSSL 3's ABI */
	static struct dynlib lib = DYNLIB_INIT("libcrypto.so.3", "OpenSSL's libcrypto (ed25519 signatures)");
#define EVP_ENTRY(name) DYNLIB_FN(EVP_, name, evp)
	static const struct dynlib_fn fns[] = { EVP_FUNCTIONS(EVP_ENTRY) };
#undef EVP_ENTRY

	return dynlib_load(&lib, fns, ARRAY_SIZE(fns));
}

/* SHA-256 of buf[0..len), once libcrypto is loaded; 0, or -1 when OpenSSL fails. */
static int sha256(const void *buf, size_t len, unsigned char out[ATTEST_SHA256_RAWSZ])
{
	unsigned int n = 0;

	return evp.Digest(buf, len, out, &n, evp.sha256(), NULL) == 1 && n == ATTEST_SHA256_RAWSZ ? 0 : -1;
}

/*
 * patatt's header canonicalisation of value[0..len) into out: encoded
 * words decoded when the value holds "?q?", CR and LF removed, runs of
 * blanks made one space, trimmed, "\r\n" appended.
 */
static void canon_header_value(struct strbuf *out, const char *value, size_t len)
{
	struct strbuf dec = STRBUF_INIT;
	size_t start = out->len;

	if (memmem(value, len, "?q?", 3)) {
		struct strbuf unfolded = STRBUF_INIT;

		mail_unfold(&unfolded, value, len);
		mail_rfc2047_decode(&dec, unfolded.buf, unfolded.len, NULL);
		strbuf_release(&unfolded);
		value = dec.buf;
		len = dec.len;
	}
	for (size_t i = 0; i < len; i++) {
		char c = value[i];

		if (c == '\r' || c == '\n')
			continue;
		if (ascii_isspace(c)) {
			if (out->len > start && out->buf[out->len - 1] != ' ')
				strbuf_addch(out, ' ');
			continue;
		}
		strbuf_addch(out, c);
	}
	if (out->len > start && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	strbuf_addstr(out, "\r\n");
	strbuf_release(&dec);
}

void attest_patatt_tags(struct strvec *tags, const char *value, size_t len)
{
	struct strbuf flat = STRBUF_INIT;
	const char *p, *end;

	/* a NUL byte, which Python keeps, is dropped: tags are C strings here */
	for (size_t i = 0; i < len; i++)
		if (!ascii_isspace(value[i]) && value[i])
			strbuf_addch(&flat, value[i]);
	for (p = flat.buf, end = flat.buf + flat.len; p < end;) {
		const char *semi = memchr(p, ';', end - p), *eq;
		size_t k;

		if (!semi)
			semi = end;
		eq = memchr(p, '=', semi - p);
		if (eq) {
			/* a later tag of the same name replaces the earlier one */
			for (k = 0; k < tags->nr; k += 2)
				if (strlen(tags->v[k]) == (size_t)(eq - p) && !memcmp(tags->v[k], p, eq - p))
					break;
			if (k < tags->nr) {
				free((char *)tags->v[k + 1]);
				tags->v[k + 1] = xstrndup(eq + 1, semi - eq - 1);
			} else {
				strvec_push_mem(tags, p, eq - p);
				strvec_push_mem(tags, eq + 1, semi - eq - 1);
			}
		}
		p = semi + 1;
	}
	strbuf_release(&flat);
}

static const char *tag(const struct strvec *tags, const char *name)
{
	for (size_t k = 0; k + 1 < tags->nr; k += 2)
		if (!strcmp(tags->v[k], name))
			return tags->v[k + 1];
	return NULL;
}

/* One header of the message: its lower-cased name and raw value. */
struct hdr {
	char *name;
	const char *value;
	size_t len;
	unsigned used:1;
};

struct signed_msg {
	struct hdr *h;
	size_t nr, alloc;
	struct patch_mail pm;
	int parsed;		/* pm holds mailinfo's parse */
	struct strbuf body;	/* the canonical body */
	struct strbuf from;	/* mailinfo's From: " Author <email>" */
};

static void read_headers(struct signed_msg *sm, const struct attest_msg *m)
{
	struct mail_header h;
	size_t pos = 0;

	while (mail_header_next(m->buf, m->header_len, &pos, &h)) {
		struct hdr *x;

		ALLOC_GROW(sm->h, sm->nr + 1, sm->alloc);
		x = &sm->h[sm->nr++];
		x->name = xstrndup(h.name, h.name_len);
		for (char *c = x->name; *c; c++)
			*c = tolower((unsigned char)*c);
		x->value = h.value;
		x->len = h.value_len;
		x->used = 0;
	}
}

/* mailinfo's view of the message: the canonical body and From. */
static void parse_body(struct signed_msg *sm, const struct attest_msg *m)
{
	struct mailinfo_opts mo = MAILINFO_OPTS_INIT;
	struct raw_mail raw = { 0 };
	const char *p, *end;

	if (sm->parsed)
		return;
	sm->parsed = 1;
	raw.buf = m->buf;
	raw.len = m->len;
	raw.origin = m->origin;
	raw.number = m->number;
	raw.offset = -1;
	mo.quiet = 1;
	mo.quoted_cr = MAILINFO_QUOTED_CR_NOWARN;
	/* a message mailinfo complains about is still what git mailinfo extracts */
	mailinfo_parse(&sm->pm, &raw, &mo);
	strbuf_addbuf(&sm->body, &sm->pm.message);
	strbuf_addbuf(&sm->body, &sm->pm.patch);
	while (sm->body.len && (sm->body.buf[sm->body.len - 1] == '\n' || sm->body.buf[sm->body.len - 1] == '\r'))
		strbuf_setlen(&sm->body, sm->body.len - 1);
	{
		struct strbuf canon = STRBUF_INIT;

		for (p = sm->body.buf, end = p + sm->body.len; p <= end;) {
			const char *nl = memchr(p, '\n', end - p);
			const char *le = nl ? nl : end;

			while (le > p && (le[-1] == '\r' || le[-1] == '\n'))
				le--;
			strbuf_add(&canon, p, le - p);
			strbuf_addstr(&canon, "\r\n");
			if (!nl)
				break;
			p = nl + 1;
		}
		strbuf_release(&sm->body);
		sm->body = canon;
	}
	strbuf_addf(&sm->from, " %s <%s>", sm->pm.author_name.buf, sm->pm.author_email.buf);
}

static void signed_msg_release(struct signed_msg *sm)
{
	for (size_t i = 0; i < sm->nr; i++)
		free(sm->h[i].name);
	free(sm->h);
	mailinfo_release(&sm->pm);
	strbuf_release(&sm->body);
	strbuf_release(&sm->from);
}

/*
 * The signed headers, canonicalised (see the top), into out; "" when h=
 * lacks From or Subject (why says so).
 */
static int signed_headers(struct signed_msg *sm, const char *h, struct strbuf *out, struct strbuf *why)
{
	struct strvec names = STRVEC_INIT;
	int have_from = 0, have_subject = 0;
	const char *p = h;

	for (;;) {
		const char *colon = strchrnul(p, ':');

		strvec_push_mem(&names, p, colon - p);
		if (!strcmp(names.v[names.nr - 1], "from"))
			have_from = 1;
		if (!strcmp(names.v[names.nr - 1], "subject"))
			have_subject = 1;
		if (!*colon)
			break;
		p = colon + 1;
	}
	if (!have_from || !have_subject) {
		strbuf_addf(why, "h= does not sign %s", !have_from ? "From" : "Subject");
		strvec_clear(&names);
		return -1;
	}
	for (size_t i = 0; i < sm->nr; i++)
		sm->h[i].used = 0;
	for (size_t n = 0; n < names.nr; n++) {
		/* the last header of that name not yet used, as DKIM takes them */
		for (size_t i = sm->nr; i-- > 0;) {
			struct hdr *x = &sm->h[i];

			if (x->used || strcmp(x->name, names.v[n]))
				continue;
			x->used = 1;
			strbuf_addf(out, "%s:", x->name);
			if (!strcmp(x->name, "from"))
				canon_header_value(out, sm->from.buf, sm->from.len);
			else if (!strcmp(x->name, "subject"))
				canon_header_value(out, sm->pm.subject.buf, sm->pm.subject.len);
			else
				canon_header_value(out, x->value, x->len);
			break;
		}
	}
	strvec_clear(&names);
	return 0;
}

/* Lenient base64 as patatt's decoder reads it: blanks skipped, anything else must be base64. */
static int decode_b64(struct strbuf *out, const char *s)
{
	const char *problem = NULL;

	return mail_decode_base64(out, s, strlen(s), &problem);
}

/* ed25519: sig is the signature and the 32 bytes signed; 0 good, else why. */
static int verify_ed25519(const struct strbuf *key, const struct strbuf *sig,
			  const unsigned char digest[ATTEST_SHA256_RAWSZ], struct strbuf *why)
{
	EVP_PKEY *pk;
	EVP_MD_CTX *ctx;
	int ok;

	if (key->len != ED25519_KEY_LEN) {
		strbuf_addf(why, "the key has %zu bytes, not %d", key->len, ED25519_KEY_LEN);
		return -1;
	}
	if (sig->len < ED25519_SIG_LEN) {
		strbuf_addf(why, "the signature has %zu bytes, not %d", sig->len, ED25519_SIG_LEN + 32);
		return -1;
	}
	if (!(pk = evp.PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, (const unsigned char *)key->buf,
					       key->len))) {
		strbuf_addstr(why, "the key is no ed25519 key");
		return -1;
	}
	ctx = evp.MD_CTX_new();
	ok = ctx && evp.DigestVerifyInit(ctx, NULL, NULL, NULL, pk) == 1 &&
	     evp.DigestVerify(ctx, (const unsigned char *)sig->buf, ED25519_SIG_LEN,
			      (const unsigned char *)sig->buf + ED25519_SIG_LEN,
			      sig->len - ED25519_SIG_LEN) == 1;
	evp.MD_CTX_free(ctx);
	evp.PKEY_free(pk);
	if (!ok) {
		strbuf_addstr(why, "the signature does not verify");
		return -1;
	}
	if (sig->len - ED25519_SIG_LEN != ATTEST_SHA256_RAWSZ ||
	    memcmp(sig->buf + ED25519_SIG_LEN, digest, ATTEST_SHA256_RAWSZ)) {
		strbuf_addstr(why, "the headers signed differ");
		return -1;
	}
	return 0;
}

/* ---- keys ---- */

/* Python's urllib.parse.quote_plus() of s: what patatt makes of untrusted parts of a key path. */
static void quote_plus(struct strbuf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (isalnum(c) || c == '_' || c == '.' || c == '-' || c == '~')
			strbuf_addch(out, c);
		else if (c == ' ')
			strbuf_addch(out, '+');
		else
			strbuf_addf(out, "%%%02X", c);
	}
}

static void lower_quote(struct strbuf *out, const char *s, size_t len)
{
	char *l = xstrndup(s, len);

	for (char *c = l; *c; c++)
		*c = tolower((unsigned char)*c);
	quote_plus(out, l, len);
	free(l);
}

/* <algo>/<domain>/<local>/<selector>; -1 when identity is no address. */
static int key_path(struct strbuf *out, const char *algo, const char *identity, const char *selector)
{
	const char *at = strchr(identity, '@');

	if (!at)
		return -1;
	quote_plus(out, algo, strlen(algo));
	strbuf_addch(out, '/');
	lower_quote(out, at + 1, strlen(at + 1));
	strbuf_addch(out, '/');
	lower_quote(out, identity, at - identity);
	strbuf_addch(out, '/');
	lower_quote(out, selector, strlen(selector));
	return 0;
}

/* The top of the work tree of the current repository into out; -1 when there is none. */
static int worktree_top(struct strbuf *out)
{
	enum gitdir_how how;

	if (gitdir_discover(out, &how) || how == GITDIR_BARE)
		return -1;
	if (how == GITDIR_DOTGIT && ends_with(out->buf, "/.git")) {
		strbuf_setlen(out, out->len - 5);
		return 0;
	}
	/* a linked worktree: its files are where we stand, as git finds them */
	strbuf_reset(out);
	return -1;
}

/* Reads a key file; 0 found, 1 not. */
static int read_key_file(struct strbuf *out, const char *path)
{
	strbuf_reset(out);
	return strbuf_read_file(out, path, 64) < 0 ? 1 : 0;
}

/* A ref:<repo>:<ref>:<dir> source; 0 found, 1 not, -1 error. */
static int read_ref_source(const struct attest_conf *c, const char *src, const char *keypath,
			   struct strbuf *out, struct strbuf *where)
{
	struct strvec parts = STRVEC_INIT;
	struct strbuf sub = STRBUF_INIT, file = STRBUF_INIT;
	const char *p = src;
	int rc = 1;

	/* Python's split(':', 4) */
	while (parts.nr < 4) {
		const char *colon = strchr(p, ':');

		if (!colon)
			break;
		strvec_push_mem(&parts, p, colon - p);
		p = colon + 1;
	}
	strvec_push(&parts, p);
	if (parts.nr < 4)
		goto out;
	if (*parts.v[3])
		strbuf_addf(&sub, "%s/", parts.v[3]);
	strbuf_addstr(&sub, keypath);
	if (c->read_ref) {
		rc = c->read_ref(c->ref_ctx, parts.v[1], *parts.v[2] ? parts.v[2] : NULL, sub.buf, out);
		if (rc <= 0) {
			strbuf_addf(where, "ref:%s:%s", *parts.v[2] ? parts.v[2] : "HEAD", sub.buf);
			goto out;
		}
	}
	/* not committed (or no repository to read it from): the work tree, as patatt falls back */
	if (*parts.v[1])
		strbuf_addstr(&file, parts.v[1]);
	else if (worktree_top(&file) < 0)
		goto out;
	strbuf_addf(&file, "/%s", sub.buf);
	if (!(rc = read_key_file(out, file.buf)))
		strbuf_addbuf(where, &file);
out:
	strvec_clear(&parts);
	strbuf_release(&sub);
	strbuf_release(&file);
	return rc;
}

/* The key for algo/identity/selector from the first source that has it; 0 found, 1 not. */
static int find_key(const struct attest_conf *c, const char *algo, const char *identity,
		    const char *selector, struct strbuf *key, struct strbuf *where)
{
	struct strbuf kp = STRBUF_INIT, path = STRBUF_INIT;
	int rc = 1;

	if (key_path(&kp, algo, identity, selector) < 0)
		return 1;
	for (size_t i = 0; rc && i < c->keyrings.nr; i++) {
		const char *src = c->keyrings.v[i];

		strbuf_reset(where);
		if (starts_with(src, "ref:")) {
			rc = read_ref_source(c, src, kp.buf, key, where) ? 1 : 0;
			continue;
		}
		strbuf_reset(&path);
		if (src[0] == '~' && src[1] == '/' && getenv("HOME"))
			strbuf_addf(&path, "%s%s", getenv("HOME"), src + 1);
		else
			strbuf_addstr(&path, src);
		strbuf_addf(&path, "/%s", kp.buf);
		if (!(rc = read_key_file(key, path.buf)))
			strbuf_addbuf(where, &path);
	}
	strbuf_release(&kp);
	strbuf_release(&path);
	return rc;
}

/* ---- one signature ---- */

static int same_address(const char *a, const char *b)
{
	return !strcasecmp(a, b);
}

/*
 * Checks sm's signature header sig (its raw value), whose identity and
 * algorithm are known; the verdict goes to v.
 */
static void check_sig(const struct attest_conf *c, const struct attest_msg *m, struct signed_msg *sm,
		      const struct hdr *sig, const struct strvec *tags, const char *identity,
		      const char *algo, struct attest_verdict *v)
{
	struct strbuf signer = STRBUF_INIT, why = STRBUF_INIT, hv = STRBUF_INIT, key = STRBUF_INIT;
	struct strbuf where = STRBUF_INIT, canon = STRBUF_INIT, raw = STRBUF_INIT, bh = STRBUF_INIT;
	const char *selector = tag(tags, "s"), *h = tag(tags, "h"), *b = tag(tags, "b");
	const char *want_bh = tag(tags, "bh"), *last_b;
	unsigned char digest[ATTEST_SHA256_RAWSZ], body_hash[ATTEST_SHA256_RAWSZ];
	char verdict = 'B';
	int found;

	strbuf_addf(&signer, "%s/%s", algo, identity);
	for (char *p = signer.buf; *p; p++)
		*p = tolower((unsigned char)*p);
	if (!selector)
		selector = "default";
	if (!strchr(identity, '@')) {
		strbuf_addf(&why, "the identity '%s' is no address", identity);
		goto done;
	}
	found = !find_key(c, algo, identity, selector, &key, &where);
	if (!found && !strcmp(algo, "ed25519")) {
		verdict = 'U';
		strbuf_addf(&why, "no key for %s (selector %s)", identity, selector);
		goto done;
	}
	if (!h) {
		strbuf_addstr(&why, "no h= tag");
		goto done;
	}
	parse_body(sm, m);
	if (signed_headers(sm, h, &hv, &why) < 0)
		goto done;
	if (sha256(sm->body.buf, sm->body.len, body_hash) < 0)
		die("OpenSSL cannot compute SHA-256");
	strbuf_add(&bh, body_hash, sizeof(body_hash));
	{
		struct strbuf enc = STRBUF_INIT;

		if (!want_bh || decode_b64(&enc, want_bh) < 0 || enc.len != sizeof(body_hash) ||
		    memcmp(enc.buf, body_hash, sizeof(body_hash))) {
			strbuf_addstr(&why, "body hash mismatch");
			strbuf_release(&enc);
			goto done;
		}
		strbuf_release(&enc);
	}
	if (!b || !*b) {
		strbuf_addstr(&why, "no b= tag");
		goto done;
	}
	/* what was signed: the headers, then this header up to its last "b=" */
	canon_header_value(&canon, sig->value, sig->len);
	for (last_b = NULL, h = canon.buf; (h = memmem(h, canon.buf + canon.len - h, "b=", 2)); h += 2)
		last_b = h;
	strbuf_addstr(&hv, "x-developer-signature:");
	strbuf_add(&hv, canon.buf, last_b - canon.buf + 2);
	if (sha256(hv.buf, hv.len, digest) < 0)
		die("OpenSSL cannot compute SHA-256");
	if (decode_b64(&raw, b) < 0) {
		strbuf_addstr(&why, "b= is not base64");
		goto done;
	}
	if (!strcmp(algo, "ed25519")) {
		struct strbuf k = STRBUF_INIT;
		int bad = decode_b64(&k, key.buf) < 0;

		if (bad)
			strbuf_addf(&why, "the key in %s is not base64", where.buf);
		else if (verify_ed25519(&k, &raw, digest, &why) < 0)
			bad = 1;
		strbuf_release(&k);
		if (bad)
			goto done;
		if (!tag(tags, "t")) {
			strbuf_addstr(&why, "no t= tag");
			goto done;
		}
	} else {
		int rc = attest_gpg_verify(c, found ? &key : NULL, &raw, digest, &why);

		if (rc > 0) {
			verdict = 'U';
			goto done;
		}
		if (rc < 0)
			goto done;
	}
	/* it verifies; does it speak for the sender, and for the whole message? */
	if (attest_msg_flaw(m, &why))
		goto done;
	if (!same_address(identity, m->from_email.buf)) {
		strbuf_addf(&why, "signed by %s, not the From address %s", identity, m->from_email.buf);
		goto done;
	}
	verdict = 'G';
done:
	attest_add_sig(v, verdict, signer.buf, "%s", why.buf);
	strbuf_release(&signer);
	strbuf_release(&why);
	strbuf_release(&hv);
	strbuf_release(&key);
	strbuf_release(&where);
	strbuf_release(&canon);
	strbuf_release(&raw);
	strbuf_release(&bh);
}

int attest_patatt_check(const struct attest_conf *c, const struct attest_msg *m, struct attest_verdict *v)
{
	struct signed_msg sm = { 0 };
	struct strvec *tags = NULL;
	size_t nsig = 0;
	int ret = 0;

	mailinfo_init(&sm.pm);
	read_headers(&sm, m);
	for (size_t i = 0; i < sm.nr; i++)
		if (!strcmp(sm.h[i].name, "x-developer-signature"))
			nsig++;
	if (!nsig)
		goto out;
	if (libcrypto_load() < 0) {
		ret = -1;
		goto out;
	}
	tags = xcalloc(sm.nr, sizeof(*tags));
	for (size_t i = 0; i < sm.nr; i++) {
		struct strbuf canon = STRBUF_INIT;

		if (strcmp(sm.h[i].name, "x-developer-signature"))
			continue;
		canon_header_value(&canon, sm.h[i].value, sm.h[i].len);
		attest_patatt_tags(&tags[i], canon.buf, canon.len);
		strbuf_release(&canon);
	}
	for (size_t i = 0; i < sm.nr; i++) {
		const char *a, *identity;
		char algo[16];
		size_t first;

		if (strcmp(sm.h[i].name, "x-developer-signature"))
			continue;
		identity = tag(&tags[i], "i");
		if (!identity)
			identity = m->from_email.buf;
		if (!(a = tag(&tags[i], "a"))) {
			attest_add_sig(v, 'B', identity, "no a= tag");
			continue;
		}
		if (starts_with(a, "ed25519")) {
			strcpy(algo, "ed25519");
		} else if (starts_with(a, "openpgp")) {
			strcpy(algo, "openpgp");
		} else {
			struct strbuf signer = STRBUF_INIT;

			strbuf_addf(&signer, "%s/%s", a, identity);
			attest_add_sig(v, 'U', signer.buf, "algorithm %s is not checked", a);
			strbuf_release(&signer);
			continue;
		}
		/* patatt checks the first signature of an identity for each of them */
		for (first = 0; first < i; first++) {
			const char *fi;

			if (strcmp(sm.h[first].name, "x-developer-signature"))
				continue;
			fi = tag(&tags[first], "i");
			if (!strcmp(fi ? fi : m->from_email.buf, identity))
				break;
		}
		check_sig(c, m, &sm, &sm.h[first], &tags[first], identity, algo, v);
	}
out:
	if (tags)
		for (size_t i = 0; i < sm.nr; i++)
			strvec_clear(&tags[i]);
	free(tags);
	signed_msg_release(&sm);
	return ret;
}
