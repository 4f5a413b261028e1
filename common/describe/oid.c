/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Object ids without libgit2 (see oid.h).
 */
#include "oid.h"
#include "strbuf.h"

int oid_from_hex(git_oid *oid, const char *hex)
{
	size_t i;

	for (i = 0; i < GIT_OID_RAWSZ; i++) {
		int hi = hex_digit((unsigned char)hex[2 * i]), lo;

		if (hi < 0)
			return -1;
		lo = hex_digit((unsigned char)hex[2 * i + 1]);
		if (lo < 0)
			return -1;
		oid->id[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

char *oid_to_hex(const git_oid *oid, char *buf)
{
	return hex_encode(buf, oid->id, GIT_OID_RAWSZ);
}
