/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_DKIM_H
#define ATTEST_DKIM_H

/*
 * DKIM signatures, checked with libopendkim (attest-dkim.c; what is
 * checked and how keys are found: attest.h). A checker for one run, so
 * that a key is fetched once.
 */

#include "attest-sig.h"

struct attest_dkim;
/* NULL (reported) when libopendkim cannot start. */
struct attest_dkim *attest_dkim_new(const struct attest_conf *conf);
void attest_dkim_free(struct attest_dkim *d);
/* Appends a signature to v for every DKIM-Signature header of m. */
void attest_dkim_check(struct attest_dkim *d, const struct attest_msg *m, struct attest_verdict *v);

#endif
