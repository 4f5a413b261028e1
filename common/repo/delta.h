/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DELTA_H
#define DELTA_H

/*
 * git's delta format, written: the instructions that rebuild a target
 * from a source, as a pack's OFS_DELTA and REF_DELTA entries and a
 * "delta" binary patch carry them:
 *
 *	<source size> <target size>		(little-endian base-128 varints)
 *	then, until the target is whole:
 *	  0xxxxxxx <x bytes>			insert the next x (1..127) bytes
 *	  1sssoooo <offset bytes> <size bytes>	copy from the source: bits
 *						o say which of 4 offset bytes
 *						and s which of 3 size bytes
 *						follow (little-endian), size 0
 *						meaning 0x10000
 *
 * How it is found: every 16-byte block of the source (at offsets that
 * are multiples of 16) is indexed by a rolling hash; the target is
 * scanned byte by byte with the same hash, a block found in the source
 * is extended forwards (and backwards over the literal bytes not yet
 * written) as far as the bytes agree, and becomes one copy (at most
 * 64 KiB each, as git writes them). What no block matched is inserted.
 * Linear in the two sizes; a bucket of the index is probed at most
 * DELTA_PROBES deep, so a source of one repeated byte costs no more than
 * any other. Not as small as git's window search over many candidate
 * bases: this compares one target with the one source it is given (the
 * same path's older version), which is what a patch series changes.
 */

#include <stddef.h>

#include "strbuf.h"

/* Blocks of the source indexed, and the shortest copy worth writing. */
#define DELTA_BLOCK 16
/* Candidates tried per target position. */
#define DELTA_PROBES 16

/*
 * Appends to out the delta that turns src into dst, and returns 0; or 1
 * (out as it was) when that delta would be longer than max_len bytes
 * (0: no limit), so the target is better sent whole.
 */
int delta_create(struct strbuf *out, const void *src, size_t src_len, const void *dst,
		 size_t dst_len, size_t max_len);

/*
 * The sizes a delta starts with; 0 with *body past them, -1 when the
 * delta is too short or a size does not fit in size_t.
 */
int delta_sizes(const void *delta, size_t len, const unsigned char **body, size_t *src_size,
		size_t *dst_size);

/*
 * Applies delta to src into out (reset first): 0, or -1 when the delta
 * is corrupt (a size that does not match, a copy outside the source, an
 * opcode 0, a result of another length than it says). Nothing reported.
 */
int delta_apply(struct strbuf *out, const void *src, size_t src_len, const void *delta,
		size_t delta_len);

#endif
