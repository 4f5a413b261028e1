/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PROGRESS_H
#define PROGRESS_H

/*
 * The one progress meter: "Title: 45% (90/200)" or "Title: 90" on
 * stderr, redrawn at most every 100 ms, and only when stderr is a
 * terminal (so pipes and tests see nothing). A NULL progress is valid
 * everywhere and does nothing, so callers need no "if (quiet)".
 */

#include <stdint.h>

struct progress;

/* total 0 means unknown. Returns NULL when stderr is not a terminal or quiet. */
struct progress *progress_start(const char *title, uint64_t total, int quiet);
void progress_update(struct progress *p, uint64_t done);
/* Prints the final line ("Title: 100% (200/200), done.") and frees. */
void progress_stop(struct progress **p);
/* Ends the line without "done" (a transfer that failed) and frees. */
void progress_abandon(struct progress **p);

#endif
