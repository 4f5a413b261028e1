/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-pushpack: the pack publish would push (pushpack.h), written to a
 * file, its counts on stdout.
 *
 *   test-pushpack <tip> <pack> [--no-thin] <have>...
 *       in the repository of the current directory: the pack that brings
 *       <tip> to a remote that advertised the <have> ids (hex), with OFS
 *       deltas; prints "commits <n>", "objects <n>", "ofs <n>", "thin <n>"
 */
#include "pushpack.h"
#include "repo.h"
#include "usage.h"
#include "wrapper.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_main(int argc, const char **argv)
{
	struct pushpack_opts po = { NULL, 0, 1, 1, NULL, NULL };
	struct pushpack_stats st;
	git_repository *repo = repo_open_or_die();
	git_commit *tip;
	git_oid *haves = xcalloc(argc, sizeof(*haves));
	int fd, i = 3;

	if (argc < 3)
		die("usage: test-pushpack <tip> <pack> [--no-thin] <have>...");
	if (i < argc && !strcmp(argv[i], "--no-thin")) {
		po.thin = 0;
		i++;
	}
	for (; i < argc; i++)
		if (git_oid_fromstr(&haves[po.nr_haves++], argv[i]) < 0)
			die("not an object id: '%s'", argv[i]);
	po.haves = haves;
	if (repo_lookup_commit(&tip, repo, argv[1]) < 0)
		return 128;
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die_errno("cannot create '%s'", argv[2]);
	if (pushpack_write(repo, git_commit_id(tip), &po, fd, argv[2], &st) < 0)
		return 128;
	if (close(fd) < 0)
		die_errno("cannot write '%s'", argv[2]);
	printf("commits %u\nobjects %u\nofs %u\nthin %u\n", st.commits, st.objects, st.ofs_deltas,
	       st.thin_deltas);
	git_commit_free(tip);
	git_repository_free(repo);
	free(haves);
	return 0;
}
