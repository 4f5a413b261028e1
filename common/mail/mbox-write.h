/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MBOX_WRITE_H
#define MBOX_WRITE_H

/*
 * Writers for selected mail: an mbox or mboxrd stream, a directory of
 * numbered files (like git mailsplit -o), and one formatted line per
 * message (listings for people and scripts).
 *
 * mbox (mboxo): each message is written as read, after its original
 * From_ line (or "From git-maint Mon Sep 17 00:00:00 2001" when it had
 * none); a body line that would pass for a separator (git mailsplit's
 * rule, mbox_is_from_line()) gets a '>' in front, which only happens to
 * messages that did not come from an mbox. So an mbox written back
 * unchanged is the same bytes.
 * mboxrd: every line matching /^>*From / gets one more '>'.
 */

#include <stddef.h>

#include "strbuf.h"
#include "strvec.h"

struct mail_entry;

enum mbox_format {
	MBOX_O,
	MBOX_RD,
};

struct mbox_writer {
	int fd;
	enum mbox_format format;
	struct strbuf buf;	/* flushed when it grows past 64 KiB */
};

void mbox_writer_init(struct mbox_writer *w, int fd, enum mbox_format format);
/* Appends one message; from_line without its newline, may be NULL. */
int mbox_writer_add(struct mbox_writer *w, const char *from_line, const char *msg, size_t len);
int mbox_writer_flush(struct mbox_writer *w);
/* Flushes and frees the buffer (does not close fd). */
int mbox_writer_finish(struct mbox_writer *w);

/*
 * An output directory. outdir_open() creates it when missing and opens
 * it with O_DIRECTORY|O_NOFOLLOW (a symlink in its place is refused).
 * outdir_write() names the file after n only ("%0*zu", width digits,
 * like git mailsplit's -d), removes whatever entry already has that
 * name (a symlink is removed, never followed) and creates the file with
 * O_CREAT|O_EXCL|O_NOFOLLOW relative to the directory. Like git
 * mailsplit's files, it starts with the message's mbox From_ line when
 * it had one (from_line, without newline; NULL for none).
 */
struct outdir {
	int fd;
	char *path;
	int width;
};
#define OUTDIR_INIT { -1, NULL, 4 }

int outdir_open(struct outdir *od, const char *path);
int outdir_write(struct outdir *od, size_t n, const char *from_line, const char *buf, size_t len);
void outdir_close(struct outdir *od);

/*
 * A directory of one mbox per series (mbox-split --series-dir): the
 * series of the selection (select.h, struct select_series) each in a
 * file named by mbox_write_series_name(), "0001-usb-hub-fix-a-leak.mbox",
 * so that a shell glob reads them in the mailbox's series order.
 *
 * Nothing half-written: seriesdir_open() refuses a directory that is
 * not empty (but with force) before anything is read, and the files are
 * written into a hidden directory inside it; seriesdir_commit() moves
 * them in (with force, after removing the series files, names as above,
 * an earlier run left); seriesdir_release() removes what was not moved
 * in, and the directory too when seriesdir_open() created it, and frees
 * sd (names stays valid until then). The messages of one
 * series must come together (one file is open at a time).
 */
struct seriesdir {
	char *path;
	int fd;			/* path, opened */
	char *stage;		/* the hidden directory's name in it, NULL when none */
	int stage_fd;
	int created;		/* seriesdir_open() made path */
	int force;
	enum mbox_format format;
	struct mbox_writer w;	/* the file being written (w.fd >= 0) */
	size_t current;		/* its series number, 0 for none */
	struct strvec names;	/* the files written, in order */
};
#define SERIESDIR_INIT { .fd = -1, .stage_fd = -1, .w = { .fd = -1 }, .names = STRVEC_INIT }

int seriesdir_open(struct seriesdir *sd, const char *path, enum mbox_format format, int force);
/* Appends a message to series s's file; from_line as for mbox_writer_add(). */
struct select_series;
int seriesdir_write(struct seriesdir *sd, const struct select_series *s, const char *from_line,
		    const char *buf, size_t len);
int seriesdir_commit(struct seriesdir *sd);
/* Takes a seriesdir never opened. */
void seriesdir_release(struct seriesdir *sd);

/*
 * Series s's file name: its number, as wide as the largest (4 digits at
 * least), then its subject as git format-patch turns a subject into a
 * file name (letters, digits, '.' and '_' kept, every other run a '-',
 * 52 bytes at most), then ".mbox".
 */
void mbox_write_series_name(struct strbuf *out, const struct select_series *s);

/*
 * Expands a listing format for entry e:
 *   %i  position in the input (the number used in error messages)
 *   %I  position in the output
 *   %m  Message-ID            %r  In-Reply-To
 *   %an %ae  author name and email (decoded)
 *   %ad  the Date header      %at  it as seconds since the epoch
 *   %s  subject as sent (decoded)   %S  subject cleaned as git am does
 *   %v  series version   %k  patch number   %K  series total
 *   %p  touched paths, space-separated (needs the index to keep paths)
 *   %P  "patch" (the mail core's kind) or "mail"     %o  the input it came from
 *   %G? its attestation verdict: G, B, U or N (common/mail/attest.h); empty when
 *       not checked (--attest=off)
 *   %GS who signed it: "ed25519/dev@example.org", "DKIM/example.org"
 *   %qn %qN  its series' number (select.h) and the number of series
 *   %qv %qK  the series' version and patch count
 *   %qs %qm  the series' subject and Message-ID (its cover letter's, else its first patch's)
 *   %qf %qF  the subject as a file name, the series' file name (mbox_write_series_name())
 *       (all empty for a message in no series)
 *   %n  newline   %%  percent   %xNN  the byte NN (hex)
 *   %C(<colour>)  a colour in git's syntax (color.h), %Cred, %Cgreen,
 *       %Cblue, %Creset: as in git's pretty formats, written only when
 *       color is on (%C(always,<colour>): always)
 * Text from the mail is written so that a record stays one line
 * (quote.h): each path C-quoted as git quotes paths, and when it holds a
 * space; in every other field control characters, tab and newline
 * included, become '?'.
 * Returns -1 (error reported) on an unknown placeholder.
 */
int mbox_write_format_entry(struct strbuf *out, const char *fmt, const struct mail_entry *e, int color);
/* Checks fmt once, before any output; -1 (error reported) when invalid. */
int mbox_write_format_check(const char *fmt);
/* Does fmt use %p? */
int mbox_write_format_needs_paths(const char *fmt);
/* Does fmt use %G? or %GS (the entries' attestation)? */
int mbox_write_format_needs_attest(const char *fmt);

#define MBOX_WRITE_FORMAT_DEFAULT "%C(yellow)%i%Creset\t%m\t%an <%ae>\t%ad\t%s\t%p"

#endif
