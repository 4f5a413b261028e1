/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PRECHECK_H
#define PRECHECK_H

/*
 * The checks git-maint-publish runs on the commits it is about to make
 * public (each one configured; merge commits are not checked):
 *
 *   signoff  the commit's trailer block (found as git interpret-trailers
 *            finds it, common/repo/commit.h) holds a Signed-off-by: with the
 *            author's e-mail and one with the committer's (the kernel's
 *            Developer's Certificate of Origin: who wrote it, who
 *            passed it on); e-mails compared without regard to case
 *   fixes    every "Fixes: <id> ("<subject>")" line names, with at least
 *            12 hex digits, a commit that exists, is an ancestor of the
 *            fixing commit, and has exactly that subject
 *
 * Each problem is reported on one line naming the commit (short id and
 * subject): "error: 1234567 ('usb: fix'): no Signed-off-by: of its
 * author <a@example.com>".
 */

#include <git2.h>

#include "commit.h"
#include "usage.h"

struct precheck_opts {
	int signoff;
	int fixes;
	const struct trailer_conf *trailers;	/* NULL: git's defaults */
};

/*
 * Checks commits[0..nr). RESULT_OK when every check passed (or none is
 * configured), RESULT_NO when some failed (each reported), RESULT_FATAL
 * (reported) when a commit cannot be read.
 */
enum maint_result precheck_commits(git_repository *repo, const git_oid *commits, size_t nr,
				   const struct precheck_opts *opts);

#endif
