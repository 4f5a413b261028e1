/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REFSTEP_H
#define REFSTEP_H

/*
 * The guarded repository step: the one way git-maint moves refs
 * (Documentation/technical/data-flow.txt, "Repository changes"). Every
 * ref git-maint writes is written here, under the repository lock (or
 * the notify lock, for notify's journal): the branches, notes refs,
 * the notify journal and the remote-tracking refs a push moves
 * (push_track(), push.h) by a step (refstep_run()), and ORIG_HEAD,
 * which only records a fact and guards nothing, by refstep_record()
 * (below). A step moves one or more refs, each from the value it is
 * expected to hold to a new one, in this order:
 *
 *   1. the repository lock is held (common/repo/state.h; a BUG() otherwise)
 *   2. the objects the refs will point at are written, by the caller's
 *      write_objects() when it has one         crash point <name>-objects-written
 *   3. every ref is checked at its expected value, so a ref another
 *      writer moved is named before anything is written
 *   4. the caller's resumable state is written, naming the step, by
 *      save_state(REFSTEP_STARTED, "<name>-state-write"): the label is
 *      for state_write(), which hits it between the temporary file and
 *      the rename                              crash point <name>-state-write
 *                                              crash point <name>-before-ref
 *   5. each ref moved with git_reference_create_matching(): the move
 *      happens only if the ref still holds the expected value (so a lost
 *      race fails cleanly, never overwrites), with the move's reflog line
 *                                              crash point <name>-after-ref
 *      (after the first ref, the one the step is about; others follow)
 *   6. the caller's after_move() (queue: the work tree and index)
 *   7. save_state(REFSTEP_DONE, NULL)
 *
 * With point_suffix (":3"), every crash point is also hit with the
 * suffix appended ("queue-before-ref:3"), for steps that repeat.
 *
 * A process killed anywhere in it leaves each ref at its old or its new
 * value and a state naming both, from which refstep_finish() completes
 * the step: refs still at the old value are moved (after checking the
 * new value's object is there), refs at the new value are left, and a
 * ref anywhere else was moved by someone else: an error naming it, or,
 * for a move flagged REFSTEP_MAY_MOVE (queue's notes ref), a warning
 * saying where the step's value is kept.
 *
 * The step never forces: no move rewinds or replaces a ref it did not
 * find at the expected value. A ref that must not exist yet (has_old 0)
 * is created only if it still does not; a ref removed (remove 1) is
 * removed only if it still holds the expected value.
 */

#include <git2.h>

#include "state.h"

enum refstep_phase {
	REFSTEP_STARTED,	/* the refs are about to move */
	REFSTEP_DONE,		/* every ref holds its new value */
};

/* Finishing: a ref found neither at old nor at new is warned about, not an error. */
#define REFSTEP_MAY_MOVE 1u

struct refstep_move {
	const char *ref;	/* full name: "refs/heads/usb-next" */
	git_oid old;		/* the value it must hold; unused when !has_old */
	int has_old;		/* 0: the ref must not exist */
	git_oid new;		/* unused when remove */
	int remove;		/* 1: the ref is removed (has_old must be 1) */
	const char *reflog;	/* "maint-publish: fast-forward to work-next" */
	unsigned flags;
};

struct refstep {
	git_repository *repo;
	const struct state_lock *lock;	/* must be held */
	const char *name;		/* "publish": crash points <name>-*, messages */
	const char *point_suffix;	/* NULL, or appended to a second hit of each crash point */
	const struct refstep_move *moves;
	size_t nr;
	/* Each optional; each returns 0 or -1 (reported). */
	int (*write_objects)(void *data);
	int (*save_state)(void *data, enum refstep_phase phase, const char *crash_label);
	int (*after_move)(void *data);
	void *data;
};

/*
 * Runs the step (1-7 above). 0 when every ref holds its new value; -1
 * (reported) otherwise. A failure before 4 changed nothing; after it,
 * refstep_finish() completes the step.
 */
int refstep_run(const struct refstep *step);

/*
 * Completes a step that was interrupted (or checks one that was not):
 * 5-7 for the refs still at their old value. 0 when every ref holds its
 * new value (or, REFSTEP_MAY_MOVE, was moved by someone else: warned);
 * -1 (reported: "'<ref>' moved since ...") otherwise.
 */
int refstep_finish(const struct refstep *step);

/*
 * The value of ref: 0 with *exists 1 and *oid set, or *exists 0 when
 * there is no such ref; -1 (reported) when it cannot be read.
 */
int refstep_read(git_repository *repo, const char *ref, git_oid *oid, int *exists);

/*
 * Sets ORIG_HEAD, a ref that records a fact rather than holding work
 * (where a branch was before queue moved it, as git am leaves it). It
 * is set whatever it held, as git sets it: nothing is lost by
 * overwriting it, nothing is resumed from it, so there is no expected
 * value, no state and no crash point. The lock must be held (a BUG()
 * otherwise); any other ref is a BUG(). -1 (reported) on failure.
 */
int refstep_record(git_repository *repo, const struct state_lock *lock, const char *ref,
		   const git_oid *oid, const char *reflog);

#endif
