/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PROGRESS_H
#define PROGRESS_H

/*
 * The one progress meter, in git's format (progress.c), on stderr,
 * redrawn at most every 100 ms, and only when stderr is a terminal (so
 * pipes and tests see nothing). A NULL progress is valid everywhere and
 * does nothing, so callers need no "if (quiet)".
 *
 * Of things counted (messages, objects):
 *
 *	Fetching messages:  45% (90/200)
 *	Fetching messages: 90			(total unknown)
 *
 * Of bytes, the amounts in git's units (strbuf_humanise_bytes()) and the
 * rate over the last few seconds (strbuf_humanise_rate()), once there is
 * one:
 *
 *	Fetching thread:  34% (1.81 MiB/5.24 MiB) | 500.00 KiB/s
 *	Fetching thread: 1.81 MiB | 500.00 KiB/s	(total unknown)
 *
 * The last line ends with ", done." (progress_stop()), or just ends
 * (progress_abandon()).
 */

#include <stdint.h>

#include "strbuf.h"

struct progress;

/* Things counted; total 0 means unknown. NULL when stderr is not a terminal or quiet. */
struct progress *progress_start(const char *title, uint64_t total, int quiet);
/* Bytes, shown in git's units with the rate. */
struct progress *progress_start_bytes(const char *title, uint64_t total, int quiet);
void progress_update(struct progress *p, uint64_t done);
/* Prints the final line ("Title: 100% (200/200), done.") and frees. */
void progress_stop(struct progress **p);
/* Ends the line without "done" (a transfer that failed) and frees. */
void progress_abandon(struct progress **p);

/*
 * The text of one line, without the title (" 34% (1.81 MiB/5.24 MiB) |
 * 500.00 KiB/s"): done of total (0: unknown), of bytes or things, with
 * the rate in bytes per second when rate is not UINT64_MAX. What the
 * meter draws; for the tests.
 */
void progress_format(struct strbuf *out, uint64_t done, uint64_t total, int bytes, uint64_t rate);

#endif
