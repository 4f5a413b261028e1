/* SPDX-License-Identifier: GPL-2.0-only */
#include "utf8.h"
#include "wrapper.h"

#include <stdint.h>
#include <string.h>

/*
 * The code point at *s (before end) into *cp, *s moved past it: 0, or -1
 * when it is not well-formed UTF-8 (*s not moved).
 */
static int decode_one(const unsigned char **s, const unsigned char *end, unsigned *cp)
{
	const unsigned char *p = *s;
	unsigned c = *p, min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		*s = p + 1;
		return 0;
	} else if ((c & 0xe0) == 0xc0) {
		n = 1, *cp = c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2, *cp = c & 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3, *cp = c & 0x07, min = 0x10000;
	} else {
		return -1;
	}
	if ((size_t)(end - p) <= n)
		return -1;
	for (size_t i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		*cp = (*cp << 6) | (p[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return -1;
	*s = p + n + 1;
	return 0;
}

int utf8_valid(const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf, *end = s + len;

	while (s < end) {
		uint64_t w;
		unsigned cp;

		if (end - s >= 8 && (memcpy(&w, s, 8), !(w & 0x8080808080808080ULL))) {
			s += 8;	/* eight ASCII bytes */
			continue;
		}
		if (decode_one(&s, end, &cp) < 0)
			return 0;
	}
	return 1;
}

struct cp_range {
	unsigned first, last;
};

/* Marks that combine with the character before them: no column of their own. */
static const struct cp_range zero_width[] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x0610, 0x061a },
	{ 0x064b, 0x065f }, { 0x0e31, 0x0e31 }, { 0x0e34, 0x0e3a }, { 0x0e47, 0x0e4e },
	{ 0x1ab0, 0x1aff }, { 0x1dc0, 0x1dff }, { 0x200b, 0x200f }, { 0x20d0, 0x20ff },
	{ 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
};

/* East Asian wide and fullwidth characters: two columns. */
static const struct cp_range double_width[] = {
	{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff }, { 0x3400, 0x4dbf },
	{ 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff },
	{ 0xfe30, 0xfe4f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
	{ 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
};

static int in_ranges(unsigned cp, const struct cp_range *r, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (cp >= r[i].first && cp <= r[i].last)
			return 1;
	return 0;
}

int utf8_width(const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf, *end = s + len;
	size_t width = 0;

	while (s < end) {
		unsigned cp;

		if (decode_one(&s, end, &cp) < 0)
			return (int)len;
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || in_ranges(cp, zero_width, ARRAY_SIZE(zero_width)))
			continue;
		width += in_ranges(cp, double_width, ARRAY_SIZE(double_width)) ? 2 : 1;
	}
	return (int)width;
}
