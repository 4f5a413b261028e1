/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The git side of configuration (see config-git.h): git's own config
 * read through libgit2 into the config's name/value pairs. Kept apart
 * from config.c so that a program reading only the INI files does not
 * link libgit2.
 */
#include "config-git.h"
#include "repo.h"

/* Every variable of a snapshot of c, lowest priority first (libgit2 lists them so). */
static int add_all(struct maint_config *cfg, git_config *c)
{
	git_config *snap = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int rc;

	if (lg2_check(git_config_snapshot(&snap, c), "cannot read git config") < 0)
		return -1;
	if (lg2_check(git_config_iterator_new(&it, snap), "cannot read git config") < 0) {
		git_config_free(snap);
		return -1;
	}
	while ((rc = git_config_next(&e, it)) == 0)
		config_add_git(cfg, e->name, e->value);
	git_config_iterator_free(it);
	git_config_free(snap);
	return rc == GIT_ITEROVER ? 0 : lg2_check(rc, "cannot read git config");
}

int config_load(struct maint_config *cfg, git_repository *repo)
{
	struct strbuf path = STRBUF_INIT;
	git_config *c = NULL;
	int ret = -1;

	if (config_read_user_file(cfg) < 0)
		goto out;
	if (repo) {
		strbuf_addf(&path, "%smaint.ini", git_repository_commondir(repo));
		if (config_read_file(cfg, path.buf, 0) < 0 ||
		    lg2_check(git_repository_config(&c, repo), "cannot read git config") < 0 ||
		    add_all(cfg, c) < 0)
			goto out;
	} else {
		repo_global_init();
		/* Outside a repository a missing or unreadable global config is no error. */
		if (git_config_open_default(&c) == 0 && add_all(cfg, c) < 0)
			goto out;
	}
	ret = 0;
out:
	git_config_free(c);
	strbuf_release(&path);
	return ret;
}
