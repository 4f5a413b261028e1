/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for mbox splitting (common/mail/source.c): the bytes after the
 * first are a mailbox, read from memory (source_open_buffer) and, as
 * the first byte picks, as a regular file and from a pipe on standard
 * input (both through the read window), with the flags and the size
 * limit the first byte picks too. All must yield the same messages
 * (bytes, number, From line) and the same errors; a message that is a
 * byte-for-byte copy of the file must say where it starts
 * (raw_mail.offset); in an mbox without CRs and without mboxrd, no
 * message holds a line that would have started a new one.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "source.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MESSAGES 256

struct message {
	struct strbuf buf, from;
	size_t number;
	int has_from, error;
	long long offset;
};

struct run {
	struct message m[MAX_MESSAGES];
	size_t nr, oversized;
};

static void run_release(struct run *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		strbuf_release(&r->m[i].buf);
		strbuf_release(&r->m[i].from);
	}
	r->nr = 0;
}

static void collect(struct run *r, struct mail_source *src, size_t max)
{
	struct raw_mail raw;
	int ret;

	source_set_max_size(src, max);
	while (r->nr < MAX_MESSAGES && (ret = source_next(src, &raw))) {
		struct message *m = &r->m[r->nr++];

		strbuf_init(&m->buf, 0);
		strbuf_init(&m->from, 0);
		m->error = ret < 0;
		m->offset = -1;
		if (ret < 0)
			continue;
		strbuf_add(&m->buf, raw.buf, raw.len);
		m->number = raw.number;
		m->has_from = !!raw.from_line;
		if (raw.from_line)
			strbuf_add(&m->from, raw.from_line, raw.from_line_len);
		m->offset = raw.offset;
	}
	r->oversized = source_oversized(src);
	source_close(src);
}

static void same_runs(const struct run *a, const struct run *b)
{
	if (a->nr != b->nr || a->oversized != b->oversized)
		abort();
	for (size_t i = 0; i < a->nr; i++) {
		const struct message *x = &a->m[i], *y = &b->m[i];

		if (x->error != y->error || x->number != y->number || x->has_from != y->has_from ||
		    strbuf_cmp(&x->buf, &y->buf) || strbuf_cmp(&x->from, &y->from))
			abort();
	}
}

/* No line of the message (after its first) is one that starts a message. */
static void no_from_line_inside(const struct message *m)
{
	const char *p = m->buf.buf, *end = p + m->buf.len;

	while ((p = memchr(p, '\n', end - p)) && ++p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);

		if (mbox_is_from_line(p, l))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t limits[] = { 0, 16, 100, 1000 };
	struct run mem = { 0 }, file = { 0 }, pipe_run = { 0 };
	struct mail_source *src;
	unsigned flags = 0;
	size_t max;
	unsigned char knobs;
	char path[64];
	int pfd[2], saved_stdin;
	static int fd = -1;

	if (!size || size > 32768)	/* a pipe holds the whole input */
		return 0;
	if (fd < 0 && (fd = memfd_create("mbox", 0)) < 0)
		abort();
	knobs = data[0];
	flags |= (data[0] & 1) ? SOURCE_MBOXRD : 0;
	flags |= (data[0] & 2) ? SOURCE_KEEP_CR : 0;
	flags |= (data[0] & 4) ? SOURCE_STRICT : 0;
	max = limits[(data[0] >> 3) & 3];
	data++;
	size--;

	source_open_buffer(&src, (const char *)data, size, "fuzz", flags);
	collect(&mem, src, max);

	if (knobs & 0x20) {
		const char *args[] = { path };

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
			abort();
		/*
		 * a file that is not mail is refused when opened; the buffer's
		 * first source_next() refused it too
		 */
		if (source_open(&src, args, 1, flags) < 0) {
			if (!mem.nr || !mem.m[0].error)
				abort();
		} else {
			collect(&file, src, max);
			same_runs(&mem, &file);
		}
	}
	if (knobs & 0x40) {
		if (pipe(pfd) < 0 || write(pfd[1], data, size) != (ssize_t)size)
			abort();
		close(pfd[1]);
		saved_stdin = dup(0);
		dup2(pfd[0], 0);
		close(pfd[0]);
		source_open(&src, NULL, 0, flags);
		collect(&pipe_run, src, max);
		dup2(saved_stdin, 0);
		close(saved_stdin);
		same_runs(&mem, &pipe_run);
	}
	for (size_t i = 0; i < file.nr; i++) {
		const struct message *m = &file.m[i];

		if (m->offset >= 0 &&
		    ((size_t)m->offset + m->buf.len > size ||
		     memcmp(data + m->offset, m->buf.buf, m->buf.len)))
			abort();
	}
	for (size_t i = 0; i < mem.nr; i++) {
		const struct message *m = &mem.m[i];

		/*
		 * (as git mailsplit, lines are tested before CRs are taken
		 * out: with a CR anywhere, a line of the message may look
		 * like a From line only once converted)
		 */
		if (!m->error && m->has_from && !(flags & (SOURCE_MBOXRD | SOURCE_KEEP_CR)) &&
		    !memchr(data, '\r', size))
			no_from_line_inside(m);
	}
	run_release(&mem);
	run_release(&file);
	run_release(&pipe_run);
	return 0;
}
