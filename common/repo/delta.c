/* SPDX-License-Identifier: GPL-2.0-only */
#include "delta.h"
#include "wrapper.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The longest copy one instruction says, as git writes them (size 0 is 0x10000). */
#define COPY_MAX 0x10000
/* The longest insert one instruction says. */
#define INSERT_MAX 127

/* ---- reading ---- */

static int read_varint(const unsigned char **p, const unsigned char *end, size_t *out)
{
	size_t v = 0;
	int shift = 0;
	unsigned char c;

	do {
		if (*p >= end || shift > 56)
			return -1;
		c = *(*p)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return 0;
}

int delta_sizes(const void *delta, size_t len, const unsigned char **body, size_t *src_size,
		size_t *dst_size)
{
	const unsigned char *p = delta, *end = p + len;

	if (read_varint(&p, end, src_size) < 0 || read_varint(&p, end, dst_size) < 0)
		return -1;
	*body = p;
	return 0;
}

/* One copy instruction at *p (its opcode op already read) into off and size. */
static int read_copy(const unsigned char **p, const unsigned char *end, unsigned char op,
		     size_t *off, size_t *size)
{
	*off = *size = 0;
	for (int i = 0; i < 4; i++)
		if (op & (1 << i)) {
			if (*p >= end)
				return -1;
			*off |= (size_t)*(*p)++ << (8 * i);
		}
	for (int i = 0; i < 3; i++)
		if (op & (0x10 << i)) {
			if (*p >= end)
				return -1;
			*size |= (size_t)*(*p)++ << (8 * i);
		}
	if (!*size)
		*size = COPY_MAX;
	return 0;
}

int delta_apply(struct strbuf *out, const void *src, size_t src_len, const void *delta,
		size_t delta_len)
{
	const unsigned char *p, *end = (const unsigned char *)delta + delta_len;
	size_t src_size, dst_size;

	strbuf_reset(out);
	if (delta_sizes(delta, delta_len, &p, &src_size, &dst_size) < 0 || src_size != src_len)
		return -1;
	strbuf_grow(out, dst_size);
	while (p < end) {
		unsigned char op = *p++;
		size_t off, size;

		if (op & 0x80) {
			if (read_copy(&p, end, op, &off, &size) < 0 || off > src_len ||
			    size > src_len - off || size > dst_size - out->len)
				return -1;
			strbuf_add(out, (const char *)src + off, size);
		} else if (op) {
			if ((size_t)(end - p) < op || op > dst_size - out->len)
				return -1;
			strbuf_add(out, p, op);
			p += op;
		} else {
			return -1;
		}
	}
	return out->len == dst_size ? 0 : -1;
}

/* ---- writing ---- */

/* The rolling hash of DELTA_BLOCK bytes: a polynomial in HASH_BASE, modulo 2^32. */
#define HASH_BASE 0x01000193u

struct delta_index {
	uint32_t *head;		/* bucket -> 1 + the newest block's number, 0: empty */
	uint32_t *next;		/* block -> 1 + the block before it in its bucket */
	uint32_t mask;
};

static uint32_t block_hash(const unsigned char *p)
{
	uint32_t h = 0;

	for (int i = 0; i < DELTA_BLOCK; i++)
		h = h * HASH_BASE + p[i];
	return h;
}

/* HASH_BASE^(DELTA_BLOCK-1): what the byte leaving the window weighs. */
static uint32_t out_weight(void)
{
	uint32_t w = 1;

	for (int i = 0; i < DELTA_BLOCK - 1; i++)
		w *= HASH_BASE;
	return w;
}

static uint32_t bucket(const struct delta_index *ix, uint32_t h)
{
	/* the low bits of a polynomial hash are its weakest: mix first */
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	return h & ix->mask;
}

static void index_build(struct delta_index *ix, const unsigned char *src, size_t len)
{
	size_t blocks = len / DELTA_BLOCK, size = 16;

	while (size < blocks)
		size <<= 1;
	ix->mask = (uint32_t)size - 1;
	ix->head = xcalloc(size, sizeof(*ix->head));
	ix->next = xcalloc(blocks ? blocks : 1, sizeof(*ix->next));
	for (size_t b = 0; b < blocks; b++) {
		uint32_t k = bucket(ix, block_hash(src + b * DELTA_BLOCK));

		ix->next[b] = ix->head[k];
		ix->head[k] = (uint32_t)b + 1;
	}
}

static void index_release(struct delta_index *ix)
{
	free(ix->head);
	free(ix->next);
}

static void put_varint(struct strbuf *out, size_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	strbuf_add(out, b, n);
}

static void put_insert(struct strbuf *out, const unsigned char *p, size_t len)
{
	while (len) {
		size_t n = len < INSERT_MAX ? len : INSERT_MAX;

		strbuf_addch(out, (char)n);
		strbuf_add(out, p, n);
		p += n;
		len -= n;
	}
}

static void put_copy(struct strbuf *out, size_t off, size_t len)
{
	while (len) {
		size_t n = len < COPY_MAX ? len : COPY_MAX;
		unsigned char b[8];
		size_t k = 1;

		b[0] = 0x80;
		for (int i = 0; i < 4; i++)
			if ((off >> (8 * i)) & 0xff) {
				b[0] |= 1 << i;
				b[k++] = (off >> (8 * i)) & 0xff;
			}
		for (int i = 0; i < 3; i++)
			if (n != COPY_MAX && ((n >> (8 * i)) & 0xff)) {
				b[0] |= 0x10 << i;
				b[k++] = (n >> (8 * i)) & 0xff;
			}
		strbuf_add(out, b, k);
		off += n;
		len -= n;
	}
}

/* The longest match of the target at dst[j..] among the source blocks of bucket k. */
static size_t best_match(const struct delta_index *ix, uint32_t k, const unsigned char *src,
			 size_t src_len, const unsigned char *dst, size_t j, size_t dst_len,
			 size_t *at)
{
	size_t best = 0;
	int probes = 0;

	for (uint32_t b = ix->head[k]; b && probes < DELTA_PROBES; b = ix->next[b - 1], probes++) {
		size_t i = (size_t)(b - 1) * DELTA_BLOCK, n = 0;

		while (i + n < src_len && j + n < dst_len && src[i + n] == dst[j + n])
			n++;
		if (n > best) {
			best = n;
			*at = i;
		}
	}
	return best >= DELTA_BLOCK ? best : 0;
}

int delta_create(struct strbuf *out, const void *src_v, size_t src_len, const void *dst_v,
		 size_t dst_len, size_t max_len)
{
	const unsigned char *src = src_v, *dst = dst_v;
	struct delta_index ix;
	size_t start = out->len, lit = 0, j = 0;
	uint32_t h = 0, w = out_weight();
	int rolling = 0;

	if (src_len > UINT32_MAX || dst_len > UINT32_MAX)
		return 1;
	put_varint(out, src_len);
	put_varint(out, dst_len);
	index_build(&ix, src, src_len);
	while (j < dst_len) {
		size_t len = 0, at = 0;

		if (j + DELTA_BLOCK <= dst_len) {
			if (!rolling) {
				h = block_hash(dst + j);
				rolling = 1;
			}
			len = best_match(&ix, bucket(&ix, h), src, src_len, dst, j, dst_len, &at);
		}
		if (len) {
			/* backwards over the literal bytes pending, while they agree */
			while (lit && at && src[at - 1] == dst[j - 1]) {
				lit--;
				at--;
				j--;
				len++;
			}
			put_insert(out, dst + j - lit, lit);
			put_copy(out, at, len);
			lit = 0;
			j += len;
			rolling = 0;
		} else {
			if (rolling && j + DELTA_BLOCK < dst_len)
				h = (h - dst[j] * w) * HASH_BASE + dst[j + DELTA_BLOCK];
			else
				rolling = 0;
			lit++;
			j++;
		}
		if (max_len && out->len - start + lit > max_len) {
			index_release(&ix);
			strbuf_setlen(out, start);
			return 1;
		}
	}
	put_insert(out, dst + j - lit, lit);
	index_release(&ix);
	if (max_len && out->len - start > max_len) {
		strbuf_setlen(out, start);
		return 1;
	}
	return 0;
}
