/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git maint-dry-apply: does this series of patch mails apply, and to
 * which branch? Options here; the engine (common/engine/dry-apply.h)
 * applies every patch in memory, cumulatively, to the tip of each target
 * and reports. Nothing in the repository changes.
 */
#include "attest.h"
#include "color.h"
#include "config-git.h"
#include "dry-apply.h"
#include "fetch.h"
#include "in-progress.h"
#include "pager.h"
#include "parse-options.h"
#include "repo.h"
#include "review.h"
#include "source.h"
#include "usage.h"

#include <stdlib.h>

static const char *const dry_apply_usage[] = {
	"git maint-dry-apply [--onto <branch>]... [<options>] [<mbox>|<Maildir>|-|<Message-ID>|<URL>]...",
	NULL
};

int cmd_main(int argc, const char **argv)
{
	struct dry_apply_opts o = DRY_APPLY_OPTS_INIT;
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct fetch_opts fo = FETCH_OPTS_INIT;
	int color = COLOR_UNSET;
	struct option options[] = {
		OPT_STRING_LIST(0, "onto", &o.onto, "branch",
				"check against this branch's tip (repeatable; default: the current branch)"),
		OPT_STRING_LIST(0, "series", &o.series, "n|message-id",
				"check only this series (repeatable): its number, or the Message-ID of one of its mails"),
		OPT_STRING(0, "base", &o.base, "commit|auto",
			   "check each series at this base (auto: its base-commit); a target must hold it"),
		OPT_BOOL(0, "each", &o.each, "check every patch alone against the target, not cumulatively"),
		OPT_BOOL(0, "porcelain", &o.porcelain, "machine-readable output: tab-separated records"),
		OPT_BOOL('3', "3way", &o.three_way, "fall back to a 3-way merge when the pre-image blob is known"),
		OPT_INTEGER(0, "fuzz", &o.fuzz, "n", "ignore up to <n> context lines at each end of a hunk"),
		OPT_INTEGER('p', NULL, &o.p_value, "n", "strip <n> leading path components (default 1)"),
		OPT__VERBOSE(&o.verbose, "report every hunk, also those that apply exactly"),
		OPT__QUIET(&o.quiet, "print only the summary lines"),
		OPT__COLOR(&color, "colour the report and the range-diff: always, never or auto (color.ui)"),
		OPT_GROUP("Review"),
		OPT_REVIEW(&o.review),
		OPT_ATTEST(&o.attest),
		OPT_BOOL(0, "range-diff", &o.range_diff,
			 "show how each series changed from its previous version, as git range-diff"),
		OPT_INTEGER(0, "creation-factor", &o.creation_factor, "n",
			    "with --range-diff: the creation factor of git range-diff (default 60)"),
		OPT_MAIL_SOURCE(&o.source),
		OPT_FETCH(&fo),
		OPT_END()
	};
	git_repository *repo;
	enum maint_result res;
	int nargs;

	nargs = parse_options(argc, argv, options, dry_apply_usage, 0);
	if (o.fuzz < 0)
		usage_msg_opt(dry_apply_usage, options, "--fuzz must not be negative");
	if (o.p_value < -1)
		usage_msg_opt(dry_apply_usage, options, "-p must not be negative");
	if (o.creation_factor < 0)
		usage_msg_opt(dry_apply_usage, options, "--creation-factor must not be negative");
	fo.quiet = o.quiet;
	in_progress_announce(NULL, o.quiet);
	if ((res = fetch_prepare(argv, nargs, &fo)) != RESULT_OK)
		exit(result_exit_code(res));

	repo = repo_open_or_die();
	if (config_load(&cfg, repo) < 0 || source_opts_max_size(&o.source, &cfg, &o.max_size) < 0 ||
	    review_opts_config(&o.review, &cfg) < 0)
		exit(EXIT_FATAL);
	/* a report for people: paged and coloured on a terminal, as git's (pager.h, color.h) */
	if (!o.porcelain) {
		if (!source_reads_terminal(argv, nargs))
			setup_pager(&cfg, "dry-apply");
		o.color = color_want(&cfg, "dry-apply", color);
	}
	res = dry_apply(repo, &cfg, argv, nargs, &o);

	dry_apply_opts_release(&o);
	config_release(&cfg);
	git_repository_free(repo);
	fetch_release();
	return result_exit_code(res);
}
