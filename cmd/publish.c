/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git-maint-publish: the article's do.sh as one safe command. Brings the
 * public branch (usb-next) to the work branch (work-next) by a
 * fast-forward or a merge made in memory, pushes it to every remote,
 * then has git-maint-notify tell the authors; resumable with --continue.
 * The engine is common/engine/publish.c.
 */
#include "color.h"
#include "config-git.h"
#include "pager.h"
#include "parse-options.h"
#include "publish.h"
#include "push.h"
#include "repo.h"
#include "state.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const publish_usage[] = {
	"git maint-publish [<options>] [<branch>]",
	"git maint-publish (--continue | --abort)",
	NULL,
};

enum action { ACTION_START, ACTION_CONTINUE, ACTION_ABORT };

struct publish_cmd_opts {
	int action;
	int dry_run;
	int notify;	/* -1: from config */
	int timeout;	/* -1: from config */
	int quiet;
	int build;
	int color;	/* enum color_when */
};

static int branch_exists(git_repository *repo, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	git_reference *ref = NULL;
	int ok;

	strbuf_addf(&sb, "refs/heads/%s", name);
	ok = !git_reference_lookup(&ref, repo, sb.buf);
	git_reference_free(ref);
	strbuf_release(&sb);
	return ok;
}

/*
 * The article's naming, for a tree nobody configured: "work-<x>" is the
 * work branch of the one other branch "<tree>-<x>"; "<tree>-<x>" is the
 * public branch of "work-<x>".
 */
static int guess_public(git_repository *repo, const char *work, char **public)
{
	const char *suffix = work + strlen("work");
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	struct strvec found = STRVEC_INIT;
	int ret = -1;

	if (lg2_check(git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL), "cannot list branches") < 0)
		return -1;
	while (!git_branch_next(&ref, &type, it)) {
		const char *name = NULL;

		if (!git_branch_name(&name, ref) && ends_with(name, suffix) &&
		    strlen(name) > strlen(suffix) && strcmp(name, work))
			strvec_push(&found, name);
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	if (found.nr == 1) {
		*public = xstrdup(found.v[0]);
		ret = 0;
	} else if (!found.nr) {
		error("no public branch for '%s': no branch '<tree>%s', and no tree.<name>.work names it",
		      work, suffix);
		advise("name it: git config maint.tree.<name>.work %s; git config maint.tree.<name>.public "
		       "<branch>", work);
	} else {
		error("'%s' could be the work branch of '%s' or '%s'; say which with tree.<name>.public",
		      work, found.v[0], found.v[1]);
		advise("git config maint.tree.<name>.work %s; git config maint.tree.<name>.public %s", work,
		       found.v[0]);
	}
	strvec_clear(&found);
	return ret;
}

static int resolve_branches(git_repository *repo, const struct maint_config *cfg, const char *name,
			    const char **tree, char **work, char **public)
{
	const char *w, *p, *dash;

	*tree = config_tree_for_branch(cfg, name);
	if (*tree) {
		w = config_get(cfg, "tree", *tree, "work");
		p = config_get(cfg, "tree", *tree, "public");
		if (!w || !p)
			return error("tree '%s' needs both tree.%s.work and tree.%s.public to publish",
				     *tree, *tree, *tree);
		*work = xstrdup(w);
		*public = xstrdup(p);
		return 0;
	}
	if (starts_with(name, "work-") && name[5]) {
		*work = xstrdup(name);
		return guess_public(repo, name, public);
	}
	dash = strrchr(name, '-');
	if (dash && dash != name && dash[1]) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "work%s", dash);
		if (branch_exists(repo, sb.buf)) {
			*work = strbuf_detach(&sb, NULL);
			*public = xstrdup(name);
			return 0;
		}
		strbuf_release(&sb);
	}
	error("'%s' is not a work branch ('work-<x>') and no tree.<name>.work or .public names it", name);
	advise("git config maint.tree.<name>.work <branch>; git config maint.tree.<name>.public <branch>");
	return -1;
}

/* A space-separated list of remotes (tree.<name>.remote, .backup). */
static void add_words(struct strvec *sv, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, " \t");

		if (n) {
			char *w = xstrndup(s, n);

			if (!strvec_contains(sv, w))
				strvec_push(sv, w);
			free(w);
		}
		s += n;
		s += strspn(s, " \t");
	}
}

/* tree.<name>.remote (default: origin, when it exists), then tree.<name>.backup. */
static int resolve_remotes(const struct maint_config *cfg, const char *tree,
			   struct strvec *remotes)
{
	const char *first = tree ? config_get(cfg, "tree", tree, "remote") : NULL;
	char *url = NULL;
	size_t nr_first;

	if (first)
		add_words(remotes, first);
	else if (!push_remote_url(cfg, "origin", &url))
		strvec_push(remotes, "origin");
	free(url);
	nr_first = remotes->nr;
	if (tree)
		add_words(remotes, config_get(cfg, "tree", tree, "backup"));
	if (!remotes->nr)
		return error("no remote to publish to: no 'origin', and no tree.<name>.remote");
	for (size_t i = 0; i < remotes->nr; i++) {
		int rc = push_remote_url(cfg, remotes->v[i], &url);

		free(url);
		if (rc > 0)
			return error("no remote '%s' (from tree.%s.%s); add it with 'git remote add'",
				     remotes->v[i], tree, i < nr_first ? "remote" : "backup");
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int full_ref(char **out, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "refs/heads/%s", name);
	if (!git_reference_is_valid_name(sb.buf)) {
		strbuf_release(&sb);
		return error("'%s' is not a valid branch name", name);
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

static int fill_opts(struct publish_opts *o, char **refs, git_repository *repo,
		     const struct maint_config *cfg, const struct publish_cmd_opts *c, const char *name)
{
	const char *tree, *v;
	char *work = NULL, *public = NULL;
	int ret = -1;

	if (resolve_branches(repo, cfg, name, &tree, &work, &public) < 0)
		goto out;
	if (full_ref(&refs[0], work) < 0 || full_ref(&refs[1], public) < 0)
		goto out;
	o->tree = tree;
	o->work = refs[0];
	o->public = refs[1];
	if (resolve_remotes(cfg, tree, &o->remotes) < 0)
		goto out;
	o->notify = c->notify >= 0 ? c->notify : config_get_bool(cfg, "tree", tree, "notify", 1);
	o->notify_reverts = config_get_bool(cfg, "tree", tree, "notify-reverts",
					    config_get_bool(cfg, "publish", NULL, "notify-reverts", 1));
	o->dry_run = c->dry_run;
	o->quiet = c->quiet;
	if (c->timeout >= 0)
		o->timeout = c->timeout;
	else if ((v = config_get(cfg, "publish", NULL, "timeout")))
		o->timeout = atoi(v);
	o->check_signoff = config_get_bool(cfg, "tree", tree, "check-signoff",
					   config_get_bool(cfg, "publish", NULL, "check-signoff", 0));
	o->check_fixes = config_get_bool(cfg, "tree", tree, "check-fixes",
					 config_get_bool(cfg, "publish", NULL, "check-fixes", 0));
	if (c->build) {
		o->build_cmd = tree ? config_get(cfg, "tree", tree, "build") : NULL;
		if (!o->build_cmd) {
			error("--build: no tree.<name>.build for '%s'", work);
			goto out;
		}
	}
	ret = 0;
out:
	free(work);
	free(public);
	return ret;
}

int cmd_main(int argc, const char **argv)
{
	struct publish_cmd_opts c = { ACTION_START, 0, -1, -1, 0, 0, COLOR_UNSET };
	struct option options[] = {
		OPT__DRY_RUN(&c.dry_run, "print the plan (commits, merge kind, remotes, notify) and change nothing"),
		OPT_BOOL(0, "notify", &c.notify, "tell the authors once every remote has the commits (default from config)"),
		OPT_INTEGER(0, "timeout", &c.timeout, "seconds",
			    "give up on a remote silent for this long (default 60)"),
		OPT_BOOL(0, "build", &c.build, "run the tree's build command in the work tree first"),
		OPT__QUIET(&c.quiet, "print only errors"),
		OPT__COLOR(&c.color, "colour the --dry-run plan: always, never or auto (color.ui)"),
		OPT_GROUP("Resuming"),
		OPT_SET_INT(0, "continue", &c.action, "push to the remotes still missing, then notify",
			    ACTION_CONTINUE),
		OPT_SET_INT(0, "abort", &c.action, "forget the pushes and mails still to do (moves no ref)",
			    ACTION_ABORT),
		OPT_END(),
	};
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct state_lock lock = STATE_LOCK_INIT;
	struct publish_opts popts = PUBLISH_OPTS_INIT;
	git_repository *repo = NULL;
	char *refs[2] = { NULL, NULL }, *head = NULL;
	enum maint_result rc;
	int ret = EXIT_FATAL;

	argc = parse_options(argc, argv, options, publish_usage, 0);
	if (c.action != ACTION_START && (argc || c.dry_run))
		usage_msg_opt(publish_usage, options, "--continue and --abort take no arguments and no --dry-run");
	if (argc > 1)
		usage_msg_opt(publish_usage, options, "publish one branch at a time");
	if (c.timeout < -1)
		usage_msg_opt(publish_usage, options, "--timeout must not be negative");

	repo = repo_open_or_die();
	if (config_load(&cfg, repo) < 0)
		goto cleanup;
	rc = state_lock_acquire(&lock, repo);
	if (rc != RESULT_OK) {
		ret = result_exit_code(rc);
		goto cleanup;
	}
	switch (c.action) {
	case ACTION_START:
		if (!argc && !(head = repo_current_branch(repo))) {
			error("HEAD is not on a branch; name the work branch to publish");
			goto cleanup;
		}
		if (fill_opts(&popts, refs, repo, &cfg, &c, argc ? argv[0] : head) < 0)
			goto cleanup;
		/* the plan is a report for people: paged and coloured on a terminal (pager.h, color.h) */
		if (c.dry_run && !c.quiet) {
			setup_pager(&cfg, "publish");
			popts.color = color_want(&cfg, "publish", c.color);
		}
		rc = publish_start(repo, &cfg, &lock, &popts);
		break;
	case ACTION_CONTINUE:
		rc = publish_continue(repo, &cfg, &lock, c.quiet);
		break;
	default:
		rc = publish_abort(repo);
		break;
	}
	ret = result_exit_code(rc);
cleanup:
	state_lock_release(&lock);
	strvec_clear(&popts.remotes);
	free(refs[0]);
	free(refs[1]);
	free(head);
	config_release(&cfg);
	git_repository_free(repo);
	return ret;
}
