#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='--base=auto and --base=<commit>: each series checked where it was made'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"

# Series B of the week (b4's cover letter, "base-commit: <base>", which
# both branches hold); B.next names work-next's tip (work-linus lacks it),
# B.gone a commit the repository does not have. Series A (made on
# usb-next's rework) from git format-patch --base: A.next at its real
# base, A.old at "base", before the rework it needs (format-patch adds
# the rework as a prerequisite-patch-id, which we do not apply), and
# without a base-commit.
test_expect_success 'setup: a week of mail; B and A with several bases' '
	todo_setup &&
	cat todo/B-cover.mail todo/B/0001-*.patch todo/B/0002-*.patch >B &&
	sed "s/^base-commit: .*/base-commit: $(git rev-parse work-next)/" B >B.next &&
	sed "s/^base-commit: .*/base-commit: 0123456789abcdef0123456789abcdef01234567/" B >B.gone &&
	git format-patch -q --stdout --cover-letter --base=tmp/A~3 tmp/A~3..tmp/A >A.next &&
	git format-patch -q --stdout --cover-letter --base=base tmp/A~3..tmp/A >A.old &&
	grep "^base-commit: $(git rev-parse tmp/A~3)\$" A.next &&
	grep "^prerequisite-patch-id: " A.old &&
	cat todo/A/0001-*.patch todo/A/0002-*.patch todo/A/0003-*.patch >A &&
	git rev-parse --short=12 work-next >next12 &&
	git rev-parse --short=12 base >base12
'

test_expect_success 'a base both targets hold: both take the series, which applies at its base' '
	git maint-dry-apply -q --base=auto --onto work-linus --onto work-next B >actual &&
	cat >expect <<-EOF &&
	work-linus: all 2 patches apply
	work-linus: holds the series${SQ} base-commit $(cat base12)
	work-next: all 2 patches apply
	work-next: holds the series${SQ} base-commit $(cat base12)
	base-commit $(cat base12): all 2 patches apply
	The series applies to: work-linus work-next
	EOF
	test_cmp expect actual
'

test_expect_success 'a base one target lacks: that target does not take the series (exit 0: the other does)' '
	git maint-dry-apply -q --base=auto --onto work-linus --onto work-next B.next >actual &&
	cat >expect <<-EOF &&
	work-linus: all 2 patches apply
	work-linus: lacks the series${SQ} base-commit $(cat next12), so it does not take the series
	work-next: all 2 patches apply
	work-next: holds the series${SQ} base-commit $(cat next12)
	base-commit $(cat next12): all 2 patches apply
	The series applies to: work-next
	EOF
	test_cmp expect actual
'

test_expect_success 'porcelain: held and missing records, the series at its base, the verdicts' '
	git maint-dry-apply --porcelain --base=auto --onto work-linus --onto work-next B.next >out &&
	grep -E "^(series|base|target)	" out | cut -f 1-8 >actual &&
	next=$(git rev-parse work-next) &&
	cat >expect <<-EOF &&
	series	1	work-linus	failed	2	2	-	0
	base	1	work-linus	missing	$next
	series	1	work-next	ok	2	2	-	0
	base	1	work-next	held	$next
	base	1	-	ok	$next	2	2	-
	target	work-linus	failed	2	2
	target	work-next	ok	2	2
	EOF
	test_cmp expect actual &&
	grep "^base	1	-	" out >actual &&
	printf "base\t1\t-\tok\t%s\t2\t2\t-\t0\n" "$next" >expect &&
	test_cmp expect actual
'

test_expect_success 'without --base (or with --no-base after it) the base is only said, as before' '
	git maint-dry-apply -q --onto work-linus --onto work-next B.next >plain &&
	git maint-dry-apply -q --base=auto --no-base --onto work-linus --onto work-next B.next >actual &&
	test_cmp plain actual &&
	grep "^The series applies to: work-linus work-next\$" plain &&
	! grep -e holds -e "^base-commit" plain &&
	git maint-dry-apply --porcelain --onto work-linus --onto work-next B.next >out &&
	grep "^base	" out >actual &&
	printf "base\t1\twork-linus\tmissing\t%s\n" "$(git rev-parse work-next)" >expect &&
	test_cmp expect actual
'

test_expect_success 'a base the repository does not have: not checked, no target takes it, exit 1' '
	test_expect_code 1 git maint-dry-apply -q --base=auto --onto work-linus --onto work-next B.gone >actual &&
	cat >expect <<-EOF &&
	work-linus: all 2 patches apply
	work-linus: lacks the series${SQ} base-commit 0123456789ab, so it does not take the series
	work-next: all 2 patches apply
	work-next: lacks the series${SQ} base-commit 0123456789ab, so it does not take the series
	base-commit 0123456789ab: not in this repository, not checked
	The series applies to none of the targets
	EOF
	test_cmp expect actual &&
	test_expect_code 1 git maint-dry-apply --porcelain --base=auto --onto work-next B.gone >out &&
	grep "^base	1	-	" out >actual &&
	printf "base\t1\t-\tunknown\t0123456789abcdef0123456789abcdef01234567\n" >expect &&
	test_cmp expect actual &&
	git maint-dry-apply -q --onto work-linus --onto work-next B.gone
'

test_expect_success 'a series that does not apply at its base (a prerequisite left out): said; the target decides' '
	git maint-dry-apply -q --base=auto --onto work-linus --onto work-next A.old >actual &&
	cat >expect <<-EOF &&
	work-linus: 2 of 3 patches apply; patch 1/3 is the first that does not
	work-linus: holds the series${SQ} base-commit $(cat base12)
	work-next: all 3 patches apply
	work-next: holds the series${SQ} base-commit $(cat base12)
	base-commit $(cat base12): 2 of 3 patches apply; patch 1/3 is the first that does not
	The series applies to: work-next
	EOF
	test_cmp expect actual &&
	git maint-dry-apply --porcelain --base=auto --onto work-next A.old >out &&
	grep "^base	1	-	" out >actual &&
	printf "base\t1\t-\tfailed\t%s\t2\t3\t1/3\t0\n" "$(git rev-parse base)" >expect &&
	test_cmp expect actual &&
	git maint-dry-apply -q --base=auto --onto work-next A.next >actual &&
	grep "^base-commit $(git rev-parse --short=12 tmp/A~3): all 3 patches apply\$" actual
'

test_expect_success 'a series that names no base: said; the verdicts are the patches${SQ}' '
	git maint-dry-apply -q --base=auto --onto work-linus --onto work-next A >actual &&
	grep "^the series names no base-commit\$" actual &&
	grep "^The series applies to: work-next\$" actual &&
	git maint-dry-apply --porcelain --base=auto --onto work-linus --onto work-next A >out &&
	git maint-dry-apply --porcelain --onto work-linus --onto work-next A >plain &&
	grep -v "^base	" out >actual &&
	test_cmp plain actual &&
	grep "^base	" out >actual &&
	printf "base\t1\t-\tnone\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--base=<commit>: every series checked at that commit, a target must hold it' '
	git maint-dry-apply -q --base=work-next --onto work-linus --onto work-next B >actual &&
	cat >expect <<-EOF &&
	work-linus: all 2 patches apply
	work-linus: lacks the base $(cat next12), so it does not take the series
	work-next: all 2 patches apply
	work-next: holds the base $(cat next12)
	base $(cat next12): all 2 patches apply
	The series applies to: work-next
	EOF
	test_cmp expect actual &&
	test_expect_code 128 git maint-dry-apply --base=nosuch --onto work-next B >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: not a valid revision ${SQ}nosuch${SQ}\$" err
'

test_expect_success 'a mailbox of several series: the base records under each series' '
	cat A B.next >two &&
	git maint-dry-apply --porcelain --base=auto --onto work-linus --onto work-next two >out &&
	grep "^base	" out | cut -f 1-4 >actual &&
	cat >expect <<-EOF &&
	base	1	-	none
	base	2	work-linus	missing
	base	2	work-next	held
	base	2	-	ok
	EOF
	test_cmp expect actual &&
	git maint-dry-apply --base=auto --onto work-linus --onto work-next two >out &&
	sed -n "/^Verdicts/,\$p" out >actual &&
	cat >expect <<-EOF &&
	Verdicts, series by series:
	  1: work-next: usb: hub: drop a dead branch
	  2: work-next: USB: serial: ftdi: two fixes
	EOF
	test_cmp expect actual
'

# what must not move when queue refuses
queue_snapshot () {
	git for-each-ref --format="%(refname) %(objectname)" >"$1" &&
	git reflog -n 5 work-linus >>"$1" &&
	git status --porcelain --untracked-files=no >>"$1" &&
	git rev-parse HEAD >>"$1"
}

test_expect_success 'queue --base=auto: a series whose base the branch lacks is refused; nothing moves' '
	queue_snapshot before &&
	test_expect_code 1 git maint-queue --base=auto work-linus B.next >out 2>err &&
	cat >expect <<-EOF &&
	error: ${SQ}work-linus${SQ} lacks the series${SQ} base-commit $(cat next12): USB: serial: ftdi: two fixes
	hint: nothing queued; queue it on a branch that holds its base, or without --base on the tip of ${SQ}work-linus${SQ}
	EOF
	test_cmp expect err &&
	! grep -e Queueing -e Applying out &&
	queue_snapshot after &&
	test_cmp before after &&
	test_path_is_missing .git/maint/queue &&
	test_expect_code 1 git maint-queue --base=auto work-next B.gone 2>err &&
	grep "^error: ${SQ}work-next${SQ} lacks the series${SQ} base-commit 0123456789ab: " err &&
	test_expect_code 1 git maint-queue --base=work-next work-linus B 2>err &&
	grep "^error: ${SQ}work-linus${SQ} lacks the base $(cat next12): " err &&
	test_expect_code 128 git maint-queue --base=nosuch work-linus B 2>err &&
	grep "^fatal: not a valid revision ${SQ}nosuch${SQ}\$" err &&
	queue_snapshot after &&
	test_cmp before after &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'queue --base=auto: a branch that holds the base takes the series; none named: a warning' '
	git maint-queue --base=auto work-next B.next >out 2>err &&
	test_must_be_empty err &&
	git log --format=%s -2 work-next >actual &&
	printf "%s\n" "USB: serial: ftdi: add an id" "USB: serial: ftdi: fix a leak" >expect &&
	test_cmp expect actual &&
	git maint-queue --base=auto work-next A >out 2>err &&
	echo "warning: the series names no base-commit; queued on the tip of ${SQ}work-next${SQ}: usb: hub: drop a dead branch" >expect &&
	test_cmp expect err &&
	git log --format=%s -1 work-next >actual &&
	echo "usb: hub: document the lock" >expect &&
	test_cmp expect actual
'

test_done
