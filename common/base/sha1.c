/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-1 as FIPS 180-4 (section 6.1) describes it; see sha1.h for what it
 * is used for, and why not for object ids.
 */
#include "sha1.h"

#include <string.h>

static uint32_t rol(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/*
 * One round t of the 80 (6.1.2, step 3), with f the round's function of
 * b, c, d and k its constant. The message schedule W is kept as its last
 * 16 words: W[t] for t >= 16 replaces W[t - 16] in w[t % 16].
 */
#define W(t) (w[(t) & 15] = (t) < 16 ? get_be32(block + 4 * (t)) : \
	      rol(w[((t) - 3) & 15] ^ w[((t) - 8) & 15] ^ w[((t) - 14) & 15] ^ w[(t) & 15], 1))
#define ROUND(t, f, k) do { \
		uint32_t tmp = rol(a, 5) + (f) + e + (k) + W(t); \
		e = d; \
		d = c; \
		c = rol(b, 30); \
		b = a; \
		a = tmp; \
	} while (0)
#define CH (d ^ (b & (c ^ d)))			/* (b & c) ^ (~b & d) */
#define PARITY (b ^ c ^ d)
#define MAJ ((b & c) | (d & (b | c)))		/* (b & c) ^ (b & d) ^ (c & d) */

static void hash_block(uint32_t h[5], const unsigned char *block)
{
	uint32_t w[16], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	int t;

	for (t = 0; t < 20; t++)
		ROUND(t, CH, 0x5a827999);
	for (; t < 40; t++)
		ROUND(t, PARITY, 0x6ed9eba1);
	for (; t < 60; t++)
		ROUND(t, MAJ, 0x8f1bbcdc);
	for (; t < 80; t++)
		ROUND(t, PARITY, 0xca62c1d6);
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1_start(struct sha1 *s)
{
	/* the initial hash value, 5.3.1 */
	static const uint32_t h0[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
}

void sha1_update(struct sha1 *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t used = s->len % 64;

	s->len += len;
	if (used) {
		size_t n = 64 - used < len ? 64 - used : len;

		memcpy(s->block + used, p, n);
		p += n;
		len -= n;
		if (used + n < 64)
			return;
		hash_block(s->h, s->block);
	}
	for (; len >= 64; p += 64, len -= 64)
		hash_block(s->h, p);
	memcpy(s->block, p, len);
}

void sha1_finish(struct sha1 *s, unsigned char out[SHA1_RAWSZ])
{
	/* the padding, 5.1.1: 0x80, zeros to 56 bytes of a block, the length in bits */
	static const unsigned char pad[64] = { 0x80 };
	unsigned char bits[8];
	uint64_t len = s->len;

	for (int i = 0; i < 8; i++)
		bits[i] = (unsigned char)((len * 8) >> (56 - 8 * i));
	sha1_update(s, pad, 1 + (119 - len % 64) % 64);
	sha1_update(s, bits, sizeof(bits));
	for (int i = 0; i < 5; i++)
		put_be32(out + 4 * i, s->h[i]);
}

void sha1_buf(unsigned char out[SHA1_RAWSZ], const void *data, size_t len)
{
	struct sha1 s;

	sha1_start(&s);
	sha1_update(&s, data, len);
	sha1_finish(&s, out);
}
