/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IMAP_H
#define IMAP_H

/*
 * The messages of an IMAP folder, through libcurl: what
 * git-maint-source--fetch reads for an imaps:// or imap:// source.
 *
 *   imaps://[<user>@]<host>[:<port>]/<folder>[?<query>]
 *   imap://...       the same over STARTTLS, which is then required
 *
 * <folder> is the folder's name with '/' as the hierarchy separator
 * (percent-escapes decoded, "INBOX" when empty); non-ASCII names are
 * sent in IMAP's modified UTF-7. <query> is '&'-separated:
 *
 *   unseen           only messages without the \Seen flag
 *   since=<date>     only messages that arrived on or after <date>
 *                    (YYYY-MM-DD, or anything mbox-split's --since takes)
 *   mark-seen        set \Seen on the messages read (else no flag of
 *                    the folder changes: it is opened with EXAMINE,
 *                    read-only, and read with BODY.PEEK[])
 *
 * TLS is always required and verified (against the system's CAs or
 * cainfo); there is no option to turn that off. libcurl connects,
 * negotiates TLS and logs in (CURLOPT_CONNECT_ONLY); the few commands
 * after that (EXAMINE or SELECT, UID SEARCH, UID FETCH, LOGOUT) are ours,
 * because libcurl's own FETCH takes BODY[], which marks a message read.
 * What the server says is hostile input: lines and literals are
 * bounded, a literal larger than the message size limit is drained, not
 * stored (and reported), and every wait is bounded by the timeout.
 *
 * The password travels only to libcurl (CURLOPT_PASSWORD); nothing here
 * prints it or a line that carries it.
 */

#include <stddef.h>
#include <time.h>

#include "strbuf.h"
#include "usage.h"

struct imap_url {
	int starttls;		/* imap:// (STARTTLS required), else imaps:// */
	char *user;		/* NULL: none in the URL */
	char *host;		/* as in the URL (an IPv6 literal keeps its []) */
	unsigned port;		/* 0: the scheme's */
	char *folder;		/* decoded, UTF-8 */
	int unseen, mark_seen;
	time_t since;		/* 0: none */
};
#define IMAP_URL_INIT { 0, NULL, NULL, 0, NULL, 0, 0, 0 }

/*
 * Parses an imap(s):// URL into u (IMAP_URL_INIT, or released); -1
 * (reported, naming it) when it is not one we can read. Release u either way.
 */
int imap_url_parse(struct imap_url *u, const char *url);
/* Frees and resets to IMAP_URL_INIT. */
void imap_url_release(struct imap_url *u);

struct imap_opts {
	const char *cainfo;	/* imap.cainfo, NULL: the system's CAs */
	long timeout;		/* seconds, 0: IMAP_TIMEOUT_DEFAULT */
	size_t max_message_size;	/* 0: no limit */
	int quiet;		/* no progress */
	const char *what;	/* the source as given, for messages */
	int *login;		/* when not NULL: set to 1 when the server took the login, -1 when it refused it */
};
#define IMAP_TIMEOUT_DEFAULT 60

struct fetched_input;

/*
 * Logs in as user with password, and writes every message of u's folder
 * that the query selects, oldest UID first, to out_fd, one after another
 * (as the server sends them, CRLF line ends), adding a span for each to
 * in. Returns RESULT_OK; RESULT_TEMPFAIL (cannot connect, timed out,
 * the server closed the connection or answered BYE); RESULT_FATAL (TLS
 * not verified, login refused, no such folder, a broken answer). Each
 * failure is reported.
 */
enum maint_result imap_read_folder(const struct imap_url *u, const char *user, const char *password,
				   const struct imap_opts *o, int out_fd, struct fetched_input *in);

/*
 * What imap_read_folder() does once logged in, with the server's side
 * taken from server[0..len) as if it came from a connection in pieces of
 * step bytes (0: whole), and what it sends going nowhere; the end of the
 * bytes is the server closing the connection. The parsing of the
 * server's answers without a socket: t/fuzz/fuzz-imap.c feeds it.
 */
enum maint_result imap_replay_folder(const char *server, size_t len, size_t step,
				     const struct imap_url *u, const struct imap_opts *o, int out_fd,
				     struct fetched_input *in);

/* Appends name in IMAP's modified UTF-7 (RFC 3501 5.1.3); -1 when name is not valid UTF-8. */
int imap_utf7_encode(struct strbuf *out, const char *name);

#endif
