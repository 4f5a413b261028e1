#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='a mistyped branch gets git'"'"'s "did you mean" suggestions

queue and dry-apply answer a branch that does not exist with one fatal
line and, as hints, the branches most like it by git'"'"'s rule for a
mistyped command (help.c: a weighted edit distance, prefix matches
first); no libgit2 message, no second error line.'
. ./test-lib.sh

test_expect_success 'setup: the two-branch trees of a maintainer' '
	git init -q r &&
	(
		cd r &&
		test_commit base &&
		for b in work-linus work-next usb-linus usb-next net-next
		do
			git branch $b || return 1
		done &&
		git format-patch -1 --stdout base >../patch.mbox
	)
'

test_expect_success 'queue usb-nxt: the one branch like it' '
	cat >expect <<-\EOF &&
	fatal: no such branch '\''usb-nxt'\''
	hint: the most similar branch is
	hint: 	usb-next
	EOF
	(cd r && test_expect_code 128 git maint-queue usb-nxt ../patch.mbox 2>../err >../out) &&
	test_cmp expect err &&
	test_must_be_empty out &&
	test_path_is_missing r/.git/maint/queue
'

test_expect_success 'dry-apply --onto work-nxt: the same, without libgit2 words' '
	cat >expect <<-\EOF &&
	fatal: not a valid revision '\''work-nxt'\''
	hint: the most similar branch is
	hint: 	work-next
	EOF
	(cd r && test_expect_code 128 git maint-dry-apply --onto work-nxt ../patch.mbox 2>../err) &&
	test_cmp expect err
'

test_expect_success 'two letters swapped cost nothing, as in git' '
	(cd r && test_expect_code 128 git maint-queue usb-enxt ../patch.mbox 2>../err) &&
	grep "^hint: 	usb-next\$" err &&
	test_line_count = 3 err
'

test_expect_success 'a prefix of several branches names them all' '
	cat >expect <<-\EOF &&
	fatal: not a valid revision '\''work'\''
	hint: the most similar branches are
	hint: 	work-linus
	hint: 	work-next
	EOF
	(cd r && test_expect_code 128 git maint-dry-apply --onto work ../patch.mbox 2>../err) &&
	test_cmp expect err
'

test_expect_success 'nothing like it: no suggestion' '
	echo "fatal: no such branch '\''staging-testing'\''" >expect &&
	(cd r && test_expect_code 128 git maint-queue staging-testing ../patch.mbox 2>../err) &&
	test_cmp expect err
'

test_expect_success 'git itself suggests the same for a mistyped command (the rule we follow)' '
	test_must_fail git maint-queeu 2>err &&
	grep "^	maint-queue\$" err
'

test_done
