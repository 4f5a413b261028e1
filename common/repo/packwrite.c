/* SPDX-License-Identifier: GPL-2.0-only */
#include "packwrite.h"
#include "usage.h"
#include "wrapper.h"

#include <string.h>

/* The pack's entry types: git's object types (commit 1 .. tag 4), then the two deltas. */
#define PACK_OFS_DELTA 6
#define PACK_REF_DELTA 7

/* Bytes gathered before a write(). */
#define DRAIN_AT (1 << 20)

static int drain(struct packwrite *pw)
{
	if (!pw->buf.len)
		return 0;
	sha1_update(&pw->sha, pw->buf.buf, pw->buf.len);
	if (write_in_full(pw->fd, pw->buf.buf, pw->buf.len) < 0)
		return error_errno("cannot write '%s'", pw->path);
	pw->offset += pw->buf.len;
	strbuf_setlen(&pw->buf, 0);
	return 0;
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

int packwrite_start(struct packwrite *pw, int fd, const char *path, uint32_t nr, int level)
{
	unsigned char head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };

	pw->fd = fd;
	pw->path = path;
	pw->nr = nr;
	pw->done = 0;
	pw->offset = 0;
	strbuf_setlen(&pw->buf, 0);
	memset(&pw->zs, 0, sizeof(pw->zs));
	if (deflateInit(&pw->zs, level) != Z_OK)
		return error("cannot compress objects: zlib error");
	pw->zinit = 1;
	sha1_start(&pw->sha);
	put_be32(head + 8, nr);
	strbuf_add(&pw->buf, head, sizeof(head));
	return 0;
}

/* The entry's header: type and (uncompressed) size, 4 bits then 7 a byte. */
static void put_header(struct strbuf *sb, int type, size_t len)
{
	unsigned char hdr[16];
	size_t n = 0;

	hdr[n++] = (type << 4) | (len & 15);
	len >>= 4;
	while (len) {
		hdr[n - 1] |= 0x80;
		hdr[n++] = len & 0x7f;
		len >>= 7;
	}
	strbuf_add(sb, hdr, n);
}

/* The distance back to an OFS_DELTA's base, as git encodes it (base 128, each more-byte one less). */
static void put_distance(struct strbuf *sb, uint64_t d)
{
	unsigned char b[10];
	size_t pos = sizeof(b) - 1;

	b[pos] = d & 127;
	while (d >>= 7)
		b[--pos] = 128 | (--d & 127);
	strbuf_add(sb, b + pos, sizeof(b) - pos);
}

static int start_entry(struct packwrite *pw, struct packwrite_entry *e, size_t *start)
{
	if (pw->done >= pw->nr)
		return error("'%s': more objects than the %u announced", pw->path, pw->nr);
	if (pw->buf.len >= DRAIN_AT && drain(pw) < 0)
		return -1;
	e->offset = pw->offset + pw->buf.len;
	*start = pw->buf.len;
	return 0;
}

static int deflate_into(struct packwrite *pw, const void *data, size_t len)
{
	uLong bound;

	if (len > (size_t)UINT32_MAX / 2)
		return error("cannot pack an object of %zu bytes", len);
	bound = deflateBound(&pw->zs, (uLong)len);
	strbuf_grow(&pw->buf, bound);
	if (deflateReset(&pw->zs) != Z_OK)
		return error("cannot compress an object: %s", pw->zs.msg ? pw->zs.msg : "zlib error");
	pw->zs.next_in = (Bytef *)data;
	pw->zs.avail_in = (uInt)len;
	pw->zs.next_out = (Bytef *)pw->buf.buf + pw->buf.len;
	pw->zs.avail_out = (uInt)bound;
	if (deflate(&pw->zs, Z_FINISH) != Z_STREAM_END)
		return error("cannot compress an object: %s", pw->zs.msg ? pw->zs.msg : "zlib error");
	strbuf_setlen(&pw->buf, pw->buf.len + (bound - pw->zs.avail_out));
	return 0;
}

static int end_entry(struct packwrite *pw, struct packwrite_entry *e, size_t start)
{
	e->crc = crc32(0, (const Bytef *)pw->buf.buf + start, (uInt)(pw->buf.len - start));
	pw->done++;
	return 0;
}

int packwrite_object(struct packwrite *pw, git_object_t type, const void *data, size_t len,
		     struct packwrite_entry *e)
{
	size_t start = 0;

	if (start_entry(pw, e, &start) < 0)
		return -1;
	put_header(&pw->buf, (int)type, len);
	if (deflate_into(pw, data, len) < 0)
		return -1;
	return end_entry(pw, e, start);
}

int packwrite_ofs_delta(struct packwrite *pw, uint64_t base_offset, const void *delta,
			size_t len, struct packwrite_entry *e)
{
	size_t start = 0;

	if (start_entry(pw, e, &start) < 0)
		return -1;
	if (base_offset >= e->offset)
		BUG("a delta against a later entry of the pack");
	put_header(&pw->buf, PACK_OFS_DELTA, len);
	put_distance(&pw->buf, e->offset - base_offset);
	if (deflate_into(pw, delta, len) < 0)
		return -1;
	return end_entry(pw, e, start);
}

int packwrite_ref_delta(struct packwrite *pw, const git_oid *base, const void *delta, size_t len,
			struct packwrite_entry *e)
{
	size_t start = 0;

	if (start_entry(pw, e, &start) < 0)
		return -1;
	put_header(&pw->buf, PACK_REF_DELTA, len);
	strbuf_add(&pw->buf, base->id, GIT_OID_RAWSZ);
	if (deflate_into(pw, delta, len) < 0)
		return -1;
	return end_entry(pw, e, start);
}

int packwrite_finish(struct packwrite *pw, unsigned char sum[SHA1_RAWSZ])
{
	if (pw->done != pw->nr)
		return error("'%s': %u objects written, %u announced", pw->path, pw->done, pw->nr);
	if (drain(pw) < 0)
		return -1;
	sha1_finish(&pw->sha, sum);
	if (write_in_full(pw->fd, sum, SHA1_RAWSZ) < 0)
		return error_errno("cannot write '%s'", pw->path);
	pw->offset += SHA1_RAWSZ;
	return 0;
}

void packwrite_release(struct packwrite *pw)
{
	if (pw->zinit)
		deflateEnd(&pw->zs);
	pw->zinit = 0;
	strbuf_release(&pw->buf);
}
