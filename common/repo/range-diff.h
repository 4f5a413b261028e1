/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RANGE_DIFF_H
#define RANGE_DIFF_H

/*
 * What changed between two versions of a series, patch by patch, as `git
 * range-diff` (git 2.39, without color) shows two ranges of commits, but
 * from the patches as mailed: nothing is applied, no object is written,
 * no ref, index or work tree is read or touched.
 *
 * Each patch is turned into the text range-diff compares (its author, its
 * commit message as git am makes it, and its diff with file headers as
 * " ## path ##" and hunk headers as "@@ path: function"), the patches of
 * the two versions are paired as range-diff pairs them (identical diffs
 * first, then the pairing of least total cost, the cost of a pair being
 * the size of the diff between the two texts and that of leaving a patch
 * unpaired its size times creation_factor / 100, solved with the same
 * Jonker-Volgenant algorithm so that ties fall the same way), and written
 * in range-diff's order and format:
 *
 *   1:  3f2a1b0 = 1:  9c8d7e6 topic: change a
 *   2:  4e5f6a7 ! 2:  0a1b2c3 topic: change b
 *       @@ b.c: function
 *        ...
 *   -:  ------- > 3:  1d2e3f4 topic: a new patch
 *
 * The diff between two patches is computed by libgit2 (the xdiff git
 * uses: Myers with the indent heuristic, 3 lines of context).
 *
 * Where the output differs from git range-diff on the commits the mails
 * were made from: the ids shown are those the caller gives (the commit
 * ids format-patch writes on its "From <id>" lines), abbreviated to 7
 * digits whatever the repository; a binary change (format-patch's "GIT
 * binary patch") shows as the line "Binary files <old> and <new> differ"
 * that git log -p prints; notes are not shown; the diff is the mail's,
 * so a patch made with other diff options (more context, another diff
 * algorithm) than the user's git log would use compares differently.
 */

#include <stddef.h>

#include "strbuf.h"

struct range_patch {
	const char *id;		/* shown abbreviated to 7 characters */
	const char *author;	/* "Name <email>" */
	const char *subject;	/* the subject line of the commit */
	const char *message;	/* the commit message as git am makes it (subject, blank line, body) */
	size_t message_len;
	const char *diff;	/* the patch part of the mail (anything before the first diff header is skipped) */
	size_t diff_len;
};

#define RANGE_DIFF_CREATION_FACTOR 60	/* git range-diff's default, in percent */

/* The width of the ids shown; ids are cut to it. */
#define RANGE_DIFF_ABBREV 7

/*
 * Appends to out the range-diff of old[0..nold) against new[0..nnew).
 * 0, or -1 when a patch's diff cannot be parsed or libgit2 fails
 * (reported, naming the patch by its subject).
 */
int range_diff(struct strbuf *out, const struct range_patch *old, size_t nold,
	       const struct range_patch *new, size_t nnew, int creation_factor);

/*
 * The pairing only: to_new[i] is the index in new of old[i]'s partner,
 * or -1. For callers that show versions otherwise (and for tests of the
 * assignment). Same return values as range_diff().
 */
int range_diff_pairs(int *to_new, const struct range_patch *old, size_t nold,
		     const struct range_patch *new, size_t nnew, int creation_factor);

/*
 * range-diff diffs every patch of one version with every patch of the
 * other: time and memory grow with the product (two versions of 3,000
 * patches: 91 s and 155 MiB; git range-diff: 42 s). Two versions whose
 * patch counts multiply to more than this are refused (reliability case 55);
 * no mailing list's series comes near (1,000 patches each: 3 s of CPU).
 */
#define RANGE_DIFF_MAX_PAIRS 1000000

/*
 * The range-diff of two versions of a series read by patch_mails_read()
 * (opts.versions): pv's older version against its newest, each mail
 * parsed as git am parses it, the ids from their "From <id>" lines.
 * Appends "Range-diff of '<subject>' v<old> against v<new>:" and the
 * range-diff to out. Same return values as range_diff(), and 1 when the
 * versions are over RANGE_DIFF_MAX_PAIRS (reported, nothing appended).
 */
struct patch_mails;
struct patch_mails_versions;
int range_diff_versions(struct strbuf *out, const struct patch_mails *pms,
			const struct patch_mails_versions *pv, int creation_factor);

#endif
