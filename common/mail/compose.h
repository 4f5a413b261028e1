/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef COMPOSE_H
#define COMPOSE_H

/*
 * Building one RFC 5322 message (a notification) from its parts: header
 * encoding and folding, addresses, Date, and the checks that keep a value
 * from a mail or a commit from adding a header line or an SMTP command.
 *
 * Pure functions: no I/O, no libgit2; the caller says which time and
 * which Message-ID (see compose_message_id()).
 *
 * The message is written with LF line ends (an mbox wants them; smtp.c
 * turns them into CRLF on the wire) in this order: From, To, Cc,
 * Subject, Date, Message-ID, In-Reply-To, References, MIME-Version,
 * Content-Type (text/plain; charset=UTF-8), Content-Transfer-Encoding,
 * a blank line, the body.
 *
 * Headers: lines are folded at blanks before 78 characters where the text
 * allows; a Subject or display name that is not printable ASCII (or holds
 * "=?") becomes RFC 2047 encoded words (UTF-8, Q), each line within 75
 * characters; an ASCII display name with specials (','  '"' ...) is
 * quoted. Body: 7bit when it is ASCII, 8bit when it is UTF-8, and
 * quoted-printable when a line would pass 998 bytes (RFC 5322's limit).
 *
 * The checks (compose_check_*()) refuse, with a reason, and never repair:
 *   text (names, subjects)  valid UTF-8, and no control character (C0
 *                           but tab, DEL, C1) nor U+2028/U+2029, so no
 *                           CR, LF or NUL can reach a header line
 *   e-mail addresses        an addr-spec of printable ASCII: a dot-atom
 *                           local part, '@', a domain of letters,
 *                           digits, '-' and '.' (or an [address
 *                           literal]); nothing else, so nothing can ride
 *                           on it into a header or a RCPT TO command;
 *                           and not starting with '-' (a sendmail-like
 *                           program would take it for an option)
 *   Message-IDs             "<" printable ASCII without blanks, '<' or
 *                           '>', holding one '@', ">"
 *   the body                valid UTF-8, no NUL, no CR
 * compose_message() runs them all on what it is given and writes nothing
 * when one fails.
 */

#include <stddef.h>

#include "strbuf.h"
#include "strvec.h"

struct compose_addr {
	char *name;		/* UTF-8 display name, may be empty */
	char *email;		/* addr-spec, without <> */
};

/* A list of addresses, each e-mail at most once (compared ignoring ASCII case). */
struct compose_addrs {
	struct compose_addr *v;
	size_t nr, alloc;
};

#define COMPOSE_ADDRS_INIT { NULL, 0, 0 }

/* Adds a copy of name/email unless email is already in the list; 1 if added. */
int compose_addrs_add(struct compose_addrs *l, const char *name, const char *email);
/* Appends without looking for email first: the caller knows it is not there. */
void compose_addrs_append(struct compose_addrs *l, const char *name, const char *email);
/* Is email in the list (ignoring ASCII case)? */
int compose_addrs_has(const struct compose_addrs *l, const char *email);
/* Removes email from the list if it is there. */
void compose_addrs_remove(struct compose_addrs *l, const char *email);
void compose_addrs_release(struct compose_addrs *l);

/* A name to greet ("Hi <name>,"): the display name, else the e-mail's local part. */
void compose_greeting_name(struct strbuf *out, const char *name, const char *email);

struct compose_mail {
	struct compose_addr from;
	struct compose_addrs to, cc;
	const char *subject;		/* UTF-8, one line */
	const char *message_id;		/* "<id@host>" */
	const char *in_reply_to;	/* "<id@host>" or NULL */
	struct strvec references;	/* "<id@host>" each, oldest first */
	long long date;			/* seconds since the epoch */
	int tz;				/* minutes east of UTC */
	const char *body;		/* UTF-8 text with LF line ends */
	size_t body_len;
};

#define COMPOSE_MAIL_INIT { { NULL, NULL }, COMPOSE_ADDRS_INIT, COMPOSE_ADDRS_INIT, NULL, NULL, NULL, STRVEC_INIT }

/* Frees the lists of m (not the strings it points to). */
void compose_mail_release(struct compose_mail *m);

/*
 * Appends the message to out. Returns 0; or -1 when a value fails its
 * check, with nothing appended and *why set to a sentence naming the
 * field and the problem ("the Cc address 'x' is not a plain address").
 * why is reset first. Nothing is reported.
 */
int compose_message(struct strbuf *out, const struct compose_mail *m, struct strbuf *why);

/* 0, or -1 with *why a short phrase ("holds a line break"). */
int compose_check_text(const char *s, size_t len, const char **why);
int compose_check_email(const char *email, const char **why);
int compose_check_msgid(const char *msgid, const char **why);

/* Appends an RFC 5322 date: "Fri, 1 Apr 2005 13:14:15 +0200". */
void compose_date(struct strbuf *out, long long when, int tz_minutes);

/*
 * Appends a Message-ID that depends only on what seed[0..len) holds (the
 * caller puts in the commit and the thread), so that a mail sent again
 * after a crash carries the same id: "<git-maint.<40 hex>@<domain>>",
 * the hex digits being the SHA-1 of the seed, the domain the sender's
 * (after the last '@' of from_email; "localhost" when it has none).
 */
void compose_message_id(struct strbuf *out, const void *seed, size_t len, const char *from_email);

#endif
