/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ATTEST_DKIM_H
#define ATTEST_DKIM_H

/*
 * DKIM signatures, checked with libopendkim (attest-dkim.c; what is
 * checked and how keys are found: attest.h). A checker for one run, so
 * that a key is fetched once. libopendkim is loaded and started when the
 * first message with a DKIM-Signature header is checked.
 */

#include "attest-sig.h"

struct attest_dkim;
struct attest_dkim *attest_dkim_new(const struct attest_conf *conf);
void attest_dkim_free(struct attest_dkim *d);
/*
 * Appends a signature to v for every DKIM-Signature header of m: 0, or -1
 * (reported) when libopendkim cannot be loaded or started.
 */
int attest_dkim_check(struct attest_dkim *d, const struct attest_msg *m, struct attest_verdict *v);

#endif
