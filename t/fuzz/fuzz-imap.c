/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for the IMAP answer parsing (common/net/imap.c, through
 * imap_replay_folder()): the bytes after the first are what the server
 * says after the login, to EXAMINE (or SELECT), UID SEARCH, the UID
 * FETCHes (and STOREs) and LOGOUT, tagged M1, M2, ... in that order.
 * The first byte picks:
 *   1     unseen        2   since=<date>      4    mark-seen (SELECT, STORE)
 *   8|16|32             the piece size the bytes arrive in
 *   64    a small message size limit
 *   128   a folder name outside ASCII (modified UTF-7)
 * It is read twice, whole and in pieces. Checks:
 *  - the result, the messages written and their spans are the same
 *    whatever the pieces;
 *  - the spans of messages written follow one another from 0 and, when
 *    all went well, end where the file does; a message over the limit is a span without
 *    data, its size over the limit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fetch.h"
#include "imap.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct run {
	enum maint_result ret;
	struct strbuf out;
	struct fetched_input in;
};

static void run(struct run *r, const uint8_t *data, size_t size, size_t step,
		const struct imap_url *u, const struct imap_opts *o, int fd)
{
	off_t end;
	size_t at = 0;

	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	memset(&r->in, 0, sizeof(r->in));
	r->ret = imap_replay_folder((const char *)data, size, step, u, o, fd, &r->in);
	if (r->ret != RESULT_OK && r->ret != RESULT_TEMPFAIL && r->ret != RESULT_FATAL)
		abort();
	end = lseek(fd, 0, SEEK_END);
	if (end < 0 || (size_t)end > size)
		abort();
	strbuf_init(&r->out, end);
	if (pread(fd, r->out.buf, end, 0) != end)
		abort();
	strbuf_setlen(&r->out, end);
	for (size_t i = 0; i < r->in.nr; i++) {
		const struct fetched_span *s = &r->in.spans[i];

		if (s->skipped_limit) {
			if (s->skipped_limit != o->max_message_size || s->len <= o->max_message_size)
				abort();
			continue;
		}
		if (s->off != at)
			abort();
		at += s->len;
	}
	/* a literal cut off by the end of the connection leaves part of it written */
	if (r->ret == RESULT_OK ? at != r->out.len : at > r->out.len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t steps[] = { 0, 1, 2, 3, 7, 64, 1000, 4096 };
	static int fd = -1;
	struct imap_url u = IMAP_URL_INIT;
	struct imap_opts o = { NULL, 0, 0, 1, "fuzz", NULL };
	struct run whole, pieces;
	unsigned char knobs;

	if (!size)
		return 0;
	if (fd < 0 && (fd = memfd_create("imap", 0)) < 0)
		abort();
	knobs = data[0];
	data++;
	size--;
	u.unseen = knobs & 1;
	u.since = knobs & 2 ? 1112911993 : 0;
	u.mark_seen = !!(knobs & 4);
	u.folder = knobs & 128 ? "Entw\xc3\xbcrfe/&Co" : "INBOX";
	o.max_message_size = knobs & 64 ? 100 : 0;
	run(&whole, data, size, 0, &u, &o, fd);
	run(&pieces, data, size, steps[(knobs >> 3) & 7], &u, &o, fd);
	if (whole.ret != pieces.ret || strbuf_cmp(&whole.out, &pieces.out) ||
	    whole.in.nr != pieces.in.nr ||
	    (whole.in.nr && memcmp(whole.in.spans, pieces.in.spans,
				   whole.in.nr * sizeof(*whole.in.spans))))
		abort();
	strbuf_release(&whole.out);
	strbuf_release(&pieces.out);
	free(whole.in.spans);
	free(pieces.in.spans);
	return 0;
}
