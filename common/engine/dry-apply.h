/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DRY_APPLY_H
#define DRY_APPLY_H

/*
 * The dry-apply engine behind git-maint-dry-apply(1): does a series of
 * patch mails apply, and to which branch? The patches are read once
 * (common/mail/patch-mails.h: cover letters, replies, duplicates and
 * other mail stepped over, one line each) and kept in a spool, then
 * applied in memory (common/repo/apply.h), cumulatively or each alone,
 * to the tip of every target; the report uses GNU patch's words, or
 * tab-separated records with --porcelain. Nothing in the repository
 * changes: no ref, reflog, index, work tree file or object.
 *
 * Memory does not grow with the mailbox: each patch is read, parsed and
 * applied one at a time; its decoded diff is spooled so a mail is
 * decoded once, not once more per target.
 */

#include <git2.h>

#include "config.h"
#include "range-diff.h"
#include "review.h"
#include "source.h"
#include "strvec.h"

struct dry_apply_opts {
	struct strvec onto;	/* the targets; none: the current branch (or HEAD) */
	struct strvec series;	/* --series: only these (numbers or Message-IDs); none: all */
	int each;		/* each patch alone against the target, not cumulatively */
	int porcelain;
	int three_way;
	int fuzz;
	int p_value;		/* -p<n>; -1: the patch's own (1) */
	int verbose;
	int quiet;
	struct source_opts source;
	size_t max_size;	/* the message size limit: messages, and binary data in one */
	struct review_opts review;
	int range_diff, creation_factor;
	const char *attest;	/* --attest=<policy>; NULL: attest.policy */
	int color;		/* colour the report and the range-diff (report-color.h) */
	/*
	 * --base: "auto" (each series' base-commit) or a commit: each
	 * series is checked at that base too, and a target takes it only
	 * when it holds the base. NULL: the base-commit is only said.
	 */
	const char *base;
};

#define DRY_APPLY_OPTS_INIT { STRVEC_INIT, STRVEC_INIT, 0, 0, 0, 0, -1, 0, 0, SOURCE_OPTS_INIT, 0, REVIEW_OPTS_INIT, \
			      0, RANGE_DIFF_CREATION_FACTOR, NULL, 0, NULL }

void dry_apply_opts_release(struct dry_apply_opts *o);

/*
 * Checks the mails of args[0..nargs) (common/mail/source.h rules)
 * against each target of o->onto (the current branch when empty: it is
 * added), printing the report to stdout. Returns RESULT_OK when every
 * series applies to some target, RESULT_NO when one applies to none (or
 * no patch was found, or a message is over the size limit: reported),
 * RESULT_FATAL on input, a repository or stdout that cannot be read or
 * written (reported; nothing on a closed pipe). Each patch's line carries
 * its attestation (attest_mark()); the policy (o->attest, attest.policy)
 * warns (softfail), or refuses the series before checking it (hardfail:
 * RESULT_NO, or RESULT_TEMPFAIL when DNS could not answer), as queue
 * would. It never exits: cmd/dry-apply.c turns the result into the exit
 * code.
 */
enum maint_result dry_apply(git_repository *repo, const struct maint_config *cfg, const char **args,
			    int nargs, struct dry_apply_opts *o);

#endif
