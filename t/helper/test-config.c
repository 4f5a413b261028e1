/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-config: the configuration as a program reads it, so the tests can
 * check the precedence, both readers of git's config files (libgit2's and
 * common/base/gitconfig.c) and the misplaced-key warnings.
 *
 *   test-config (files|libgit2) get <section> [<subsection>] <key>
 *	the value git-maint uses ("" for a subsection-less key's <subsection>)
 *	and where it was set, "<value>\t<origin>"; exit 1 when unset
 *   test-config (files|libgit2) get-each <file>
 *	the same for every line "<section>\t<subsection>\t<key>" of <file>,
 *	one load for them all: "<value>\t<origin>", or "unset\t<line>"
 *	(and exit 1 at the end)
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

/* Prints the value of one key and where it was set; 1 when it is unset. */
static int print_entry(const struct maint_config *cfg, const char *section,
		       const char *sub, const char *key)
{
	const struct config_entry *e = config_get_entry(cfg, section, sub, key);
	struct strbuf origin = STRBUF_INIT;

	if (!e)
		return 1;
	config_entry_origin(&origin, e);
	printf("%s\t%s\n", e->value, origin.buf);
	strbuf_release(&origin);
	return 0;
}

/* get-each: the lines "<section>\t<subsection>\t<key>" of path. */
static int print_each(const struct maint_config *cfg, const char *path)
{
	struct strbuf line = STRBUF_INIT;
	FILE *fp = fopen(path, "r");
	int ret = 0;

	if (!fp)
		die_errno("cannot open '%s'", path);
	while (strbuf_getline(&line, fp) != EOF) {
		char *sub = strchr(line.buf, '\t');
		char *key = sub ? strchr(sub + 1, '\t') : NULL;

		if (!key)
			die("get-each: not \"<section>\\t<subsection>\\t<key>\": '%s'", line.buf);
		*sub++ = '\0';
		*key++ = '\0';
		if (print_entry(cfg, line.buf, *sub ? sub : NULL, key)) {
			printf("unset\t%s\t%s\t%s\n", line.buf, sub, key);
			ret = 1;
		}
	}
	fclose(fp);
	strbuf_release(&line);
	return ret;
}

int cmd_main(int argc, const char **argv)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	git_repository *repo = NULL;
	int ret = 0;

	if (argc < 3)
		die("usage: test-config (files|libgit2) (get <section> [<subsection>] <key> | get-each <file> | git)");
	if (load(&cfg, argv[1], &repo) < 0) {
		config_release(&cfg);
		git_repository_free(repo);
		return EXIT_FATAL;
	}
	if (!strcmp(argv[2], "get") && (argc == 5 || argc == 6)) {
		const char *sub = argc == 6 && *argv[4] ? argv[4] : NULL;

		ret = print_entry(&cfg, argv[3], sub, argv[argc - 1]);
	} else if (!strcmp(argv[2], "get-each") && argc == 4) {
		ret = print_each(&cfg, argv[3]);
	} else if (!strcmp(argv[2], "git") && argc == 3) {
		for (size_t i = 0; i < cfg.git_nr; i++)
			if (cfg.git[i].value)
				printf("%s=%s\n", cfg.git[i].name, cfg.git[i].value);
			else
				printf("%s\n", cfg.git[i].name);
	} else {
		die("usage: test-config (files|libgit2) (get <section> [<subsection>] <key> | get-each <file> | git)");
	}
	config_release(&cfg);
	git_repository_free(repo);
	return ret;
}
