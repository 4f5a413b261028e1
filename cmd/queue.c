/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git-maint-queue: apply a series of patch mails to a branch the way
 * `git am -s` would, in memory, moving the branch once; resumable with
 * --continue, --skip and --abort. The engine is common/engine/queue.c.
 */
#include "attest.h"
#include "config-git.h"
#include "fetch.h"
#include "in-progress.h"
#include "parse-options.h"
#include "queue.h"
#include "repo.h"
#include "review.h"
#include "source.h"
#include "state.h"
#include "strbuf.h"
#include "usage.h"
#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const queue_usage[] = {
	"git maint-queue [<options>] <branch> [<mbox>|<Maildir>|-|<Message-ID>|<URL>]...",
	"git maint-queue --show-trailers [<options>] <branch> [<mbox>|<Maildir>|-|<Message-ID>|<URL>]...",
	"git maint-queue (--continue | --skip | --abort | --show-current | --status)",
	NULL,
};

enum action { ACTION_START, ACTION_CONTINUE, ACTION_SKIP, ACTION_ABORT, ACTION_SHOW, ACTION_TRAILERS,
	      ACTION_STATUS };

struct queue_cmd_opts {
	int action;
	int signoff;		/* -1: from config */
	int fuzz;		/* -1: from config */
	int three_way;		/* -1: from config */
	int build_each;		/* -1: from config */
	int scissors;		/* -1: from git config mailinfo.scissors */
	int quiet;
	struct review_opts review;	/* --trailers, --sloppy-trailers */
	struct source_opts source;
	struct strvec series;	/* --series */
	const char *attest;		/* --attest=<policy>; NULL: attest.policy */
	const char *base;		/* --base=<commit>|auto; NULL: --no-base */
};

/* The full ref name of a branch given as "usb-next" or "refs/heads/usb-next"; caller frees. */
static char *branch_ref(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	if (!starts_with(name, "refs/"))
		strbuf_addstr(&sb, "refs/heads/");
	strbuf_addstr(&sb, name);
	return strbuf_detach(&sb, NULL);
}

/* 1 when branch name exists, 0 when not (or not a valid name), -1 error (reported). */
static int branch_exists(git_repository *repo, const char *name)
{
	char *ref = branch_ref(name);
	git_reference *r = NULL;
	int rc = git_reference_lookup(&r, repo, ref);

	git_reference_free(r);
	if (rc == GIT_ENOTFOUND || rc == GIT_EINVALIDSPEC)
		rc = 0;
	else if (!rc)
		rc = 1;
	else
		rc = lg2_check(rc, "cannot read '%s'", ref);
	free(ref);
	return rc;
}

/*
 * The branch patches for name go to: the work branch of the [tree] whose
 * public or work branch name is; else, for an existing branch
 * <tree>-next (or <tree>-linus) when work-next (work-linus) exists, that
 * work branch (the USB maintainer's naming); else name itself. NULL
 * (reported) when that branch does not exist: a typo must not land on
 * another tree.
 */
static char *resolve_branch(git_repository *repo, const struct maint_config *cfg, const char *name,
			    const char **tree)
{
	static const char *const suffixes[] = { "-next", "-linus" };
	const char *work = NULL;
	char *branch = NULL;
	int rc;

	*tree = config_tree_for_branch(cfg, name);
	if (*tree)
		work = config_get(cfg, "tree", *tree, "work");
	for (size_t i = 0; !*tree && i < ARRAY_SIZE(suffixes); i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!ends_with(name, suffixes[i]) || strlen(name) == strlen(suffixes[i]) ||
		    starts_with(name, "work-"))
			continue;
		strbuf_addf(&sb, "work%s", suffixes[i]);
		rc = branch_exists(repo, name);
		if (rc > 0)
			rc = branch_exists(repo, sb.buf);
		if (rc > 0)
			branch = strbuf_detach(&sb, NULL);
		strbuf_release(&sb);
		if (rc < 0)
			return NULL;
		break;
	}
	if (!branch)
		branch = xstrdup(work ? work : name);
	rc = branch_exists(repo, branch);
	if (!rc) {
		struct stat st;

		error("no such branch '%s'", branch);
		/* "git maint-queue ../s1": the mailbox given, the branch forgotten */
		if (!work && !stat(name, &st))
			advise("'%s' is a %s; the branch comes first: git maint-queue <branch> %s",
			       name, S_ISDIR(st.st_mode) ? "directory" : "file", name);
		else
			repo_advise_similar_branches(repo, branch);
	}
	if (rc <= 0) {
		free(branch);
		branch = NULL;
	}
	return branch;
}

/*
 * tree.<name>.link or queue.link: a mask; true (or a bare key) for b4's
 * mask, b4.linkmask (else b4's default), the same setting; false: none.
 */
static char *link_mask(const struct maint_config *cfg, const char *v)
{
	int b = v ? config_parse_bool(v) : 0;
	char *mask;

	if (b == 0)
		return NULL;
	if (b < 0)
		return xstrdup(v);
	mask = config_git_string(cfg, "b4.linkmask");
	return mask ? mask : xstrdup("https://lore.kernel.org/r/%s");
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
	o->source = c->source;
	o->attest = xstrdup_or_null(c->attest);
	v = tree ? config_get(cfg, "tree", tree, "link") : NULL;
	o->link_mask = link_mask(cfg, v ? v : config_get(cfg, "queue", NULL, "link"));
	if (tree) {
		o->check_cmd = xstrdup_or_null(config_get(cfg, "tree", tree, "check"));
		v = config_get(cfg, "tree", tree, "check-failure");
		o->check_stop = v && !strcmp(v, "stop");
		o->build_cmd = xstrdup_or_null(config_get(cfg, "tree", tree, "build"));
		o->build_each = config_get_bool(cfg, "tree", tree, "build-each", 0);
	}
	if (c->build_each >= 0)
		o->build_each = c->build_each;
	o->scissors = c->scissors;
	o->series = &c->series;
	o->base = c->base;
}

/*
 * git's mailinfo.scissors, the default of --scissors as git am takes it:
 * 0 or 1, or -1 (reported) when it is not a boolean.
 */
static int scissors_from_config(const struct maint_config *cfg)
{
	char *v = config_git_string(cfg, "mailinfo.scissors");
	int b = v ? config_parse_bool(v) : 0;

	if (b < 0)
		error("bad boolean config value '%s' for 'mailinfo.scissors'", v);
	free(v);
	return b;
}

/* --show-trailers: the preview of queue_start()'s trailers, nothing applied; an exit code. */
static int show_trailers(git_repository *repo, const struct maint_config *cfg, struct queue_cmd_opts *c,
			 const char *branch, const char *tree, const char **args, int nargs)
{
	struct queue_opts qopts = QUEUE_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	enum maint_result rc;

	if (!tree)
		tree = config_tree_for_branch(cfg, branch);
	if (c->scissors < 0 && (c->scissors = scissors_from_config(cfg)) < 0)
		return EXIT_FATAL;
	fill_opts(&qopts, c, cfg, tree);
	qopts.review = &c->review;
	rc = queue_show_trailers(repo, cfg, args, nargs, &qopts, &out);
	/* a listing of text from mail: never control sequences, one record a line */
	strbuf_setlen(&out, neutralise_controls(out.buf, out.len));
	write_or_die(1, out.buf, out.len);
	strbuf_release(&out);
	queue_opts_release(&qopts);
	return result_exit_code(rc);
}

/* --status: what is stopped, on stdout; exit 1 when nothing is. */
static int show_status(void)
{
	struct strbuf out = STRBUF_INIT;
	size_t nr = in_progress_status(&out);

	if (!nr)
		strbuf_addstr(&out, "No queue and no publish is stopped.\n");
	write_or_die(1, out.buf, out.len);
	strbuf_release(&out);
	return nr ? EXIT_OK : EXIT_NO;
}

int cmd_main(int argc, const char **argv)
{
	struct queue_cmd_opts c = { ACTION_START, -1, -1, -1, -1, -1, 0, REVIEW_OPTS_INIT, SOURCE_OPTS_INIT,
				    STRVEC_INIT };
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct option options[] = {
		OPT_BOOL('s', "signoff", &c.signoff, "add a Signed-off-by trailer (default from config)"),
		OPT_INTEGER(0, "fuzz", &c.fuzz, "n", "ignore up to <n> context lines when a hunk does not match"),
		OPT_BOOL('3', "3way", &c.three_way, "fall back to a three-way merge"),
		OPT_BOOL(0, "build-each", &c.build_each, "run the build command after each patch"),
		OPT_BOOL('c', "scissors", &c.scissors, "strip everything before a scissors line (as git am)"),
		OPT__QUIET(&c.quiet, "do not list the patches as they are applied"),
		OPT_STRING_LIST(0, "series", &c.series, "n|message-id",
				"queue this series of the input (repeatable): its number, or the Message-ID of one of its mails"),
		OPT_ATTEST(&c.attest),
		OPT_STRING(0, "base", &c.base, "commit|auto",
			   "refuse a series whose base (auto: its base-commit) the branch lacks"),
		OPT_GROUP("Trailers from the replies"),
		OPT_REVIEW(&c.review),
		OPT_SET_INT(0, "show-trailers", &c.action,
			    "show the trailers each commit would get, apply nothing", ACTION_TRAILERS),
		OPT_MAIL_SOURCE(&c.source),
		OPT_GROUP("Resuming"),
		OPT_SET_INT(0, "continue", &c.action, "go on after fixing the patch or the build", ACTION_CONTINUE),
		OPT_SET_INT(0, "skip", &c.action, "drop the patch the queue stopped at and go on", ACTION_SKIP),
		OPT_SET_INT(0, "abort", &c.action, "put the branch back and forget the queue", ACTION_ABORT),
		OPT_SET_INT(0, "show-current", &c.action, "show the mail of the patch the queue stopped at",
			    ACTION_SHOW),
		OPT_SET_INT(0, "status", &c.action, "say whether a queue or a publish is stopped, where, and why",
			    ACTION_STATUS),
		OPT_FETCH(&fo),
		OPT_END(),
	};
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct state_lock lock = STATE_LOCK_INIT;
	struct queue_opts qopts = QUEUE_OPTS_INIT;
	git_repository *repo = NULL;
	char *branch = NULL, *ref = NULL;
	const char *tree = NULL;
	enum maint_result rc;
	int ret = EXIT_FATAL;

	argc = parse_options(argc, argv, options, queue_usage, 0);
	if ((c.action == ACTION_START || c.action == ACTION_TRAILERS) && argc < 1)
		usage_msg_opt(queue_usage, options, "which branch? (git maint-queue <branch> <mbox>)");
	if (c.action != ACTION_START && c.action != ACTION_TRAILERS && argc)
		usage_msg_opt(queue_usage, options,
			      "--continue, --skip, --abort, --show-current and --status take no arguments");
	if (c.fuzz < -1)
		usage_msg_opt(queue_usage, options, "--fuzz must not be negative");

	repo = repo_open_or_die();
	if (c.action == ACTION_STATUS) {
		ret = show_status();
		goto cleanup;
	}
	/* a stopped publish; a stopped queue is this command's to tell */
	in_progress_announce("queue", c.quiet);
	if (config_load(&cfg, repo) < 0 || review_opts_config(&c.review, &cfg) < 0)
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
	if ((c.action == ACTION_START || c.action == ACTION_TRAILERS) &&
	    !(branch = resolve_branch(repo, &cfg, argv[0], &tree)))
		goto cleanup;
	/* before the lock and anything it guards: unreachable mail changes nothing */
	fo.quiet = c.quiet;
	if ((c.action == ACTION_START || c.action == ACTION_TRAILERS) &&
	    (rc = fetch_prepare(argv + 1, argc - 1, &fo)) != RESULT_OK) {
		ret = result_exit_code(rc);
		goto cleanup;
	}
	/*
	 * and a Makefile given for a mailbox is refused before we say a word;
	 * so is a bare diff, as git am does: a commit needs an author
	 */
	if (c.action == ACTION_START && source_check_format(argv + 1, argc - 1, SOURCE_MAIL_ONLY) < 0)
		goto cleanup;
	if (c.action == ACTION_TRAILERS) {
		ret = show_trailers(repo, &cfg, &c, branch, tree, argv + 1, argc - 1);
		goto cleanup;
	}
	rc = state_lock_acquire(&lock, repo);
	if (rc != RESULT_OK) {
		ret = result_exit_code(rc);
		goto cleanup;
	}
	switch (c.action) {
	case ACTION_START:
		if (strcmp(branch, argv[0]) && !c.quiet)
			say(stdout, "'%s' is queued on its work branch '%s'", argv[0], branch);
		ref = branch_ref(branch);
		if (!tree)
			tree = config_tree_for_branch(&cfg, branch);
		if (c.scissors < 0 && (c.scissors = scissors_from_config(&cfg)) < 0) {
			ret = EXIT_FATAL;
			goto cleanup;
		}
		fill_opts(&qopts, &c, &cfg, tree);
		qopts.review = &c.review;
		rc = queue_start(repo, &cfg, &lock, ref, argv + 1, argc - 1, &qopts);
		break;
	case ACTION_CONTINUE:
	case ACTION_SKIP:
		rc = queue_continue(repo, &cfg, &lock, c.action == ACTION_SKIP, c.quiet);
		break;
	default:
		rc = queue_abort(repo, &cfg, &lock);
		break;
	}
	ret = result_exit_code(rc);
cleanup:
	state_lock_release(&lock);
	queue_opts_release(&qopts);
	review_opts_release(&c.review);
	strvec_clear(&c.series);
	free(branch);
	free(ref);
	config_release(&cfg);
	git_repository_free(repo);
	fetch_release();
	return ret;
}
