/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PARSE_OPTIONS_H
#define PARSE_OPTIONS_H

/*
 * The one option parser. Each command declares a table of struct option;
 * the same table drives parsing, the "-h" usage text, and
 * --git-completion-helper (which lists the long options, for shell
 * completion and for the test that every option is documented).
 *
 * Conventions (git's): options and arguments may be mixed unless
 * PARSE_OPT_STOP_AT_NON_OPTION; "--" ends options; "--no-<name>" negates
 * any option not marked PARSE_OPT_NONEG; "--name=value" or "--name value";
 * short options bundle ("-qv") and take attached values ("-p1");
 * unambiguous prefixes of long options are accepted.
 * "-h" prints usage to stdout and exits 129; "--help" runs
 * "man git-maint-<name>"; "--version" prints the version (version.h) and
 * exits 0, for every program, so no table lists it (the usage and
 * --git-completion-helper add it); an unknown option prints the error
 * and usage to stderr and exits 129.
 */

#include <stdint.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading in the usage text */
	OPTION_BOOL,		/* int: 1, or 0 with --no- */
	OPTION_COUNTUP,		/* int: incremented, reset to 0 with --no- */
	OPTION_SET_INT,		/* int: set to defval, 0 with --no- */
	OPTION_INTEGER,		/* int: parsed decimal value */
	OPTION_STRING,		/* const char *: the argument (NULL with --no-) */
	OPTION_STRING_LIST,	/* struct strvec: appended (cleared with --no-) */
	OPTION_CALLBACK,	/* callback(opt, arg, unset) */
};

enum parse_opt_flags {
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
	PARSE_OPT_KEEP_DASHDASH = 1 << 1,
};

enum parse_opt_option_flags {
	PARSE_OPT_NONEG = 1 << 0,	/* no --no-<name> form */
	PARSE_OPT_NOARG = 1 << 1,	/* callback takes no argument */
	PARSE_OPT_OPTARG = 1 << 2,	/* argument optional, only as --name=value */
	PARSE_OPT_HIDDEN = 1 << 3,	/* not shown by -h */
};

struct option;
typedef int parse_opt_cb(const struct option *opt, const char *arg, int unset);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int flags;
	parse_opt_cb *callback;
	intptr_t defval;
};

#define OPT_END() { OPTION_END }
#define OPT_GROUP(h) { OPTION_GROUP, 0, NULL, NULL, NULL, (h) }
#define OPT_BOOL(s, l, v, h) { OPTION_BOOL, (s), (l), (v), NULL, (h) }
#define OPT_COUNTUP(s, l, v, h) { OPTION_COUNTUP, (s), (l), (v), NULL, (h) }
#define OPT_SET_INT(s, l, v, h, i) { OPTION_SET_INT, (s), (l), (v), NULL, (h), 0, NULL, (i) }
#define OPT_INTEGER(s, l, v, a, h) { OPTION_INTEGER, (s), (l), (v), (a), (h) }
#define OPT_STRING(s, l, v, a, h) { OPTION_STRING, (s), (l), (v), (a), (h) }
#define OPT_STRING_LIST(s, l, v, a, h) { OPTION_STRING_LIST, (s), (l), (v), (a), (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb) { OPTION_CALLBACK, (s), (l), (v), (a), (h), 0, (cb) }
#define OPT_CALLBACK_NOARG(s, l, v, h, cb) \
	{ OPTION_CALLBACK, (s), (l), (v), NULL, (h), PARSE_OPT_NOARG, (cb) }
#define OPT__QUIET(v, h) OPT_COUNTUP('q', "quiet", (v), (h))
#define OPT__VERBOSE(v, h) OPT_COUNTUP('v', "verbose", (v), (h))
#define OPT__DRY_RUN(v, h) OPT_BOOL('n', "dry-run", (v), (h))

/*
 * Parses argv[1..argc-1] against opts. Returns the number of remaining
 * arguments, moved to argv[0..n-1] (argv[n] is NULL). Exits 129 on a
 * usage error.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr, unsigned flags);

/* Prints the usage (usagestr lines, then the option table) and exits 129. */
__attribute__((noreturn)) void usage_with_options(const char *const *usagestr,
						  const struct option *opts);
/* error() the message, then usage_with_options(). */
__attribute__((noreturn, format(printf, 3, 4)))
void usage_msg_opt(const char *const *usagestr, const struct option *opts,
		   const char *fmt, ...);

#endif
