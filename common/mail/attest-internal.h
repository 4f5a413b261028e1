/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_INTERNAL_H
#define ATTEST_INTERNAL_H

/*
 * What attest.c hands its parts (attest-dkim.c, attest-patatt.c): the
 * message with the facts both read, and how a part adds a signature.
 */

#include <stdarg.h>
#include <stddef.h>

#include "attest.h"
#include "strbuf.h"

struct attest_msg {
	const char *buf;	/* the whole message, LF line ends (or CRLF with --keep-cr) */
	size_t len;
	size_t header_len;	/* mail_header_len(): the header block, its blank line included */
	const char *origin;	/* for messages: the input and the message's number */
	size_t number;
	struct strbuf from_email;	/* the first From header's address, lower case kept as sent */
	size_t from_count, subject_count;
};

/* Appends a signature to v; why is a printf format ("" for G). */
void attest_add_sig(struct attest_verdict *v, char verdict, const char *signer, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * What makes every signature of m worthless (two From headers, two
 * Subject headers, no From), in buf, or NULL.
 */
const char *attest_msg_flaw(const struct attest_msg *m, struct strbuf *buf);

#define ATTEST_SHA256_RAWSZ 32
/* SHA-256 of buf[0..len) (OpenSSL); 0, or -1 when OpenSSL fails. */
int attest_sha256(const void *buf, size_t len, unsigned char out[ATTEST_SHA256_RAWSZ]);

/*
 * Verifies an OpenPGP signed message sig holding digest with gpg
 * (attest-gpg.c), with key imported (NULL: the user's keyring). 0 good,
 * 1 the key is unknown, -1 bad; why says why not.
 */
int attest_gpg_verify(const struct attest_conf *c, const struct strbuf *key, const struct strbuf *sig,
		      const unsigned char digest[ATTEST_SHA256_RAWSZ], struct strbuf *why);

#endif
