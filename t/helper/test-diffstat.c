/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-diffstat: the diffstat request-pull mails (diffstat.h), alone, so
 * the scripts can hold it against `git diff -M --stat --summary` for
 * many trees without making a pull request each time.
 *
 *   test-diffstat <from> <to>
 *       in the repository of the current directory: the diffstat of
 *       <from>'s tree to <to>'s tree (commits), on stdout, with git's
 *       default diff.renameLimit
 */
#include "diffstat.h"
#include "repo.h"
#include "usage.h"

#include <stdio.h>

int cmd_main(int argc, const char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct diffstat_opts o = DIFFSTAT_OPTS_INIT;
	git_repository *repo;
	git_commit *c[2] = { NULL, NULL };
	git_tree *t[2] = { NULL, NULL };
	int ret = 128;

	if (argc != 3)
		die("usage: test-diffstat <from> <to>");
	repo = repo_open_or_die();
	for (int i = 0; i < 2; i++)
		if (repo_lookup_commit(&c[i], repo, argv[i + 1]) < 0 ||
		    lg2_check(git_commit_tree(&t[i], c[i]), "cannot read the tree of '%s'", argv[i + 1]) < 0)
			goto out;
	if (diffstat_trees(&out, repo, t[0], t[1], &o) < 0)
		goto out;
	fwrite(out.buf, 1, out.len, stdout);
	ret = 0;
out:
	for (int i = 0; i < 2; i++) {
		git_tree_free(t[i]);
		git_commit_free(c[i]);
	}
	strbuf_release(&out);
	git_repository_free(repo);
	return ret;
}
