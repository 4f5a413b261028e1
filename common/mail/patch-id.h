/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PATCH_ID_H
#define PATCH_ID_H

/*
 * The patch id of a patch, as `git patch-id --stable` (git 2.39)
 * computes it: a SHA-1 of the diff with whitespace removed, line
 * numbers ignored, each file's part hashed on its own and the results
 * added (so the order of the files does not count), binary changes by
 * the object ids of their "index" line. Two versions of a patch with the
 * same id make the same change, whatever their commit messages and
 * wherever the hunks are: what decides whether a review of v1 still
 * holds for v2. Pure: no I/O, no repository.
 *
 * The text is a patch as git patch-id reads one: anything before the
 * first "diff " line (a mail's headers and message, a diffstat) is
 * skipped, and the patch ends where git's ends (a line that is no part
 * of a diff, such as format-patch's "-- " signature, or the start of
 * another patch: "From <id>", "commit <id>" or a line starting with an
 * object id).
 */

#include <stddef.h>

#define PATCH_ID_RAWSZ 20

/* 0 with the id in out; 1 when the text holds no diff (git patch-id prints nothing). */
int patch_id_stable(unsigned char out[PATCH_ID_RAWSZ], const char *text, size_t len);

#endif
