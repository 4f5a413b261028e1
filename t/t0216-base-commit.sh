#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='base-commit: in a cover letter: said when a target lacks it'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"

# Series B of the week: a b4-style cover letter with "base-commit: <base>",
# which both branches hold. B.next names work-next's tip instead (which
# work-linus lacks), B.gone a commit no branch has.
test_expect_success 'setup: a week of mail, series B with three bases' '
	todo_setup &&
	cat todo/B-cover.mail todo/B/0001-*.patch todo/B/0002-*.patch >B &&
	grep "^base-commit: $(git rev-parse base)\$" B &&
	sed "s/^base-commit: .*/base-commit: $(git rev-parse work-next)/" B >B.next &&
	sed "s/^base-commit: .*/base-commit: 0123456789abcdef0123456789abcdef01234567/" B >B.gone
'

test_expect_success 'a base both targets hold: nothing said' '
	git-maint-dry-apply --onto work-linus --onto work-next B >out &&
	! grep "base-commit" out &&
	git-maint-dry-apply --porcelain --onto work-linus --onto work-next B >out &&
	! grep "^base	" out
'

test_expect_success 'a base one target lacks: one line (a record) for that target, the verdict unchanged' '
	git-maint-dry-apply --onto work-linus --onto work-next B.next >out &&
	grep "base-commit" out >actual &&
	echo "work-linus: lacks the series${SQ} base-commit $(git rev-parse --short=12 work-next)" >expect &&
	test_cmp expect actual &&
	grep "^The series applies to: work-linus work-next\$" out &&
	git-maint-dry-apply --porcelain --onto work-linus --onto work-next B.next >out &&
	grep "^base	" out >actual &&
	printf "base\t1\twork-linus\tmissing\t%s\n" "$(git rev-parse work-next)" >expect &&
	test_cmp expect actual
'

test_expect_success 'a base the repository does not have: lacked by every target' '
	git-maint-dry-apply --porcelain --onto work-linus --onto work-next B.gone >out &&
	grep "^base	" out | cut -f 3,4 >actual &&
	printf "work-linus\tmissing\nwork-next\tmissing\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'in a mailbox of several series: under the series it belongs to' '
	cat todo/A/*.patch B.next >two &&
	git-maint-dry-apply --porcelain --onto work-linus --onto work-next two >out &&
	grep "^base	" out | cut -f 2,3 >actual &&
	printf "2\twork-linus\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'queue: a warning naming the base the branch lacks; the series queued all the same' '
	git checkout -q work-next &&
	git-maint-queue work-linus B.next >out 2>err &&
	echo "warning: ${SQ}work-linus${SQ} lacks the series${SQ} base-commit $(git rev-parse --short=12 work-next): USB: serial: ftdi: two fixes" >expect &&
	test_cmp expect err &&
	git log --format=%s -2 work-linus >actual &&
	printf "%s\n" "USB: serial: ftdi: add an id" "USB: serial: ftdi: fix a leak" >expect &&
	test_cmp expect actual &&
	git-maint-queue work-next B >out 2>err &&
	test_must_be_empty err
'

test_done
