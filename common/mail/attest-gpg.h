/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_GPG_H
#define ATTEST_GPG_H

/* OpenPGP developer signatures through gpg (attest-gpg.c), for attest-patatt.c. */

#include "attest-sig.h"
#include "strbuf.h"

/*
 * Verifies an OpenPGP signed message sig holding digest with gpg,
 * with key imported (NULL: the user's keyring). 0 good, 1 the key is
 * unknown, -1 bad; why says why not.
 */
int attest_gpg_verify(const struct attest_conf *c, const struct strbuf *key, const struct strbuf *sig,
		      const unsigned char digest[ATTEST_SHA256_RAWSZ], struct strbuf *why);

#endif
