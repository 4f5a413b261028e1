/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IN_PROGRESS_H
#define IN_PROGRESS_H

/*
 * What a stopped git-maint operation (a queue, a publish) left in the
 * repository, found without libgit2, so that every program can mention
 * it as it starts, as git status mentions an am in progress:
 *
 *	hint: a queue on 'work-next' is stopped at patch 2 of 5 (git maint-queue --status)
 *
 * An operation is stopped when its state directory $GIT_DIR/maint/<name>/
 * exists (common/repo/state.h). What the line says besides comes from the
 * "key value" lines of its state file, read as a hint and never trusted
 * further: queue's branch, next, last and stopped (common/engine/queue.h),
 * publish's public (common/engine/publish.h). A state that cannot be read
 * is named as damaged. Nothing here follows a symbolic link, as the
 * state's own reader does not.
 */

#include <stddef.h>

#include "strbuf.h"

struct stopped_op {
	const char *name;	/* "queue" or "publish" */
	char *branch;		/* queue: the branch it applies to; publish: the public branch; or NULL */
	size_t next, last;	/* queue: the patch it stopped at, and the last one; 0 when unknown */
	char *why;		/* queue: "patch", "check" or "build"; or NULL */
	char *dir;		/* the state directory */
	int damaged;		/* no state file could be read */
};

#define STOPPED_OPS_MAX 2

/*
 * Fills ops with the stopped operations of the repository the current
 * directory is in (git's discovery, gitdir.h); returns how many (0 when
 * none, or no repository).
 */
size_t in_progress_find(struct stopped_op ops[STOPPED_OPS_MAX]);
void in_progress_release(struct stopped_op *ops, size_t nr);

/* One line about op, without newline: "a queue on 'work-next' is stopped at patch 2 of 5". */
void in_progress_describe(struct strbuf *out, const struct stopped_op *op);

/*
 * git maint-queue --status: for each stopped operation, the line of
 * in_progress_describe() with why it stopped, the subject of the patch
 * a queue stopped at, and the commands that go on, as git status tells
 * an am in progress. Returns how many operations are stopped.
 */
size_t in_progress_status(struct strbuf *out);

/*
 * Every program but the parts of commands, as it starts: a hint line on
 * stderr for each stopped operation other than except (the command's
 * own, which says more itself; NULL for none) and other than the one
 * that runs this program (IN_PROGRESS_RUN_BY_ENV: publish running its
 * notify is not stopped), with the command to see or resume it. Nothing
 * when quiet.
 */
void in_progress_announce(const char *except, int quiet);

/*
 * Set by an operation in the environment of the git-maint programs it
 * runs, to its name ("publish"): its state is there because it runs.
 */
#define IN_PROGRESS_RUN_BY_ENV "GIT_MAINT_RUN_BY"

#endif
