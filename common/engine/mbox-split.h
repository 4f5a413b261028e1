/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MBOX_SPLIT_H
#define MBOX_SPLIT_H

/*
 * The passes of mbox-split: read mail through the source, index it for
 * selection (common/mail/select.h), and write the chosen messages in output
 * order through a writer (common/mail/mbox-write.h).
 *
 * Two passes. The first parses the headers and diff paths of every
 * message into the index (with select_scan() when fast is set, else
 * mailinfo_parse()). The second writes the chosen messages: read back
 * with pread() when each is a plain byte range of a re-readable file
 * (raw_mail.offset), else by reading the inputs again, else from the
 * spool. Input that cannot be read twice (stdin, a pipe) is spooled to
 * an unlinked temporary file during the first pass, and so are chosen
 * messages re-read in another order than they are written. Memory
 * stays bounded by the largest message plus the index.
 *
 * Functions return 0, or -1 after reporting with error(); a message that
 * cannot be read or parsed is reported, counted in errors and skipped; a
 * message over the size limit (source_configure()) is reported, counted
 * in oversized and skipped.
 */

#include <stddef.h>

#include "mbox-write.h"
#include "select.h"
#include "spool.h"
#include "strvec.h"

struct attest;
struct maint_config;
struct source_opts;

struct mbox_split {
	/* set by the caller */
	const char *const *args;	/* inputs as for source_open(); they must outlive the index */
	size_t nargs;
	const struct source_opts *source;	/* --input-mboxrd ... (source.h); may be NULL */
	const struct maint_config *cfg;	/* for mbox.max-message-size; may be NULL */
	int fast;		/* selection needs no more than select_scan() fills */
	struct select_index *idx;
	struct mbox_writer *mbox;	/* output: an mbox stream ... */
	struct outdir *dir;	/* ... or numbered files (dir->fd >= 0) ... */
	struct seriesdir *series;	/* ... or one mbox per series (mbox_split_write_series()); may be NULL */
	struct attest *attest;	/* check each message's signatures into its entry; may be NULL */

	/* state */
	int rereadable;		/* every input is a regular file or a folder */
	struct spool spool;
	size_t errors;		/* inputs that could not be read */
	size_t bad;		/* messages that could not be parsed (reported, skipped) */
	size_t oversized;	/* messages skipped for being over the size limit */
	struct strvec signers;	/* the entries' attest_signer strings */
};

/* Prepares ms after the caller's fields are set. */
void mbox_split_init(struct mbox_split *ms);
void mbox_split_release(struct mbox_split *ms);

/* Pass 1: every message into ms->idx. */
int mbox_split_index(struct mbox_split *ms);
/* Pass 2: writes the n entries of order (from select_choose()). */
int mbox_split_write(struct mbox_split *ms, struct mail_entry **order, size_t n);
/*
 * Pass 2 into ms->series: the n entries of order series by series
 * (select.h), in output order inside each; *outside gets how many are
 * in no series (not written).
 */
int mbox_split_write_series(struct mbox_split *ms, struct mail_entry **order, size_t n,
			    size_t *outside);
/*
 * For a listing that shows trailers: every indexed message read again
 * and given to a new review (common/mail/review.h) in index order, the
 * patches among order[0..n) being the ones applied, in that order.
 * *applied_as gets, per output position (out_pos - 1), the place of that
 * patch in the review (review_for()), or MAIL_NONE; the caller frees it
 * and review_free()s *out.
 */
struct review;
struct review_opts;
int mbox_split_review(struct mbox_split *ms, struct mail_entry **order, size_t n,
		      const struct review_opts *opts, struct review **out, size_t **applied_as);

/*
 * Nothing to choose or reorder: one pass writing every message as read,
 * without parsing; *written gets their number.
 */
int mbox_split_stream(struct mbox_split *ms, size_t *written);

#endif
