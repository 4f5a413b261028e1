/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-config: the configuration as a program reads it, so the tests can
 * check the precedence, both readers of git's config files (libgit2's and
 * common/base/gitconfig.c) and the misplaced-key warnings.
 *
 *   test-config (files|libgit2) get <section> [<subsection>] <key>
 *	the value git-maint uses ("" for a subsection-less key's <subsection>)
 *	and where it was set, "<value>\t<origin>"; exit 1 when unset
 *   test-config (files|libgit2) git
 *	every git variable read, "<name>=<value>" (a bare one: "<name>"),
 *	lowest priority first, as `git config --list` prints them
 *
 * "files" loads as mbox-split does (config_load_files(), no libgit2),
 * "libgit2" as the programs with a repository do (config_load()).
 */
#include "config-git.h"
#include "repo.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static int load(struct maint_config *cfg, const char *how, git_repository **repo)
{
	if (!strcmp(how, "files"))
		return config_load_files(cfg);
	if (strcmp(how, "libgit2"))
		die("unknown loader '%s'", how);
	repo_global_init();
	if (git_repository_open_ext(repo, ".", 0, NULL) < 0)
		*repo = NULL;
	return config_load(cfg, *repo);
}

int cmd_main(int argc, const char **argv)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	git_repository *repo = NULL;
	int ret = 0;

	if (argc < 3)
		die("usage: test-config (files|libgit2) (get <section> [<subsection>] <key> | git)");
	if (load(&cfg, argv[1], &repo) < 0) {
		config_release(&cfg);
		git_repository_free(repo);
		return EXIT_FATAL;
	}
	if (!strcmp(argv[2], "get") && (argc == 5 || argc == 6)) {
		const char *sub = argc == 6 && *argv[4] ? argv[4] : NULL;
		const struct config_entry *e = config_get_entry(&cfg, argv[3], sub, argv[argc - 1]);
		struct strbuf origin = STRBUF_INIT;

		if (e) {
			config_entry_origin(&origin, e);
			printf("%s\t%s\n", e->value, origin.buf);
		}
		ret = !e;
		strbuf_release(&origin);
	} else if (!strcmp(argv[2], "git") && argc == 3) {
		for (size_t i = 0; i < cfg.git_nr; i++)
			if (cfg.git[i].value)
				printf("%s=%s\n", cfg.git[i].name, cfg.git[i].value);
			else
				printf("%s\n", cfg.git[i].name);
	} else {
		die("usage: test-config (files|libgit2) (get <section> [<subsection>] <key> | git)");
	}
	config_release(&cfg);
	git_repository_free(repo);
	return ret;
}
