/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SMTP_REPLY_H
#define SMTP_REPLY_H

/*
 * The SMTP server's replies (RFC 5321 4.2), bytes in: common/net/smtp.c
 * reads every reply through these two functions, and
 * t/fuzz/fuzz-smtp-reply.c feeds them without a socket.
 *
 * A reply is lines "DDD-text" ending with a line "DDD text" or "DDD"
 * (D a digit); a line ends with LF, and a CR before the LF is not part
 * of it. What the server sends is hostile input, bounded whatever the
 * pieces it arrives in: a line of more than SMTP_LINE_MAX bytes (without
 * its CR LF) is refused, and so is a reply whose lines come to more than
 * SMTP_REPLY_MAX bytes. Nothing here allocates but the line given.
 */

#include <stddef.h>

#include "strbuf.h"

#define SMTP_LINE_MAX 4096
#define SMTP_REPLY_MAX (64 << 10)

/* Where the reading of one reply is; SMTP_REPLY_INIT before each reply. */
struct smtp_reply {
	size_t total;		/* bytes of the reply's lines so far */
	size_t scanned;		/* bytes after the read position known to hold no LF */
};
#define SMTP_REPLY_INIT { 0, 0 }

/*
 * The next line of buf[*pos..len) into line (without its CR LF), *pos
 * moved past it: 1; 0 when buf holds no whole line yet (receive more,
 * keep buf[*pos..] and call again); -1 with why when the line is over
 * SMTP_LINE_MAX.
 */
int smtp_reply_next_line(struct smtp_reply *r, const char *buf, size_t len, size_t *pos,
			 struct strbuf *line, struct strbuf *why);

/*
 * What the line is to its reply: 1 its last line, with the reply's code
 * (0..999) in *code; 0 a line that is not the last; -1 with why when it
 * is not a reply's line or the reply is over SMTP_REPLY_MAX.
 */
int smtp_reply_judge_line(struct smtp_reply *r, const struct strbuf *line, int *code,
			  struct strbuf *why);

#endif
