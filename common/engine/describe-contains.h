/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DESCRIBE_CONTAINS_H
#define DESCRIBE_CONTAINS_H

/*
 * The describe-contains engine behind git-maint-describe-contains(1):
 * answers each commit of the command line or of standard input, in
 * order, with a describer (common/describe/describe.h), printing one
 * name a line and flushing line by line. Its two programs share it:
 * git-maint-describe-contains answers from the repository's files and
 * hands what it cannot answer to git-maint-describe-contains--libgit2
 * (the fallback below); the latter answers everything. Nothing here
 * calls libgit2.
 */

#include "describe.h"
#include "strvec.h"
#include "usage.h"

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

void dc_options_release(struct dc_options *o);
void dc_describe_options(struct describe_options *out, const struct dc_options *o);

/*
 * What to do when the describer answers DESCRIBE_FALLBACK: for the
 * arguments from the one it could not answer on (never returns), or for
 * standard input from line on (returns the result of the rest).
 */
struct dc_fallback {
	void (*args)(void *ctx, int argc, const char **argv);
	enum maint_result (*input)(void *ctx, const char *line);
	void *ctx;
};

/*
 * Answers the commits of argv (HEAD when none; the first o->answered
 * left out) or of standard input, as the command does, with d.
 * RESULT_OK; RESULT_NO when a commit is not a commit (or, from standard
 * input, is "undefined"); RESULT_FATAL (reported) when one that is cannot
 * be described (the arguments after it are not answered, as in git) or
 * standard output cannot be written.
 */
enum maint_result dc_run_args(struct describer *d, const struct dc_options *o, int argc,
			      const char **argv, const struct dc_fallback *fb);
enum maint_result dc_run_stdin(struct describer *d, const struct dc_options *o,
			       const struct dc_fallback *fb);

#endif
