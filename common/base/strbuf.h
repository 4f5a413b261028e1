/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STRBUF_H
#define STRBUF_H

/*
 * The one growable byte buffer of git-maint.
 *
 * Invariants: buf is never NULL (an empty strbuf points at a shared
 * static ""), buf[len] == '\0' always, and len is the truth: the
 * contents may hold NUL bytes (mail and binary patches do), so never
 * use strlen(sb.buf) to learn the length.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "usage.h"

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Hands the buffer to the caller (who free()s it) and reinitialises sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
/* s with ASCII upper case folded to lower (a key compared ignoring case). */
void strbuf_addstr_lower(struct strbuf *sb, const char *s);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
/* Inline: the byte-at-a-time appender of every parser. */
static inline void strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->len + 2 > sb->alloc)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
PRINTF(2, 3) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Replaces len bytes at pos with data (dlen bytes). */
void strbuf_splice(struct strbuf *sb, size_t pos, size_t len, const void *data, size_t dlen);
void strbuf_remove(struct strbuf *sb, size_t pos, size_t len);

void strbuf_rtrim(struct strbuf *sb);
void strbuf_ltrim(struct strbuf *sb);
void strbuf_trim(struct strbuf *sb);

int strbuf_cmp(const struct strbuf *a, const struct strbuf *b);

/*
 * A size in git's units, as git's strbuf_humanise_bytes() writes it:
 * "1.81 MiB", "500.00 KiB", "3.00 GiB", "812 bytes" ("1 byte"); binary
 * prefixes, two decimals, rounded as git rounds. The rate ("500.00
 * KiB/s", "812 bytes/s") as git's strbuf_humanise_rate().
 */
void strbuf_humanise_bytes(struct strbuf *sb, uint64_t bytes);
void strbuf_humanise_rate(struct strbuf *sb, uint64_t bytes_per_second);

/* Appends everything readable from fd; returns bytes read or -1 (errno set). */
ssize_t strbuf_read_fd(struct strbuf *sb, int fd, size_t hint);
/* Appends the whole file at path; returns bytes read or -1 (errno set). */
ssize_t strbuf_read_file(struct strbuf *sb, const char *path, size_t hint);
/*
 * Replaces sb with the next line of fp without its line end ("\n" or
 * "\r\n"), as git's strbuf_getline(); a last line without one is a
 * line too. Returns 0, or EOF at end of file with nothing read.
 */
int strbuf_getline(struct strbuf *sb, FILE *fp);

/* If str starts with prefix, sets *out past it and returns 1. */
int skip_prefix(const char *str, const char *prefix, const char **out);
int starts_with(const char *str, const char *prefix);
int ends_with(const char *str, const char *suffix);
/*
 * Compares strings with runs of digits compared as numbers ("v2.9" <
 * "v2.10", "9.msg" < "10.msg"; leading zeros ignored): -1, 0 or 1.
 * Orders release tags and Maildir file names.
 */
int natural_cmp(const char *a, const char *b);
/* The value of hex digit c (either case), or -1. */
int hex_digit(int c);
/*
 * The 2 * len lower-case hex digits of raw[0..len) and a NUL into out
 * (2 * len + 1 bytes; a SHA-1's 40 digits need 41): out.
 */
char *hex_encode(char *out, const void *raw, size_t len);
/* Case-insensitive skip_prefix for ASCII (mail header names). */
int skip_iprefix(const char *str, const char *prefix, const char **out);

#endif
