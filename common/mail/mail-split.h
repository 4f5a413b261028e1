#ifndef MAIL_SPLIT_H
#define MAIL_SPLIT_H

/*
 * The passes of mbox-split: read mail through the source, index it for
 * selection (common/mail/select.h), and write the chosen messages in output
 * order through a writer (common/mail/mbox-write.h).
 *
 * Two passes. The first parses the headers and diff paths of every
 * message into the index (with select_scan() when fast is set, else
 * patch_mail_parse()). The second writes the chosen messages: read back
 * with pread() when each is a plain byte range of a re-readable file
 * (raw_mail.offset), else by reading the inputs again, else from the
 * spool. Input that cannot be read twice (stdin, a pipe) is spooled to
 * an unlinked temporary file during the first pass, and so are chosen
 * messages re-read in another order than they are written. Memory
 * stays bounded by the largest message plus the index.
 *
 * Functions return 0, or -1 after reporting with error(); a message that
 * cannot be read or parsed is reported, counted in errors and skipped; a
 * message over max_size is reported, counted in oversized and skipped.
 */

#include <stddef.h>

#include "mbox-write.h"
#include "select.h"
#include "spool.h"

struct mail_split {
	/* set by the caller */
	const char *const *args;	/* inputs as for source_open(); they must outlive the index */
	size_t nargs;
	unsigned source_flags;	/* SOURCE_MBOXRD, SOURCE_KEEP_CR */
	size_t max_size;	/* largest message accepted; 0: the source's default */
	int fast;		/* selection needs no more than select_scan() fills */
	struct mail_index *idx;
	struct mbox_writer *mbox;	/* output: an mbox stream ... */
	struct outdir *dir;	/* ... or numbered files (dir->fd >= 0) */

	/* state */
	int rereadable;		/* every input is a regular file or a folder */
	struct spool spool;
	size_t errors;		/* inputs that could not be read */
	size_t bad;		/* messages that could not be parsed (reported, skipped) */
	size_t oversized;	/* messages skipped for being over max_size */
};

/* Prepares ms after the caller's fields are set. */
void mail_split_init(struct mail_split *ms);
void mail_split_release(struct mail_split *ms);

/* Pass 1: every message into ms->idx. */
int mail_split_index(struct mail_split *ms);
/* Pass 2: writes the n entries of order (from mail_index_select()). */
int mail_split_write(struct mail_split *ms, struct mail_entry **order, size_t n);
/*
 * Nothing to choose or reorder: one pass writing every message as read,
 * without parsing; *written gets their number.
 */
int mail_split_stream(struct mail_split *ms, size_t *written);

#endif
