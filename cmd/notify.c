/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git maint-notify: tell each author that their patch was applied, in the
 * thread of their mail, exactly once. Without --send the mails are an
 * mbox on standard output; with it they go out through the SMTP server
 * (or program) git send-email is configured with, and a journal in
 * refs/notes/maint-notify keeps a rerun from sending anything twice.
 *
 * The engine is common/engine/notify.h; delivery and the password
 * common/net/mailer.h.
 */

#include <string.h>
#include <unistd.h>

#include "config-git.h"
#include "in-progress.h"
#include "mailer.h"
#include "notify.h"
#include "pager.h"
#include "parse-options.h"
#include "repo.h"
#include "usage.h"

static const char *const usage_str[] = {
	"git maint-notify [<options>] [<revision-range>... | --stdin]",
	"git maint-notify (--store-password | --forget-password)",
	NULL
};

enum action { ACTION_NOTIFY, ACTION_STORE, ACTION_FORGET };

struct notify_cmd_opts {
	struct notify_opts n;
	int action;
};

/* Every range must leave something out: "A" alone would mean all of A's history. */
static int has_bottom(const char **revs, int n)
{
	for (int i = 0; i < n; i++)
		if (revs[i][0] == '^' || strstr(revs[i], ".."))
			return 1;
	return 0;
}

static int password_action(int action)
{
	struct maint_config cfg = MAINT_CONFIG_INIT;
	struct mailer_conf mc = MAILER_CONF_INIT;
	git_repository *repo = NULL;
	enum maint_result ret = RESULT_FATAL;

	/* sendemail.* may be in the repository's config; a repository is not required */
	if (repo_open_if_any(&repo) < 0)
		goto out;
	if (config_load(&cfg, repo) < 0 || mailer_conf_load(&mc, &cfg, NULL) < 0)
		goto out;
	ret = action == ACTION_STORE ? mailer_store_password(&mc) : mailer_forget_password(&mc);
	if (ret == RESULT_NO)
		error("no password stored for '%s' at %s", mc.user, mc.server);
out:
	mailer_conf_release(&mc);
	config_release(&cfg);
	git_repository_free(repo);
	return result_exit_code(ret);
}

int cmd_main(int argc, const char **argv)
{
	struct notify_cmd_opts o = { .n = NOTIFY_OPTS_INIT };
	struct option options[] = {
		OPT_GROUP("Sending"),
		OPT_SET_INT(0, "send", &o.n.send, "send the mails (default: write them to stdout)", 1),
		OPT_SET_INT('n', "dry-run", &o.n.send, "write the mails to stdout as an mbox (the default)", 0),
		OPT_STRING_LIST(0, "after-push", &o.n.after_push, "remote",
				"mail only commits this remote already has (repeatable)"),
		OPT_BOOL(0, "revert", &o.n.revert,
			 "announce reverts of announced commits in their thread"),
		OPT_BOOL(0, "retry-refused", &o.n.retry_refused,
			 "mail again only what the server refused (the cause fixed)"),
		OPT_STRING(0, "branch", &o.n.branch, "branch", "the branch named in the mails"),
		OPT_BOOL(0, "stdin", &o.n.use_stdin, "read commit ids from stdin, one per line"),
		OPT__QUIET(&o.n.quiet, "no line per mail sent"),
		OPT__VERBOSE(&o.n.verbose, "show the SMTP conversation (AUTH redacted)"),
		OPT_GROUP("Password"),
		OPT_SET_INT(0, "store-password", &o.action,
			    "store the SMTP password where git keeps passwords (from the terminal or stdin)",
			    ACTION_STORE),
		OPT_SET_INT(0, "forget-password", &o.action,
			    "remove the SMTP password from where git keeps it", ACTION_FORGET),
		OPT_END()
	};
	struct maint_config cfg = MAINT_CONFIG_INIT;
	git_repository *repo;
	int ret;

	argc = parse_options(argc, argv, options, usage_str, 0);
	if (o.action != ACTION_NOTIFY) {
		if (argc || o.n.send || o.n.use_stdin || o.n.after_push.nr || o.n.revert || o.n.branch ||
		    o.n.retry_refused)
			usage_msg_opt(usage_str, options,
				      "--store-password and --forget-password take no other option");
		return password_action(o.action);
	}
	if (o.n.use_stdin && argc)
		usage_msg_opt(usage_str, options, "--stdin and revision ranges cannot be used together");
	if (argc && !has_bottom(argv, argc))
		usage_msg_opt(usage_str, options,
			      "'%s' is not a range: give <since>..<until>, or commit ids with --stdin",
			      argv[0]);
	o.n.revs = argv;
	o.n.nrevs = argc;
	in_progress_announce(NULL, o.n.quiet);

	repo = repo_open_or_die();
	if (config_load(&cfg, repo) < 0)
		exit(EXIT_FATAL);
	/* the mails of a dry run are for people to read: paged on a terminal (pager.h) */
	if (!o.n.send && !(o.n.use_stdin && isatty(0)))
		setup_pager(&cfg, "notify");
	ret = notify_run(repo, &cfg, &o.n);
	config_release(&cfg);
	strvec_clear(&o.n.after_push);
	git_repository_free(repo);
	return result_exit_code(ret);
}
