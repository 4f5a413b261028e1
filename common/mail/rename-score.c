/* SPDX-License-Identifier: GPL-2.0-only */
#include "rename-score.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

/* git's bound on a chunk, and the prime its chunk hashes are reduced by */
#define CHUNK_MAX 64
#define CHUNK_HASH_MOD 107927u
/* how far git looks for a NUL byte to call content binary */
#define BINARY_PEEK 8000

int content_is_binary(const void *buf, size_t len)
{
	return memchr(buf, '\0', len < BINARY_PEEK ? len : BINARY_PEEK) != NULL;
}

static int by_hash(const void *a_, const void *b_)
{
	const struct chunk_count *a = a_, *b = b_;

	return a->hash < b->hash ? -1 : a->hash > b->hash;
}

/* Sorts the counts by hash and adds up those of one hash into one. */
static void merge_same_hashes(struct chunk_counts *c)
{
	size_t out = 0;

	if (c->nr)
		qsort(c->v, c->nr, sizeof(*c->v), by_hash);
	for (size_t i = 0; i < c->nr; i++) {
		if (out && c->v[out - 1].hash == c->v[i].hash)
			c->v[out - 1].bytes += c->v[i].bytes;
		else
			c->v[out++] = c->v[i];
	}
	c->nr = out;
}

void chunk_counts_of(struct chunk_counts *out, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int text = !content_is_binary(buf, len);
	/* a 64-bit accumulator kept as git's two 32-bit halves, rotated by 7 each byte */
	uint32_t hi = 0, lo = 0;
	size_t n = 0, alloc = 0;

	chunk_counts_release(out);
	out->size = len;
	for (size_t i = 0; i < len; i++) {
		unsigned c = p[i];
		uint32_t old_lo = lo;

		if (text && c == '\r' && i + 1 < len && p[i + 1] == '\n')
			continue;
		lo = (lo << 7) ^ (hi >> 25);
		hi = (hi << 7) ^ (old_lo >> 25);
		lo += c;
		if (++n < CHUNK_MAX && c != '\n')
			continue;
		ALLOC_GROW(out->v, out->nr + 1, alloc);
		out->v[out->nr].hash = (uint32_t)((lo + hi * 0x61u) % CHUNK_HASH_MOD);
		out->v[out->nr].bytes = n;
		out->nr++;
		n = 0;
		hi = lo = 0;
	}
	/* a short unterminated last chunk is left out, as git 2.39 leaves it (rename-score.h) */
	merge_same_hashes(out);
}

void chunk_counts_release(struct chunk_counts *c)
{
	free(c->v);
	c->v = NULL;
	c->nr = 0;
	c->size = 0;
}

int rename_sizes_may_match(uint64_t src_size, uint64_t dst_size, int min_score)
{
	uint64_t max = src_size > dst_size ? src_size : dst_size;
	uint64_t delta = max - (src_size < dst_size ? src_size : dst_size);

	return max * (uint64_t)(RENAME_SCORE_MAX - min_score) >= delta * RENAME_SCORE_MAX;
}

/* The bytes of dst's chunks src holds too: per hash, the smaller count. */
static uint64_t bytes_kept(const struct chunk_counts *src, const struct chunk_counts *dst)
{
	uint64_t kept = 0;
	size_t i = 0, j = 0;

	while (i < src->nr && j < dst->nr) {
		if (src->v[i].hash < dst->v[j].hash) {
			i++;
		} else if (src->v[i].hash > dst->v[j].hash) {
			j++;
		} else {
			kept += src->v[i].bytes < dst->v[j].bytes ? src->v[i].bytes : dst->v[j].bytes;
			i++;
			j++;
		}
	}
	return kept;
}

int rename_score(const struct chunk_counts *src, const struct chunk_counts *dst, int min_score)
{
	uint64_t max = src->size > dst->size ? src->size : dst->size;

	if (!rename_sizes_may_match(src->size, dst->size, min_score) || !dst->size)
		return 0;
	return (int)(bytes_kept(src, dst) * RENAME_SCORE_MAX / max);
}
