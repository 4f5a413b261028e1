/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MAIL_H
#define MAIL_H

/*
 * Mail parsing pieces: header blocks and unfolding, RFC 2047 encoded
 * words (decoding and encoding), addresses, Message-IDs, MIME
 * parameters, quoted-printable and base64, charset conversion (iconv).
 *
 * All functions are pure (no I/O), take (pointer, length) input that
 * may hold NUL bytes and never read past it, append to a strbuf, and
 * run in time and memory linear in their input (no recursion on input
 * structure: a megabyte of nested comments is fine).
 */

#include <stddef.h>

#include "strbuf.h"
#include "strvec.h"

/* ---- header block ---- */

struct mail_header {
	const char *name;	/* points into the message */
	size_t name_len;
	const char *value;	/* raw, still folded, after "name:" and leading blanks, without the final newline */
	size_t value_len;
};

/*
 * The length of the header block of buf[0..len): up to and including the
 * blank line that ends it (or len if there is none). A line that is not
 * a header (no colon after a run of printable non-space characters) also
 * ends the block, and is not part of it (git mailinfo's rule).
 */
size_t mail_header_len(const char *buf, size_t len);

/*
 * Iterates the headers of buf[0..len) (a header block, e.g. the first
 * mail_header_len() bytes): *pos starts at 0; returns 1 and fills h, or 0
 * at the end of the block. mbox "From " lines are skipped.
 */
int mail_header_next(const char *buf, size_t len, size_t *pos, struct mail_header *h);

/*
 * Finds the first header called name (case-insensitive) in the header
 * block buf[0..len); returns 1 and appends its unfolded value to out, or
 * returns 0.
 */
int mail_header_get(const char *buf, size_t len, const char *name, struct strbuf *out);

/*
 * Appends value[0..len) to out with folding removed: each line break
 * followed by blanks is dropped (RFC 5322 unfolding), CRs before it too;
 * trailing whitespace is trimmed.
 */
void mail_unfold(struct strbuf *out, const char *value, size_t len);

/*
 * The first line of buf[0..len) that starts with prefix[0..n) (n >= 2),
 * a line being what follows a '\n' inside buf (buf[0] does not start
 * one); returns its first byte, or NULL. memmem() for "\n<prefix>",
 * faster: on x86-64 with AVX2, 32 bytes at a time are tested for the
 * newline and the prefix's first byte together, so a diff's "diff --git"
 * and "@@" lines are found at a few bytes per cycle.
 */
const char *mail_find_line(const char *buf, size_t len, const char *prefix, size_t n);

/* mail_find_line(), buf[0] starting a line too (buf is a body, or a line's start). */
const char *mail_first_line(const char *buf, size_t len, const char *prefix, size_t n);

/* ---- RFC 2047 ---- */

/*
 * Appends in[0..len) to out with RFC 2047 encoded words (B and Q, any
 * charset iconv knows) decoded to UTF-8, the way git mailinfo decodes
 * headers: blanks between an encoded word and the next one are dropped,
 * other text is copied unchanged.
 *
 * Returns 0, or -1 when a word is malformed ("=?" without a complete
 * word, an unknown encoding, an unknown charset or bytes invalid in it):
 * then, as git does, the whole value is appended undecoded and *problem
 * (when not NULL) names the problem. Never reports by itself. As an
 * extension, a charset with an RFC 2231 language ("utf-8*en") is
 * accepted where git would fail.
 */
int mail_rfc2047_decode(struct strbuf *out, const char *in, size_t len, const char **problem);

/*
 * Appends UTF-8 text s[0..len) to out as one header value: unchanged if
 * it is printable ASCII, else as =?UTF-8?q?...?= words of at most 75
 * characters (separated by "\n ", folding), safe in a phrase (names in
 * From/To) when phrase is set.
 */
void mail_rfc2047_encode(struct strbuf *out, const char *s, size_t len, int phrase);
/*
 * The same, for a value that starts at column col of its header line
 * ("Subject: " is 9): the first line, too, stays within 75 characters;
 * when col leaves no room for a word, the value starts on a folded line.
 * MAIL_ENCODE_ALWAYS encodes printable ASCII too (a word too long for
 * any header line can only be split as encoded words).
 */
#define MAIL_ENCODE_PHRASE 1u
#define MAIL_ENCODE_ALWAYS 2u
void mail_rfc2047_encode_at(struct strbuf *out, const char *s, size_t len, unsigned flags, size_t col);

/* Is charset a spelling of UTF-8 ("utf-8", "UTF8")? */
int mail_charset_is_utf8(const char *charset);

/*
 * Appends in[0..len) converted from charset to UTF-8 (git mailinfo's
 * convert_to_utf8): copied as is when charset is NULL, empty or UTF-8;
 * "latin-1" is understood. Returns -1 (nothing appended) when iconv
 * does not know charset or the input is invalid in it.
 */
int mail_to_utf8(struct strbuf *out, const char *in, size_t len, const char *charset);

/*
 * The lenient decoders git mailinfo uses, one line at a time; they never
 * fail. mail_decode_q: "=XX" gives the byte, "=" at the end of the input
 * or before '\n' ends the decoding (soft line break), any other '=' is
 * kept; with rfc2047, '_' is a space. mail_decode_b: bytes outside the
 * base64 alphabet (padding included) are skipped.
 */
void mail_decode_q(struct strbuf *out, const char *in, size_t len, int rfc2047);
void mail_decode_b(struct strbuf *out, const char *in, size_t len);

/* ---- addresses and Message-IDs ---- */

struct mail_address {
	struct strbuf name;	/* decoded display name, unquoted, comments as git mailinfo keeps them */
	struct strbuf email;	/* addr-spec, without <> */
};
#define MAIL_ADDRESS_INIT { STRBUF_INIT, STRBUF_INIT }
void mail_address_release(struct mail_address *a);

/*
 * Parses an address list (To, Cc) in in[0..len) (unfolded, RFC 2047
 * not yet decoded) into out as "Name <a@b>" or "a@b" strings. Group
 * syntax ("undisclosed:;") gives the members. Iterative: nesting of
 * comments and quotes costs no stack. Returns the number added.
 */
size_t mail_parse_address_list(struct strvec *out, const char *in, size_t len);

/*
 * Parses one address (the first of a list) into a. Returns 0, or -1 when
 * there is no address at all.
 */
int mail_parse_address(struct mail_address *a, const char *in, size_t len);

/*
 * Appends to out every <message-id> of in[0..len) (Message-ID,
 * In-Reply-To, References: the raw value, unfolded; RFC 2047 allows no
 * encoded word in an id), without the <>. A value with no <...> at all
 * gives its first word. What holds a blank, a control character or a
 * '<' is not an id and is left out: every id added is one word that
 * stays on one line wherever it is written. Returns the number added.
 */
size_t mail_parse_msgids(struct strvec *out, const char *in, size_t len);

/*
 * mail_parse_msgids() for References, bounded: of more than
 * MAIL_REFERENCES_MAX ids, the first (the thread's root) and the last
 * MAIL_REFERENCES_MAX - 1 (the nearest ancestors, the parent last) are
 * added, as mailers trim what they send (RFC 5322 3.6.4 leaves that to
 * them). Threading needs no more, and the memory of a parsed message
 * stays a small multiple of the message (git-maint(7) LIMITS), not 1 KiB
 * or so an id. Returns the number added.
 */
#define MAIL_REFERENCES_MAX 100
size_t mail_parse_references(struct strvec *out, const char *in, size_t len);

/* ---- MIME ---- */

/*
 * Finds parameter param (case-insensitive) of a structured header value
 * such as Content-Type ("text/plain; charset=\"utf-8\""); appends its
 * value, unquoted, to out and returns 1, or returns 0.
 */
int mail_header_param(const char *value, size_t len, const char *param, struct strbuf *out);

/*
 * Decoders. They append to out and return 0, or -1 on malformed input
 * (*problem names it: "invalid base64", "invalid quoted-printable");
 * what could be decoded is still appended.
 *
 * base64: whitespace and CRs anywhere are ignored; '=' padding ends the
 *         data; any other byte outside the alphabet is an error.
 * quoted-printable: "=XX" (either case) gives the byte, "=" at the end of
 *         a line is a soft break, "=" followed by anything else is kept
 *         as it is (as git does) and reported.
 */
int mail_decode_base64(struct strbuf *out, const char *in, size_t len, const char **problem);
int mail_decode_qp(struct strbuf *out, const char *in, size_t len, const char **problem);

/*
 * Converts in[0..len) from charset from to charset to with iconv and
 * appends it to out. Charset names are matched as iconv matches them
 * (case-insensitive). Returns 0, or -1 (nothing appended) when the
 * charset is unknown or the input is invalid in it.
 */
int mail_convert(struct strbuf *out, const char *in, size_t len, const char *from, const char *to);

#endif
