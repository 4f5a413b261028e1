/*
 * git maint-describe-contains: names commits by the tags that contain
 * them, with the same output as `git describe --contains`, or (with
 * --release) prints the first release tag containing each commit.
 * Commits come from the command line or, with --stdin, one per line,
 * answered in order and flushed line by line.
 *
 * Each commit is first asked of a describer that reads the repository's
 * files only (refs, the commit-graph, the peel cache), without setting
 * up libgit2, which is most of the time of a single query; whatever that
 * one cannot answer for certain goes to the libgit2 describer, opened
 * on first need.
 */
#include "describe.h"
#include "parse-options.h"
#include "repo-files.h"
#include "repo.h"
#include "strbuf.h"
#include "strvec.h"
#include "usage.h"

#include <stdio.h>
#include <string.h>

static const char *const dc_usage[] = {
	"git maint-describe-contains [<options>] [<commit-ish>...]",
	"git maint-describe-contains [<options>] --stdin",
	NULL
};

struct dc_options {
	int all;
	int release;
	int use_stdin;
	int use_graph;
	int use_cache;
	struct strvec match;
	struct strvec exclude;
};

struct dc_run {
	const struct dc_options *o;
	struct describe_options dopts;
	struct repo_files *files;
	struct describer *fast;		/* reads files only, or NULL */
	git_repository *repo;		/* opened on first need */
	struct describer *full;
	/*
	 * GIT_MAINT_TEST_DESCRIBE_PATH: "files" makes a fallback fatal,
	 * "libgit2" skips the files-only describer (tests of both paths).
	 */
	const char *test_path;
};

static struct describer *full_describer(struct dc_run *r)
{
	if (!r->full) {
		r->repo = repo_open_or_die();
		if (describer_new(&r->full, r->repo, &r->dopts) < 0)
			die("cannot read the repository's refs");
	}
	return r->full;
}

static int answer_with(struct describer *d, const struct dc_options *o, const char *rev,
		       git_oid *oid, struct strbuf *out)
{
	int rc = describer_resolve(d, rev, oid);

	if (rc < 0)
		return rc;
	if (o->release)
		return describe_release(d, oid, &o->match, &o->exclude, out);
	return describe_contains(d, oid, out);
}

/*
 * Answers one commit-ish: prints its name and returns 0; returns 1 when
 * nothing contains it, -1 when it cannot be resolved or read. *oid is
 * set when resolution succeeded.
 */
static int answer(struct dc_run *r, const char *rev, git_oid *oid, struct strbuf *out)
{
	int rc = DESCRIBE_FALLBACK;

	strbuf_reset(out);
	if (r->fast)
		rc = answer_with(r->fast, r->o, rev, oid, out);
	if (rc == DESCRIBE_FALLBACK) {
		if (r->test_path && !strcmp(r->test_path, "files"))
			die("the files-only describer cannot answer '%s'", rev);
		strbuf_reset(out);
		rc = answer_with(full_describer(r), r->o, rev, oid, out);
	}
	if (rc < 0)
		return -1;
	if (!rc) {
		strbuf_addch(out, '\n');
		fwrite(out->buf, 1, out->len, stdout);
	}
	return rc;
}

static int run_args(struct dc_run *r, int argc, const char **argv)
{
	static const char *head[] = { "HEAD", NULL };
	struct strbuf out = STRBUF_INIT;
	int i, ret = EXIT_OK;

	if (!argc) {
		argc = 1;
		argv = head;
	}
	for (i = 0; i < argc; i++) {
		git_oid oid;
		char hex[GIT_OID_HEXSZ + 1];
		int rc = answer(r, argv[i], &oid, &out);

		if (rc < 0) {
			ret = EXIT_NO;
		} else if (rc > 0) {
			/* like git: what was named so far, then the failure */
			fflush(stdout);
			strbuf_release(&out);
			die("cannot describe '%s'", git_oid_tostr(hex, sizeof(hex), &oid));
		}
	}
	strbuf_release(&out);
	return ret;
}

static int run_stdin(struct dc_run *r)
{
	struct strbuf line = STRBUF_INIT, out = STRBUF_INIT;
	int ret = EXIT_OK;

	while (strbuf_getline(&line, stdin) != EOF) {
		git_oid oid;

		strbuf_trim(&line);
		if (!line.len)
			continue;
		if (answer(r, line.buf, &oid, &out)) {
			printf("%s undefined\n", line.buf);
			ret = EXIT_NO;
		}
		if (fflush(stdout))
			die_errno("write error on standard output");
	}
	strbuf_release(&line);
	strbuf_release(&out);
	return ret;
}

int cmd_main(int argc, const char **argv)
{
	struct dc_options o = { 0, 0, 0, 1, 1, STRVEC_INIT, STRVEC_INIT };
	const struct option opts[] = {
		OPT_BOOL(0, "all", &o.all, "use any ref, not only tags (as git describe --all)"),
		OPT_STRING_LIST(0, "match", &o.match, "pattern",
				"only use tags matching <pattern> (glob; repeatable)"),
		OPT_STRING_LIST(0, "exclude", &o.exclude, "pattern",
				"do not use tags matching <pattern> (glob; repeatable)"),
		OPT_BOOL(0, "release", &o.release,
			 "print the first release tag that contains each commit"),
		OPT_BOOL(0, "stdin", &o.use_stdin, "read commits from standard input, one per line"),
		OPT_BOOL(0, "commit-graph", &o.use_graph,
			 "read the commit-graph if core.commitGraph allows (default; --no-commit-graph)"),
		OPT_BOOL(0, "cache", &o.use_cache,
			 "keep what tags peel to in $GIT_DIR/maint (default; --no-cache)"),
		OPT_END(),
	};
	struct dc_run r = { &o };
	int ret;

	argc = parse_options(argc, argv, opts, dc_usage, 0);
	if (o.use_stdin && argc)
		usage_msg_opt(dc_usage, opts, "--stdin takes no commit arguments");
	if (o.release && o.all)
		usage_msg_opt(dc_usage, opts, "--release and --all cannot be used together");

	r.dopts.all = o.all;
	r.dopts.match = &o.match;
	r.dopts.exclude = &o.exclude;
	r.dopts.use_graph = o.use_graph;
	r.dopts.use_cache = o.use_cache;
	r.test_path = getenv("GIT_MAINT_TEST_DESCRIBE_PATH");
	if ((r.test_path && !strcmp(r.test_path, "libgit2")) ||
	    repo_files_open(&r.files) || describer_new_files(&r.fast, r.files, &r.dopts))
		full_describer(&r);	/* "not a git repository" before reading input */

	ret = o.use_stdin ? run_stdin(&r) : run_args(&r, argc, argv);

	describer_free(r.fast);
	repo_files_free(r.files);
	describer_free(r.full);
	git_repository_free(r.repo);
	strvec_clear(&o.match);
	strvec_clear(&o.exclude);
	return ret;
}
