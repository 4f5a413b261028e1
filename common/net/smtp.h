/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SMTP_H
#define SMTP_H

/*
 * SMTP submission through libcurl. Commands never include <curl/curl.h>:
 * smtp.c, http.c and imap.c are the three files that call libcurl, through
 * curl-lib.h, which loads it when smtp_new() first needs it (a run that
 * sends nothing never maps it). libcurl's errors cross in smtp.c
 * (CURLOPT_ERRORBUFFER and the server's own reply lines); a libcurl that
 * cannot be loaded makes smtp_new() fail, reported, naming it.
 *
 * libcurl opens the connection for the first message (TCP, TLS, EHLO,
 * STARTTLS, EHLO, AUTH: CURLOPT_CONNECT_ONLY), so the certificate checks
 * and the password stay with it; the messages themselves are our own
 * exchange on that connection (curl_easy_send/recv), kept for the next
 * ones, so many mails cost one handshake. libcurl's own transfer cannot
 * do what makes many mails cheap: when the server's EHLO offers
 * PIPELINING (RFC 2920), MAIL FROM, every RCPT TO and DATA go in one
 * write and their replies are read in order, then the message: two round
 * trips per mail, not 3 + recipients. Without PIPELINING, one command at
 * a time.
 *
 * Recipients (reliability case 52). The first `required` recipients of a
 * message (notify's To: the author) must all be accepted, or the message
 * does not go (RSET follows); the others (the Cc) may be refused one by
 * one: the message goes to those accepted, and each refused one is told
 * to the caller with the server's reply, as b4 ty and git send-email
 * leave it to the server. A 452 to a RCPT (RFC 5321 4.5.3.1.10: too many
 * recipients, or storage for now; also a 552 with the enhanced code
 * 5.5.3, the old spelling) marks that recipient SMTP_RCPT_LATER: another
 * transaction may take it, and it is the caller's to send one (the notify
 * engine does, bounded, recording each in its journal first). A message
 * no recipient of which was accepted does not go either. A server that
 * answered the grouped DATA with 354 although the message cannot go is
 * hung up on before any of the message is sent (a message without its
 * final "." is never delivered), and the next message opens a new
 * connection, as it does after any failure that left the connection
 * unusable. Every wait
 * is bounded by the timeout; what the server sends is bounded (4 KiB a
 * line, 64 KiB a reply). smtp_free() says QUIT.
 *
 * Security, none of which a setting can turn off:
 *   SMTP_STARTTLS  smtp://, STARTTLS required (CURLUSESSL_ALL): a server
 *                  that does not offer it is refused before AUTH
 *   SMTP_SSL       smtps://, TLS from the first byte
 *   SMTP_PLAIN     no TLS, allowed only to a loopback address (127.0.0.0/8,
 *                  ::1, "localhost"); smtp_new() refuses any other host
 * The certificate and the host name are always verified, against cainfo
 * (a file or a directory of CA certificates) or the system's store.
 * Nothing crosses the STARTTLS boundary (RFC 3207): libcurl sends nothing
 * after STARTTLS before the handshake and refuses a server that sent more
 * than its 220 before it (an injected reply: SMTP_FATAL); PIPELINING counts
 * only when the EHLO after the handshake offers it, and we group commands
 * only on the connection libcurl handed over, after AUTH.
 *
 * The password is handed to libcurl in memory only. The protocol trace
 * (verbose) goes to stderr through say(), with the AUTH exchange
 * replaced by "<redacted>" and the message data left out.
 *
 * Envelope addresses are checked by the caller (compose_check_email()),
 * and here again as they become commands: one holding a CR, LF, '<'
 * or '>' refuses its message (SMTP_REFUSED) before anything is sent.
 */

#include <stddef.h>

#include "strbuf.h"
#include "strvec.h"

enum smtp_security {
	SMTP_STARTTLS,
	SMTP_SSL,
	SMTP_PLAIN,
};

struct smtp_opts {
	const char *host;
	unsigned port;
	enum smtp_security security;
	const char *user;	/* NULL: no AUTH */
	const char *password;	/* with user; copied by libcurl */
	const char *cainfo;	/* CA file or directory; NULL: the system's */
	const char *domain;	/* the EHLO name; NULL: libcurl's default */
	long timeout;		/* seconds for connecting and for each reply */
	int verbose;		/* the protocol trace on stderr */
};

/* What became of one message. */
enum smtp_status {
	SMTP_SENT,		/* accepted (250 after the data) */
	SMTP_REFUSED,		/* a 5xx for a recipient or the data: this message will never go */
	SMTP_DEFERRED,		/* a 4xx for a recipient or the data: try this message later */
	SMTP_BROKEN,		/* the connection failed, timed out or was closed (421): try later, stop now */
	SMTP_FATAL,		/* TLS, STARTTLS, AUTH, the sender refused: no message can go this way */
	SMTP_IN_FLIGHT,		/* the data went; the answer comes to the settle function (below) */
};

struct smtp;

/* What became of one recipient of a message sent (smtp_send()). */
enum smtp_rcpt {
	SMTP_RCPT_UNTRIED,	/* not asked: the message failed before */
	SMTP_RCPT_ACCEPTED,	/* 2xx */
	SMTP_RCPT_REFUSED,	/* 5xx: never to this address */
	SMTP_RCPT_DEFERRED,	/* 4xx but 452: not now */
	SMTP_RCPT_LATER,	/* 452, 552 5.5.3: too many for this transaction; another may take it */
};

/*
 * The recipients of one message, and what became of each. addr and
 * required are the caller's; smtp_send() fills st[i] and reply.v[i] (the
 * server's answer to that RCPT TO, "" when accepted or not asked) for
 * addr->v[i].
 */
struct smtp_rcpts {
	const struct strvec *addr;
	size_t required;		/* the first ones: one not accepted, no message */
	enum smtp_rcpt *st;
	struct strvec reply;
};

/* Sets r up for addr, the first required of which must be accepted. */
void smtp_rcpts_init(struct smtp_rcpts *r, const struct strvec *addr, size_t required);
/* How many of r's recipients are st. */
size_t smtp_rcpts_count(const struct smtp_rcpts *r, enum smtp_rcpt st);
void smtp_rcpts_release(struct smtp_rcpts *r);

/* Sets up a handle (nothing is sent yet). NULL, reported, on a bad setting. */
struct smtp *smtp_new(const struct smtp_opts *o);

/*
 * Sends msg[0..len) (LF line ends; sent as CRLF, dot-stuffed) from the
 * envelope sender to the recipients (see above), connecting first when no
 * connection is open. *reply gets the server's last reply
 * line ("250 2.0.0 Ok: queued", "550 5.1.1 <x@y>: unknown user": for a
 * message that did not go, the answer that stopped it), or libcurl's
 * description of what went wrong when there was none. rcpt->st says, once
 * the message went (SMTP_SENT, SMTP_IN_FLIGHT), who has it: those
 * SMTP_RCPT_ACCEPTED. Nothing is reported: the caller knows which commit
 * the mail was for.
 */
enum smtp_status smtp_send(struct smtp *s, const char *from, struct smtp_rcpts *rcpt,
			   const char *msg, size_t len, struct strbuf *reply);

/*
 * One round trip per message. With a settle function, and when the
 * server offers PIPELINING, smtp_send() returns SMTP_IN_FLIGHT once the
 * message's data went, without waiting for the answer: the next
 * smtp_send() sends its MAIL, RCPT... and DATA, then reads that answer
 * and hands it to fn(arg, status, reply) (status as smtp_send() would
 * have returned it), then reads its own; so the server answers both at
 * once. fn is called before any of the next message's data goes: a
 * message is settled (the caller records it) before another can be
 * accepted, so a crash leaves at most one message accepted and not
 * recorded, as without pipelining. fn returns 0, or -1 to stop: that
 * next message is not sent (SMTP_FATAL; the connection is hung up on).
 * When the message in flight took the connection with it (421, a
 * reset), the next message is SMTP_BROKEN too.
 */
typedef int (*smtp_settle_fn)(void *arg, enum smtp_status st, const char *reply);
void smtp_set_settle(struct smtp *s, smtp_settle_fn fn, void *arg);

/* Reads the answer to the message in flight, if any, and hands it to fn: fn's result, else 0. */
int smtp_settle(struct smtp *s);

/*
 * What the server said to AUTH when the connection was last opened:
 * SMTP_AUTH_UNTRIED (no user, or no connection yet), SMTP_AUTH_ACCEPTED,
 * or SMTP_AUTH_REFUSED (535: the credentials are wrong; other refusals,
 * a 454 or 534, say nothing about the password). What the caller tells
 * the password's source (credential.h).
 */
enum smtp_auth {
	SMTP_AUTH_UNTRIED,
	SMTP_AUTH_ACCEPTED,
	SMTP_AUTH_REFUSED,
};
enum smtp_auth smtp_auth_result(const struct smtp *s);

/* Settles what is in flight, says QUIT on an open connection and frees everything; NULL is fine. */
void smtp_free(struct smtp *s);

/* 1 when host is a loopback address or "localhost" (the only hosts for SMTP_PLAIN). */
int smtp_host_is_loopback(const char *host);

#endif
