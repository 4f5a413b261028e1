#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='dry-apply and queue on large patches: many files, many hunks (reliability case 40)

The figures (time and memory against git apply and git am) are measured
by t/perf/p0310-apply-hostile.sh; these tests check what the linear-time
code paths produce: the trees git am makes, and failing patches reported
up to 100 failures.'

. ./test-lib.sh

# The repository is in repo/; mails and outputs stay outside it.
in_repo () {
	(cd repo && "$@")
}

# same_as_am <branch> <mbox>: queue applies the series on <branch> (made
# from base) to the trees git am makes, commit by commit.
same_as_am () (
	cd repo &&
	git checkout -q -B "am-$1" base &&
	git am -q "../$2" &&
	git checkout -q -B "$1" base &&
	git-maint-queue -q "$1" "../$2" &&
	git log --format=%T "am-$1" >../expect &&
	git log --format=%T "$1" >../actual &&
	test_cmp ../expect ../actual &&
	git diff --exit-code "am-$1" &&
	git status --porcelain >../status &&
	test_must_be_empty ../status
)

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		mkdir -p dir/sub gone &&
		i=0 &&
		while test $i -lt 400
		do
			echo "file $i" >dir/f$((i * 2)) &&
			i=$((i + 1))
		done &&
		echo sub >dir/sub/x &&
		echo gone >gone/x &&
		awk "BEGIN { for (i = 1; i <= 4000; i++) print \"line \" i }" >big &&
		git add . &&
		test_commit base &&
		git branch -M main
	) &&
	git clone -q repo gen
'

test_expect_success 'setup: a series that fills, empties and reshapes one directory' '
	(
		cd gen &&
		git checkout -q -b series origin/main &&
		i=0 &&
		while test $i -lt 400
		do
			echo "new $i" >dir/f$((i * 2 + 1)) &&
			i=$((i + 1))
		done &&
		git add dir &&
		git commit -q -m "odd files between the even ones" &&
		git rm -q $(seq 0 4 796 | sed "s|^|dir/f|") &&
		echo now a file >dir/f0 &&
		git add dir/f0 &&
		git commit -q -m "every fourth goes, f0 comes back" &&
		git rm -q -r gone dir/sub &&
		echo file >gone &&
		mkdir dir/sub0 dir/f4 &&
		echo x >dir/sub0/x &&
		echo y >dir/f4/y &&
		git add gone dir &&
		git commit -q -m "directories become files and files directories" &&
		awk "{ print } NR % 8 == 0 { print \"added after \" NR }" big >big.new &&
		mv big.new big &&
		git commit -q -a -m "500 hunks that each add a line" &&
		git format-patch -q --stdout origin/main..series
	) >series.mbox &&
	test $(grep -c "^Subject:" series.mbox) = 4
'

test_expect_success 'queue commits the trees git am commits' '
	in_repo git-maint-dry-apply -q --onto base ../series.mbox >out &&
	echo "base: all 4 patches apply" >expect &&
	test_cmp expect out &&
	same_as_am series series.mbox
'

test_expect_success 'setup: a patch with 150 failing hunks' '
	awk "BEGIN {
		print \"diff --git a/big b/big\"; print \"--- a/big\"; print \"+++ b/big\"
		for (k = 0; k < 150; k++) {
			l = 20 * k + 1
			printf \"@@ -%d,3 +%d,3 @@\n nothing %d\n-line %d\n+LINE %d\n line %d\n\", l, l, k, l + 1, l + 1, l + 2
		}
	}" >failing.diff &&
	{
		printf "From: A U Thor <author@example.com>\nSubject: [PATCH] fail a lot\n\n---\n" &&
		cat failing.diff &&
		printf "diff --git a/new b/new\nnew file mode 100644\n--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+x\n"
	} >failing.mbox
'

test_expect_success 'dry-apply reports 100 failures of a patch, then says the rest was not tried' '
	(in_repo repo_state) >state.before &&
	test_expect_code 1 in_repo git-maint-dry-apply --onto base ../failing.mbox >out &&
	grep -c "^Hunk #[0-9]* FAILED at" out >count &&
	echo 100 >expect &&
	test_cmp expect count &&
	grep "^Hunk #100 FAILED at 1981\\.\$" out &&
	grep "^100 out of 150 hunks FAILED\$" out &&
	grep "^Hunks #101 to #150 not tried (the patch failed 100 times)\\.\$" out &&
	grep "^1 more file not tried (the patch failed 100 times)\\.\$" out &&
	(in_repo repo_state) >state.after &&
	test_cmp state.before state.after
'

test_expect_success 'the porcelain output lists what was not tried as skipped' '
	test_expect_code 1 in_repo git-maint-dry-apply --porcelain --onto base ../failing.mbox >out &&
	grep -c "^hunk	base	1	big	[0-9]*	failed	" out >count &&
	echo 100 >expect &&
	test_cmp expect count &&
	grep -c "^hunk	base	1	big	[0-9]*	skipped	" out >count &&
	echo 50 >expect &&
	test_cmp expect count &&
	grep "^file	base	1	new	skipped		\$" out
'

test_expect_success 'a patch with fewer failures is reported whole' '
	sed "/^@@ -1001,3/,\$d" failing.diff >fifty.diff &&
	test_expect_code 1 in_repo test-apply base ../fifty.diff >out &&
	grep -c "^hunk	.*	failed	" out >count &&
	echo 50 >expect &&
	test_cmp expect count &&
	! grep skipped out
'

test_expect_success 'queue stops at such a patch with the same report' '
	(
		cd repo &&
		git checkout -q -B fail base &&
		test_expect_code 1 git-maint-queue -q fail ../failing.mbox 2>../err &&
		git-maint-queue --abort >/dev/null
	) &&
	grep "^Hunks #101 to #150 not tried (the patch failed 100 times)\\.\$" err &&
	grep "^error: patch 1/1 does not apply to .fail.: fail a lot\$" err
'

test_expect_success 'a path longer than 4096 bytes is refused' '
	long=$(awk "BEGIN { for (i = 0; i < 410; i++) printf \"directory/\" }")x &&
	printf "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+x\n" \
		"$long" "$long" "$long" >long.diff &&
	test_expect_code 1 in_repo test-apply base ../long.diff >out &&
	grep "invalid path .*: longer than 4096 bytes" out
'

test_done
