/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PACKWRITE_H
#define PACKWRITE_H

/*
 * Writing a pack file, version 2, as a stream: the header (the number
 * of entries, known up front), the entries, the SHA-1 of everything
 * before it. An entry is an object whole, or a delta (delta.h) against
 * an earlier entry of the same pack (OFS_DELTA: by distance) or against
 * an object the reader already has (REF_DELTA: by id; a "thin" pack, as
 * a push sends). Each entry is deflated on its own, at the level given.
 * Bytes go to the file descriptor in pieces of about a MiB, hashed on
 * the way; nothing else is kept, so memory does not grow with the pack.
 *
 * objwrite.h writes its batches with it (whole objects, zlib's fastest
 * level, then an index); the push writes what the remote lacks
 * (pushpack.h).
 */

#include <git2.h>
#include <stdint.h>
#include <zlib.h>

#include "sha1.h"
#include "strbuf.h"

struct packwrite {
	int fd;
	const char *path;	/* for messages */
	struct strbuf buf;	/* not yet written (or hashed) */
	uint64_t offset;	/* bytes before buf */
	struct sha1 sha;
	z_stream zs;
	int zinit;
	uint32_t nr, done;	/* entries announced, written */
};

#define PACKWRITE_INIT { -1, NULL, STRBUF_INIT, 0, SHA1_INIT, { 0 }, 0, 0, 0 }

/* An entry's place, for an index and for the deltas after it. */
struct packwrite_entry {
	uint64_t offset;
	uint32_t crc;		/* of its bytes in the pack (header and data) */
};

/*
 * Starts a pack of nr entries on fd (path names it in messages), deflated
 * at level (zlib's: Z_BEST_SPEED, Z_DEFAULT_COMPRESSION...). -1 reported.
 */
int packwrite_start(struct packwrite *pw, int fd, const char *path, uint32_t nr, int level);

/* One object whole. -1 reported. */
int packwrite_object(struct packwrite *pw, git_object_t type, const void *data, size_t len,
		     struct packwrite_entry *e);

/* One object as a delta against the entry written at base_offset. -1 reported. */
int packwrite_ofs_delta(struct packwrite *pw, uint64_t base_offset, const void *delta,
			size_t len, struct packwrite_entry *e);

/* One object as a delta against base, which the reader has. -1 reported. */
int packwrite_ref_delta(struct packwrite *pw, const git_oid *base, const void *delta, size_t len,
			struct packwrite_entry *e);

/*
 * Ends the pack: checks that the nr entries announced were written,
 * writes the trailer, and gives its checksum (the pack's name). -1
 * reported.
 */
int packwrite_finish(struct packwrite *pw, unsigned char sum[SHA1_RAWSZ]);

/* Frees what packwrite_start() took (the fd is the caller's). */
void packwrite_release(struct packwrite *pw);

#endif
