/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git-maint-describe-contains--libgit2: the part of git
 * maint-describe-contains that reads the repository through libgit2,
 * so that every repository and every revision git accepts is answered
 * (see git-maint-describe-contains(1)). It is run by
 * git-maint-describe-contains for what that one cannot answer from the
 * repository's files alone, with the same options.
 */
#include "describe-cmd.h"
#include "repo.h"
#include "usage.h"

int cmd_main(int argc, const char **argv)
{
	struct dc_options o = DC_OPTIONS_INIT;
	struct describe_options dopts = { 0 };
	struct describer *d = NULL;
	git_repository *repo;
	enum maint_result ret;

	argc = dc_parse_options(&o, argc, argv);
	dc_describe_options(&dopts, &o);
	repo = repo_open_or_die();
	if (describer_new(&d, repo, &dopts) < 0)
		die("cannot read the repository's refs");

	ret = o.use_stdin ? dc_run_stdin(d, &o, NULL) : dc_run_args(d, &o, argc, argv, NULL);

	describer_free(d);
	git_repository_free(repo);
	dc_options_release(&o);
	return result_exit_code(ret);
}
