/* SPDX-License-Identifier: GPL-2.0-only */
#include "utf8.h"

#include <stdint.h>
#include <string.h>

int utf8_valid(const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf, *end = s + len;

	while (s < end) {
		unsigned c = *s;
		size_t n;
		unsigned cp, min;
		uint64_t w;

		if (end - s >= 8 && (memcpy(&w, s, 8), !(w & 0x8080808080808080ULL))) {
			s += 8;	/* eight ASCII bytes */
			continue;
		}
		if (c < 0x80) {
			s++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3, cp = c & 0x07, min = 0x10000;
		} else {
			return 0;
		}
		if ((size_t)(end - s) <= n)
			return 0;
		for (size_t i = 1; i <= n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		s += n + 1;
	}
	return 1;
}
