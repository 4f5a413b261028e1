#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-mbox-split on what lists deliver: covers with ---, replies with diffs, duplicates, unthreaded series, rerolls'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-threads.sh"

SQ="'"

test_expect_success 'setup: real-shaped threads from git format-patch' '
	threads_setup
'

test_expect_success 'each message of a thread with replies gets its kind' '
	git-maint-mbox-split --format="%P %s" thread.mbox >actual 2>err &&
	cat >expect <<-\EOF &&
	mail [PATCH 0/4] topic: four changes
	mail Re: [PATCH 0/4] topic: four changes
	patch [PATCH 1/4] topic: change a
	patch [PATCH 2/4] topic: change b
	mail Re: [PATCH 2/4] topic: change b
	patch [PATCH 3/4] topic: change c
	mail Re: [PATCH 3/4] topic: change c
	patch [PATCH 4/4] topic: change d
	mail topic: change d
	EOF
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success '--patches-only: no reply quoting or carrying a diff, no cover letter' '
	git-maint-mbox-split --patches-only thread.mbox >out &&
	subjects out >actual &&
	subjects v1-patches.mbox >expect &&
	test_cmp expect actual
'

test_expect_success 'a b4-style cover letter (--- before its diffstat, base-commit:) is no patch' '
	grep -q "^base-commit: " b4.mbox &&
	git-maint-mbox-split --patches-only b4.mbox >out 2>err &&
	subjects out >actual &&
	subjects v1-patches.mbox >expect &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'a git-style cover letter with --interdiff and --range-diff is no patch' '
	git-maint-mbox-split --format="%P %s" git-v2/* >actual 2>err &&
	{
		echo "mail [PATCH v2 0/4] topic: four changes" &&
		subjects v2-patches.mbox | sed "s/^/patch /"
	} >expect &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'v1 and v2 in one mailbox: v2 with its cover letter' '
	git-maint-mbox-split git-v1/* git-v2/* >out 2>err &&
	subjects out >actual &&
	{
		echo "[PATCH v2 0/4] topic: four changes" &&
		subjects v2-patches.mbox
	} >expect &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'duplicates across two mailboxes: each message once, the first copy wins' '
	git-maint-mbox-split list.mbox thread.mbox >out &&
	test $(grep -c "^Message-I[Dd]: " out) = 9 &&
	test $(grep -c "^List-Id: " out) = 9 &&
	git-maint-mbox-split thread.mbox list.mbox >out &&
	test $(grep -c "^Message-I[Dd]: " out) = 9 &&
	! grep "^List-Id: " out
'

test_expect_success 'a series sent without threading is one series: --touches selects all of it' '
	git-maint-mbox-split --touches b.c plain.mbox >out 2>err &&
	subjects out >actual &&
	subjects v1-patches.mbox >expect &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'an unthreaded series missing patches: one warning, the numbers as ranges' '
	awk "/^From [0-9a-f]* Mon Sep 17 00:00:00 2001\$/{n++} n==1 || n==4" plain.mbox >holes.mbox &&
	git-maint-mbox-split --touches a.c holes.mbox >out 2>err &&
	test $(grep -c "^Subject: " out) = 2 &&
	echo "warning: holes.mbox: message 1: series ${SQ}topic: change a${SQ} v1 is incomplete: missing 2-3 of 4" >expect &&
	test_cmp expect err
'

test_expect_success 'a partial reroll replaces only its patch, in its place' '
	git-maint-mbox-split reroll.mbox >out 2>err &&
	subjects out >actual &&
	cat >expect <<-\EOF &&
	[PATCH 0/4] topic: four changes
	[PATCH 1/4] topic: change a
	[PATCH 2/4] topic: change b
	[PATCH v2 3/4] topic: change c
	[PATCH 4/4] topic: change d
	EOF
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'a partial reroll with --all-versions: both versions of the patch' '
	git-maint-mbox-split --all-versions --patches-only reroll.mbox >out &&
	subjects out >actual &&
	cat >expect <<-\EOF &&
	[PATCH 1/4] topic: change a
	[PATCH 2/4] topic: change b
	[PATCH 3/4] topic: change c
	[PATCH v2 3/4] topic: change c
	[PATCH 4/4] topic: change d
	EOF
	test_cmp expect actual
'

# export <n> <skip...>: an unthreaded format-patch export of n patches
# from several authors, the numbers given left out.
export_mbox () {
	awk -v n="$1" -v skip=" $2 " "BEGIN {
		for (k = 1; k <= n; k++) {
			if (index(skip, \" \" k \" \"))
				continue
			printf \"From %040d Mon Sep 17 00:00:00 2001\\n\", k
			printf \"From: Author %d <a%d@example.com>\\n\", k % 7, k % 7
			printf \"Date: Thu, 7 Apr 2005 15:13:13 -0700\\n\"
			printf \"Subject: [PATCH %d/%d] change %d\\n\\n\", k, n, k
			printf \"Body.\\n---\\ndiff --git a/f%d b/f%d\\n\", k, k
			printf \"--- a/f%d\\n+++ b/f%d\\n@@ -1 +1 @@\\n-a\\n+b\\n\\n\", k, k
		}
	}"
}

test_expect_success 'a k/5000 export from many authors is one series: no warning' '
	export_mbox 5000 "" >export.mbox &&
	git-maint-mbox-split --touches f4321 --format=%k export.mbox >actual 2>err &&
	test_must_be_empty err &&
	test_line_count = 5000 actual
'

test_expect_success 'a k/5000 export with holes: one warning line, missing 2-19, 21' '
	export_mbox 5000 "2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 21" >holes.mbox &&
	git-maint-mbox-split --touches f1 --format=%k holes.mbox >actual 2>err &&
	test_line_count = 4981 actual &&
	echo "warning: holes.mbox: message 1: series ${SQ}change 1${SQ} v1 is incomplete: missing 2-19, 21 of 5000" >expect &&
	test_cmp expect err
'

test_done
