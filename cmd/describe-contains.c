/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * git maint-describe-contains: names commits by the tags that contain
 * them, with the same output as `git describe --contains`, or (with
 * --release) prints the first release tag containing each commit.
 * Commits come from the command line or, with --stdin, one per line,
 * answered in order and flushed line by line.
 *
 * This program answers from the repository's files alone (refs, the
 * commit-graph, the peel cache) and is not linked with libgit2, whose
 * loading and set-up would be most of a single query's time. The first
 * commit it cannot answer for certain, and every one after it, goes to
 * git-maint-describe-contains--libgit2: the rest of the arguments by
 * exec, the rest of standard input through a pipe.
 */
#include "describe-cmd.h"
#include "in-progress.h"
#include "repo-files.h"
#include "run-command.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FULL_PROGRAM "git-maint-describe-contains--libgit2"

struct front {
	const struct dc_options *o;
	/*
	 * GIT_MAINT_TEST_DESCRIBE_PATH (tests): "files" makes handing over
	 * fatal, "libgit2" hands everything over.
	 */
	const char *test_path;
	struct strvec given;	/* our command line as given, without the program */
	int nargs;		/* commit arguments in it */
};

/*
 * argv for the libgit2 program: its path, --answered=<n> when we answered
 * the first n commit arguments, then our own command line unchanged (the
 * two programs parse it with one option table).
 */
static void full_argv(struct strvec *out, const struct front *f, int answered)
{
	struct strbuf path = STRBUF_INIT;

	/* none found: its bare name, which exec reports as not found */
	strvec_push(out, find_part_program(&path, FULL_PROGRAM) ? FULL_PROGRAM : path.buf);
	strbuf_release(&path);
	if (answered)
		strvec_pushf(out, "--answered=%d", answered);
	for (size_t i = 0; i < f->given.nr; i++)
		strvec_push(out, f->given.v[i]);
}

static void refuse_if_testing(const struct front *f, const char *what)
{
	if (f->test_path && !strcmp(f->test_path, "files"))
		die("the files-only describer cannot answer '%s'", what);
}

static void NORETURN exec_full(void *ctx, int argc, const char **argv)
{
	const struct front *f = ctx;
	struct strvec args = STRVEC_INIT;

	refuse_if_testing(f, argc ? argv[0] : "HEAD");
	full_argv(&args, f, f->nargs - argc);
	report_flush();
	execvp(args.v[0], (char *const *)args.v);
	die_errno("cannot run '%s'", args.v[0]);
}

/* Hands line and the rest of standard input to the libgit2 program: its result. */
static enum maint_result pipe_to_full(void *ctx, const char *line)
{
	const struct front *f = ctx;
	struct strvec args = STRVEC_INIT;
	struct run_opts ro = { 0 };
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf rest = STRBUF_INIT;
	FILE *to;

	refuse_if_testing(f, line);
	full_argv(&args, f, 0);
	ro.argv = args.v;
	if (start_command(&cp, &ro, CHILD_PIPE_IN) < 0) {
		strvec_clear(&args);
		return RESULT_FATAL;
	}
	strvec_clear(&args);
	to = fdopen(cp.in, "w");
	if (!to)
		die_errno("cannot write to '%s'", FULL_PROGRAM);
	cp.in = -1;	/* fclose() closes it */
	fprintf(to, "%s\n", line);
	while (!ferror(to) && fflush(to) != EOF && strbuf_getline(&rest, stdin) != EOF) {
		fwrite(rest.buf, 1, rest.len, to);
		fputc('\n', to);
	}
	fclose(to);
	strbuf_release(&rest);
	return result_from_exit_code(finish_command(&cp));
}

int cmd_main(int argc, const char **argv)
{
	struct dc_options o = DC_OPTIONS_INIT;
	struct describe_options dopts = { 0 };
	struct front f = { &o, getenv("GIT_MAINT_TEST_DESCRIBE_PATH"), STRVEC_INIT, 0 };
	const struct dc_fallback fb = { exec_full, pipe_to_full, &f };
	struct repo_files *files = NULL;
	struct describer *d = NULL;
	enum maint_result ret;

	for (int i = 1; i < argc; i++)
		strvec_push(&f.given, argv[i]);
	argc = dc_parse_options(&o, argc, argv);
	in_progress_announce(NULL, 0);
	f.nargs = argc;
	dc_describe_options(&dopts, &o);
	if ((f.test_path && !strcmp(f.test_path, "libgit2")) || repo_files_open(&files) ||
	    describer_new_files(&d, files, &dopts)) {
		repo_files_free(files);
		exec_full(&f, argc, argv);	/* the whole run */
	}

	ret = o.use_stdin ? dc_run_stdin(d, &o, &fb) : dc_run_args(d, &o, argc, argv, &fb);

	describer_free(d);
	repo_files_free(files);
	dc_options_release(&o);
	strvec_clear(&f.given);
	return result_exit_code(ret);
}
