/*
 * test-apply: drives common/patch and common/apply directly, for tests.
 *
 *   test-apply [--fuzz=<n>] [-3] [-p<n>] [--write-tree] [--changes] <rev> <diff-file>...
 *
 * Applies the diff files (plain diffs, not mails) cumulatively to the
 * tree of <rev>, printing the porcelain report of each. With
 * --write-tree, writes the resulting tree after every patch that
 * applied (as queue does) and prints "tree <oid>" at the end; with
 * --changes, prints the overlay: "<D|M> <mode> <path>" per changed path.
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

int cmd_main(int argc, const char **argv)
{
	struct apply_opts aopts = APPLY_OPTS_INIT;
	int write_tree = 0, changes = 0, p_value = -1, failed = 0;
	struct option options[] = {
		OPT_INTEGER(0, "fuzz", &aopts.fuzz, "n", "fuzz"),
		OPT_BOOL('3', "3way", &aopts.three_way, "3-way"),
		OPT_INTEGER('p', NULL, &p_value, "n", "strip"),
		OPT_BOOL(0, "write-tree", &write_tree, "write trees"),
		OPT_BOOL(0, "changes", &changes, "print the overlay"),
		OPT_END()
	};
	git_repository *repo;
	git_commit *base;
	struct apply_session *s;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, text = STRBUF_INIT;
	git_oid tree;
	int nargs = parse_options(argc, argv, options, usage_str, 0);

	if (nargs < 1)
		usage_with_options(usage_str, options);
	repo = repo_open_or_die();
	if (repo_lookup_commit(&base, repo, argv[0]) < 0)
		return EXIT_FATAL;
	git_oid_cpy(&tree, git_commit_tree_id(base));
	if (apply_session_new(&s, repo, &tree, &aopts) < 0)
		return EXIT_FATAL;
	for (int i = 1; i < nargs; i++) {
		struct patch_set ps = PATCH_SET_INIT;
		struct patch_parse_opts popts = PATCH_PARSE_OPTS_INIT;
		struct apply_result res = APPLY_RESULT_INIT;
		char prefix[32];

		strbuf_reset(&text);
		if (strbuf_read_file(&text, argv[i], 0) < 0)
			die_errno("cannot read '%s'", argv[i]);
		popts.origin = argv[i];
		popts.p_value = p_value;
		if (patch_parse(&ps, text.buf, text.len, &popts, &err) < 0)
			apply_result_set_error(&res, err.buf);
		else if (apply_patch(s, &ps, &res) < 0)
			die("internal error");
		snprintf(prefix, sizeof(prefix), "%d\t", i);
		strbuf_addf(&out, "patch\t%d\t%s\n", i, res.ok ? "ok" : "failed");
		apply_result_print(&out, &res, APPLY_PRINT_PORCELAIN, prefix, 0);
		if (!res.ok)
			failed = 1;
		else if (write_tree && apply_session_write_tree(&tree, s, NULL) < 0)
			die("cannot write tree");
		apply_result_dispose(&res);
		patch_set_dispose(&ps);
	}
	if (changes) {
		struct apply_change *c;
		size_t nr;

		if (apply_session_changes(s, &c, &nr) < 0)
			die("cannot list changes");
		for (size_t i = 0; i < nr; i++)
			strbuf_addf(&out, "%c %06o %s\n", c[i].deleted ? 'D' : 'M',
				    c[i].deleted ? 0 : c[i].mode, c[i].path);
		free(c);
	}
	if (write_tree)
		strbuf_addf(&out, "tree %s\n", git_oid_tostr_s(&tree));
	write_or_die(1, out.buf, out.len);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&text);
	apply_session_free(s);
	git_commit_free(base);
	git_repository_free(repo);
	return failed ? EXIT_NO : EXIT_OK;
}
