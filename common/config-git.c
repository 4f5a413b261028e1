/*
 * The git side of configuration (see config.h): git's own config read
 * through libgit2, and config_load(), which reads it with the INI files.
 * Kept apart from config.c so that a program reading only the INI files
 * does not link libgit2.
 */
#include "config.h"
#include "repo.h"
#include "wrapper.h"

#include <stdlib.h>

int config_load(struct maint_config *cfg, git_repository *repo)
{
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	if (config_read_user_file(cfg) < 0)
		goto out;
	if (repo) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%smaint.ini", git_repository_commondir(repo));
		if (config_read_file(cfg, path.buf, 0) < 0)
			goto out;
		if (lg2_check(git_repository_config_snapshot(&cfg->git, repo),
			      "cannot read git config") < 0)
			goto out;
	} else {
		git_config *def = NULL;

		repo_global_init();
		if (git_config_open_default(&def) == 0) {
			if (git_config_snapshot(&cfg->git, def) < 0)
				cfg->git = NULL;
			git_config_free(def);
		}
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

void config_git_release(struct maint_config *cfg)
{
	git_config_free(cfg->git);
	cfg->git = NULL;
}

char *config_git_string(const struct maint_config *cfg, const char *name)
{
	git_config_entry *e = NULL;
	char *ret = NULL;

	if (!cfg->git)
		return NULL;
	if (git_config_get_entry(&e, cfg->git, name) == 0) {
		ret = xstrdup(e->value);
		git_config_entry_free(e);
	}
	return ret;
}

int config_git_bool(const struct maint_config *cfg, const char *name, int def)
{
	char *v = config_git_string(cfg, name);
	int b = v ? config_parse_bool(v) : def;

	free(v);
	return b < 0 ? def : b;
}

void config_git_strings(const struct maint_config *cfg, const char *name, struct strvec *out)
{
	git_config_iterator *it = NULL;
	git_config_entry *e;

	if (!cfg->git || git_config_multivar_iterator_new(&it, cfg->git, name, NULL) < 0)
		return;
	while (git_config_next(&e, it) == 0)
		strvec_push(out, e->value);
	git_config_iterator_free(it);
}
