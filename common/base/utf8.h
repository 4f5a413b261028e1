/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef UTF8_H
#define UTF8_H

#include <stddef.h>

/*
 * Returns 1 if buf[0..len) is well-formed UTF-8 (no overlongs, no
 * surrogates, nothing past U+10FFFF). NUL bytes are well-formed here;
 * callers that must refuse them check separately.
 */
int utf8_valid(const char *buf, size_t len);

#endif
