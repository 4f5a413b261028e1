/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDENT_H
#define IDENT_H

/*
 * Identities and dates as git writes them into commits:
 * "Name <email> <seconds since the epoch> <+hhmm>".
 *
 * Authors come from a mail (git am: the mail's From and Date); the
 * committer comes from the environment and configuration in git's order:
 * GIT_COMMITTER_NAME, else committer.name, else user.name (the same for
 * the e-mail, then $EMAIL), and GIT_COMMITTER_DATE or the current time.
 * Names and e-mails are cleaned as git's fmt_ident() does: leading and
 * trailing "crud" (control characters, blanks, ,:;<>"\') removed, and
 * '<', '>' and newlines dropped inside.
 */

#include "config.h"
#include "date.h"
#include "strbuf.h"

/* Appends "<when> <+hhmm>". */
void ident_add_date(struct strbuf *out, long long when, int tz_minutes);

/*
 * Appends "Name <email>" cleaned as git does. -1 (reported) when the
 * name or e-mail is empty after cleaning.
 */
int ident_add_name_email(struct strbuf *out, const char *name, const char *email,
			 const char *whose);

/*
 * The author line of a commit made from a mail: "Name <email> when tz".
 * date NULL or empty: the current time (as git am does). -1 (reported)
 * for an empty name or e-mail or an unreadable date.
 */
int ident_author_from_mail(struct strbuf *out, const char *name, const char *email,
			   const char *date);

/*
 * The committer "Name <email>" (without date), from the environment and
 * cfg's git config. -1 (reported) when there is none.
 */
int ident_committer_name_email(struct strbuf *out, const struct maint_config *cfg);

/* The committer line "Name <email> when tz". */
int ident_committer(struct strbuf *out, const struct maint_config *cfg);

#endif
