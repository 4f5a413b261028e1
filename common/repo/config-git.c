/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The git side of configuration (see config-git.h): git's own config
 * read through libgit2 into the config's name/value pairs. Kept apart
 * from config.c so that a program reading only the INI files does not
 * link libgit2.
 */
#include "config-git.h"
#include "repo.h"
#include "wrapper.h"

/* libgit2's levels as the config's (config.h): an application's own file counts as the repository's. */
static enum config_level level_of(git_config_level_t level)
{
	switch (level) {
	case GIT_CONFIG_LEVEL_PROGRAMDATA:
	case GIT_CONFIG_LEVEL_SYSTEM:
		return CONFIG_LEVEL_SYSTEM;
	case GIT_CONFIG_LEVEL_XDG:
	case GIT_CONFIG_LEVEL_GLOBAL:
		return CONFIG_LEVEL_GLOBAL;
	default:
		return CONFIG_LEVEL_REPO;
	}
}

/*
 * Every variable of a snapshot of c, lowest priority first (libgit2 lists
 * them so); the system's not with $GIT_CONFIG_NOSYSTEM, as git (libgit2
 * reads it all the same).
 */
static int add_all(struct maint_config *cfg, git_config *c)
{
	git_config *snap = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int rc, nosystem = env_true("GIT_CONFIG_NOSYSTEM");

	if (lg2_check(git_config_snapshot(&snap, c), "cannot read git config") < 0)
		return -1;
	if (lg2_check(git_config_iterator_new(&it, snap), "cannot read git config") < 0) {
		git_config_free(snap);
		return -1;
	}
	while ((rc = git_config_next(&e, it)) == 0)
		if (!nosystem || level_of(e->level) != CONFIG_LEVEL_SYSTEM)
			config_add_git(cfg, e->name, e->value, level_of(e->level));
	git_config_iterator_free(it);
	git_config_free(snap);
	return rc == GIT_ITEROVER ? 0 : lg2_check(rc, "cannot read git config");
}

int config_load(struct maint_config *cfg, git_repository *repo)
{
	struct strbuf common = STRBUF_INIT;
	git_config *c = NULL;
	int ret = -1;

	if (repo) {
		strbuf_addstr(&common, git_repository_commondir(repo));
		while (common.len > 1 && common.buf[common.len - 1] == '/')
			strbuf_setlen(&common, common.len - 1);
		if (lg2_check(git_repository_config(&c, repo), "cannot read git config") < 0 ||
		    add_all(cfg, c) < 0)
			goto out;
	} else {
		repo_global_init();
		/* Outside a repository a missing or unreadable global config is no error. */
		if (git_config_open_default(&c) == 0 && add_all(cfg, c) < 0)
			goto out;
	}
	/* libgit2 does not read git -c's variables: they come last, winning */
	if (config_add_command_line(cfg) < 0)
		goto out;
	ret = config_assemble(cfg, repo ? common.buf : NULL);
out:
	git_config_free(c);
	strbuf_release(&common);
	return ret;
}
