/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef QUOTE_H
#define QUOTE_H

/*
 * How text from mail, patches and refs is written where people and
 * scripts read it (listings, reports, running lines). Two rules, both
 * built on control_char_len() (usage.h), so that one record stays one
 * line and nothing reaches a terminal as a control sequence:
 *
 *   - a path is C-quoted as git quotes paths (quote_c_style(), with
 *     core.quotePath false): written as it is, unless it holds a control
 *     character, '"', '\\', or bytes that are not UTF-8; then in double
 *     quotes, with \a \b \t \n \v \f \r \" \\ and \ooo (octal) for every
 *     other control byte, C1 character (U+0080..U+009F, both bytes) and
 *     byte outside valid UTF-8. git's unquote_c_style() reads it back;
 *     readable UTF-8 names stay readable.
 *   - any other text (a subject, a name, a Message-ID, a ref name) has
 *     every control character, tab and newline included, replaced by
 *     '?' (neutralise_field()).
 */

#include <stddef.h>

#include "strbuf.h"

/* quote_path() flags */
#define QUOTE_SPACE 1	/* quote a path holding a space too: for space-separated lists */
#define QUOTE_ASCII 2	/* every byte past ASCII in octal, as git's default core.quotePath true */

/* Appends path[0..len) to out as the rule above says. */
void quote_path(struct strbuf *out, const char *path, size_t len, unsigned flags);

/* Appends s[0..len) to out with its control characters replaced by '?'. */
void quote_field(struct strbuf *out, const char *s, size_t len);

/*
 * Appends url to out as it may be shown: a URL with a scheme
 * ("https://user:password@host/...") loses its user-info, as git's
 * messages show it (transport_anonymize_url()), so that a password
 * written in a remote's or an archive's URL is never printed; control
 * characters become '?'. Anything else (a path, ssh's host:path) is
 * kept as it is, controls aside. Returns what it appended (out->buf
 * from where it started), for a message's argument.
 */
const char *quote_url(struct strbuf *out, const char *url);

/* url_unquote() flags */
#define URL_NO_CONTROLS 1	/* refuse a decoded control character (CR, LF ... DEL), not only NUL */

/*
 * Appends the percent-decoded s[0..len) (a URL's path part) to out; -1
 * on a bad escape or a decoded NUL (or control character, with
 * URL_NO_CONTROLS): what it names would not be what the URL says.
 */
int url_unquote(struct strbuf *out, const char *s, size_t len, unsigned flags);

#endif
