/* SPDX-License-Identifier: GPL-2.0-only */
#include "hashmap.h"
#include "usage.h"
#include "wrapper.h"

#include <stdlib.h>
#include <string.h>

/* A multiply-xorshift hash over 8-byte words (keys are ids, subjects, paths). */
uint32_t hashmap_hash(const void *key, size_t len)
{
	const unsigned char *s = key;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0x94d049bb133111ebULL;
	return (uint32_t)((h ^ (h >> 29)) >> 32);
}

/* The slot holding key, or the free slot where it would go; NULL when the map is empty. */
static struct hashmap_slot *find(const struct hashmap *m, const void *key, size_t len, uint32_t h)
{
	size_t mask = m->alloc - 1, i;

	if (!m->alloc)
		return NULL;
	for (i = h & mask; m->slots[i].off; i = (i + 1) & mask) {
		const struct hashmap_slot *s = &m->slots[i];

		if (s->hash == h && s->len == len && !memcmp(m->keys.buf + s->off - 1, key, len))
			break;
	}
	return &m->slots[i];
}

static void grow(struct hashmap *m)
{
	struct hashmap_slot *old = m->slots;
	size_t old_alloc = m->alloc;

	m->alloc = old_alloc ? st_mult(old_alloc, 2) : 64;
	m->slots = xcalloc(m->alloc, sizeof(*m->slots));
	for (size_t i = 0; i < old_alloc; i++) {
		size_t j;

		if (!old[i].off)
			continue;
		for (j = old[i].hash & (m->alloc - 1); m->slots[j].off; j = (j + 1) & (m->alloc - 1))
			;
		m->slots[j] = old[i];
	}
	free(old);
}

uint32_t *hashmap_get(const struct hashmap *m, const void *key, size_t len)
{
	struct hashmap_slot *s = find(m, key, len, hashmap_hash(key, len));

	return s && s->off ? &s->val : NULL;
}

uint32_t *hashmap_put(struct hashmap *m, const void *key, size_t len, int *added)
{
	uint32_t h = hashmap_hash(key, len);
	struct hashmap_slot *s;

	if (len > UINT32_MAX)
		die("hash key too long");
	if (2 * (m->nr + 1) > m->alloc) {
		if (m->nr >= UINT32_MAX)
			die("too many keys in a hash map");
		grow(m);
	}
	s = find(m, key, len, h);
	if (added)
		*added = !s->off;
	if (!s->off) {
		s->off = m->keys.len + 1;
		s->len = (uint32_t)len;
		s->hash = h;
		s->val = 0;
		strbuf_add(&m->keys, key, len);
		m->nr++;
	}
	return &s->val;
}

void hashmap_release(struct hashmap *m)
{
	strbuf_release(&m->keys);
	free(m->slots);
	m->slots = NULL;
	m->nr = m->alloc = 0;
}
