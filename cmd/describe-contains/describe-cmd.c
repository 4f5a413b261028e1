/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line of git maint-describe-contains (see describe-cmd.h).
 */
#include "describe-cmd.h"
#include "oid.h"
#include "parse-options.h"
#include "usage.h"

#include <stdio.h>

static const char *const dc_usage[] = {
	"git maint-describe-contains [<options>] [<commit-ish>...]",
	"git maint-describe-contains [<options>] --stdin",
	NULL
};

int dc_parse_options(struct dc_options *o, int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_BOOL(0, "all", &o->all, "use any ref, not only tags (as git describe --all)"),
		OPT_STRING_LIST(0, "match", &o->match, "pattern",
				"only use tags matching <pattern> (glob; repeatable)"),
		OPT_STRING_LIST(0, "exclude", &o->exclude, "pattern",
				"do not use tags matching <pattern> (glob; repeatable)"),
		OPT_BOOL(0, "release", &o->release,
			 "print the first release tag that contains each commit"),
		OPT_BOOL(0, "stdin", &o->use_stdin, "read commits from standard input, one per line"),
		OPT_BOOL(0, "commit-graph", &o->use_graph,
			 "read the commit-graph if core.commitGraph allows (default; --no-commit-graph)"),
		OPT_BOOL(0, "cache", &o->use_cache,
			 "keep what tags peel to in $GIT_DIR/maint (default; --no-cache)"),
		/* from git-maint-describe-contains to its --libgit2 part */
		{ OPTION_INTEGER, 0, "answered", &o->answered, "n",
		  "the first <n> commits were answered already", PARSE_OPT_HIDDEN | PARSE_OPT_NONEG },
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, dc_usage, 0);
	if (o->use_stdin && argc)
		usage_msg_opt(dc_usage, opts, "--stdin takes no commit arguments");
	if (o->answered < 0 || o->answered > argc)
		usage_msg_opt(dc_usage, opts, "--answered=%d: there are %d commit arguments",
			      o->answered, argc);
	if (o->release && o->all)
		usage_msg_opt(dc_usage, opts, "--release and --all cannot be used together");
	return argc;
}
