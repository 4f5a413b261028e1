#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue refuses hostile and corrupt patches before any write'
. ./test-lib.sh

# mail <subject> <diff file>: a patch mail around a diff.
mail () {
	printf "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	printf "From: Eve <eve@example.com>\nDate: Thu, 7 Apr 2005 15:13:13 -0700\nSubject: [PATCH] %s\n\nbody\n---\n" "$1"
	cat "$2"
}

# refused <name>: queueing <name>.mbox on a checked-out branch stops at
# patch 1 with exit 1, the branch, index and work tree as they were.
refused () {
	git checkout -q -B "$1" base &&
	: >after && : >err &&
	repo_state ORIG_HEAD >before &&
	test_expect_code 1 git-maint-queue -q "$1" "$1.mbox" 2>err &&
	git-maint-queue --abort >/dev/null &&
	repo_state ORIG_HEAD >after &&
	test_cmp before after
}

test_expect_success 'setup' '
	git init -q &&
	mkdir -p sub &&
	echo one >sub/file &&
	ln -s sub link-to-sub &&
	git add sub link-to-sub &&
	test_commit base f0 &&
	mkdir -p outside-guard
'

test_expect_success '../ traversal (creation) is refused and nothing is written' '
	cat >d <<-\EOF &&
	diff --git a/../escaped b/../escaped
	new file mode 100644
	index 0000000..5626abf
	--- /dev/null
	+++ b/../escaped
	@@ -0,0 +1 @@
	+one
	EOF
	mail "escape" d >dotdot.mbox &&
	refused dotdot &&
	test_path_is_missing ../escaped
'

test_expect_success 'an absolute path never leaves the tree' '
	cat >d <<-\EOF &&
	--- /dev/null
	+++ /tmp/maint-queue-absolute
	@@ -0,0 +1 @@
	+one
	EOF
	mail "absolute" d >abs.mbox &&
	git branch -f abs base &&
	{ git-maint-queue -q abs abs.mbox || git-maint-queue --abort; } >/dev/null 2>&1 &&
	test_path_is_missing /tmp/maint-queue-absolute
'

test_expect_success 'a write into .git is refused' '
	cat >d <<-\EOF &&
	diff --git a/.git/hooks/post-commit b/.git/hooks/post-commit
	new file mode 100755
	index 0000000..5626abf
	--- /dev/null
	+++ b/.git/hooks/post-commit
	@@ -0,0 +1 @@
	+echo owned
	EOF
	mail "hook" d >dotgit.mbox &&
	refused dotgit &&
	test_path_is_missing .git/hooks/post-commit
'

test_expect_success 'a write beyond a tracked symbolic link is refused' '
	cat >d <<-\EOF &&
	diff --git a/link-to-sub/file b/link-to-sub/file
	index 5626abf..814f4a4 100644
	--- a/link-to-sub/file
	+++ b/link-to-sub/file
	@@ -1 +1 @@
	-one
	+two
	EOF
	mail "through link" d >link.mbox &&
	refused link &&
	test "$(cat sub/file)" = one
'

test_expect_success 'a symlink created by the patch, then a write beyond it, is refused' '
	cat >d <<-\EOF &&
	diff --git a/tmp b/tmp
	new file mode 120000
	index 0000000..2e4b1e5
	--- /dev/null
	+++ b/tmp
	@@ -0,0 +1 @@
	+..
	\ No newline at end of file
	diff --git a/tmp/foo b/tmp/foo
	new file mode 100644
	index 0000000..5626abf
	--- /dev/null
	+++ b/tmp/foo
	@@ -0,0 +1 @@
	+one
	EOF
	mail "symlink escape" d >symesc.mbox &&
	refused symesc &&
	test_path_is_missing tmp &&
	test_path_is_missing ../foo
'

test_expect_success 'a diff without its +++ line does not delete the file' '
	cat >d <<-\EOF &&
	diff --git a/sub/file b/sub/file
	index 5626abf..814f4a4 100644
	--- a/sub/file
	@@ -1 +1 @@
	-one
	+two
	EOF
	mail "corrupt" d >corrupt.mbox &&
	refused corrupt &&
	test "$(cat sub/file)" = one
'

test_expect_success 'a truncated hunk is refused' '
	cat >d <<-\EOF &&
	diff --git a/sub/file b/sub/file
	index 5626abf..814f4a4 100644
	--- a/sub/file
	+++ b/sub/file
	@@ -1,3 +1,3 @@
	-one
	+two
	EOF
	mail "truncated" d >trunc.mbox &&
	refused trunc
'

test_expect_success 'an ed-style diff is refused, nothing is run' '
	cat >d <<-\EOF &&
	1c
	!touch ../pwned
	.
	EOF
	mail "ed" d >ed.mbox &&
	git branch -f ed base &&
	test_expect_code 1 git-maint-queue -q ed ed.mbox 2>err &&
	git-maint-queue --abort >/dev/null &&
	test_path_is_missing ../pwned &&
	test "$(git rev-parse ed)" = "$(git rev-parse base)"
'

test_expect_success '--fuzz lets a hunk with changed outer context apply' '
	git checkout -q -B fz base &&
	seq 1 12 >nums &&
	git add nums &&
	git commit -q -m nums &&
	git tag nums &&
	sed -i "s/^6$/six/" nums &&
	git diff >d &&
	git checkout -q -- nums &&
	sed -i "s/^3$/three/" nums &&
	git commit -q -a -m "context moved" &&
	mail "fuzzy" d >fuzzy.mbox &&
	test_expect_code 1 git-maint-queue -q fz fuzzy.mbox 2>err &&
	grep "FAILED" err &&
	git-maint-queue --abort >/dev/null &&
	git-maint-queue -q --fuzz=1 fz fuzzy.mbox &&
	grep "^six$" nums
'

test_done
