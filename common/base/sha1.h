/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SHA1_H
#define SHA1_H

/*
 * SHA-1 for what we write ourselves. It comes in two strengths; this is
 * the fast one, and object ids use the other:
 *
 * Object ids (objwrite_hash(), objwrite.h) are computed by libgit2 (git_odb_hash()),
 * with the SHA-1 git and libgit2 use for them: sha1dc, which detects the
 * known collision attacks (SHAttered and its successors) in what it
 * hashes and refuses such input. A blob crafted to collide is refused
 * here as git would refuse it ("SHA1 collision attack detected"), and
 * every id is the one git computes. This costs queue about 5% of its CPU
 * time (t/perf/p0400's 2,000 patches: 1.2 s; sha1dc is slower than
 * OpenSSL on the CPU's SHA instructions, which ids used before).
 *
 * The checksums that end pack and index files, patch ids (patch-id.h),
 * the names of cached fetches and of Message-IDs we make, and the key of a
 * message's verdict in the attestation cache use this one (sha1_start()
 * ... sha1_finish()): our own, written from FIPS 180-4, without collision
 * detection. None of these names an object or is a security boundary:
 * they are identities and integrity checks against accidents. A trailer
 * only tells a reader the file is whole, and the objects in the file were
 * hashed with detection before they were written; a collision there would
 * give an attacker nothing he could not get by writing the file himself,
 * which git does not trust either: index-pack hashes every object again
 * when a pack travels, and git (since 2.47) may be built to hash its own
 * checksums with a fast SHA-1 that does not detect collisions, keeping
 * sha1dc for object ids. Anything that must resist an attacker (the
 * signatures attestation checks) uses OpenSSL (common/mail/attest-patatt.c).
 *
 * Our own rather than OpenSSL's, so that a program needs no libcrypto to
 * start: mbox-split and the fetcher linked it for this alone, and its
 * ~21,000 relocations were most of ld.so's work in them
 * (t/perf/p0010-startup.sh). OpenSSL's is faster on CPUs with SHA
 * instructions: 1.5 GB of CPU a second against 450 MB here (64 MB hashed,
 * x86-64 with SHA-NI); what is hashed here is a pack's or an index's bytes
 * once, a patch or a message, microseconds for the suite's runs.
 *
 *	struct sha1 h;
 *	sha1_start(&h);
 *	sha1_update(&h, buf, len);	// as often as needed
 *	sha1_finish(&h, digest);	// h may be started again
 */

#include <stddef.h>
#include <stdint.h>

#define SHA1_RAWSZ 20

struct sha1 {
	uint32_t h[5];			/* the hash so far */
	uint64_t len;			/* bytes hashed */
	unsigned char block[64];	/* the block being filled: len % 64 bytes */
};
/* A context not started yet (sha1_start() sets every field). */
#define SHA1_INIT { { 0 }, 0, { 0 } }

void sha1_start(struct sha1 *s);
void sha1_update(struct sha1 *s, const void *data, size_t len);
void sha1_finish(struct sha1 *s, unsigned char out[SHA1_RAWSZ]);

/* The SHA-1 of data[0..len) at once (start, one update, finish). */
void sha1_buf(unsigned char out[SHA1_RAWSZ], const void *data, size_t len);

#endif
