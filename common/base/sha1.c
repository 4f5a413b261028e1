/* SPDX-License-Identifier: GPL-2.0-only */
#include "sha1.h"
#include "usage.h"

#include <stdio.h>
#include <openssl/err.h>
#include <openssl/evp.h>

static int sha1_error(const char *what)
{
	unsigned long e = ERR_get_error();
	char reason[256];

	if (!e)
		return error("SHA-1: %s failed", what);
	ERR_error_string_n(e, reason, sizeof(reason));
	ERR_clear_error();
	return error("SHA-1: %s failed: %s", what, reason);
}

int sha1_start(struct sha1 *h)
{
	if (!h->md && !(h->md = EVP_MD_fetch(NULL, "SHA1", NULL)))
		return sha1_error("loading the digest");
	if (!h->ctx && !(h->ctx = EVP_MD_CTX_new()))
		return sha1_error("allocating a context");
	if (!EVP_DigestInit_ex(h->ctx, h->md, NULL))
		return sha1_error("starting a digest");
	return 0;
}

int sha1_update(struct sha1 *h, const void *data, size_t len)
{
	if (!EVP_DigestUpdate(h->ctx, data, len))
		return sha1_error("hashing");
	return 0;
}

int sha1_finish(struct sha1 *h, unsigned char out[SHA1_RAWSZ])
{
	unsigned int n = 0;

	if (!EVP_DigestFinal_ex(h->ctx, out, &n) || n != SHA1_RAWSZ)
		return sha1_error("finishing a digest");
	return 0;
}

void sha1_release(struct sha1 *h)
{
	EVP_MD_CTX_free(h->ctx);
	EVP_MD_free(h->md);
	h->ctx = NULL;
	h->md = NULL;
}
