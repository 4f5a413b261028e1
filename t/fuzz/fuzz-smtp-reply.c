/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz target for the SMTP reply reader (common/net/smtp-reply.c): the
 * bytes after the first are what a server sends, read reply after reply
 * as common/net/smtp.c reads them, once as one piece and once in pieces
 * of the size the first byte picks (a receive buffer that the reader
 * empties as smtp.c's does). Checks:
 *  - the replies (code and last line) and where reading stops (an
 *    error, which one, or the end of the bytes) are the same whatever
 *    the pieces;
 *  - a line holds no LF, is at most SMTP_LINE_MAX bytes, and starts
 *    with its reply's three digits; a code is 0..999;
 *  - a reply's lines come to at most SMTP_REPLY_MAX bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smtp-reply.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The replies read, one "code line\n" each, then how it ended. */
static void read_all(const uint8_t *data, size_t size, size_t step, struct strbuf *log)
{
	struct strbuf in = STRBUF_INIT, line = STRBUF_INIT, why = STRBUF_INIT;
	size_t pos = 0, fed = 0;

	for (;;) {
		struct smtp_reply r = SMTP_REPLY_INIT;
		size_t lines = 0;
		int code = -1, got = 0;

		while (got >= 0) {
			got = smtp_reply_next_line(&r, in.buf, in.len, &pos, &line, &why);
			if (!got) {
				size_t n = step && step < size - fed ? step : size - fed;

				if (!n)
					break;
				/* as smtp.c's conn_recv(): what was read goes */
				if (pos == in.len) {
					strbuf_reset(&in);
					pos = 0;
				} else if (pos > SMTP_REPLY_MAX) {
					strbuf_remove(&in, 0, pos);
					pos = 0;
				}
				strbuf_add(&in, data + fed, n);
				fed += n;
				continue;
			}
			if (got < 0)
				break;
			if (memchr(line.buf, '\n', line.len) || line.len > SMTP_LINE_MAX)
				abort();
			lines++;
			got = smtp_reply_judge_line(&r, &line, &code, &why);
			if (got > 0)
				break;
		}
		if (r.total > SMTP_REPLY_MAX || (got > 0 && (code < 0 || code > 999)))
			abort();
		if (got <= 0) {
			strbuf_addf(log, "end after %zu lines: %s\n", lines, why.buf);
			break;
		}
		if (line.len < 3 || (line.buf[0] - '0') * 100 + (line.buf[1] - '0') * 10 +
		    (line.buf[2] - '0') != code)
			abort();
		strbuf_addf(log, "%d ", code);
		strbuf_addbuf(log, &line);
		strbuf_addch(log, '\n');
	}
	strbuf_release(&in);
	strbuf_release(&line);
	strbuf_release(&why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t steps[] = { 1, 2, 3, 5, 16, 100, 4097, 0 };
	struct strbuf whole = STRBUF_INIT, pieces = STRBUF_INIT;

	if (!size)
		return 0;
	read_all(data + 1, size - 1, 0, &whole);
	read_all(data + 1, size - 1, steps[data[0] & 7], &pieces);
	if (strbuf_cmp(&whole, &pieces))
		abort();
	strbuf_release(&whole);
	strbuf_release(&pieces);
	return 0;
}
