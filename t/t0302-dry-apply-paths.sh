#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='dry-apply path safety: .., absolute paths, .git look-alikes, symlinks (after git t4139, t4122, t4115)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-apply.sh"

# refused <pattern> <diff-file>: dry-apply exits 1 and says why.
# The repository is in repo/; diffs and outputs stay outside it.
refused () {
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --porcelain "../$2" >../out
	) &&
	grep "$1" out
}

# in_repo <command>...: runs a command in repo/.
in_repo () {
	(cd repo && "$@")
}

test_expect_success 'setup' '
	git init -q repo &&
	cd repo &&
	echo content >file &&
	mkdir -p arch/i386/dir &&
	echo original >arch/i386/dir/file &&
	mkdir -p arch/x86_64 &&
	ln -s ../i386/dir arch/x86_64/dir &&
	ln -s .git symlink &&
	git add . &&
	test_tick &&
	git commit -q -m base &&
	repo_state >../state.before &&
	count_objects >../objects.before &&
	cd ..
'

for p in ../foo a/../../etc/passwd b/./../x foo/../../x ./foo foo//bar
do
	test_expect_success "cannot create '$p'" '
		create_diff "'"$p"'" >p.diff &&
		refused "invalid path" p.diff
	'
	test_expect_success "cannot delete '$p'" '
		delete_diff "'"$p"'" >p.diff &&
		refused "invalid path" p.diff
	'
done

test_expect_success 'cannot create an absolute path (traditional diff, -p0)' '
	printf "%s\n" "--- /dev/null" "+++ /etc/passwd" "@@ -0,0 +1 @@" "+root::0:0::/:/bin/sh" >p.diff &&
	test_expect_code 1 in_repo git-maint-dry-apply -p0 ../p.diff >out &&
	grep "absolute path" out
'

for p in .git/hooks/post-commit .GIT/config .git./config ".git /config" git~1/config GIT~1/config \
	 sub/.git/config ".git::\$INDEX_ALLOCATION/config"
do
	test_expect_success "cannot write '$p'" '
		create_diff "'"$p"'" >p.diff &&
		refused "invalid path .*.git. in path" p.diff
	'
done

test_expect_success 'cannot write .git hidden by an ignorable Unicode character (HFS+)' '
	printf "%s\n" "diff --git \"a/.g\\342\\200\\214it/config\" \"b/.g\\342\\200\\214it/config\"" \
		"new file mode 100644" "--- /dev/null" "+++ \"b/.g\\342\\200\\214it/config\"" \
		"@@ -0,0 +1 @@" "+x" >p.diff &&
	refused "invalid path .*.git. in path" p.diff
'

test_expect_success 'a quoted path with a NUL byte is refused' '
	printf "%s\n" "diff --git \"a/x\\000y\" \"b/x\\000y\"" "new file mode 100644" \
		"--- /dev/null" "+++ \"b/x\\000y\"" "@@ -0,0 +1 @@" "+x" >p.diff &&
	refused "malformed file name" p.diff
'

test_expect_success '.gitmodules may not become a symbolic link' '
	printf "%s\n" "diff --git a/.gitmodules b/.gitmodules" "new file mode 120000" \
		"--- /dev/null" "+++ b/.gitmodules" "@@ -0,0 +1 @@" "+/etc/passwd" \
		"\\ No newline at end of file" >p.diff &&
	refused "may not be a symbolic link" p.diff
'

# t4139: a symlink created by the patch, then a write beyond it.
symlink_then_write () {
	printf "%s\n" "diff --git a/tmp b/tmp" "new file mode 120000" "index 0000000..$1" \
		"--- /dev/null" "+++ b/tmp" "@@ -0,0 +1 @@" "+$2" "\\ No newline at end of file"
	create_diff tmp/foo
}

test_expect_success 'symlink escape via .. in the same patch' '
	symlink_then_write e831038 .. >p.diff &&
	refused "beyond a symbolic link" p.diff
'

test_expect_success 'symlink escape via an absolute path in the same patch' '
	symlink_then_write 1a010b1 "$(pwd)" >p.diff &&
	refused "beyond a symbolic link" p.diff
'

test_expect_success 'symlink escape across patches of a series' '
	printf "%s\n" "diff --git a/tmp b/tmp" "new file mode 120000" "index 0000000..e831038" \
		"--- /dev/null" "+++ b/tmp" "@@ -0,0 +1 @@" "+.." "\\ No newline at end of file" >p1.diff &&
	create_diff tmp/foo >p2.diff &&
	test_expect_code 1 in_repo test-apply HEAD ../p1.diff ../p2.diff >out &&
	grep "^patch	1	ok" out &&
	grep "^patch	2	failed" out &&
	grep "beyond a symbolic link" out
'

test_expect_success 'the link created in memory is in the written tree (not dropped)' '
	git clone -q repo scratch &&
	(
		cd scratch &&
		test-apply --write-tree HEAD ../p1.diff >../out &&
		tree=$(sed -n "s/^tree //p" ../out) &&
		git ls-tree $tree tmp >../actual &&
		test "$(git cat-file blob $tree:tmp)" = ".."
	) &&
	grep "^120000 blob .*	tmp\$" actual
'

for what in create modify delete
do
	test_expect_success "$what beyond a renamed symlink (CVE-2023-23946)" '
		rename_symlink_then '$what' >p.diff &&
		refused "beyond a symbolic link" p.diff
	'
done

test_expect_success 'write beyond a symlink renamed by an earlier patch' '
	rename_symlink_then none >p1.diff &&
	create_diff renamed-symlink/create-me >p2.diff &&
	test_expect_code 1 in_repo test-apply HEAD ../p1.diff ../p2.diff >out &&
	grep "^patch	1	ok" out &&
	grep "^patch	2	failed" out
'

# t4122: a tracked symlink to a directory.
test_expect_success 'cannot modify a file through a tracked symlinked directory' '
	printf "%s\n" "diff --git a/arch/x86_64/dir/file b/arch/x86_64/dir/file" \
		"--- a/arch/x86_64/dir/file" "+++ b/arch/x86_64/dir/file" \
		"@@ -1 +1 @@" "-original" "+changed" >p.diff &&
	refused "beyond a symbolic link" p.diff
'

test_expect_success 'cannot create or delete through a tracked symlinked directory' '
	create_diff arch/x86_64/dir/new >p.diff &&
	refused "beyond a symbolic link" p.diff &&
	delete_diff arch/x86_64/dir/file >p.diff &&
	refused "beyond a symbolic link" p.diff
'

test_expect_success 'the real directory can still be patched' '
	printf "%s\n" "diff --git a/arch/i386/dir/file b/arch/i386/dir/file" \
		"--- a/arch/i386/dir/file" "+++ b/arch/i386/dir/file" \
		"@@ -1 +1 @@" "-original" "+changed" >p.diff &&
	in_repo git-maint-dry-apply -q ../p.diff
'

test_expect_success 'a symlink itself can be retargeted' '
	printf "%s\n" "diff --git a/symlink b/symlink" "--- a/symlink" "+++ b/symlink" \
		"@@ -1 +1 @@" "-.git" "\\ No newline at end of file" "+elsewhere" \
		"\\ No newline at end of file" >p.diff &&
	in_repo git-maint-dry-apply -q ../p.diff
'

test_expect_success 'ed scripts are refused' '
	printf "%s\n" "1c" "!rm -rf /" "." >p.diff &&
	# with no diff line it is not even taken for a patch
	(cd repo && test_expect_code 128 git-maint-dry-apply --porcelain ../p.diff 2>../err) &&
	grep "patch format detection failed" err &&
	printf "%s\n" "diff -e a b" "1c" "new" "." >p.diff &&
	refused "ed-style and normal diffs are not supported" p.diff
'

test_expect_success 'normal diffs are refused' '
	printf "%s\n" "diff a/file b/file" "1c1" "< content" "---" "> changed" >p.diff &&
	refused "ed-style and normal diffs are not supported" p.diff
'

test_expect_success 'context diffs are refused' '
	printf "%s\n" "*** a/file" "--- b/file" "***************" "*** 1 ****" "! content" \
		"--- 1 ----" "! changed" >p.diff &&
	refused "context diffs are not supported" p.diff
'

test_expect_success 'nothing above changed the repository' '
	in_repo repo_state >state.after &&
	in_repo count_objects >objects.after &&
	test_cmp state.before state.after &&
	test_cmp objects.before objects.after &&
	test_path_is_missing foo &&
	test_path_is_missing repo/tmp &&
	test_path_is_missing repo/.git/create-me
'

test_done
