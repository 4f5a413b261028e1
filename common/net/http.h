/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HTTP_H
#define HTTP_H

/*
 * One HTTP(S) GET through libcurl: what the mail sources fetch from an
 * archive (common/net/archive.h). libcurl's errors for HTTP cross here
 * (CURLOPT_ERRORBUFFER); commands never see <curl/curl.h>. libcurl is
 * loaded on the first http_get() (common/net/curl-lib.h); when it cannot
 * be, that is RESULT_FATAL, reported naming it.
 *
 * Policy, not options:
 *   - TLS is verified (peer and host name) against the system's CAs or
 *     the file cainfo names; nothing turns that off. TLS 1.2 at least.
 *   - Only http and https; redirects are followed (at most 5) and only
 *     to https, or to http when the URL asked for was http already.
 *   - A connection that does not come up within timeout seconds, or a
 *     transfer that moves no byte for timeout seconds, is abandoned; so
 *     is one that takes longer than max_time seconds in all (a server
 *     that drips bytes for ever), reported naming max_time_setting
 *     ("not done after 600 seconds (archive.max-time); given up"), not
 *     with libcurl's words.
 *   - What the server sends is bounded: the headers of one response at
 *     HTTP_MAX_HEADER_BYTES (libcurl's own bound is 300 KiB in newer
 *     versions, none in older ones), the body at max_body bytes as sent.
 *     Beyond either the transfer is refused (RESULT_FATAL): the server
 *     is not answering as an archive does, and asking again would not
 *     change that.
 *   - The body goes to the caller's write function as it arrives, so
 *     memory does not grow with it; a status of 400 or above sends none.
 *   - Progress (bytes) on stderr through common/base/progress.h when it is a
 *     terminal and not quiet.
 *   - A server that answers 401 gets one more request, with the login
 *     found for the URL that asked as every password is
 *     (common/net/credential.h: git's credential helpers, the Secret
 *     Service, git's prompt); the source hears whether it worked (a
 *     second 401 rejects it, and the error says what became of it).
 *
 * Results (enum maint_result):
 *   RESULT_OK        2xx, the whole body delivered
 *   RESULT_NO        404 or 410: there is no such thing (nothing reported,
 *                    the caller knows what was looked for)
 *   RESULT_TEMPFAIL  the host is unreachable or unknown, the connection
 *                    broke or timed out, 5xx or 429: safe to retry
 *                    (reported: "cannot fetch '<url>': <why>")
 *   RESULT_FATAL     TLS verification failed, a malformed URL, another
 *                    status, headers or a body over their bound, or the
 *                    write function stopped the transfer (then it
 *                    reported why, and said whether it is RESULT_FATAL
 *                    or RESULT_TEMPFAIL; nothing more is said)
 */

#include <stddef.h>
#include <stdint.h>

#include "usage.h"

struct maint_config;

struct http_opts {
	const char *cainfo;		/* CA bundle, NULL: the system's */
	long timeout;			/* seconds; 0: HTTP_TIMEOUT_DEFAULT */
	long max_time;			/* seconds for the whole transfer; 0: HTTP_MAX_TIME_DEFAULT */
	uint64_t max_body;		/* bytes of body as sent; 0: no bound */
	const char *max_body_setting;	/* the setting that sets max_body, for the message */
	const char *progress_title;	/* NULL: no progress */
	int quiet;
	const struct maint_config *cfg;	/* for a server that asks for a login; NULL: a 401 is the answer */
	const char *max_time_setting;	/* the setting that sets max_time, for the message */
};
#define HTTP_OPTS_INIT { NULL, 0, 0, 0, NULL, NULL, 0, NULL, NULL }
#define HTTP_TIMEOUT_DEFAULT 60
#define HTTP_MAX_TIME_DEFAULT 600
#define HTTP_MAX_HEADER_BYTES (64 << 10)

/*
 * Takes the body in pieces; returns 0 to go on, or, having reported why,
 * RESULT_TEMPFAIL or -1 (RESULT_FATAL) to stop with that result.
 */
typedef int http_write_fn(void *data, const char *buf, size_t len);

/* GETs url (http:// or https://), body to write(data, ...). */
enum maint_result http_get(const char *url, const struct http_opts *opts, http_write_fn *write,
			   void *data);

/*
 * Is this CURLcode worth trying again later (the network or the
 * server's load, not us: unreachable, timed out, connection broken)?
 * For common/net/imap.c, which classifies libcurl's errors the same way.
 */
int curl_code_is_transient(int code);

#endif
