/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RENAMES_H
#define RENAMES_H

/*
 * Which deleted file became which added file, decided as git 2.39's
 * `git diff -M` decides it (diffcore-rename), so a diffstat made here
 * pairs the same files with the same scores as the reader's git.
 * Pure: the caller names the files and hands out their sizes and
 * contents on request (a repository behind it, or none in the tests).
 *
 * The steps, each taking only files no earlier step paired:
 *
 *   1. Same content (the same blob id): 100%. Destinations are taken in
 *      the order given; each takes the first free source with its
 *      content and its file name (the part after the last '/'), else
 *      the first free source with its content, looking at no more than
 *      100 free sources. Files other than regular ones pair only with
 *      the same mode.
 *   2. Same file name: a file name held by exactly one remaining source
 *      and exactly one remaining destination pairs them if their score
 *      (rename-score.h) reaches the minimum plus half of what lies above
 *      it (75% for the default 50%).
 *   3. Everything else, when remaining sources times destinations is
 *      within limit * limit (git's diff.renameLimit, 1000 by default;
 *      0 or less: no limit): every destination is scored against every
 *      source; each keeps its four best candidates (a higher score
 *      first, then a source of the same file name, then the one met
 *      first); all candidates together are ordered that way, a tie
 *      keeping destination order, and taken best first while the
 *      score reaches the minimum, skipping a destination or source
 *      already taken. Over the limit this step is skipped, as git skips
 *      it (and warns; *needed_limit says what limit would have done).
 *
 * Only regular files (100644, 100755) are scored; links and submodules
 * are paired in step 1 or not at all. Sources are files deleted
 * (`git diff -M` takes no modified file as a source), destinations files
 * added, both in the order of the diff (by path).
 */

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

struct rename_file {
	const char *path;
	unsigned mode;		/* as in a tree: 0100644, 0100755, 0120000, 0160000 */
	const char *id;		/* the content's object id, hex */
};

/* What a destination became: from source src (-1: none) with score (0..RENAME_SCORE_MAX). */
struct rename_match {
	long src;
	int score;
};

struct rename_opts {
	int min_score;		/* RENAME_SCORE_DEFAULT_MIN for -M */
	int limit;		/* diff.renameLimit */
	/* f's size, or its content into out: 0, or -1 (reported, which stops the search) */
	int (*size)(void *data, const struct rename_file *f, uint64_t *size);
	int (*content)(void *data, const struct rename_file *f, struct strbuf *out);
	void *data;
};

/* git's default diff.renameLimit */
#define RENAME_LIMIT_DEFAULT 1000

/*
 * Fills match[0..dst_nr) for dst[0..dst_nr) from src[0..src_nr). 0, or
 * -1 when a size or content could not be had. *needed_limit (may be
 * NULL) is 0, or the limit step 3 would have needed when it was skipped.
 */
int renames_find(struct rename_match *match, const struct rename_file *src, size_t src_nr,
		 const struct rename_file *dst, size_t dst_nr, const struct rename_opts *o,
		 size_t *needed_limit);

#endif
