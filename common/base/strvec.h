/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STRVEC_H
#define STRVEC_H

/*
 * A NULL-terminated array of owned strings: argument lists, repeated
 * options, lists of paths or addresses.
 */

#include <stddef.h>

struct strvec {
	const char **v;		/* always NULL-terminated; never NULL itself */
	size_t nr;
	size_t alloc;
};

extern const char *strvec_empty[];
#define STRVEC_INIT { strvec_empty, 0, 0 }

void strvec_init(struct strvec *sv);
const char *strvec_push(struct strvec *sv, const char *s);
const char *strvec_push_mem(struct strvec *sv, const char *s, size_t len);
const char *strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strvec_pop(struct strvec *sv);
void strvec_clear(struct strvec *sv);
int strvec_contains(const struct strvec *sv, const char *s);

#endif
