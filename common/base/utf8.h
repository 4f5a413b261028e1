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

/*
 * The columns buf[0..len) takes on a terminal, as git counts them for
 * its diffstat (utf8_strwidth()): control characters and combining
 * marks none, East Asian wide and fullwidth characters two, the rest
 * one; not well-formed UTF-8: its length in bytes. git's table of wide
 * and combining characters is Unicode's whole list; ours holds their
 * main blocks (CJK, Hangul, kana, fullwidth forms, emoji; the common
 * combining diacritics), so a rare character elsewhere may count one
 * column where git counts another.
 */
int utf8_width(const char *buf, size_t len);

#endif
