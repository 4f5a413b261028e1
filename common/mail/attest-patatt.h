/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_PATATT_H
#define ATTEST_PATATT_H

/*
 * patatt developer signatures (X-Developer-Signature v1), checked by
 * attest-patatt.c with OpenSSL (ed25519; libcrypto is loaded when the
 * first message with such a header is checked) or gpg (attest-gpg.h);
 * what is signed and where keys are found: attest.h.
 */

#include <stddef.h>

#include "attest-sig.h"
#include "strvec.h"

/*
 * Appends a signature to v for every X-Developer-Signature header of m: 0,
 * or -1 (reported) when libcrypto cannot be loaded.
 */
int attest_patatt_check(const struct attest_conf *conf, const struct attest_msg *m,
			struct attest_verdict *v);

/*
 * The tags of a patatt signature header value, as patatt reads them:
 * every blank removed, split at ';', each "name=value" (at the first
 * '='; chunks without one are skipped), a later tag replacing an
 * earlier one of the same name; NUL bytes dropped. tags gets "name",
 * "value" pairs.
 * Linear in len. Exposed for the fuzz target.
 */
void attest_patatt_tags(struct strvec *tags, const char *value, size_t len);

#endif
