#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='series as units: a mailbox of several series checked and queued series by series'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"

# the repository as a refusal leaves it (the test's files are untracked in its work tree)
state () {
	repo_state | grep -v "^?? "
}

test_expect_success 'setup: a week of mail for the USB tree' '
	todo_setup
'

test_expect_success 'dry-apply: one verdict per series, the targets that take each whole' '
	test_expect_code 1 git-maint-dry-apply -q --onto work-linus --onto work-next TODO >out &&
	sed -n "/^Verdicts/,\$p" out >actual &&
	cat >expect <<-\EOF &&
	Verdicts, series by series:
	  1: work-next: usb: hub: cleanups
	  2: work-linus work-next: USB: serial: ftdi: two fixes
	  3: work-linus work-next: usb: gadget: udc rework
	  4: work-linus work-next: usb: storage: quirks
	  5: work-linus work-next: usb: ehci: fix a race
	  6: none: usb: hub: wrong context
	  7: work-linus work-next: usb: misc: led fixes
	  8: work-linus work-next: usb: core: quirk table
	  9: work-linus work-next: ext4: fix a leak
	EOF
	test_cmp expect actual &&
	head -n 1 out >first &&
	echo "9 series, 20 patches (8 cover letters, 7 replies, 1 duplicate, 1 message without a patch and 6 superseded patches skipped)" >expect &&
	test_cmp expect first
'

test_expect_success 'dry-apply: where each series first fails, one line per series and target' '
	sed -n "/^Series 1\\//,/^Series 2\\//p" out >actual &&
	cat >expect <<-EOF &&
	Series 1/9: usb: hub: cleanups (v1, 3 patches) <$(msgid todo/A/0000-cover-letter.patch)>
	work-linus: 2 of 3 patches apply; patch 1/3 is the first that does not
	work-next: all 3 patches apply
	Series 2/9: USB: serial: ftdi: two fixes (v1, 2 patches) <$(msgid todo/B-cover.mail)>
	EOF
	test_cmp expect actual
'

test_expect_success 'dry-apply --porcelain: a series record per series and target, a target record each' '
	test_expect_code 1 git-maint-dry-apply --porcelain --onto work-linus --onto work-next TODO >out &&
	awk -F "\t" "\$1 == \"series\" { print \$2, \$3, \$4, \$5, \$6, \$7 }" out >actual &&
	cat >expect <<-\EOF &&
	1 work-linus failed 2 3 1/3
	1 work-next ok 3 3 -
	2 work-linus ok 2 2 -
	2 work-next ok 2 2 -
	3 work-linus ok 3 3 -
	3 work-next ok 3 3 -
	4 work-linus ok 4 4 -
	4 work-next ok 4 4 -
	5 work-linus ok 2 2 -
	5 work-next ok 2 2 -
	6 work-linus failed 0 1 1/1
	6 work-next failed 0 1 1/1
	7 work-linus ok 2 2 -
	7 work-next ok 0 2 -
	8 work-linus ok 2 2 -
	8 work-next ok 2 2 -
	9 work-linus ok 1 1 -
	9 work-next ok 1 1 -
	EOF
	test_cmp expect actual &&
	grep "^series	3	work-next	ok	3	3	-	0	$(msgid todo/C2/v2-0000-cover-letter.patch)	usb: gadget: udc rework\$" out &&
	awk -F "\t" "\$1 == \"target\"" out >actual &&
	printf "target\twork-linus\tfailed\t18\t20\ntarget\twork-next\tfailed\t19\t20\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'dry-apply --porcelain: patch records carry the series and the patch'"'"'s own numbers' '
	grep "^patch	work-next	[0-9]*	ok	usb: storage: add quirk three	4	3/4	\$" out
'

test_expect_success '--series: by number, or by the Message-ID of its cover letter, a patch, an older version, a reply' '
	git-maint-dry-apply -q --onto work-next --series 3 TODO >expect &&
	grep "^work-next: all 3 patches apply\$" expect &&
	for id in "$(msgid todo/C2/v2-0000-cover-letter.patch)" "<$(msgid todo/C2/v2-0002-*.patch)>" \
		"id:$(msgid todo/C1/0001-*.patch)" "$(msgid todo/C1-r2.mail)" "<$(msgid todo/C1/0000-cover-letter.patch)>"
	do
		git-maint-dry-apply -q --onto work-next --series "$id" TODO >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success '--series: a series that is not there is an error listing those that are (1)' '
	test_expect_code 1 git-maint-dry-apply --onto work-next --series 10 TODO >out 2>err &&
	test_must_be_empty out &&
	head -n 2 err >actual &&
	cat >expect <<-EOF &&
	error: no series ${SQ}10${SQ} in the input; it holds 9:
	  1: usb: hub: cleanups (v1, 3 patches) <$(msgid todo/A/0000-cover-letter.patch)>
	EOF
	test_cmp expect actual &&
	test_line_count = 10 err &&
	test_expect_code 1 git-maint-dry-apply --onto work-next --series "<nosuch@example.org>" TODO 2>err &&
	grep "^error: no series .<nosuch@example.org>. in the input; it holds 9:\$" err
'

test_expect_success 'patches are applied in the order of their own numbers, not of the mailbox' '
	cat todo/B/0002-*.patch todo/B-cover.mail todo/B/0001-*.patch >shuffled.mbox &&
	git-maint-dry-apply --onto work-next shuffled.mbox >out &&
	grep "^Patch " out >actual &&
	cat >expect <<-\EOF &&
	Patch 1/2: USB: serial: ftdi: fix a leak
	Patch 2/2: USB: serial: ftdi: add an id
	EOF
	test_cmp expect actual
'

test_expect_success 'queue: a mailbox of several series queues nothing without --series, listing them (1)' '
	state >before &&
	test_expect_code 1 git-maint-queue -q work-next TODO >out 2>err &&
	head -n 2 err >actual &&
	cat >expect <<-EOF &&
	error: the input holds 9 series; name the one to queue with --series <n> or --series <Message-ID>:
	  1: usb: hub: cleanups (v1, 3 patches) <$(msgid todo/A/0000-cover-letter.patch)>
	EOF
	test_cmp expect actual &&
	test_path_is_missing .git/maint/queue &&
	state >after &&
	test_cmp before after
'

test_expect_success 'queue --series <a reply to v1>: the newest version queued, the review of v1 carried where it holds' '
	git branch -f q-c work-next &&
	git-maint-queue -q --series "$(msgid todo/C1-r1.mail)" q-c TODO &&
	git log --format=%s work-next..q-c >actual &&
	cat >expect <<-\EOF &&
	usb: gadget: udc: drop a flag
	usb: gadget: udc: use devm
	usb: gadget: udc: split probe
	EOF
	test_cmp expect actual &&
	git log -1 --format="%(trailers:key=Reviewed-by,valueonly)" q-c~2 >actual &&
	printf "%s\n\n" "$TODO_REV" >expect &&
	test_cmp expect actual &&
	git log -1 --format=%B q-c~1 >msg &&
	! grep "^Tested-by:" msg
'

test_expect_success 'queue --series: two series, one after the other; "all" for every one' '
	git branch -f q-two work-linus &&
	git-maint-queue -q --series 5 --series 2 q-two TODO &&
	git log --format=%s work-linus..q-two >actual &&
	cat >expect <<-\EOF &&
	usb: ehci: fix another race
	usb: ehci: fix a race
	USB: serial: ftdi: add an id
	USB: serial: ftdi: fix a leak
	EOF
	test_cmp expect actual
'

test_expect_success 'queue: a patch is named by its own numbers in what queue says' '
	git branch -f q-f work-next &&
	test_expect_code 1 git-maint-queue -q --series "$(msgid todo/F/0001-*.patch)" q-f TODO 2>err &&
	grep "^error: patch 1/1 does not apply to .q-f.: usb: hub: wrong context\$" err &&
	git-maint-queue --abort >/dev/null &&
	git branch -f q-a work-linus &&
	test_expect_code 1 git-maint-queue -q --series 1 q-a TODO 2>err &&
	grep "^error: patch 1/3 does not apply to .q-a.: usb: hub: drop a dead branch\$" err &&
	git-maint-queue --abort >/dev/null
'

test_done
