#ifndef SMTP_H
#define SMTP_H

/*
 * SMTP submission through libcurl. This is the only file that includes
 * <curl/curl.h>; libcurl's errors cross here (CURLOPT_ERRORBUFFER and
 * the server's own reply lines).
 *
 * One struct smtp is one libcurl handle: the connection it opens for the
 * first message (TLS, EHLO, AUTH) is kept for the next ones, so many
 * mails cost one handshake. A connection that a failure left unusable is
 * replaced by a new one on the next message.
 *
 * Security, none of which a setting can turn off:
 *   SMTP_STARTTLS  smtp://, STARTTLS required (CURLUSESSL_ALL): a server
 *                  that does not offer it is refused before AUTH
 *   SMTP_SSL       smtps://, TLS from the first byte
 *   SMTP_PLAIN     no TLS, allowed only to a loopback address (127.0.0.0/8,
 *                  ::1, "localhost"); smtp_new() refuses any other host
 * The certificate and the host name are always verified, against cainfo
 * (a file or a directory of CA certificates) or the system's store.
 *
 * The password is handed to libcurl in memory only. The protocol trace
 * (verbose) goes to stderr through say(), with the AUTH exchange
 * replaced by "<redacted>" and the message data left out.
 *
 * Envelope addresses are passed to libcurl as given: the caller has
 * checked them (compose_check_email()), so none holds a CR, LF or '>'.
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
};

struct smtp;

/* Sets up a handle (nothing is sent yet). NULL, reported, on a bad setting. */
struct smtp *smtp_new(const struct smtp_opts *o);

/*
 * Sends msg[0..len) (LF line ends; sent as CRLF, dot-stuffed) from the
 * envelope sender to the recipients. *reply gets the server's last reply
 * line ("250 2.0.0 Ok: queued", "550 5.1.1 <x@y>: unknown user"), or
 * libcurl's description of what went wrong when there was none.
 * Nothing is reported: the caller knows which commit the mail was for.
 */
enum smtp_status smtp_send(struct smtp *s, const char *from, const struct strvec *rcpt,
			   const char *msg, size_t len, struct strbuf *reply);

/* Says QUIT on an open connection and frees everything; NULL is fine. */
void smtp_free(struct smtp *s);

/* 1 when host is a loopback address or "localhost" (the only hosts for SMTP_PLAIN). */
int smtp_host_is_loopback(const char *host);

#endif
