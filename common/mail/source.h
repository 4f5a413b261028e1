/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SOURCE_H
#define SOURCE_H

/*
 * The one mail input loop every git-maint command uses (the idea of
 * mblaze's blaze822_loop): the command hands over its arguments, the
 * source yields one raw message at a time.
 *
 * Arguments are paths, "-" (standard input) or Maildir folders; no
 * arguments means standard input. An argument that is no path (stat()
 * fails) but names mail elsewhere (a Message-ID, an archive URL, an
 * IMAP folder: common/mail/fetch.h) is read from what fetch_get() gives for
 * it: its messages in order, origin the argument as given, no From_
 * line, no offset. Commands call fetch_prepare() first, so that the
 * network is asked before anything changes and only once (fetch_get()
 * fetches what was not prepared, in a program that did not call it: a
 * test helper). For each local argument:
 *
 *   - a directory is a Maildir: the files of cur/ and new/, sorted by
 *     name the way git mailsplit sorts them (runs of digits compare as
 *     numbers), each file one message;
 *   - a file (or stdin) whose first non-blank line is an mbox "From "
 *     separator is an mbox, split with git mailsplit's rule: a line
 *     "From <anything> ...h:mm:ss YYYY..." (its last colon with digits
 *     around it, then a number over 90: the year) starts a new message;
 *     any other line starting with "From " is body text; a Maildir file
 *     that starts with a "From " line has it removed;
 *   - any other file is a single message (git mailsplit -b), if it
 *     looks like one: git am's format detection (source_looks_like_mail()), or is a
 *     patch without a mail around it, as patch(1) takes.
 *     Input that is neither (a Makefile, a binary file) is refused:
 *     "patch format detection failed: '<file>' is neither a mailbox nor
 *     a mail". source_open() looks at the start of every regular file
 *     argument for it, so that a command refuses before it starts
 *     anything; standard input is looked at when it is read.
 *
 * Like git mailsplit (without --keep-cr), CRLF line ends are turned
 * into LF unless SOURCE_KEEP_CR is given. With SOURCE_MBOXRD, one '>'
 * is removed from every line matching /^>+From /.
 *
 * Memory: files, stdin and pipes alike are read in 64 KiB chunks into
 * one buffer, which holds the message being read (not mapped: on a
 * large mailbox, first touching a mapping's pages costs more than
 * read() does); a message is copied again only when it must be
 * rewritten (CRLF, mboxrd), so memory stays bounded by the largest
 * message, not the mailbox. A
 * message larger than the maximum size (source_set_max_size, default
 * SOURCE_MAX_SIZE_DEFAULT, config mbox.max-message-size) is an error:
 * "<origin>: message N exceeds max size (M bytes)".
 *
 * Errors are reported once with error() and give -1; a source that
 * returned -1 may be continued with source_next() (the bad input is
 * skipped: the message too large, the rest of an unreadable file, a
 * missing file) or closed. A message skipped this way still counts in
 * the numbering, so message numbers are the same on every pass over the
 * same input. An empty input (or only blank lines) has no message.
 */

#include <stddef.h>

#include "parse-options.h"

struct mail_source;

struct raw_mail {
	const char *buf;	/* the message bytes (From_ line removed), valid until the next source_next() */
	size_t len;
	const char *origin;	/* the file/folder name as given, "-" for stdin */
	size_t number;		/* 1-based position across all inputs, used in every error message */
	const char *from_line;	/* the mbox "From " separator line without newline, or NULL */
	size_t from_line_len;
	const char *file;	/* the Maildir file name (origin/cur/...), else NULL */
	/*
	 * Where buf starts in the file origin (or file) names, when buf is
	 * a byte-for-byte copy of it (a regular file read from its start, nothing
	 * rewritten); else -1. Lets a second pass pread() a message back
	 * instead of splitting the file again.
	 */
	long long offset;
};

#define SOURCE_MBOXRD	(1u << 0)	/* unescape >From lines (mboxrd) */
#define SOURCE_KEEP_CR	(1u << 1)	/* keep CRLF line ends (git mailsplit --keep-cr) */
#define SOURCE_STRICT	(1u << 2)	/* a file that is not an mbox is an error, not one message */
#define SOURCE_MAIL_ONLY (1u << 3)	/* a patch without a mail around it is refused too, as git am does */

#define SOURCE_MAX_SIZE_DEFAULT ((size_t)256 << 20)

/* How much of an input's start the format detection reads. */
#define SOURCE_DETECT_BYTES ((size_t)64 << 10)

/*
 * git am's patch format detection, on the start of an input: 1 when
 * buf[0..len), past blank lines, is empty, starts with "From " (an mbox)
 * or with a mail header: a header field ("Name: value", the name
 * printable ASCII without ':'); a later line that is neither a field
 * nor a continuation line ends the header, as for git mailinfo. Also 1 for a patch
 * without a mail around it, which patch(1) takes and dry-apply stands in
 * for: a line starting "diff ", "Index: " or "--- " then "+++ " in the
 * first SOURCE_DETECT_BYTES (a Makefile or a binary file has none),
 * unless flags has SOURCE_MAIL_ONLY. 0 otherwise.
 */
int source_looks_like_mail(const char *buf, size_t len, unsigned flags);

/*
 * What source_open() checks first: each regular file of args[0..nargs)
 * looks like mail (source_looks_like_mail() on its start, with flags).
 * -1, reported, for the first that does not. For a command that says
 * something before it opens its source.
 */
int source_check_format(const char *const *args, size_t nargs, unsigned flags);

/*
 * Prepares to read args[0..nargs) in order (nargs 0: stdin). Only the
 * start of each regular file is read, to refuse one that is not mail (-1,
 * reported); errors about a missing file come from source_next().
 */
int source_open(struct mail_source **out, const char *const *args, size_t nargs, unsigned flags);
/*
 * A source over a buffer already in memory (tests, fuzzing), treated like
 * one file named origin. buf must stay valid until source_close().
 */
int source_open_buffer(struct mail_source **out, const char *buf, size_t len,
		       const char *origin, unsigned flags);
/* 0 = no limit. */
void source_set_max_size(struct mail_source *src, size_t max);
/*
 * Applies the options to src: the size limit of source_opts_max_size()
 * (o and cfg may be NULL). Returns -1 with an error naming file:line when
 * mbox.max-message-size is not a number.
 */
struct maint_config;
struct source_opts;
int source_configure(struct mail_source *src, const struct maint_config *cfg,
		     const struct source_opts *o);
/*
 * The limit mbox.max-message-size sets in cfg: SOURCE_MAX_SIZE_DEFAULT
 * when unset, SIZE_MAX for 0 (no limit). Also the bound on what a
 * message's binary patches may inflate to (patch.h, apply.h). -1 with an
 * error naming file:line when it is not a number.
 */
int source_config_max_size(const struct maint_config *cfg, size_t *out);

/*
 * The mail source options, defined once for every command that reads
 * mail: OPT_MAIL_SOURCE(&so) in its option table fills so. Input only:
 * "--mboxrd" is kept for output (mbox-split writing mboxrd).
 */
struct source_opts {
	int input_mboxrd;	/* --input-mboxrd: SOURCE_MBOXRD */
	int keep_cr;		/* --keep-cr: SOURCE_KEEP_CR */
	size_t max_size;	/* --max-message-size: 0 not given, SIZE_MAX no limit */
};
#define SOURCE_OPTS_INIT { 0, 0, 0 }

/* The parse-options callback of --max-message-size (a number of bytes, 0: no limit). */
struct option;
int source_opt_max_size(const struct option *opt, const char *arg, int unset);

#define OPT_MAIL_SOURCE(o) \
	OPT_GROUP("Input"), \
	OPT_BOOL(0, "input-mboxrd", &(o)->input_mboxrd, "the input is mboxrd: unquote >From lines"), \
	OPT_BOOL(0, "keep-cr", &(o)->keep_cr, "keep CR of CRLF line ends, like git mailsplit --keep-cr"), \
	{ OPTION_CALLBACK, 0, "max-message-size", &(o)->max_size, "bytes", \
	  "largest message accepted (default mbox.max-message-size or 256 MiB; 0: no limit)", \
	  PARSE_OPT_NONEG, source_opt_max_size }

/* The SOURCE_* flags of the options (o may be NULL). */
unsigned source_opts_flags(const struct source_opts *o);

/*
 * The message size limit: --max-message-size when given, else
 * mbox.max-message-size from cfg (may be NULL), else the default; SIZE_MAX
 * for no limit. Also the bound on binary patches (apply.h). -1 with an
 * error naming file:line when the config value is not a number.
 */
int source_opts_max_size(const struct source_opts *o, const struct maint_config *cfg, size_t *out);

/*
 * 1 when args[0..nargs) read mail from the terminal (no argument, or "-",
 * with standard input a terminal): a command does not start a pager
 * then, which would take the terminal from the user typing the mail.
 */
int source_reads_terminal(const char *const *args, size_t nargs);

/* 1 = got one, 0 = end, -1 = error reported (the bad input is skipped; may call again). */
int source_next(struct mail_source *src, struct raw_mail *out);
/*
 * How many messages source_next() skipped so far for being over the
 * size limit (each one returned -1), so a caller can tell a message
 * refused by policy from an input it could not read.
 */
size_t source_oversized(const struct mail_source *src);
/* Takes NULL. */
void source_close(struct mail_source *src);

/*
 * git mailsplit's separator test: does line[0..len) (with its '\n' when it has one, as git reads it)
 * look like an mbox "From " line?
 */
int mbox_is_from_line(const char *line, size_t len);

#endif
