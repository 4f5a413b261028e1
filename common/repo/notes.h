/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NOTES_H
#define NOTES_H

/*
 * Records: which mail each queued commit came from, kept as git notes
 * under refs/notes/maint, so they travel with the repository (push or
 * fetch the ref) and notify/publish can reply in-thread later.
 *
 * A note is text, one "Key: value" line per field, values on one line
 * (line breaks in a value become spaces), in this order, each only when
 * known:
 *
 *	Message-ID: <id@host>
 *	From: Name <email>
 *	Date: <the mail's Date header>
 *	Subject: <the subject as sent, [PATCH ...] prefix kept>
 *	To: <one address per line, repeated>
 *	Cc: <one address per line, repeated>
 *	In-Reply-To: <id@host>
 *	List-Id: <the List-Id header>
 *	Series: v<version> <n>/<m>
 *
 * `git notes --ref=maint show <commit>` prints it. Notes are written in
 * batches: notes_batch_add() for each commit, notes_batch_commit() makes
 * one notes commit for all of them (git notes makes one per note); the
 * caller moves the ref in its guarded step (common/repo/refstep.h). Notes trees with git's
 * fan-out ("ab/cdef...") are extended at the fan-out they already use.
 */

#include <git2.h>

#include "objwrite.h"
#include "strbuf.h"
#include "strvec.h"

#define NOTES_REF "refs/notes/maint"

/* Appends "key: value\n" with line breaks in value turned into spaces; nothing for an empty value. */
void notes_add_field(struct strbuf *note, const char *key, const char *value, size_t len);

struct notes_batch {
	git_repository *repo;
	struct objwrite *ow;
	git_oid parent;		/* the notes commit now at NOTES_REF */
	int has_parent;
	git_tree *base;		/* its tree (or an empty tree) */
	int fanout;		/* levels of two-hex-digit directories in base */
	git_tree_update *updates;
	size_t nr, alloc;
	struct strvec paths;
};

#define NOTES_BATCH_INIT { NULL }

/* ow: the open object batch the notes' blobs and commit go to (may be NULL). */
int notes_batch_begin(struct notes_batch *nb, git_repository *repo, struct objwrite *ow);
/* Writes the note's blob and records it for commit. */
int notes_batch_add(struct notes_batch *nb, const git_oid *commit, const struct strbuf *note);
/*
 * Writes the notes tree and commit (committer "Name <email> when tz",
 * used as author too). *out is the new notes commit; *changed is 0 when
 * nothing was added (then *out is the parent, if any).
 */
int notes_batch_commit(struct notes_batch *nb, git_oid *out, int *changed, const char *committer);
void notes_batch_release(struct notes_batch *nb);

/* The note of commit, or 1 when there is none. */
int notes_read(struct strbuf *out, git_repository *repo, const git_oid *commit);

#endif
