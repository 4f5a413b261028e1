#ifndef JOURNAL_H
#define JOURNAL_H

/*
 * The notify journal: which notification went out for which commit, kept
 * as git notes under refs/notes/maint-notify, so it travels with the
 * repository (push or fetch the ref) and a rerun, here or on another
 * machine, sends only what is missing.
 *
 * A note is text, one "Key: value" line per field, in this order:
 *
 *	Status: sent | failed
 *	Kind: applied | revert <id of the reverted commit>
 *	Message-ID: <id@host>		(of our mail)
 *	Subject: <our subject>
 *	To: <address>			(repeated)
 *	Cc: <address>			(repeated)
 *	References: <id> <id>...	(the thread above our mail)
 *	Date: <our Date header>
 *	Server: smtp://host:port | /path/to/program
 *	Reply: <the server's last reply, e.g. "250 2.0.0 Ok">
 *
 * "failed" is a refusal that retrying will not change (a 5xx reply, a
 * value that could not be put in a mail); such a commit is not mailed
 * again unless its note is removed (`git notes --ref=maint-notify
 * remove <commit>`). A commit without a note was never mailed.
 *
 * Notes are written at git's fan-out paths ("ab/cdef..."; one level, or
 * the depth the tree already has), so a write costs the same for the
 * thousandth note as for the first.
 *
 * Each journal_write() is one notes commit and one update of the ref
 * (with an old-value check, so a writer that is not us is noticed),
 * made right after the server accepted the mail: a crash in between can
 * cost at most that one mail being sent again, with the same
 * Message-ID (see compose_message_id()).
 */

#include <git2.h>

#include "strbuf.h"
#include "strvec.h"

#define JOURNAL_REF "refs/notes/maint-notify"

enum journal_status {
	JOURNAL_NONE,		/* no note: never mailed */
	JOURNAL_SENT,
	JOURNAL_FAILED,
};

struct journal_entry {
	enum journal_status status;
	struct strbuf kind;		/* "applied", "revert <hex>" */
	struct strbuf message_id, subject, references, date, server, reply;
	struct strvec to, cc;
};

#define JOURNAL_ENTRY_INIT { JOURNAL_NONE, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
			     STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRVEC_INIT, STRVEC_INIT }

void journal_entry_release(struct journal_entry *e);

struct journal {
	git_repository *repo;
	git_signature *sig;	/* author and committer of the notes commits */
	git_commit *tip;	/* the notes commit at JOURNAL_REF, or NULL */
};

#define JOURNAL_INIT { NULL, NULL, NULL }

/* committer: "Name <email> <when> <tz>" (ident_committer()). -1 reported. */
int journal_open(struct journal *j, git_repository *repo, const char *committer);
void journal_release(struct journal *j);

/* Reads commit's note into e (released first). 0 found, 1 none, -1 reported. */
int journal_read(struct journal *j, const git_oid *commit, struct journal_entry *e);

/* Writes e as commit's note and moves JOURNAL_REF. -1 reported. */
int journal_write(struct journal *j, const git_oid *commit, const struct journal_entry *e);

#endif
