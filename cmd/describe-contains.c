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
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"
#include "wrapper.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	/* Next to us (the build), then where make install puts it, then PATH. */
	if (len > 0) {
		self[len] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			strvec_pushf(out, "%s/%s", self, FULL_PROGRAM);
			if (access(out->v[0], X_OK)) {
				strvec_clear(out);
				strvec_pushf(out, "%s/../libexec/git-maint/%s", self, FULL_PROGRAM);
			}
		}
	}
	if (!out->nr || access(out->v[0], X_OK))
		strvec_clear(out), strvec_push(out, FULL_PROGRAM);	/* from PATH */
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
	struct strbuf rest = STRBUF_INIT;
	int fds[2], status;
	pid_t pid;
	FILE *to;

	refuse_if_testing(f, line);
	full_argv(&args, f, 0);
	if (pipe(fds) < 0)
		die_errno("cannot create a pipe");
	report_flush();
	pid = fork();
	if (pid < 0)
		die_errno("cannot fork");
	if (!pid) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		execvp(args.v[0], (char *const *)args.v);
		die_errno("cannot run '%s'", args.v[0]);
	}
	strvec_clear(&args);
	close(fds[0]);
	to = fdopen(fds[1], "w");
	if (!to)
		die_errno("cannot write to '%s'", FULL_PROGRAM);
	fprintf(to, "%s\n", line);
	while (!ferror(to) && fflush(to) != EOF && strbuf_getline(&rest, stdin) != EOF) {
		fwrite(rest.buf, 1, rest.len, to);
		fputc('\n', to);
	}
	fclose(to);
	strbuf_release(&rest);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("cannot wait for '%s'", FULL_PROGRAM);
	if (WIFEXITED(status))
		return result_from_exit_code(WEXITSTATUS(status));
	return RESULT_FATAL;
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
