/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRAILERS_H
#define TRAILERS_H

/*
 * Review trailers ("Reviewed-by: Jane Doe <jane@example.com>") as they
 * arrive on a list, in replies to a patch or to a cover letter: found in
 * a reply the way b4 finds them, checked against the replier's address,
 * and added to a commit message the way `git interpret-trailers` adds
 * them. Pure: no I/O, no repository.
 *
 * What counts in a reply (trailers_from_reply()):
 *   - only its text: the first inline text/plain part (the body of a
 *     message that is not multipart, when it is text/plain or says
 *     nothing), decoded and converted to UTF-8 (trailers_reply_text());
 *     never an HTML part, an attachment or a forwarded message/rfc822;
 *   - only lines of the replier's own text: not quoted ("> ...", at any
 *     depth), and nothing from the first line that ends it: a signature
 *     separator ("-- ", or "--" as mailers that strip blanks leave it),
 *     a scissors line ("-- >8 --": what follows is a patch the reviewer
 *     proposes), an unquoted diff ("diff --git", "Index: ", or a
 *     "--- "/"+++ " pair: a patch pasted into the reply), or the start of
 *     a message copied in without quoting ("-----Original Message-----",
 *     "---------- Forwarded message", or a "From: " line followed by a
 *     "Sent:", "Date:", "To:" or "Subject:" line, as Outlook quotes);
 *   - only well-formed lines: "<Token>: <value>" at the start of the
 *     line, the token ASCII letters, digits and '-' (starting with a
 *     letter or digit, two characters at least), a blank after the colon,
 *     no control character (but tab) in the value: a lone CR or an escape
 *     sequence would be more than one line in a commit or on a terminal;
 *   - only trailers about a person, whose value is one address, read as
 *     b4 reads it (Python's email.utils.parseaddr()): "Name <a@b.c>",
 *     "\"Doe, Jane\" <a@b.c>", "<a@b.c>", a bare "a@b.c", or "a@b.c
 *     (Name)" with the name in parentheses; an address has a '@' and a
 *     dot after it. A comment after " #" ("Acked-by: Jane <j@x.org> #
 *     for the USB part") is kept in the value and ignored when reading
 *     it. b4's repairs are done too: of a name and its address split
 *     over two lines ("Signed-off-by: Jane Doe" then "<jane@example.com>"),
 *     and of an address a mailer wrote back from HTML
 *     ("Jane <jane@x.org<mailto:jane@x.org>>": the "<mailto:...>" go);
 *   - and "Fixes: <commit id of 8 to 40 hex digits> ..." lines, which
 *     name no person (b4 takes them too);
 *   - never From:, To:, Cc:, Bcc:, Reply-To:, Author:, Subject:, Date:,
 *     Sent:, Phone: or Email: lines (headers and signatures, not trailers).
 * A line that matches none of this is text, not a trailer (b4 takes any
 * "Word: ... a@b.c ..." line; we take fewer).
 *
 * Identity: a person's trailer is the replier's own when its address is
 * the replier's (compared as b4 compares them: case-blind, "+tag"
 * suffixes of the local part ignored, and a domain one level deeper or
 * shallower than the other, intel.com and linux.intel.com, being the
 * same), or when its name is the replier's name (case-blind). Anything
 * else is flagged: a "Reviewed-by: someone-else" sent from a third
 * address is not carried unless the caller asks for it.
 *
 * Adding to a commit message (trailers_add_to_message()) is `git
 * interpret-trailers --no-divider --if-exists addIfDifferent --where
 * end --trailer <line>...` (git commit --trailer's mode: a commit
 * message has no "---" divider): the message's trailer block is found
 * and rewritten as git rewrites it (common/mail/msg.h finds it), a line is
 * added at its end unless a trailer with the same token and value (both
 * case-blind) is already there; without a block, a blank line and a new
 * block are added. As in git, trailer.separators counts; unlike git,
 * trailer.<token>.key/.where/.ifexists/.command do not (we never run a
 * trailer command).
 */

#include <stddef.h>

#include "strbuf.h"

struct trailer_conf;

struct trailer {
	char *line;	/* "Reviewed-by: Jane Doe <jane@example.com>" as carried: token, ": ", value */
	char *token;	/* "Reviewed-by", as written */
	char *value;	/* as written, blanks trimmed (a "# comment" included) */
	char *name;	/* the person's name as parseaddr() reads it, "" when none */
	char *email;	/* the person's address, "" for a trailer about no person (Fixes:) */
};

struct trailer_list {
	struct trailer *v;
	size_t nr, alloc;
};

#define TRAILER_LIST_INIT { NULL, 0, 0 }

void trailer_list_release(struct trailer_list *tl);

/*
 * Appends a trailer made of token and value ("Reviewed-by", "Jane
 * <j@x.org>"): its person read from the value as above. Returns the new
 * entry.
 */
struct trailer *trailer_list_add(struct trailer_list *tl, const char *token, size_t token_len,
				 const char *value, size_t value_len);

/*
 * Reads a trailer value as one person (see above): 0 with the name and
 * address appended to name and email, or -1 when the value is not
 * exactly one address (with an optional " # comment").
 */
int trailer_parse_person(const char *value, size_t len, struct strbuf *name, struct strbuf *email);

/*
 * The text of a reply that may carry trailers (see above), from the
 * whole message mail[0..len) (headers and body): appended to out, in
 * UTF-8 (a part in a charset iconv does not know, or invalid in its
 * charset, gives nothing), CRs before newlines dropped, format=flowed
 * lines joined. Returns 0, or -1 when the message has no such part.
 */
int trailers_reply_text(struct strbuf *out, const char *mail, size_t len);

/* Appends to out the trailers of a reply's text (from trailers_reply_text()), in order. */
void trailers_from_reply(struct trailer_list *out, const char *text, size_t len);

/*
 * Appends to out the trailers of the reply mail[0..len): the two above,
 * without copying the text where it is the mail's bytes as they are
 * (plain UTF-8 or ASCII, not encoded, not flowed, no NUL or CR before
 * its diff), and then only up to its first "diff --git " line, where
 * trailers_from_reply() stops. Returns 0, or -1 when the message has no
 * text part.
 */
int trailers_of_reply(struct trailer_list *out, const char *mail, size_t len);

/* Does the message mail[0..len) carry a trailer in its reply text (as above)? 1 or 0. */
int trailers_in_reply(const char *mail, size_t len);

/*
 * Appends to out the trailers of a commit message's trailer block (as
 * git interpret-trailers finds it; tc may be NULL): every "Token: value"
 * line, continuation lines joined, whatever its value.
 */
void trailers_of_message(struct trailer_list *out, const char *msg, size_t len,
			 const struct trailer_conf *tc);

/*
 * Is t the replier's own (see Identity above)? A trailer about no
 * person always is. from_name may be "" (no name in the From header).
 */
int trailer_is_from(const struct trailer *t, const char *from_name, const char *from_email);

/*
 * Adds lines[0..nr) ("Token: value", one line each) to the commit
 * message msg as git interpret-trailers --no-divider --if-exists
 * addIfDifferent --where end does. Nothing changes when nr is 0.
 */
void trailers_add_to_message(struct strbuf *msg, const struct trailer_conf *tc,
			     const char *const *lines, size_t nr);

#endif
