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
