/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for the archive's thread reader (common/net/archive.c):
 * what a public-inbox server sends for t.mbox.gz, as
 * archive_fetch_thread() hands it on, then the series picked out of
 * it. The first byte picks:
 *   1      the rest is gzip data, read through archive_gunzip_write()
 *          (in pieces of the size bits 2|4 pick, then once whole); else
 *          the rest is the thread already uncompressed
 *   8|16   what is picked: the thread whole, version 1, version 2,
 *          every version
 *   32     a small message size limit (mbox.max-message-size)
 * The anchor's Message-ID is <1@x> (the seeds use it). Checks:
 *  - the gzip reader gives the same result whatever the pieces (and,
 *    when it succeeds, the same bytes), never more than its limit, and
 *    a file only once it was given a byte;
 *  - the picked spans lie in the thread, and no message is picked twice;
 *  - archive_pick() says RESULT_OK or RESULT_FATAL.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "archive.h"
#include "fetch.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define THREAD_MAX (256 << 10)

struct out {
	int fd;
	int opened;
};

static int open_out(void *data)
{
	struct out *o = data;

	o->opened++;
	/* (a dup shares the file offset) */
	if (ftruncate(o->fd, 0) < 0 || lseek(o->fd, 0, SEEK_SET) < 0)
		abort();
	return dup(o->fd);
}

/* Gunzips buf in pieces of step bytes (0: whole) into o's file; the result and the bytes in out. */
static enum maint_result gunzip(const uint8_t *buf, size_t len, size_t step, struct out *o,
				struct strbuf *out)
{
	struct archive_gunzip *g;
	enum maint_result ret = RESULT_OK;
	int fd;
	off_t end;

	o->opened = 0;
	g = archive_gunzip_new("https://fuzz.invalid/list/1@x/t.mbox.gz", THREAD_MAX, 1L << 30,
			       open_out, o);
	if (!g)
		abort();
	for (size_t at = 0; at < len && ret == RESULT_OK;) {
		size_t n = step && step < len - at ? step : len - at;
		int r = archive_gunzip_write(g, (const char *)buf + at, n);

		if (r)
			ret = r < 0 ? RESULT_FATAL : (enum maint_result)r;
		at += n;
	}
	ret = archive_gunzip_end(g, ret, &fd);
	if (o->opened > 1 || (fd >= 0) != (o->opened == 1) || (!len && fd >= 0))
		abort();
	strbuf_reset(out);
	if (fd >= 0) {
		end = lseek(fd, 0, SEEK_END);
		if (end < 0 || end > THREAD_MAX)
			abort();
		strbuf_grow(out, end);
		if (pread(fd, out->buf, end, 0) != end)
			abort();
		strbuf_setlen(out, end);
		close(fd);
	}
	return ret;
}

static void pick(const char *buf, size_t len, unsigned char knobs)
{
	struct archive_ref ref = ARCHIVE_REF_INIT;
	struct archive_pick_opts po = { "fuzz", 0, 0, 0 };
	struct fetched_input in = { 0 };
	enum maint_result ret;

	ref.msgid = "1@x";
	switch ((knobs >> 3) & 3) {
	case 1: po.version = 1; break;
	case 2: po.version = 2; break;
	case 3: po.all_versions = 1; break;
	}
	if (knobs & 32)
		po.max_message_size = 200;
	ret = archive_pick(&ref, buf, len, &po, &in);
	if (ret != RESULT_OK && ret != RESULT_FATAL)
		abort();
	for (size_t i = 0; i < in.nr; i++) {
		const struct fetched_span *s = &in.spans[i];

		if (s->skipped_limit || s->off > len || s->len > len - s->off)
			abort();
		for (size_t j = 0; j < i; j++)
			if (in.spans[j].off == s->off)
				abort();
	}
	free(in.spans);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t steps[] = { 1, 7, 512, 4096 };
	static struct out o = { -1, 0 };
	unsigned char knobs;

	if (!size)
		return 0;
	if (o.fd < 0 && (o.fd = memfd_create("thread", 0)) < 0)
		abort();
	knobs = data[0];
	data++;
	size--;
	if (knobs & 1) {
		struct strbuf whole = STRBUF_INIT, pieces = STRBUF_INIT;
		enum maint_result a = gunzip(data, size, 0, &o, &whole);
		enum maint_result b = gunzip(data, size, steps[(knobs >> 1) & 3], &o, &pieces);

		if (a != b || (a == RESULT_OK && strbuf_cmp(&whole, &pieces)))
			abort();
		if (a == RESULT_OK)
			pick(whole.buf, whole.len, knobs);
		strbuf_release(&whole);
		strbuf_release(&pieces);
	} else {
		pick((const char *)data, size, knobs);
	}
	return 0;
}
