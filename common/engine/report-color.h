/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_COLOR_H
#define REPORT_COLOR_H

/*
 * The colours of dry-apply's output (color.h says when): its report and
 * its range-diff, coloured line by line from their formats, after their
 * text was neutralised, so that the only escape sequences are these.
 *
 * The report (slots of color.maint-dry-apply.<slot>):
 *   failed   (red)    what does not apply: "Hunk #2 FAILED at 210.", "1 out
 *                     of 3 hunks FAILED", why a file or patch failed, and
 *                     the summary lines of a target that does not take the
 *                     series
 *   applies  (green)  the summary lines of a target that takes it, and a
 *                     series' line of the verdicts that some target takes
 *   patch    (bold)   "Patch 2/5: <subject>", where each patch starts, and
 *                     "Series 2/12: <subject> ...", where each series does
 * "checking file ...", hunks that apply, trailers and the rest stay plain.
 *
 * The range-diff, as git range-diff --no-dual-color colours it (slots of
 * git's color.diff.<slot>): a pair's line in commit (yellow), or old (red)
 * for a patch only in the old version, new (green) for one only in the
 * new; of a changed pair ("!") the old side red and the new green; in the
 * diff between two patches, removed lines old, added lines new, "@@"
 * lines frag (cyan). git's default dual colouring (the inner diff's own
 * colours under the outer ones) is not done.
 */

#include "color.h"
#include "strbuf.h"

enum report_slot { REPORT_FAILED, REPORT_APPLIES, REPORT_PATCH, REPORT_SLOTS };
enum range_diff_slot { RD_COMMIT, RD_OLD, RD_NEW, RD_FRAG, RD_SLOTS };

struct report_colors {
	int on;
	struct color_slot report[REPORT_SLOTS];
	struct color_slot range_diff[RD_SLOTS];
};

struct maint_config;

/* Fills c for colour on or off (the slots from cfg, which may be NULL). */
void report_colors_load(struct report_colors *c, const struct maint_config *cfg, int on);

/* Replaces the report text in sb (whole lines) with its coloured form. */
void report_colorize(struct strbuf *sb, const struct report_colors *c);

/* Replaces the range-diff text in sb (whole lines) with its coloured form. */
void range_diff_colorize(struct strbuf *sb, const struct report_colors *c);

#endif
