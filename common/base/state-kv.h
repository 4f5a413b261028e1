/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STATE_KV_H
#define STATE_KV_H

/*
 * The "key value" lines of the state files of resumable operations
 * (common/repo/state.h writes and checks the files; each operation says
 * which keys it keeps). In the base layer, so that what a stopped
 * operation left can be read without libgit2 (in-progress.h).
 */

#include "strbuf.h"

/* "key value\n" payload lines. Values must not contain '\n'. */
void state_kv_add(struct strbuf *payload, const char *key, const char *value);
void state_kv_addf(struct strbuf *payload, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The value of the first line "key ...", or NULL. Caller frees. */
char *state_kv_get(const struct strbuf *payload, const char *key);

#endif
