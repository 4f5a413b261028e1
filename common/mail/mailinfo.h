/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MAILINFO_H
#define MAILINFO_H

/*
 * Patch mail extraction: from one raw message (common/mail/source.h) to what
 * `git mailinfo <msg> <patch>` extracts, byte for byte (author, email,
 * date, cleaned subject, the commit message, the diff), plus what git
 * mailinfo drops and git-maint needs (series version and n/m,
 * Message-ID, threading, To/Cc, the paths a diff touches).
 *
 * Time and memory are linear in the message: a base64 or quoted-printable
 * body that decodes to one 100 MB line takes about a second (git mailinfo
 * 2.39 prepends each decoded line to the partial one before it, which is
 * quadratic: 8 MB take minutes there).
 *
 * Pure: no I/O, no repository. Handles MIME (multipart, nested up to
 * MAILINFO_MAX_MIME_DEPTH, the patch inline or as a text attachment),
 * quoted-printable and base64, RFC 2047 headers, conversion to UTF-8 from
 * the declared charset (git mailinfo -u), in-body From:/Subject:/Date:,
 * scissors lines, the message ending at "---" or at the diff.
 *
 * Where git mailinfo 2.39 and this code differ (every other output is
 * the same bytes; t0100-t0102 compare them):
 *   - git accepts silently, we return -1 (with the same fields): invalid
 *     base64 (bytes outside the alphabet, a group cut short) or
 *     quoted-printable ("=" not followed by two hex digits or a line end)
 *     in the body; a NUL byte in the commit message (git am refuses that
 *     later); a raw NUL byte in a header line (git cuts the line there);
 *     an empty message; a Date that mailinfo_date_ok() refuses ("invalid
 *     date '...'": git am refuses most of those later, and commits some,
 *     such as 1970-01-01 00:00 +0100, with a time git fsck flags).
 *   - a From/Subject/Date that is not valid UTF-8 after decoding (raw
 *     8-bit text without a charset) is read as ISO-8859-1, with a warning;
 *     git passes the bytes on.
 *   - an unterminated quoted string or comment in From ends the value;
 *     git 2.39 reads past the end of its buffer there.
 *   - an encoded word whose charset carries an RFC 2231 language
 *     ("=?utf-8*en?q?...?=") is decoded; git fails on it.
 *   - a raw NUL inside a quoted-printable or base64 line is decoded as a
 *     byte; git stops decoding that line at the NUL.
 *   - -n (no_reencode) only stops the body's conversion; encoded words in
 *     headers are still converted to UTF-8.
 *   - -m (message_id) adds "Message-Id: <id>" instead of the decoded value
 *     when that holds a control character: git adds each encoded line.
 */

#include "source.h"
#include "strbuf.h"
#include "strvec.h"

/* git mailinfo's MAX_BOUNDARIES: at most 4 nested multipart levels */
#define MAILINFO_MAX_MIME_DEPTH 5

struct patch_mail {
	struct strbuf author_name, author_email, date;	/* as `git mailinfo` prints Author/Email/Date */
	struct strbuf subject;		/* cleaned as git am does ([PATCH v2 3/5] etc. stripped) = mailinfo "Subject" */
	struct strbuf raw_subject;	/* decoded, unfolded, prefixes kept */
	struct strbuf message;		/* = mailinfo's <msg> file: the commit message body after the subject */
	struct strbuf patch;		/* = mailinfo's <patch> file */
	/*
	 * Message ids without <>, read from the undecoded values as
	 * mail_parse_msgids() reads them: one word each, never a blank or a
	 * control character (an encoded newline cannot add a line after a
	 * "Link:" trailer); of References at most MAIL_REFERENCES_MAX
	 * (mail_parse_references()). Addresses as "Name <a@b>".
	 */
	struct strbuf message_id, in_reply_to;
	struct strvec references, to, cc;
	int version, number, total;	/* [PATCH v2 3/5] -> 2,3,5; version 1 when absent; 0/0 when no n/m */
	struct strvec paths;		/* every path the diff touches (a/ b/ stripped), both names of a rename/copy, C-quoted paths decoded */
	int has_patch;			/* the mail carries a diff */
	int is_reply;			/* the subject starts with Re:/Aw:/Fwd: (before any [PATCH]) */

	/* Which lines `git mailinfo` prints (a header it did not see is not printed). */
	unsigned has_author:1, has_subject:1, has_date:1;

	void *scratch;			/* parser buffers kept between calls (private) */
};

enum mailinfo_quoted_cr {
	MAILINFO_QUOTED_CR_NOWARN,
	MAILINFO_QUOTED_CR_WARN,	/* git's default */
	MAILINFO_QUOTED_CR_STRIP,
};

struct mailinfo_opts {
	int keep_subject;	/* -k: keep the subject as it is */
	int keep_non_patch;	/* -b: strip only [PATCH...] brackets */
	int scissors;		/* --scissors: drop everything above a "-- >8 --" line */
	int keep_cr;		/* keep the CR of CRLF line ends (git mailsplit --keep-cr);
				   else they are dropped here as mailsplit would */
	int no_inbody_headers;	/* --no-inbody-headers */
	int message_id;		/* -m: add "Message-Id: <...>" to the message */
	int no_reencode;	/* -n: do not convert to UTF-8 */
	enum mailinfo_quoted_cr quoted_cr;
	/*
	 * Fast path for selection (mbox-split): every field is filled as
	 * usual except message and patch, which stay empty. A plain text
	 * body is read line by line only up to the patch break; the diff is
	 * then scanned in place for paths. MIME and encoded bodies are still
	 * decoded (paths may hide in them). Same fields as the full parse
	 * (the fuzz target checks it).
	 */
	int headers_and_paths_only;
	/*
	 * Report nothing (errors still return -1): for a caller that reads
	 * every mail once to classify it and parses it again, reporting
	 * then, to apply it.
	 */
	int quiet;
};
#define MAILINFO_OPTS_INIT { .quoted_cr = MAILINFO_QUOTED_CR_WARN }

void mailinfo_init(struct patch_mail *pm);
/* Empties pm for reuse (keeps allocations). */
void mailinfo_reset(struct patch_mail *pm);
void mailinfo_release(struct patch_mail *pm);

/*
 * Parses raw into pm (reset first). 0 ok; -1 after one error line
 * "<origin>: message <number>: <problem>" naming the header or problem
 * (NUL byte in 'Subject', malformed encoded word in 'From', invalid
 * base64 in the body, cannot convert from x-foo to UTF-8, too many
 * nested MIME boundaries, empty message). After -1, pm still holds what
 * was extracted, as git mailinfo still writes its files: a caller may
 * list the message but must not apply it. Warnings (quoted CRLF,
 * headers read as ISO-8859-1) go to stderr, prefixed the same way.
 */
int mailinfo_parse(struct patch_mail *pm, const struct raw_mail *raw, const struct mailinfo_opts *opts);

/*
 * Appends what `git mailinfo` prints on its standard output for pm:
 * "Author: ...\nEmail: ...\nSubject: ...\nDate: ...\n\n", each line only
 * when git would print it.
 */
void mailinfo_format_info(struct strbuf *out, const struct patch_mail *pm);

/*
 * git am's subject cleanup (mailinfo cleanup_subject): strips leading
 * "Re:"/"re:" (and blanks, ':' ...) and bracketed prefixes "[...]"
 * (only those containing "PATCH" with keep_non_patch), in place.
 */
void mailinfo_cleanup_subject(struct strbuf *subject, int keep_non_patch);

/*
 * Reads "[PATCH v2 3/5]", "[RFC PATCH 0/7]", "[PATCH 3/5 v2]",
 * "[PATCHv2]" ... from a raw subject: version (1 when absent), n and m
 * (0 when absent).
 */
void mailinfo_series_info(const char *subject, size_t len, int *version, int *number, int *total);

/*
 * What the parser makes of a mail's Subject and From header values, for
 * a caller that read the headers itself (select_scan()): the value is
 * unfolded, RFC 2047-decoded, valid UTF-8 without NUL bytes (else the
 * caller must leave the mail to mailinfo_parse(), which reports those).
 * mailinfo_header_subject() sets subject (cleaned as git am does) and
 * raw_subject; mailinfo_header_from() sets author_name and author_email.
 */
void mailinfo_header_subject(struct patch_mail *pm, const char *value, size_t len);
void mailinfo_header_from(struct patch_mail *pm, const char *value, size_t len);

/*
 * Would git am take this Date header value (unfolded, decoded)? It is
 * read as parse_date() (date.h) reads it, which refuses any date that
 * would give a timestamp git fsck flags; blanks only are fine (the
 * current time, as git am does).
 */
int mailinfo_date_ok(const char *value, size_t len);

/*
 * Adds to paths every path the diff text patch[0..len) touches: names
 * from "diff --git", "---"/"+++", "rename from/to", "copy from/to"
 * lines, a/ and b/ stripped, C-quoted names decoded, /dev/null left
 * out. A path named again further on may be added again: after the last
 * call, mailinfo_paths_unique() removes the repeats (one pass over all
 * of them, so that a diff of 100,000 files stays linear, n log n).
 */
void mailinfo_diff_paths(struct strvec *paths, const char *patch, size_t len);

/* Removes the repeated strings of paths, keeping the first of each, in order. */
void mailinfo_paths_unique(struct strvec *paths);

/* Is line (NUL-terminated, without its newline) a scissors line ("-- >8 --") to git mailinfo? */
int mailinfo_scissors_line(const char *line);

#endif
