/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git-maint-request-pull: ask upstream to pull the public branch. Tags its
 * tip (signed, as git tag -s), pushes the tag through publish's push
 * path, checks the remote has exactly that tag, and mails "[GIT PULL]"
 * with what git request-pull prints, once. Without --send a dry run.
 * The engine is common/engine/request-pull.c.
 */
#include "config-git.h"
#include "msg.h"
#include "parse-options.h"
#include "repo.h"
#include "request-pull.h"
#include "usage.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const request_pull_usage[] = {
	"git maint-request-pull [<options>] [<public-branch>]",
	"git maint-request-pull (--continue | --abort)",
	NULL,
};

enum action { ACTION_START, ACTION_CONTINUE, ACTION_ABORT };

int cmd_main(int argc, const char **argv)
{
	struct request_pull_opts o = REQUEST_PULL_OPTS_INIT;
	int action = ACTION_START, timeout = -1, edit = -1;
	const char *cleanup = NULL;
	struct option options[] = {
		OPT_GROUP("The tag"),
		OPT_STRING(0, "tag", &o.tag, "name", "the tag to make (default from tree.<name>.tag-format)"),
		OPT_STRING('m', "message", &o.message, "message", "the tag's message"),
		OPT_STRING('F', "file", &o.message_file, "file", "read the tag's message from a file ('-': stdin)"),
		OPT_BOOL('e', "edit", &edit,
			 "edit the tag's message (default: with --send on a terminal, without -m or -F)"),
		OPT_STRING(0, "cleanup", &cleanup, "mode",
			   "how to clean the message, as git tag: strip (default), whitespace, verbatim"),
		OPT_BOOL(0, "sign", &o.sign, "sign the tag as git tag -s does (default; --no-sign: unsigned)"),
		OPT_GROUP("The mail"),
		OPT_STRING_LIST(0, "to", &o.to, "address", "send to (default tree.<name>.upstream-to)"),
		OPT_STRING_LIST(0, "cc", &o.cc, "address", "copy to (default tree.<name>.upstream-cc)"),
		OPT_SET_INT(0, "send", &o.send, "tag, push and mail (default: an mbox on stdout)", 1),
		OPT_SET_INT('n', "dry-run", &o.send, "write the mail to stdout as an mbox (the default)", 0),
		OPT_INTEGER(0, "timeout", &timeout, "seconds",
			    "give up on a remote silent for this long (default 60)"),
		OPT__QUIET(&o.quiet, "print only errors"),
		OPT__VERBOSE(&o.verbose, "show the SMTP conversation (AUTH redacted)"),
		OPT_GROUP("Resuming"),
		OPT_SET_INT(0, "continue", &action, "push, check and mail what an interrupted run left",
			    ACTION_CONTINUE),
		OPT_SET_INT(0, "abort", &action, "forget an interrupted run (the tag stays)", ACTION_ABORT),
		OPT_END(),
	};
	struct maint_config cfg = MAINT_CONFIG_INIT;
	git_repository *repo;
	enum maint_result rc = RESULT_FATAL;

	argc = parse_options(argc, argv, options, request_pull_usage, 0);
	if (action != ACTION_START &&
	    (argc || o.tag || o.message || o.message_file || edit >= 0 || cleanup || o.to.nr || o.cc.nr ||
	     o.send))
		usage_msg_opt(request_pull_usage, options, "--continue and --abort take no other arguments");
	if (argc > 1)
		usage_msg_opt(request_pull_usage, options, "one public branch at a time");
	if (o.message && o.message_file)
		usage_msg_opt(request_pull_usage, options, "-m and -F cannot be used together");
	if (cleanup && msg_cleanup_parse(cleanup, &o.cleanup) < 0)
		die("invalid cleanup mode '%s'", cleanup);
	if (timeout < -1)
		usage_msg_opt(request_pull_usage, options, "--timeout must not be negative");
	o.branch = argc ? argv[0] : NULL;
	/* as git merge: the editor by default only for a person at a terminal */
	o.edit = edit >= 0 ? edit : o.send && !o.message && !o.message_file && isatty(0) && isatty(1);

	repo = repo_open_or_die();
	if (config_load(&cfg, repo) < 0)
		goto cleanup;
	if (timeout >= 0)
		o.timeout = timeout;
	else if (config_get(&cfg, "publish", NULL, "timeout"))
		o.timeout = atoi(config_get(&cfg, "publish", NULL, "timeout"));
	if (action == ACTION_CONTINUE)
		rc = request_pull_continue(repo, &cfg, &o);
	else if (action == ACTION_ABORT)
		rc = request_pull_abort(repo);
	else
		rc = request_pull_start(repo, &cfg, &o);
cleanup:
	strvec_clear(&o.to);
	strvec_clear(&o.cc);
	config_release(&cfg);
	git_repository_free(repo);
	return result_exit_code(rc);
}
