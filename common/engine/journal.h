/* SPDX-License-Identifier: GPL-2.0-only */
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
 *	Status: sent | partial | failed
 *	Kind: applied | revert <id of the reverted commit>
 *	Message-ID: <id@host>		(of our mail)
 *	Subject: <our subject>
 *	To: <address>			(repeated)
 *	Cc: <address>			(repeated)
 *	References: <id> <id>...	(the thread above our mail)
 *	Date: <our Date header>
 *	Server: smtp://host:port | /path/to/program
 *	Reply: <the server's last reply, e.g. "250 2.0.0 Ok">
 *	Pending: <e-mail>		(repeated; "partial" only)
 *	Refused: <e-mail> <the server's reply to its RCPT>	(repeated)
 *
 * "failed" is a refusal that retrying will not change (a 5xx reply, a
 * value that could not be put in a mail); such a commit is not mailed
 * again unless asked to (notify --retry-refused, once the cause is
 * fixed): then its new record replaces the note, the notes' history
 * keeping the old one. A commit without a note was never mailed.
 *
 * Recipients (reliability case 52). "sent" means the mail went to the
 * To and to every Cc but the "Refused" ones, which the server refused
 * (or deferred, and the mail was not held back for them): they never
 * get it from us. "partial" is a mail on its way in several
 * transactions (a server that takes n recipients at a time, 452): it
 * went to all but the "Pending" ones, written after each transaction,
 * before the next one goes; a rerun sends it to the "Pending" ones only,
 * so a crash between two transactions sends it to no one twice. A
 * partial mail counts as mailed (its To has it).
 *
 * Notes are written at git's fan-out paths ("ab/cdef..."; one level, or
 * the depth the tree already has), so a write costs the same for the
 * thousandth note as for the first.
 *
 * Writing. A notes commit per mail would cost more than the mail itself
 * (four objects and a ref update each). So journal_write() appends the
 * note to a log, $GIT_COMMON_DIR/maint/notify-journal, with one write()
 * and an fdatasync() before it returns: made right after the server
 * accepted the mail, it makes that mail's record last through a crash of
 * the process or of the machine. A crash in between can cost at most that
 * one mail being sent again, with the same Message-ID (see
 * compose_message_id()). Every JOURNAL_FOLD_EVERY records, at
 * journal_flush() and when a writer opens the journal, the log is folded
 * into the notes: one pack (objwrite.h: fsync'ed), one notes commit and
 * one update of the ref, a guarded step (common/repo/refstep.h, under the
 * notify lock) from the value read to the new one, so a writer that is
 * not us is noticed; only then is the log emptied. A crash during a fold
 * leaves the log whole; folding it again is harmless (the same notes). So
 * the log never holds more than JOURNAL_FOLD_EVERY records and memory
 * does not grow with the number of mails; refs/notes/maint-notify (which
 * travels; the log does not) lacks nothing after a run that ended, and
 * after a crash only what the log holds until the next writer starts.
 *
 * Each record in the log is "<commit id> <blob id of the note> <length>\n"
 * and the note. A record cut short (a crash while it was written: its mail
 * was not recorded) or that does not match its blob id ends what is read,
 * with a warning, and goes at the next fold.
 *
 * Crash points (GIT_MAINT_TEST_CRASH_AT, usage.h): "notify-journal-
 * appended-<n>" once this process's n-th record is on the disk,
 * "notify-journal-packed" once a fold's objects are and the ref has not
 * moved, "notify-journal-folded" once the ref moved and the log is not
 * emptied yet; and the ref step's own, "notify-journal-objects-written",
 * "-before-ref" and "-after-ref" (refstep.h; the step keeps no state, so
 * it has no "-state-write").
 *
 * Readers that do not write (a dry run) see the notes and the log, and
 * change neither. Writers hold maint-notify.lock (see notify.c), in the
 * common directory, as the log is: every worktree shares one journal.
 */

#include <git2.h>

#include "state.h"
#include "strbuf.h"
#include "strvec.h"

#define JOURNAL_REF "refs/notes/maint-notify"

enum journal_status {
	JOURNAL_NONE,		/* no note: never mailed */
	JOURNAL_SENT,
	JOURNAL_PARTIAL,	/* went to some; "Pending" still to go */
	JOURNAL_FAILED,
};

struct journal_entry {
	enum journal_status status;
	struct strbuf kind;		/* "applied", "revert <hex>" */
	struct strbuf message_id, subject, references, date, server, reply;
	struct strvec to, cc;
	struct strvec pending;		/* e-mails still to get it (partial) */
	struct strvec refused;		/* "<e-mail> <reply>": the mail went without them */
};

#define JOURNAL_ENTRY_INIT { JOURNAL_NONE, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
			     STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRVEC_INIT, STRVEC_INIT, \
			     STRVEC_INIT, STRVEC_INIT }

void journal_entry_release(struct journal_entry *e);

struct journal_pending;

struct journal {
	git_repository *repo;
	const struct state_lock *lock;	/* the notify lock, held; NULL when read-only */
	char *committer;	/* of the notes commits */
	git_commit *tip;	/* the notes commit at JOURNAL_REF, or NULL */
	int fd;			/* the log, open for appending; -1 when read-only */
	char *log;		/* its path, for messages */
	struct journal_pending *pending;	/* in the log, not yet in the notes */
	size_t nr, alloc;
	struct objwrite *ow;	/* the pack of the next fold, once opened */
	size_t fold_every;	/* JOURNAL_FOLD_EVERY (tests: GIT_MAINT_TEST_JOURNAL_FOLD_EVERY) */
	size_t appended;	/* records written by this process, for the crash points */
};

#define JOURNAL_INIT { NULL, NULL, NULL, NULL, -1, NULL, NULL, 0, 0, NULL, 0, 0 }

/* Records in the log before a fold into the notes. */
#define JOURNAL_FOLD_EVERY 256

/*
 * committer: "Name <email> <when> <tz>" (ident_committer()). lock: the
 * notify lock, held by the caller, who will journal_write(); a log left
 * by an earlier run is folded now. NULL: the log is only read. -1
 * reported.
 */
int journal_open(struct journal *j, git_repository *repo, const char *committer,
		 const struct state_lock *lock);
/* Frees everything; what is in the log and not folded stays there for the next writer. */
void journal_release(struct journal *j);

/* Reads commit's note into e (released first). 0 found, 1 none, -1 reported. */
int journal_read(struct journal *j, const git_oid *commit, struct journal_entry *e);

/*
 * The commits whose newest record says "failed", in no particular order,
 * appended to *v (ALLOC_GROW: *nr, *alloc). -1 reported.
 */
int journal_refused(struct journal *j, git_oid **v, size_t *nr, size_t *alloc);

/* Records e as commit's note: in the log, synced (see above). -1 reported. */
int journal_write(struct journal *j, const git_oid *commit, const struct journal_entry *e);

/* Folds the log into the notes and empties it. -1 reported (the log is kept). */
int journal_flush(struct journal *j);

#endif
