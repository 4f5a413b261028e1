/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MSG_H
#define MSG_H

/*
 * Commit messages as `git am` makes them, and their trailer blocks as
 * `git interpret-trailers` finds them: pure text functions (no
 * repository), shared by the mail core (common/mail/trailers.h reads and
 * adds review trailers) and the commits queue writes (common/repo/commit.h).
 *
 * git am builds a message from what git mailinfo extracted: the subject,
 * a blank line, the body, cleaned like `git stripspace` (trailing blanks
 * of each line removed, runs of blank lines squeezed to one, blank lines
 * at the start and end removed, a final newline). With -s it appends
 * "Signed-off-by: <committer>" using the trailer rules of `git
 * interpret-trailers`: when the message already ends in a trailer block
 * the line joins it, otherwise a blank line separates it; when the
 * block's last trailer is already that sign-off nothing is added (an
 * identical sign-off earlier in the block does not stop a new one, as in
 * git am).
 *
 * The trailer block is found as git does: the last paragraph after the
 * title, all of whose lines are "Token: value" (or continuation lines
 * starting with blanks), or which holds a git-generated line
 * ("Signed-off-by: ", "(cherry picked from commit ") and is at least 25%
 * trailers. Lines starting with '#' and a "# --- >8 ---" cut line are
 * ignored at the end, as git's default comment character. As in git,
 * the trailer configuration counts (struct trailer_conf): the separators
 * (trailer.separators, default ":") and the configured tokens
 * (trailer.<token>.*, and trailer.<token>.key), which, like the
 * git-generated lines, make a paragraph that is 25% trailers a trailer
 * block. trailer_conf_load() takes it from the git configuration
 * config_load() (config-git.h) read.
 */

#include <stddef.h>

#include "config.h"
#include "strbuf.h"
#include "strvec.h"

/* git's trailer configuration, as far as it decides what a trailer block is. */
struct trailer_conf {
	char *separators;	/* trailer.separators; NULL: ":" */
	struct strvec tokens;	/* each trailer.<token>.* token, and each trailer.<token>.key */
};

#define TRAILER_CONF_INIT { NULL, STRVEC_INIT }

/* trailer.* of cfg's git configuration into tc (TRAILER_CONF_INIT or released). */
void trailer_conf_load(struct trailer_conf *tc, const struct maint_config *cfg);
void trailer_conf_release(struct trailer_conf *tc);

/* git stripspace without comment stripping, in place. */
void msg_stripspace(struct strbuf *sb);

/*
 * git stripspace --strip-comments, in place: lines starting with the
 * comment character (msg_comment_char()) dropped, then msg_stripspace().
 * How git commit and git tag clean a message by default.
 */
void msg_stripspace_comments(struct strbuf *sb, char comment);

/* How a message is cleaned: git tag's and git commit's --cleanup modes. */
enum msg_cleanup {
	MSG_CLEANUP_STRIP,		/* "strip" (the default): comments, then whitespace */
	MSG_CLEANUP_WHITESPACE,		/* "whitespace": msg_stripspace(), comments kept */
	MSG_CLEANUP_VERBATIM,		/* "verbatim": nothing changed */
};

/* "strip", "whitespace", "verbatim" into *out: 0, or -1 (not reported) for another name. */
int msg_cleanup_parse(const char *name, enum msg_cleanup *out);

/* sb cleaned in place as mode says, comment lines starting with comment. */
void msg_cleanup(struct strbuf *sb, enum msg_cleanup mode, char comment);

/*
 * git's comment character from core.commentChar, as git 2.39 reads it:
 * one byte; "auto" is '#' (only git commit picks another); unset '#'.
 * 0, or -1 reported (a bare key, or more than one character).
 */
int msg_comment_char(char *out, const struct maint_config *cfg);

/* The message git am makes: subject, blank line, body, stripspace()d. */
void msg_from_mail(struct strbuf *out, const char *subject, size_t subject_len,
		   const char *body, size_t body_len);

/*
 * Where the trailer block of msg[0..len) starts and ends (byte offsets),
 * as `git interpret-trailers` finds it; start == end when there is none.
 * tc may be NULL (git's defaults).
 */
void msg_trailer_block(const char *msg, size_t len, const struct trailer_conf *tc, size_t *start,
		       size_t *end);

/*
 * Appends the trailer line ("Signed-off-by: A U Thor <a@example.com>",
 * without newline) as git's append_signoff() does: no-op when it is
 * already the last trailer. tc may be NULL.
 */
void msg_append_trailer(struct strbuf *msg, const struct trailer_conf *tc, const char *line);

/*
 * Where the separator of the trailer line line[0..end) is (git's
 * find_separator(): "Token: value", "Bug #42" with '#' configured), as
 * an offset; -1 when the line is no "Token<sep>" line. tc may be NULL.
 */
long msg_trailer_separator(const char *line, const char *end, const struct trailer_conf *tc);

/* The first line of msg (for reflog messages): length up to the first newline. */
size_t msg_first_line_len(const char *msg, size_t len);

#endif
