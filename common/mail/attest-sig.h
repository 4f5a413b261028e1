/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_SIG_H
#define ATTEST_SIG_H

/*
 * What the signature checkers of attestation (attest.h) share, at the
 * bottom of them: the message as they see it, the verdict they fill, the
 * configuration they read. attest.c drives the checkers (attest-dkim.h,
 * attest-patatt.h, which uses attest-gpg.h); each of them fills a
 * struct attest_verdict through attest_add_sig() and calls nothing
 * above it.
 */

#include <stddef.h>

#include "strbuf.h"
#include "strvec.h"

/* b4's attestation-policy values and meanings; ATTEST_CHECK is the default. */
enum attest_policy {
	ATTEST_OFF,		/* check nothing, show nothing */
	ATTEST_CHECK,		/* show verdicts, never stop */
	ATTEST_SOFTFAIL,	/* warn about every patch that is not G, go on */
	ATTEST_HARDFAIL,	/* stop before anything is applied unless every patch is G */
};

/* One signature of a message. */
struct attest_sig {
	char verdict;		/* 'G', 'B' or 'U' */
	unsigned tempfail:1;	/* U because DNS could not answer now */
	char *signer;		/* "ed25519/dev@example.org", "openpgp/...", "DKIM/example.org" */
	char *why;		/* why it is not G ("body hash mismatch"); "" for G */
};

/* What the signatures of one message say. */
struct attest_verdict {
	char verdict;		/* 'G', 'B', 'U' or 'N' */
	unsigned tempfail:1;	/* U only because DNS could not answer now: retry later */
	struct attest_sig *sigs;	/* developer signatures first, then DKIM, in header order */
	size_t nr, alloc;
	size_t decider;		/* the index in sigs of the signature that decided; nr when N */
};
#define ATTEST_VERDICT_INIT { 'N', 0, NULL, 0, 0, 0 }

void attest_verdict_release(struct attest_verdict *v);
/* The deciding signature's signer, or "" (N). */
const char *attest_signer(const struct attest_verdict *v);

/*
 * Reads the file dir/path of ref (NULL: HEAD) in the repository repo
 * ("" or NULL: the current one) into out. 0 found, 1 not there, -1 error
 * (reported).
 */
typedef int attest_ref_reader(void *ctx, const char *repo, const char *ref, const char *path,
			      struct strbuf *out);

struct attest_conf {
	enum attest_policy policy;
	char *dkim_keys;	/* attest.dkim-keys: the key file, NULL: DNS */
	int timeout;		/* attest.timeout: seconds a DNS query or gpg may take (default 5) */
	struct strvec keyrings;	/* the patatt key sources, in order */
	char *gpg_program;	/* gpg.program, NULL: "gpg" */
	attest_ref_reader *read_ref;	/* reads ref:: sources; NULL: from the work tree */
	void *ref_ctx;
};
#define ATTEST_CONF_INIT { ATTEST_CHECK, NULL, 5, STRVEC_INIT, NULL, NULL, NULL }
#define ATTEST_TIMEOUT_DEFAULT 5

/*
 * A message as the checkers see it: the facts both kinds read, found
 * once by attest.c.
 */
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

/* The size of a SHA-256 (attest-patatt.c): what patatt signs. */
#define ATTEST_SHA256_RAWSZ 32

#endif
