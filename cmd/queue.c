/*
 * git-maint-queue: apply a series of patch mails to a branch the way
 * `git am -s` would, in memory, moving the branch once; resumable with
 * --continue, --skip and --abort. The engine is common/queue.c.
 */
#include "config.h"
#include "parse-options.h"
#include "queue.h"
#include "repo.h"
#include "state.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const queue_usage[] = {
	"git maint-queue [<options>] <branch> [<mbox>|<Maildir>|-]...",
	"git maint-queue (--continue | --skip | --abort | --show-current)",
	NULL,
};

enum action { ACTION_START, ACTION_CONTINUE, ACTION_SKIP, ACTION_ABORT, ACTION_SHOW };

struct queue_cmd_opts {
	int action;
	int signoff;		/* -1: from config */
	int fuzz;		/* -1: from config */
	int three_way;		/* -1: from config */
	int build_each;		/* -1: from config */
	int quiet;
};

/* <tree>-next -> work-next, <tree>-linus -> work-linus (the article's naming), when that branch exists. */
static char *resolve_branch(git_repository *repo, const struct maint_config *cfg, const char *name,
			    const char **tree)
{
	const char *work;
	static const char *const suffixes[] = { "-next", "-linus" };

	*tree = config_tree_for_branch(cfg, name);
	if (*tree && (work = config_get(cfg, "tree", *tree, "work")))
		return xstrdup(work);
	if (!*tree) {
		for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
			struct strbuf sb = STRBUF_INIT;
			git_reference *ref = NULL;

			if (!ends_with(name, suffixes[i]) || !strcmp(name + 1, suffixes[i]) ||
			    starts_with(name, "work-"))
				continue;
			strbuf_addf(&sb, "refs/heads/work%s", suffixes[i]);
			if (!git_reference_lookup(&ref, repo, sb.buf)) {
				git_reference_free(ref);
				strbuf_remove(&sb, 0, strlen("refs/heads/"));
				return strbuf_detach(&sb, NULL);
			}
			strbuf_release(&sb);
		}
	}
	return xstrdup(name);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Options for the run: command line, else [tree "<name>"], else [queue]. */
static void fill_opts(struct queue_opts *o, const struct queue_cmd_opts *c,
		      const struct maint_config *cfg, const char *tree)
{
	const char *v;

	o->signoff = c->signoff >= 0 ? c->signoff :
		config_get_bool(cfg, "tree", tree, "signoff",
				config_get_bool(cfg, "queue", NULL, "signoff", 0));
	if (c->fuzz >= 0)
		o->fuzz = c->fuzz;
	else if ((v = config_get(cfg, "queue", NULL, "fuzz")))
		o->fuzz = atoi(v);
	o->three_way = c->three_way >= 0 ? c->three_way :
		config_get_bool(cfg, "queue", NULL, "3way", 0);
	o->quiet = c->quiet;
	v = tree ? config_get(cfg, "tree", tree, "link") : NULL;
	o->link_mask = dup_or_null(v ? v : config_get(cfg, "queue", NULL, "link"));
	if (tree) {
		o->check_cmd = dup_or_null(config_get(cfg, "tree", tree, "check"));
		v = config_get(cfg, "tree", tree, "check-failure");
		o->check_stop = v && !strcmp(v, "stop");
		o->build_cmd = dup_or_null(config_get(cfg, "tree", tree, "build"));
		o->build_each = config_get_bool(cfg, "tree", tree, "build-each", 0);
	}
	if (c->build_each >= 0)
		o->build_each = c->build_each;
}

int cmd_main(int argc, const char **argv)
{
	struct queue_cmd_opts c = { ACTION_START, -1, -1, -1, -1, 0 };
	struct option options[] = {
		OPT_BOOL('s', "signoff", &c.signoff, "add a Signed-off-by trailer (default from config)"),
		OPT_INTEGER(0, "fuzz", &c.fuzz, "n", "ignore up to <n> context lines when a hunk does not match"),
		OPT_BOOL('3', "3way", &c.three_way, "fall back to a three-way merge"),
		OPT_BOOL(0, "build-each", &c.build_each, "run the build command after each patch"),
		OPT__QUIET(&c.quiet, "do not list the patches as they are applied"),
		OPT_GROUP("Resuming"),
		OPT_SET_INT(0, "continue", &c.action, "go on after fixing the patch or the build", ACTION_CONTINUE),
		OPT_SET_INT(0, "skip", &c.action, "drop the patch the queue stopped at and go on", ACTION_SKIP),
		OPT_SET_INT(0, "abort", &c.action, "put the branch back and forget the queue", ACTION_ABORT),
		OPT_SET_INT(0, "show-current", &c.action, "show the mail of the patch the queue stopped at",
			    ACTION_SHOW),
		OPT_END(),
	};
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct maint_lock lock = MAINT_LOCK_INIT;
	struct queue_opts qopts = QUEUE_OPTS_INIT;
	git_repository *repo = NULL;
	char *branch = NULL, *ref = NULL;
	const char *tree = NULL;
	int ret = EXIT_FATAL, rc;

	argc = parse_options(argc, argv, options, queue_usage, 0);
	if (c.action == ACTION_START && argc < 1)
		usage_msg_opt(queue_usage, options, "which branch? (git maint-queue <branch> <mbox>)");
	if (c.action != ACTION_START && argc)
		usage_msg_opt(queue_usage, options, "--continue, --skip, --abort and --show-current take no arguments");
	if (c.fuzz < -1)
		usage_msg_opt(queue_usage, options, "--fuzz must not be negative");

	repo = repo_open_or_die();
	if (config_load(&cfg, repo) < 0)
		goto cleanup;
	if (c.action == ACTION_SHOW) {
		struct strbuf out = STRBUF_INIT;

		if (queue_show_current(repo, &out) == 0) {
			/* the mail as it is for a file or a pipe, never escape sequences for a terminal */
			if (isatty(1))
				strbuf_setlen(&out, neutralise_controls(out.buf, out.len));
			write_or_die(1, out.buf, out.len);
			ret = EXIT_OK;
		}
		strbuf_release(&out);
		goto cleanup;
	}
	rc = maint_lock_acquire(&lock, repo);
	if (rc) {
		ret = rc > 0 ? EXIT_TEMPFAIL : EXIT_FATAL;
		goto cleanup;
	}
	switch (c.action) {
	case ACTION_START:
		branch = resolve_branch(repo, &cfg, argv[0], &tree);
		if (strcmp(branch, argv[0]) && !c.quiet)
			printf("'%s' is queued on its work branch '%s'\n", argv[0], branch);
		{
			struct strbuf sb = STRBUF_INIT;

			if (!starts_with(branch, "refs/"))
				strbuf_addstr(&sb, "refs/heads/");
			strbuf_addstr(&sb, branch);
			ref = strbuf_detach(&sb, NULL);
		}
		if (!tree)
			tree = config_tree_for_branch(&cfg, branch);
		fill_opts(&qopts, &c, &cfg, tree);
		rc = queue_start(repo, &cfg, ref, argv + 1, argc - 1, &qopts);
		break;
	case ACTION_CONTINUE:
	case ACTION_SKIP:
		rc = queue_continue(repo, &cfg, c.action == ACTION_SKIP, c.quiet);
		break;
	default:
		rc = queue_abort(repo, &cfg);
		break;
	}
	ret = result_exit_code(rc);
cleanup:
	maint_lock_release(&lock);
	queue_opts_release(&qopts);
	free(branch);
	free(ref);
	config_release(&cfg);
	git_repository_free(repo);
	return ret;
}
