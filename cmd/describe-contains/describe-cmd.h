#ifndef DESCRIBE_CMD_H
#define DESCRIBE_CMD_H

/*
 * The command line of git maint-describe-contains, shared by its two
 * programs: git-maint-describe-contains answers from the repository's
 * files and is not linked with libgit2 (start-up is most of a single
 * query's time); whatever it cannot answer for certain it hands to
 * git-maint-describe-contains--libgit2, which answers everything.
 * Nothing here calls libgit2.
 */

#include "describe.h"
#include "strbuf.h"
#include "strvec.h"

struct dc_options {
	int all;
	int release;
	int use_stdin;
	int use_graph;
	int use_cache;
	struct strvec match;
	struct strvec exclude;
	int answered;		/* --answered=<n>: the first n commit arguments were answered */
};

#define DC_OPTIONS_INIT { 0, 0, 0, 1, 1, STRVEC_INIT, STRVEC_INIT, 0 }

/*
 * Parses the options (one table for both programs); returns the
 * arguments left. The front hands its own command line over unchanged,
 * with the hidden --answered=<n> in front when it answered the first n
 * commit arguments itself.
 */
int dc_parse_options(struct dc_options *o, int argc, const char **argv);
void dc_options_release(struct dc_options *o);
void dc_describe_options(struct describe_options *out, const struct dc_options *o);

/*
 * What to do when the describer answers DESCRIBE_FALLBACK: for the
 * arguments from the one it could not answer on (never returns), or for
 * standard input from line on (returns the exit code of the rest).
 */
struct dc_fallback {
	void (*args)(void *ctx, int argc, const char **argv);
	int (*input)(void *ctx, const char *line);
	void *ctx;
};

/*
 * Answers the commits of argv (HEAD when none; the first o->answered
 * left out) or of standard input, as the command does, with d. Returns
 * the exit code.
 */
int dc_run_args(struct describer *d, const struct dc_options *o, int argc, const char **argv,
		const struct dc_fallback *fb);
int dc_run_stdin(struct describer *d, const struct dc_options *o, const struct dc_fallback *fb);

#endif
