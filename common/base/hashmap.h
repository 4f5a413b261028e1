/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HASHMAP_H
#define HASHMAP_H

/*
 * The one hash table of the house: a map from byte strings (message ids,
 * subjects, paths, object ids; NUL bytes allowed) to 32-bit values,
 * usually an index into the caller's array. Open addressing with linear
 * probing, at most half full, each slot keeping its key's hash so most
 * probes skip the key compare. The map keeps its own copy of every key,
 * so callers need not keep theirs alive. No removal: our maps only grow
 * while a command runs.
 *
 * Pointers returned to values are valid until the next hashmap_put().
 * More than UINT32_MAX keys is fatal (die), as it could not fit in
 * memory anyway.
 */

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

struct hashmap_slot {
	size_t off;		/* the key's offset in keys + 1; 0: free */
	uint32_t len, hash;
	uint32_t val;
};

struct hashmap {
	struct strbuf keys;	/* every key, one after another */
	struct hashmap_slot *slots;
	size_t nr, alloc;	/* alloc: 0 or a power of two */
};
#define HASHMAP_INIT { STRBUF_INIT, NULL, 0, 0 }	/* all zero bytes is an empty map too */

/* The hash every map uses, exposed for tests. */
uint32_t hashmap_hash(const void *key, size_t len);

/* The value of key[0..len), or NULL when it is absent. */
uint32_t *hashmap_get(const struct hashmap *m, const void *key, size_t len);

/*
 * The value of key[0..len), added as 0 when absent; *added (may be NULL)
 * says which.
 */
uint32_t *hashmap_put(struct hashmap *m, const void *key, size_t len, int *added);

/* The number of keys. */
static inline size_t hashmap_count(const struct hashmap *m)
{
	return m->nr;
}

void hashmap_release(struct hashmap *m);

#endif
