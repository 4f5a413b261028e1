/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SELECT_H
#define SELECT_H

/*
 * Choosing messages out of a mailbox by what their patches touch, who
 * wrote them, their subject and date; keeping threads together and only
 * the newest version of each series; putting them in thread and n/m
 * order. Used by mbox-split (and by whatever else selects mail).
 *
 * The flow: select_index_add() every parsed message (in input order; the
 * index keeps a few strings per message, never the bodies), then
 * select_choose() once, which sets each entry's out_pos and returns
 * the selected entries in output order.
 *
 * Selection rules:
 *   - a message matches when it passes every given selector: --touches
 *     (a patch touching a path under any of the prefixes or matching any
 *     glob, old or new name of a rename), --author / --subject (extended
 *     regexes, any of them), --since / --until (its Date header);
 *     with no selector, every message matches;
 *   - what each message is (patch, cover letter, reply, duplicate,
 *     other), its thread and its series come from the mail core
 *     (common/mail/mail-kind.h): an unthreaded series is one thread, a
 *     duplicate is never selected (the first copy wins);
 *   - whole threads (linked by Message-ID, In-Reply-To and References)
 *     are selected when one of their messages matches, unless no_threads;
 *   - series versions (the mail core's families: series of one author
 *     sharing a cover or patch subject) older than the newest full
 *     posting in the mailbox are dropped (the newest is selected in
 *     their place), and so is a patch a partial reroll replaces (the
 *     reroll takes its place), unless all_versions; but what the review
 *     of the newest needs of them is kept (unless patches_only or
 *     no_threads): the follow-ups that give trailers to a patch or cover
 *     letter of an older version (has_trailers, set by the caller), the
 *     follow-ups between them, the patch they answer, and for a cover
 *     letter the patches of its version (for_review), so that whoever
 *     reads the selection carries
 *     those trailers where the change did not change
 *     (common/mail/review.h), and reads the same series from it again;
 *   - patches_only keeps only the mail core's patches;
 *   - one warning (unless quiet) per incomplete series of a selected
 *     thread, naming the missing numbers as ranges.
 * Output order: threads in order of first appearance; inside a thread
 * by version, then patch number (cover letter 0 first), each reply after
 * what it replies to, a partial reroll where the patch it replaces was. input_order keeps the mailbox's order instead.
 *
 * Series as a maintainer takes them (the mail core's units,
 * mail_kinds_units(): the versions of one series are one): after
 * select_choose(), each selected message that belongs to one points at
 * it (mail_entry.unit): its own series, else that of the message it
 * answers, else the first series of its thread. The series with a
 * selected message are numbered 1, 2, ... in the order in which their
 * newest postings start in the mailbox, as dry-apply and queue number
 * them (common/mail/patch-mails.h) when they read the same mailbox.
 */

#include <regex.h>
#include <stddef.h>
#include <time.h>

#include "mail-kind.h"
#include "strbuf.h"
#include "strvec.h"

struct patch_mail;
struct mail_entry;

/* A series among the selected messages (see above). */
struct select_series {
	size_t number;		/* 1-based */
	size_t of;		/* how many series the selection holds */
	int version, total;	/* of its newest posting ([PATCH v2 3/5]: 2, 5; a single patch: 1, 1) */
	const struct mail_entry *head;	/* its newest posting's cover letter, else its first patch */
	size_t nr;		/* selected messages in it */
};

struct mail_entry {
	size_t number;		/* position in the input (raw_mail.number) */
	size_t len;		/* raw message size, to check a second read */
	char *from_line;	/* the mbox From_ line, or NULL */
	char *origin;		/* input it came from (shared string, not owned) */
	char *clean_subject;
	/* "" unless the index keeps strings (select_opts.keep_strings): only a listing prints them */
	char *message_id, *author_email, *in_reply_to, *subject, *author_name, *date;
	struct strvec paths;	/* kept only when the index keeps paths (listing) */
	time_t when;		/* parsed Date, 0 when none or unparsable */
	int version, k, total;	/* [PATCH v2 3/5]: 2, 3, 5 */
	unsigned has_patch:1, is_reply:1, matched:1, superseded:1;
	unsigned has_trailers:1;	/* a follow-up giving trailers (set by the caller, trailers_in_reply()) */
	unsigned for_review:1;		/* superseded, kept for what the review of the newest needs */
	/* set by select_choose(), from the mail core's classification (common/mail/mail-kind.h) */
	enum mail_kind kind;
	size_t thread;		/* thread number */
	size_t series;		/* its series, else that of the message it answers; MAIL_NONE */
	size_t own_series;	/* its own series (patches and cover letters), MAIL_NONE */
	size_t family;		/* the versions of its own series share it (mail_series.family), MAIL_NONE */
	size_t parent;		/* the entry it answers, MAIL_NONE */
	size_t replaced_by;	/* the partial reroll's patch that replaces it, MAIL_NONE */
	off_t spool_off;	/* where a spooled copy starts, -1 when not spooled */
	long long file_off;	/* where it starts in its input file (raw_mail.offset), -1 when unknown */
	/*
	 * Its attestation (common/mail/attest.h), set by a caller that
	 * checks signatures (a listing with %G?): the verdict letter, 0 when
	 * not checked, and the signer (the caller's string).
	 */
	char attest_verdict;
	const char *attest_signer;
	size_t out_pos;		/* 1-based position in the output, 0 when not selected */
	const struct select_series *unit;	/* its series (select_choose()), NULL when none */
};

#define NO_NODE ((size_t)-1)

struct select_opts {
	struct strvec touches;
	struct strvec authors, subjects;	/* regex sources */
	int ignore_case;
	time_t since, until;	/* 0: unset */
	int patches_only, all_versions, no_threads, input_order;
	int quiet;		/* no warnings about incomplete series */
	int keep_paths;		/* keep each entry's paths (for %p in listings) */
	int keep_strings;	/* keep message_id, author_email, in_reply_to, subject, author_name, date (listings) */
};
#define SELECT_OPTS_INIT { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT }

struct select_index;

/* Compiles the regexes; -1 (error reported) on a bad one. */
int select_index_new(struct select_index **out, const struct select_opts *opts);
void select_index_free(struct select_index *idx);

/* Adds a parsed message; from_line may be NULL. Returns the entry (owned by the index). */
struct mail_entry *select_index_add(struct select_index *idx, const struct patch_mail *pm,
				  size_t number, size_t len, const char *origin,
				  const char *from_line, size_t from_line_len);
size_t select_index_count(const struct select_index *idx);
/* The entry added n-th (0-based, input order). */
struct mail_entry *select_index_at(struct select_index *idx, size_t n);

/*
 * Decides the selection: sets out_pos on every entry, warns (unless
 * quiet) about series with a missing patch, and returns the number
 * selected; *order gets the selected entries in output order (an array
 * owned by the index).
 */
size_t select_choose(struct select_index *idx, struct mail_entry ***order);

/* After select_choose(): the series of the selection, by number (n is 0-based); NULL past the end. */
size_t select_series_count(const struct select_index *idx);
const struct select_series *select_series_at(const struct select_index *idx, size_t n);

/*
 * The fast path for selection: fills what selection by paths, threads,
 * series and subject needs (author_name/author_email from the From
 * header, raw_subject, subject, message_id, in_reply_to, references,
 * version/number/total, is_reply, has_patch, paths; not date, message,
 * patch, to, cc) by reading only the header block and the lines of the
 * diff, without copying the body (message and patch serve as scratch
 * buffers, kept between calls, and are left empty). The values are the
 * parser's (the last of a repeated id header, From and Subject through
 * mailinfo_header_from/subject()). Returns 1 when done; 0 when the
 * message needs mailinfo_parse(), pm then being in an unspecified
 * state: MIME, other charsets than UTF-8, a base64 or quoted-printable
 * line the parser finds bad, a CR in the decoded text, a repeated From
 * or Subject, a bad encoded word or invalid UTF-8 in them, an encoded
 * word in Date, Message-ID or Content-*, a NUL byte or CR before the
 * diff, in-body From:/Subject:/Date: lines, a diff without "diff --git"
 * -- everything the parser reports as bad or warns about, so that the
 * two report the same (t/fuzz/fuzz-mailinfo.c checks it).
 *
 * The paths are read from each file's header (its "diff --git" line up to
 * its first "@@"), so they are the parser's on a well-formed diff; on a
 * malformed one the two read the garbage differently: file names before
 * the first "diff --git" or after a hunk's end (a plain "--- a/x" /
 * "+++ b/x" pair pasted next to a git diff, say) are seen by the parser
 * only, and a hunk longer than its count hides the next file header
 * from the parser only. t/fuzz/fuzz-mailinfo.c checks the rest.
 */
struct raw_mail;
int select_scan(struct patch_mail *pm, const struct raw_mail *raw);

/* Does path match a --touches pattern (a path prefix, or a glob)? */
int select_path_matches(const char *pattern, const char *path);

/*
 * Dates: RFC 2822 ("Fri, 17 Aug 2012 10:31:02 +0800"), ISO 8601
 * ("2012-08-17", "2012-08-17 10:31[:02]", with 'T' too; UTC unless
 * a zone follows) or "@<seconds>". -1 when unparsable.
 */
int select_parse_date(const char *s, time_t *out);

#endif
