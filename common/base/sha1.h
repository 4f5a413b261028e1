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
 * The checksums that end pack and index files (sha1_start()...
 * sha1_finish()) use OpenSSL's SHA-1, which uses the CPU's SHA
 * instructions where there are some, without collision detection. A
 * trailer names no object: it only tells a reader the file is whole, and
 * the objects in the file were hashed with detection before they were
 * written. A collision there would give an attacker nothing he could not
 * get by writing the file himself, which git does not trust either:
 * index-pack hashes every object again when a pack travels, and git
 * (since 2.47) may be built to hash its own checksums with a fast SHA-1
 * that does not detect collisions, keeping sha1dc for object ids. The
 * only file of the base layer that talks to OpenSSL (attestation's SHA-256
 * and ed25519 are in common/mail/attest-patatt.c).
 *
 *	struct sha1 h = SHA1_INIT;
 *	if (sha1_start(&h) < 0 || sha1_update(&h, buf, len) < 0 ||
 *	    sha1_finish(&h, digest) < 0)
 *		...
 *	sha1_release(&h);	// a started context may be started again first
 */

#include <stddef.h>

#define SHA1_RAWSZ 20

struct sha1 {
	void *ctx;		/* EVP_MD_CTX */
	void *md;		/* EVP_MD */
};

#define SHA1_INIT { NULL, NULL }

int sha1_start(struct sha1 *h);
int sha1_update(struct sha1 *h, const void *data, size_t len);
int sha1_finish(struct sha1 *h, unsigned char out[SHA1_RAWSZ]);
void sha1_release(struct sha1 *h);

#endif
