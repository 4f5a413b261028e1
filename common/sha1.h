#ifndef SHA1_H
#define SHA1_H

/*
 * SHA-1 (OpenSSL's, which uses the CPU's SHA instructions where there
 * are some): object ids as git computes them for objects we write
 * ourselves, and the checksums of pack and index files. The only file
 * that talks to OpenSSL.
 *
 * Unlike git's and libgit2's SHA-1 (sha1dc), this one does not detect
 * the known collision attacks: a crafted blob in a patch would be
 * written without complaint. Such an object is still refused wherever it
 * is hashed again by git (index-pack on push or fetch, git fsck), which
 * is where a public branch's objects go; the speed is worth it here.
 *
 *	struct sha1 h = SHA1_INIT;
 *	if (sha1_start(&h) < 0 || sha1_update(&h, buf, len) < 0 ||
 *	    sha1_finish(&h, digest) < 0)
 *		...
 *	sha1_release(&h);	// a started context may be started again first
 */

#include <stddef.h>
#include <git2.h>

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

/* The id git gives an object of type with content data[0..len), computed with h. */
int sha1_object(struct sha1 *h, git_oid *out, git_object_t type, const void *data, size_t len);

#endif
