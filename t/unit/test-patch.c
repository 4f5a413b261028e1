/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests of the diff parser (common/mail/patch.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch.h"
#include "strbuf.h"

static int parse(struct patch_set *ps, const char *text, int p_value, struct strbuf *err)
{
	struct patch_parse_opts opts = PATCH_PARSE_OPTS_INIT;

	opts.p_value = p_value;
	opts.origin = "test";
	return patch_parse(ps, text, strlen(text), &opts, err);
}

/* Parses text, which must fail with a message containing want. */
static void expect_error(const char *text, int p_value, const char *want)
{
	struct patch_set ps = PATCH_SET_INIT;
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(parse(&ps, text, p_value, &err), -1);
	if (!strstr(err.buf, want))
		fail_msg("error '%s' does not contain '%s'", err.buf, want);
	assert_int_equal(ps.nr, 0);
	strbuf_release(&err);
}

static void git_diff_modify(void **state)
{
	struct patch_set ps = PATCH_SET_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *text =
		"Subject: x\n\nmessage\n---\n f | 2 +-\n\n"
		"diff --git a/dir/f b/dir/f\n"
		"index 1234567..89abcde 100644\n"
		"--- a/dir/f\n"
		"+++ b/dir/f\n"
		"@@ -1,3 +1,3 @@ section\n"
		" a\n"
		"-b\n"
		"+B\n"
		" c\n"
		"-- \n2.39.0\n";
	const struct patch_hunk *h;

	(void)state;
	assert_int_equal(parse(&ps, text, -1, &err), 0);
	assert_int_equal(ps.format, PATCH_FORMAT_GIT);
	assert_int_equal(ps.nr, 1);
	assert_string_equal(ps.files[0].old_path, "dir/f");
	assert_string_equal(ps.files[0].new_path, "dir/f");
	assert_string_equal(ps.files[0].old_oid, "1234567");
	assert_string_equal(ps.files[0].new_oid, "89abcde");
	assert_int_equal(ps.files[0].old_mode, 0100644);
	assert_int_equal(ps.files[0].hunk_nr, 1);
	h = &ps.files[0].hunks[0];
	assert_int_equal(h->old_start, 1);
	assert_int_equal(h->old_count, 3);
	assert_int_equal(h->nr, 4);
	assert_int_equal(h->leading, 1);
	assert_int_equal(h->trailing, 1);
	assert_memory_equal(h->section, "section", 7);
	assert_int_equal(h->lines[1].op, '-');
	assert_memory_equal(h->lines[2].text, "B\n", 2);
	patch_set_dispose(&ps);
	strbuf_release(&err);
}

static void git_diff_new_delete_rename_mode(void **state)
{
	struct patch_set ps = PATCH_SET_INIT;
	const char *text =
		"diff --git a/new b/new\n"
		"new file mode 100755\n"
		"index 0000000..e69de29\n"
		"diff --git a/old b/old\n"
		"deleted file mode 100644\n"
		"index 3b18e51..0000000\n"
		"--- a/old\n"
		"+++ /dev/null\n"
		"@@ -1 +0,0 @@\n"
		"-x\n"
		"diff --git a/a b/b\n"
		"similarity index 90%\n"
		"rename from a\n"
		"rename to b\n"
		"diff --git a/c d/e b/c d/e\n"
		"old mode 100644\n"
		"new mode 100755\n"
		"diff --git a/s b/t\n"
		"similarity index 100%\n"
		"copy from s\n"
		"copy to t\n";

	(void)state;
	assert_int_equal(parse(&ps, text, -1, NULL), 0);
	assert_int_equal(ps.nr, 5);
	assert_true(ps.files[0].is_new);
	assert_null(ps.files[0].old_path);
	assert_string_equal(ps.files[0].new_path, "new");
	assert_int_equal(ps.files[0].new_mode, 0100755);
	assert_true(ps.files[1].is_delete);
	assert_null(ps.files[1].new_path);
	assert_true(ps.files[2].is_rename);
	assert_int_equal(ps.files[2].similarity, 90);
	assert_string_equal(ps.files[2].old_path, "a");
	assert_string_equal(ps.files[2].new_path, "b");
	assert_string_equal(ps.files[3].old_path, "c d/e");
	assert_int_equal(ps.files[3].old_mode, 0100644);
	assert_int_equal(ps.files[3].new_mode, 0100755);
	assert_true(ps.files[4].is_copy);
	assert_string_equal(ps.files[4].old_path, "s");
	assert_string_equal(ps.files[4].new_path, "t");
	patch_set_dispose(&ps);
}

static void quoted_paths_and_no_newline(void **state)
{
	struct patch_set ps = PATCH_SET_INIT;
	const char *text =
		"diff --git \"a/t\\303\\244b\\tx\" \"b/t\\303\\244b\\tx\"\n"
		"--- \"a/t\\303\\244b\\tx\"\n"
		"+++ \"b/t\\303\\244b\\tx\"\n"
		"@@ -1 +1 @@\n"
		"-old\n"
		"\\ No newline at end of file\n"
		"+new\n";
	const struct patch_hunk *h;

	(void)state;
	assert_int_equal(parse(&ps, text, -1, NULL), 0);
	assert_string_equal(ps.files[0].new_path, "t\303\244b\tx");
	h = &ps.files[0].hunks[0];
	assert_int_equal(h->lines[0].len, 3);	/* "old" without newline */
	assert_int_equal(h->lines[1].len, 4);	/* "new\n" */
	patch_set_dispose(&ps);
}

static void traditional_and_quilt(void **state)
{
	struct patch_set ps = PATCH_SET_INIT;
	const char *quilt =
		"Index: linux/drivers/x.c\n"
		"===================================================================\n"
		"--- linux.orig/drivers/x.c\t2012-08-17 10:00:00.000000000 +0200\n"
		"+++ linux/drivers/x.c\t2012-08-17 10:01:00.000000000 +0200\n"
		"@@ -1,2 +1,2 @@\n"
		" a\n"
		"-b\n"
		"+c\n";
	const char *p0 =
		"diff -up x.c.orig x.c\n"
		"--- x.c.orig\t2012-08-17\n"
		"+++ x.c\t2012-08-17\n"
		"@@ -1 +1 @@\n"
		"-b\n"
		"+c\n"
		"--- /dev/null\n"
		"+++ y.c\n"
		"@@ -0,0 +1 @@\n"
		"+new\n";

	(void)state;
	assert_int_equal(parse(&ps, quilt, -1, NULL), 0);
	assert_int_equal(ps.format, PATCH_FORMAT_UNIFIED);
	assert_string_equal(ps.files[0].new_path, "drivers/x.c");
	assert_string_equal(ps.files[0].old_path, "drivers/x.c");
	patch_set_dispose(&ps);

	assert_int_equal(parse(&ps, p0, 0, NULL), 0);
	assert_int_equal(ps.nr, 2);
	assert_string_equal(ps.files[0].new_path, "x.c");
	assert_true(ps.files[1].is_new);
	assert_string_equal(ps.files[1].new_path, "y.c");
	patch_set_dispose(&ps);

	expect_error(p0, 3, "cannot strip 3 leading components");
}

static void binary_literal_and_delta(void **state)
{
	struct patch_set ps = PATCH_SET_INIT;
	/* "hello\n" deflated and base85-encoded, as git diff --binary writes it */
	const char *text =
		"diff --git a/b.bin b/b.bin\n"
		"new file mode 100644\n"
		"index 0000000000000000000000000000000000000000..ce013625030ba8dba906f756967f9e9ca394464a\n"
		"GIT binary patch\n"
		"literal 6\n"
		"Ncmc~u&B@8<0ssh00v`YX\n"
		"\n"
		"literal 0\n"
		"HcmV?d00001\n"
		"\n";

	(void)state;
	assert_int_equal(parse(&ps, text, -1, NULL), 0);
	assert_true(ps.files[0].is_binary);
	assert_int_equal(ps.files[0].forward.type, BINARY_LITERAL);
	assert_int_equal(ps.files[0].forward.data.len, 6);
	assert_memory_equal(ps.files[0].forward.data.buf, "hello\n", 6);
	assert_int_equal(ps.files[0].reverse.type, BINARY_LITERAL);
	assert_int_equal(ps.files[0].reverse.data.len, 0);
	patch_set_dispose(&ps);

	expect_error("diff --git a/b b/b\nnew file mode 100644\nGIT binary patch\nliteral 6\nNcmc~u&B@8<0ss\"00v`YX\n\n",
		     -1, "corrupt binary patch");
	expect_error("diff --git a/b b/b\nnew file mode 100644\nGIT binary patch\nliteral 6\nNcmd~u&B@8<0ssh00v`YX\n\n",
		     -1, "corrupt binary patch data");
	expect_error("diff --git a/b b/b\nnew file mode 100644\nGIT binary patch\nliteral 7\nNcmc~u&B@8<0ssh00v`YX\n\n",
		     -1, "corrupt binary patch data");
}

static void path_checks(void **state)
{
	static const char *bad[] = {
		"../x", "a/../b", "/etc/passwd", "a//b", "./a", "a/.", ".git/config", ".GIT/x",
		".git./x", ".git ", "git~1/x", "GIT~1", ".g\342\200\214it/x", "\357\273\277.git/x",
		".git::$INDEX_ALLOCATION/x", "a/\nb", "a\\b", "", "a/",
	};
	static const char *good[] = {
		"a", "a/b.c", ".gitignore", ".github/x", "git", "x.git", "..a", "a..", "a b/\tc",
		"\303\244/b",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (patch_path_check(bad[i], NULL) != -1)
			fail_msg("'%s' was accepted", bad[i]);
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		if (patch_path_check(good[i], NULL) != 0)
			fail_msg("'%s' was refused", good[i]);
}

static void protected_names(void **state)
{
	static const struct {
		const char *name;
		enum patch_protected_name id;
	} cases[] = {
		{ ".gitmodules", PATCH_NAME_GITMODULES },
		{ ".GitModules", PATCH_NAME_GITMODULES },
		{ "GITMOD~1", PATCH_NAME_GITMODULES },
		{ "gitmod~4 . ", PATCH_NAME_GITMODULES },
		{ "gi7eba~1", PATCH_NAME_GITMODULES },
		{ "gi7eb~12", PATCH_NAME_GITMODULES },
		{ "g~123456", PATCH_NAME_GITMODULES },
		{ ".gitmodules.", PATCH_NAME_GITMODULES },
		{ ".gitmodules ", PATCH_NAME_GITMODULES },
		{ ".gitmodules::$DATA", PATCH_NAME_GITMODULES },
		{ ".git\342\200\214modules", PATCH_NAME_GITMODULES },
		{ "\357\273\277.gitmodules\342\200\215", PATCH_NAME_GITMODULES },
		{ ".gitmodules\377", PATCH_NAME_GITMODULES },	/* not UTF-8: HFS+ ends the name */
		{ ".gitattributes", PATCH_NAME_GITATTRIBUTES },
		{ "gi7d29~1", PATCH_NAME_GITATTRIBUTES },
		{ "GITATT~2", PATCH_NAME_GITATTRIBUTES },
		{ ".gitignore", PATCH_NAME_GITIGNORE },
		{ "gi250a~1", PATCH_NAME_GITIGNORE },
		{ ".mailmap", PATCH_NAME_MAILMAP },
		{ "maba30~1", PATCH_NAME_MAILMAP },
		{ ".mail\342\200\215map", PATCH_NAME_MAILMAP },
		{ "GITMOD~5", PATCH_NAME_NONE },
		{ "gitmodules", PATCH_NAME_NONE },
		{ ".gitmodulesx", PATCH_NAME_NONE },
		{ ".gitmodules.x", PATCH_NAME_NONE },
		{ "gi7eba~0", PATCH_NAME_NONE },
		{ "g~12345", PATCH_NAME_NONE },
		{ ".gitmodule", PATCH_NAME_NONE },
		{ ".git\303\251modules", PATCH_NAME_NONE },
		{ "", PATCH_NAME_NONE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		if (patch_protected_name(cases[i].name, strlen(cases[i].name)) != cases[i].id)
			fail_msg("'%s': not %d", cases[i].name, (int)cases[i].id);
	/* only the component counts, not what follows it in the path */
	assert_int_equal(patch_protected_name(".gitmodules/x", 11), PATCH_NAME_GITMODULES);
	assert_int_equal(patch_protected_name(".gitmodulesx/y", 12), PATCH_NAME_NONE);
}

static void corrupt_input(void **state)
{
	(void)state;
	expect_error("hello\n", -1, "no patch found");
	expect_error("", -1, "no patch found");
	expect_error("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n", -1,
		     "is truncated");
	expect_error("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n-b\n+c\n", -1,
		     "more old lines");
	expect_error("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n a\n", -1,
		     "changes nothing");
	expect_error("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -x +1 @@\n", -1, "corrupt hunk header");
	expect_error("diff --git a/f b/f\n--- a/f\n+++ b/f\n", -1, "no hunks");
	expect_error("diff --git a/f b/f\n--- a/f\n@@ -1 +1 @@\n-a\n+b\n", -1, "without '+++'");
	expect_error("diff --git a/f b/g\nindex 1..2\n", -1, "lacks filename");
	expect_error("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n*b\n", -1,
		     "unexpected line");
	expect_error("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n?b\n", -1,
		     "unexpected line");
	expect_error("diff --git a/../f b/../f\n--- a/../f\n+++ b/../f\n@@ -1 +1 @@\n-a\n+b\n", -1,
		     "invalid path");
	expect_error("5a6\n> x\n", -1, "ed-style");
	expect_error("*** a\n--- b\n***************\n*** 1 ****\n! x\n--- 1 ----\n! y\n", -1,
		     "context diffs");
}

static void unsupported_finder(void **state)
{
	struct strbuf why = STRBUF_INIT;

	(void)state;
	assert_int_equal(patch_find_unsupported("a message\nwith text\n", 20, &why), 0);
	assert_int_equal(patch_find_unsupported("1c\n!sh\n.\n", 9, &why), 1);
	strbuf_release(&why);
}

static void quote_path(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	patch_quote_path(&sb, "plain/\303\244.c");
	assert_string_equal(sb.buf, "plain/\303\244.c");
	strbuf_reset(&sb);
	patch_quote_path(&sb, "tab\there\"\\");
	assert_string_equal(sb.buf, "\"tab\\there\\\"\\\\\"");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(git_diff_modify),
		cmocka_unit_test(git_diff_new_delete_rename_mode),
		cmocka_unit_test(quoted_paths_and_no_newline),
		cmocka_unit_test(traditional_and_quilt),
		cmocka_unit_test(binary_literal_and_delta),
		cmocka_unit_test(path_checks),
		cmocka_unit_test(protected_names),
		cmocka_unit_test(corrupt_input),
		cmocka_unit_test(unsupported_finder),
		cmocka_unit_test(quote_path),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
