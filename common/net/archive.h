/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCHIVE_H
#define ARCHIVE_H

/*
 * A series fetched from a public-inbox archive (lore-style
 * https://<host>/<list>/<msgid>/), by the Message-ID of any of its
 * messages: the three steps common/mail/fetch.c strings together.
 *
 * 1. What the argument names (archive_ref_parse()):
 *      <msgid>  id:<msgid>  id:<<msgid>>        with the archive URL configured
 *                                               (archive.url), never a guessed host
 *      https://host/list/<msgid>/[T/|t/|raw|t.mbox.gz]
 *      http://...                               the same, with a warning
 *    A Message-ID is printable ASCII without blanks, '<' or '>' (at most
 *    998 bytes, the longest header line RFC 5322 allows), never "." or
 *    "..". It is put into URLs escaped as public-inbox escapes it, and is
 *    never used as a file name (the cache names files by a hash).
 *
 * 2. The thread (archive_fetch_thread()): <list>/<msgid>/t.mbox.gz over
 *    common/net/http.h, gunzipped with zlib as it arrives and written to a
 *    file descriptor, so memory does not grow with the thread. The
 *    thread is bounded, uncompressed and as sent (archive.max-size,
 *    default ARCHIVE_MAX_SIZE_DEFAULT; as sent, a gzip stream is allowed
 *    a thousandth more for its framing): a gzip bomb is refused once it
 *    passes the bound, never inflated whole, and so is a stream of empty
 *    gzip members that never ends. Time is bounded too: archive.timeout
 *    seconds without a byte of mail coming out (bytes that inflate to
 *    nothing do not count) and archive.max-time seconds in all end the
 *    transfer (RESULT_TEMPFAIL). The result is public-inbox's mboxrd.
 *
 * 3. The series (archive_pick()): the thread is read and classified by
 *    the mail core as the commands classify any mailbox
 *    (common/mail/mail-kind.h: patch, cover letter, follow-up, duplicate by
 *    Message-ID, thread), and what is kept is the mail core's thread of
 *    the Message-ID, whole (every version, cover letter and follow-up,
 *    in the archive's order): the command then selects and carries
 *    trailers from it as from the same thread in a local mailbox. With
 *    a version asked for, the series the Message-ID belongs to (a
 *    follow-up counts for what it answers), as `b4 am`
 *    takes it: the cover letter and patches of the newest version the
 *    thread holds, or of the version asked for; for a number that
 *    version lacks, the newest older version's patch with the same n (a
 *    partial reroll: v2 of 3/5 sent alone keeps v1's 1, 2, 4 and 5, and
 *    v1's cover letter). Follow-ups are left out; the first copy of a
 *    message wins. Patches still missing are not reported here but by
 *    the mail core when the command reads what is kept, once. The
 *    versions of the series are the patches and cover letters of the
 *    anchor's thread (the mail core's: linked by replies, or one
 *    unthreaded series), whoever sent them: a cover letter comes from
 *    the sender while each patch carries its own author, and
 *    public-inbox also files unrelated messages that share a subject
 *    under the thread, which are not linked.
 */

#include <stddef.h>

#include "strbuf.h"
#include "usage.h"

struct maint_config;

#define ARCHIVE_MAX_SIZE_DEFAULT ((size_t)256 << 20)

struct archive_ref {
	char *msgid;		/* without <> */
	char *base;		/* the list's URL, ending in '/' */
	char *thread_url;	/* base + escaped msgid + "/t.mbox.gz" */
};
#define ARCHIVE_REF_INIT { NULL, NULL, NULL }

/*
 * Parses arg (see 1.); default_base is archive.url or NULL. Returns 0,
 * or -1 with the error reported (a bare Message-ID and no archive
 * configured, a Message-ID we will not put in a URL, a URL naming no
 * message). Warns once about a plain http:// URL.
 */
int archive_ref_parse(struct archive_ref *ref, const char *arg, const char *default_base);
void archive_ref_release(struct archive_ref *ref);

/* Appends msgid escaped for a public-inbox URL path. */
void archive_escape_msgid(struct strbuf *out, const char *msgid);

struct archive_fetch_opts {
	const char *cainfo;	/* archive.cainfo */
	long timeout;		/* archive.timeout (seconds), 0: the default */
	long max_time;		/* archive.max-time (seconds), 0: the default */
	size_t max_size;	/* uncompressed thread bound, 0: ARCHIVE_MAX_SIZE_DEFAULT */
	int quiet;
	const struct maint_config *cfg;	/* for an archive that asks for a login (http.h) */
};

/*
 * Fetches ref's thread and writes it, uncompressed, to the file
 * open_out() gives (called at the first byte, so that a failure before
 * any arrives creates nothing; it returns an fd, or -1 having reported
 * why). *got_fd is the fd or -1. Results are http_get()'s: RESULT_NO
 * (reported here: the archive has no such message), RESULT_TEMPFAIL,
 * RESULT_FATAL (including a damaged or oversized gzip stream).
 */
enum maint_result archive_fetch_thread(const struct archive_ref *ref,
				       const struct archive_fetch_opts *opts,
				       int (*open_out)(void *data), void *data, int *got_fd);

/*
 * The thread's reader on its own, bytes in (what archive_fetch_thread()
 * gives http_get(); t/fuzz/fuzz-archive.c feeds it without a socket):
 * archive_gunzip_new() for the thread at url (named in messages as
 * quote_url() shows it), at most max bytes uncompressed, giving up after
 * stall seconds without a byte of mail (NULL, reported, when zlib
 * cannot start); archive_gunzip_write() with each piece as it arrives
 * (an http_write_fn: 0, or reported -1 or RESULT_TEMPFAIL to stop);
 * archive_gunzip_end() with the transfer's result frees it and gives
 * the result (an empty or cut-off stream is RESULT_FATAL, reported) and
 * the output's fd (or -1).
 */
struct archive_gunzip;
struct archive_gunzip *archive_gunzip_new(const char *url, size_t max, long stall,
					  int (*open_out)(void *data), void *data);
int archive_gunzip_write(void *g, const char *buf, size_t len);
enum maint_result archive_gunzip_end(struct archive_gunzip *g, enum maint_result ret, int *got_fd);

struct fetched_input;

struct archive_pick_opts {
	const char *what;	/* the argument, for messages */
	int version;		/* 0: the thread whole; n: version n's series as b4 am picks it */
	int all_versions;	/* every version of the series */
	size_t max_message_size;	/* mbox.max-message-size, 0: the source's default */
};

/*
 * Picks ref->msgid's series out of the thread buf[0..len) (mboxrd) and
 * appends the spans of its messages, in order (cover letter, then
 * patches by number), to in. RESULT_OK; RESULT_FATAL (reported) when
 * the Message-ID is not in the thread or the version asked for is not
 * there. A thread without a patch gives no span and a warning.
 */
enum maint_result archive_pick(const struct archive_ref *ref, const char *buf, size_t len,
			       const struct archive_pick_opts *opts, struct fetched_input *in);

#endif
