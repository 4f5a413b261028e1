/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-apply: drives common/patch and common/apply directly, for tests.
 *
 *   test-apply [--fuzz=<n>] [-3] [-p<n>] [--write-tree] [--changes] [--each=<n>]
 *              <rev> <diff-file>...
 *
 * Applies the diff files (plain diffs, not mails) cumulatively to the
 * tree of <rev>, printing the porcelain report of each. With
 * --write-tree, writes the resulting tree after every patch that
 * applied (as queue does) and prints "tree <oid>" at the end; with
 * --changes, prints the overlay: "<D|M> <mode> <path>" per changed path.
 * With --each=<n>, takes the diff files <n> at a time and applies each
 * group afresh to the tree of <rev>, as one run per group would (the
 * runs' reports follow one another, each opened by "run\t<k>\t<first
 * diff file>"): one process where a test would start hundreds.
 * Exit 1 when a patch failed.
 */
#include "apply.h"
#include "parse-options.h"
#include "patch.h"
#include "repo.h"
#include "strbuf.h"
#include "wrapper.h"

#include <stdlib.h>

static const char *const usage_str[] = {
	"test-apply [<options>] <rev> <diff-file>...",
	NULL
};

struct run_opts {
	struct apply_opts apply;
	int write_tree, changes, p_value;
};

/*
 * One run: the diff files applied cumulatively to <tree> in a session of
 * their own, the report appended to <out>. Returns 1 when a patch failed,
 * 0 when all applied.
 */
static int run(struct strbuf *out, git_repository *repo, const git_oid *base_tree,
	       const struct run_opts *o, const char **files, int nr)
{
	struct apply_session *s;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	git_oid tree;
	int failed = 0;

	git_oid_cpy(&tree, base_tree);
	if (apply_session_new(&s, repo, &tree, &o->apply) < 0)
		exit(EXIT_FATAL);
	for (int i = 0; i < nr; i++) {
		struct patch_set ps = PATCH_SET_INIT;
		struct patch_parse_opts popts = PATCH_PARSE_OPTS_INIT;
		struct apply_result res = APPLY_RESULT_INIT;
		char prefix[32];

		strbuf_reset(&text);
		if (strbuf_read_file(&text, files[i], 0) < 0)
			die_errno("cannot read '%s'", files[i]);
		popts.origin = files[i];
		popts.p_value = o->p_value;
		if (patch_parse(&ps, text.buf, text.len, &popts, &err) < 0)
			apply_result_set_error(&res, err.buf);
		else if (apply_patch(s, &ps, &res) < 0)
			die("internal error");
		snprintf(prefix, sizeof(prefix), "%d\t", i + 1);
		strbuf_addf(out, "patch\t%d\t%s\n", i + 1, res.ok ? "ok" : "failed");
		apply_result_print(out, &res, APPLY_PRINT_PORCELAIN, prefix, 0);
		if (!res.ok)
			failed = 1;
		else if (o->write_tree && apply_session_write_tree(&tree, s, NULL) < 0)
			die("cannot write tree");
		apply_result_dispose(&res);
		patch_set_dispose(&ps);
	}
	if (o->changes) {
		struct apply_change *c;
		size_t n;

		if (apply_session_changes(s, &c, &n) < 0)
			die("cannot list changes");
		for (size_t i = 0; i < n; i++)
			strbuf_addf(out, "%c %06o %s\n", c[i].deleted ? 'D' : 'M',
				    c[i].deleted ? 0 : c[i].mode, c[i].path);
		free(c);
	}
	if (o->write_tree)
		strbuf_addf(out, "tree %s\n", git_oid_tostr_s(&tree));
	strbuf_release(&err);
	strbuf_release(&text);
	apply_session_free(s);
	return failed;
}

int cmd_main(int argc, const char **argv)
{
	struct run_opts o = { .apply = APPLY_OPTS_INIT, .p_value = -1 };
	int each = 0, failed = 0;
	struct option options[] = {
		OPT_INTEGER(0, "fuzz", &o.apply.fuzz, "n", "fuzz"),
		OPT_BOOL('3', "3way", &o.apply.three_way, "3-way"),
		OPT_INTEGER('p', NULL, &o.p_value, "n", "strip"),
		OPT_BOOL(0, "write-tree", &o.write_tree, "write trees"),
		OPT_BOOL(0, "changes", &o.changes, "print the overlay"),
		OPT_INTEGER(0, "each", &each, "n", "one run per <n> diff files"),
		OPT_END()
	};
	git_repository *repo;
	git_commit *base;
	struct strbuf out = STRBUF_INIT;
	int nargs = parse_options(argc, argv, options, usage_str, 0);

	if (nargs < 1 || each < 0 || (each && (nargs - 1) % each))
		usage_with_options(usage_str, options);
	repo = repo_open_or_die();
	if (repo_lookup_commit(&base, repo, argv[0]) < 0)
		return EXIT_FATAL;
	if (!each) {
		failed = run(&out, repo, git_commit_tree_id(base), &o, argv + 1, nargs - 1);
	} else {
		for (int i = 1; i < nargs; i += each) {
			strbuf_addf(&out, "run\t%d\t%s\n", (i - 1) / each + 1, argv[i]);
			failed |= run(&out, repo, git_commit_tree_id(base), &o, argv + i, each);
			/* a crash in a later run still shows the reports before it */
			write_or_die(1, out.buf, out.len);
			strbuf_reset(&out);
		}
	}
	write_or_die(1, out.buf, out.len);
	strbuf_release(&out);
	git_commit_free(base);
	git_repository_free(repo);
	return failed ? EXIT_NO : EXIT_OK;
}
