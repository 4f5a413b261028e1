/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SMTP server's replies, bytes in (see smtp-reply.h).
 */
#include "smtp-reply.h"

#include <ctype.h>
#include <string.h>

int smtp_reply_next_line(struct smtp_reply *r, const char *buf, size_t len, size_t *pos,
			 struct strbuf *line, struct strbuf *why)
{
	const char *start = buf + *pos;
	size_t avail = len - *pos, n;
	const char *nl;

	if (r->scanned > avail)
		r->scanned = 0;
	nl = memchr(start + r->scanned, '\n', avail - r->scanned);
	if (!nl) {
		/* room for the line and its CR: what arrives later cannot make it shorter */
		if (avail > SMTP_LINE_MAX + 1) {
			strbuf_addstr(why, "the server sent a line too long");
			return -1;
		}
		r->scanned = avail;
		return 0;
	}
	n = nl - start;
	*pos += n + 1;
	r->scanned = 0;
	if (n && start[n - 1] == '\r')
		n--;
	if (n > SMTP_LINE_MAX) {
		strbuf_addstr(why, "the server sent a line too long");
		return -1;
	}
	strbuf_reset(line);
	strbuf_add(line, start, n);
	return 1;
}

int smtp_reply_judge_line(struct smtp_reply *r, const struct strbuf *line, int *code,
			  struct strbuf *why)
{
	const char *p = line->buf;

	if (line->len < 3 || !isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) ||
	    !isdigit((unsigned char)p[2]) || (line->len > 3 && p[3] != ' ' && p[3] != '-')) {
		strbuf_addstr(why, "the server sent something that is not an SMTP reply");
		return -1;
	}
	if (line->len == 3 || p[3] == ' ') {
		*code = (p[0] - '0') * 100 + (p[1] - '0') * 10 + (p[2] - '0');
		return 1;
	}
	r->total += line->len;
	if (r->total > SMTP_REPLY_MAX) {
		strbuf_addstr(why, "the server sent a reply too long");
		return -1;
	}
	return 0;
}
