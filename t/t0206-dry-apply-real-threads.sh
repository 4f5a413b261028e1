#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-dry-apply on what lists deliver: only patches are checked, the rest is stepped over'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-threads.sh"

test_expect_success 'setup: real-shaped threads from git format-patch' '
	threads_setup
'

test_expect_success 'a thread with replies: covers and replies stepped over, one line each, their trailers under the patches' '
	git-maint-dry-apply --onto base thread.mbox >actual 2>err &&
	cat >expect <<-\EOF &&
	Skipping cover letter: [PATCH 0/4] topic: four changes
	Skipping reply: Re: [PATCH 0/4] topic: four changes
	Skipping reply: Re: [PATCH 2/4] topic: change b
	Skipping reply: Re: [PATCH 3/4] topic: change c
	Skipping reply: topic: change d
	Checking 4 patches against base (1 cover letter and 4 replies skipped)
	Patch 1/4: topic: change a
	checking file a.c
	    + Acked-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>, on the cover letter)
	Patch 2/4: topic: change b
	checking file b.c
	    + Reviewed-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>)
	    + Acked-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>, on the cover letter)
	Patch 3/4: topic: change c
	checking file c.c
	    + Acked-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>, on the cover letter)
	Patch 4/4: topic: change d
	checking file d.c
	    + Acked-by: Rev Iewer <rev@example.net> (Rev Iewer <rev@example.net>, on the cover letter)
	base: all 4 patches apply
	EOF
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'a b4-style cover letter is stepped over' '
	git-maint-dry-apply -q --onto base b4.mbox >actual &&
	echo "base: all 4 patches apply" >expect &&
	test_cmp expect actual &&
	git-maint-dry-apply --onto base b4.mbox >out &&
	grep "^Checking 4 patches against base (1 cover letter skipped)\$" out
'

test_expect_success 'a cover letter with an interdiff and a range-diff is stepped over' '
	git-maint-dry-apply --onto base git-v2/* >out &&
	grep "^Skipping cover letter: \[PATCH v2 0/4\] topic: four changes\$" out &&
	grep "^base: all 4 patches apply\$" out
'

test_expect_success 'duplicates across two mailboxes are stepped over' '
	git-maint-dry-apply --onto base list.mbox thread.mbox >out &&
	grep "^Checking 4 patches against base (1 cover letter, 4 replies and 9 duplicates skipped)\$" out &&
	test $(grep -c "^Skipping duplicate: " out) = 9 &&
	grep "^base: all 4 patches apply\$" out
'

test_expect_success 'a partial reroll: the new patch 3 in place of the old one' '
	git-maint-dry-apply --onto base reroll.mbox >out &&
	grep "^Skipping superseded patch: \[PATCH 3/4\] topic: change c\$" out &&
	grep "^Checking 4 patches against base (1 cover letter and 1 superseded patch skipped)\$" out &&
	grep "^Patch 3/4: topic: change c\$" out &&
	grep "^base: all 4 patches apply\$" out
'

test_expect_success 'the whole-thread output of mbox-split goes in as it is' '
	git-maint-mbox-split --touches c.c list.mbox thread.mbox >s &&
	git-maint-dry-apply -q --onto base s >actual &&
	echo "base: all 4 patches apply" >expect &&
	test_cmp expect actual
'

test_expect_success 'a mailbox of only a cover letter and replies has no patch (exit 1)' '
	awk "/^From 0000/{n++} n==1 || n==2" replies.mbox >only-replies.mbox &&
	cat git-v1/0000-cover-letter.patch only-replies.mbox >no-patch.mbox &&
	test_expect_code 1 git-maint-dry-apply -q --onto base no-patch.mbox >out 2>err &&
	test_must_be_empty out &&
	echo "error: no patches found" >expect &&
	test_cmp expect err
'

test_expect_success 'one patch that does not apply: said so, not "0 of 1"' '
	git checkout -q -b moved base &&
	sed -i "s/^a line 1\$/a line 1 moved/" a.c &&
	git commit -q -am moved &&
	git checkout -q --detach base &&
	test_expect_code 1 git-maint-dry-apply --onto moved git-v1/0001-*.patch >out &&
	grep "^moved: the patch does not apply\$" out &&
	! grep "0 of 1" out
'

test_done
