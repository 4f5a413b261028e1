#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-dry-apply: the maintainer article scenario, targets, output, exit codes, no changes'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-apply.sh"

SEEDS="$MAINT_TEST_DIR/t0300"

# A tree holding what the two seed patches expect (base), work-next at
# base, and work-linus where drivers/usb/core/sysfs.c line 213 (the
# first line hunk #2 of the second patch removes) is different. The
# mailbox s1 is the two patches as git format-patch mails.
test_expect_success 'setup: the article scenario' '
	git init -q repo &&
	(
		cd repo &&
		preimage_from_patches "$SEEDS"/*.patch &&
		git add . &&
		test_tick &&
		git commit -q -m base &&
		git branch work-next &&
		git checkout -q -b work-linus &&
		sed -i "s/^\(\t\tudev->quirks |= USB_QUIRK_RESET_MORPHS\);\$/\1 | USB_QUIRK_NO_LPM;/" \
			drivers/usb/core/sysfs.c &&
		test_tick &&
		git commit -q -a -m "usb: sysfs: also disable LPM" &&
		git checkout -q -b scratch work-next &&
		for p in "$SEEDS"/*.patch
		do
			git apply "$p" &&
			test_tick &&
			git commit -q -a -m "$(sed -n 6p "$p")" || return 1
		done &&
		git format-patch -q --stdout work-next..scratch >../s1 &&
		git checkout -q work-linus &&
		git branch -D -q scratch
	)
'

test_expect_success 'the series fails on work-linus at sysfs.c hunk #2' '
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply ../s1 >../actual
	) &&
	cat >expect <<-\EOF &&
	Checking 2 patches against work-linus
	Patch 1/2: usb/endpoint: Set release callback in the struct device_type instead of in the device itself directly
	checking file drivers/usb/core/endpoint.c
	Patch 2/2: usb: convert USB_QUIRK_RESET_MORPHS to USB_QUIRK_RESET
	checking file drivers/usb/core/quirks.c
	checking file drivers/usb/core/sysfs.c
	Hunk #2 FAILED at 210.
	1 out of 2 hunks FAILED
	checking file drivers/usb/storage/transport.c
	checking file include/linux/usb/quirks.h
	work-linus: 1 of 2 patches apply; patch 2/2 is the first that does not
	EOF
	test_cmp expect actual
'

test_expect_success 'our lines on work-linus are GNU patch --dry-run lines' '
	(
		cd repo &&
		git checkout -q work-linus &&
		test_must_fail patch -p1 --dry-run <../s1 >../gnu.out &&
		test_must_fail git-maint-dry-apply ../s1 >../ours.out
	) &&
	patch_lines gnu.out >expect &&
	patch_lines ours.out >actual &&
	test_cmp expect actual
'

test_expect_success 'the series applies to work-next, GNU patch agrees' '
	(
		cd repo &&
		git checkout -q work-next &&
		patch -p1 --dry-run <../s1 >../gnu.out &&
		git-maint-dry-apply ../s1 >../ours.out
	) &&
	patch_lines gnu.out >expect &&
	patch_lines ours.out >actual &&
	test_cmp expect actual &&
	tail -n 1 ours.out >actual &&
	echo "work-next: all 2 patches apply" >expect &&
	test_cmp expect actual
'

test_expect_success 'a matrix of targets names the branch the series belongs on' '
	(
		cd repo &&
		git checkout -q work-linus &&
		git-maint-dry-apply --onto work-linus --onto work-next ../s1 >../actual
	) &&
	tail -n 3 actual >summary &&
	cat >expect <<-\EOF &&
	work-linus: 1 of 2 patches apply; patch 2/2 is the first that does not
	work-next: all 2 patches apply
	The series applies to: work-next
	EOF
	test_cmp expect summary
'

test_expect_success 'exit 1 when the series applies to no target' '
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --onto work-linus --onto work-linus ../s1 >../actual
	) &&
	tail -n 1 actual >last &&
	echo "The series applies to none of the targets" >expect &&
	test_cmp expect last
'

test_expect_success 'the default target is the branch tip, not the work tree' '
	(
		cd repo &&
		git checkout -q work-next &&
		echo dirty >drivers/usb/core/sysfs.c &&
		git-maint-dry-apply ../s1 >../actual &&
		git checkout -- drivers/usb/core/sysfs.c
	) &&
	tail -n 1 actual >last &&
	echo "work-next: all 2 patches apply" >expect &&
	test_cmp expect last
'

test_expect_success 'a detached HEAD is checked as HEAD' '
	(
		cd repo &&
		git checkout -q --detach work-next &&
		git-maint-dry-apply -q ../s1 >../actual &&
		git checkout -q work-linus
	) &&
	echo "HEAD: all 2 patches apply" >expect &&
	test_cmp expect actual
'

test_expect_success 'reads the mailbox from standard input' '
	(
		cd repo &&
		git-maint-dry-apply -q --onto work-next <../s1 >../actual.stdin &&
		git-maint-dry-apply -q --onto work-next - <../s1 >../actual.dash &&
		cat ../s1 | git-maint-dry-apply -q --onto work-next >../actual.pipe
	) &&
	echo "work-next: all 2 patches apply" >expect &&
	test_cmp expect actual.stdin &&
	test_cmp expect actual.dash &&
	test_cmp expect actual.pipe
'

test_expect_success 'reads what git maint-mbox-split writes, through a pipe' '
	(
		cd repo &&
		git-maint-mbox-split -q --touches drivers/usb ../s1 |
		git-maint-dry-apply -q --onto work-linus --onto work-next >../actual
	) &&
	cat >expect <<-\EOF &&
	work-linus: 1 of 2 patches apply; patch 2/2 is the first that does not
	work-next: all 2 patches apply
	The series applies to: work-next
	EOF
	test_cmp expect actual
'

test_expect_success '--porcelain: one record per patch, file and hunk' '
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --porcelain --onto work-linus ../s1 >../actual
	) &&
	printf "%s\n" \
	"patch	work-linus	1	ok	usb/endpoint: Set release callback in the struct device_type instead of in the device itself directly	1	1/2	" \
	"file	work-linus	1	drivers/usb/core/endpoint.c	ok		" \
	"hunk	work-linus	1	drivers/usb/core/endpoint.c	1	ok	24	0	0	" \
	"hunk	work-linus	1	drivers/usb/core/endpoint.c	2	ok	168	0	0	" \
	"hunk	work-linus	1	drivers/usb/core/endpoint.c	3	ok	191	0	0	" \
	"patch	work-linus	2	failed	usb: convert USB_QUIRK_RESET_MORPHS to USB_QUIRK_RESET	1	2/2	" \
	"file	work-linus	2	drivers/usb/core/quirks.c	ok		" \
	"hunk	work-linus	2	drivers/usb/core/quirks.c	1	ok	205	0	0	" \
	"file	work-linus	2	drivers/usb/core/sysfs.c	failed		" \
	"hunk	work-linus	2	drivers/usb/core/sysfs.c	1	ok	196	0	0	" \
	"hunk	work-linus	2	drivers/usb/core/sysfs.c	2	failed	210	0	0	\t\tudev->quirks |= USB_QUIRK_RESET_MORPHS;" \
	"file	work-linus	2	drivers/usb/storage/transport.c	ok		" \
	"hunk	work-linus	2	drivers/usb/storage/transport.c	1	ok	1331	0	0	" \
	"file	work-linus	2	include/linux/usb/quirks.h	ok		" \
	"hunk	work-linus	2	include/linux/usb/quirks.h	1	ok	19	0	0	" \
	"series	1	work-linus	failed	1	2	2/2	0		usb/endpoint: Set release callback in the struct device_type instead of in the device itself directly" \
	"target	work-linus	failed	1	2" >expect &&
	test_cmp expect actual
'

test_expect_success 'nothing changes: refs, reflogs, index, work tree, objects' '
	(
		cd repo &&
		git checkout -q work-linus &&
		repo_state >../state.before &&
		count_objects >../objects.before &&
		test_must_fail git-maint-dry-apply ../s1 >/dev/null &&
		git-maint-dry-apply --onto work-linus --onto work-next ../s1 >/dev/null &&
		git-maint-dry-apply -3 --porcelain --onto work-next ../s1 >/dev/null &&
		repo_state >../state.after &&
		count_objects >../objects.after
	) &&
	test_cmp state.before state.after &&
	test_cmp objects.before objects.after
'

test_expect_success 'setup: a series whose second patch needs the first' '
	(
		cd repo &&
		git checkout -q -b series work-next &&
		echo one >new.txt &&
		git add new.txt &&
		test_tick &&
		git commit -q -m "add new.txt" &&
		echo two >>new.txt &&
		test_tick &&
		git commit -q -a -m "extend new.txt" &&
		git format-patch -q --stdout work-next..series >../s2 &&
		git checkout -q work-next
	)
'

test_expect_success 'patch 2 sees the file patch 1 creates (cumulative)' '
	(
		cd repo &&
		git-maint-dry-apply -q --onto work-next ../s2 >../actual
	) &&
	echo "work-next: all 2 patches apply" >expect &&
	test_cmp expect actual
'

test_expect_success '--each checks every patch alone against the target' '
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --each --onto work-next ../s2 >../actual
	) &&
	cat >expect <<-\EOF &&
	Checking 2 patches against work-next (each alone)
	Patch 1/2: add new.txt
	checking file new.txt
	Patch 2/2: extend new.txt
	checking file new.txt
	'"'"'new.txt'"'"' does not exist
	work-next: 1 of 2 patches apply; patch 2/2 is the first that does not
	EOF
	test_cmp expect actual
'

test_expect_success 'a corrupt diff is a failed patch naming the message (exit 1)' '
	sed "/^@@ -19,8 +19,8 @@/,\$d" s1 >corrupt &&
	echo " /* truncated" >>corrupt &&
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --onto work-next ../corrupt >../actual
	) &&
	grep "message 2: line .*: corrupt patch" actual
'

test_expect_success 'a truncated hunk is a failed patch naming the message (exit 1)' '
	sed "/^-#define USB_QUIRK_RESET_MORPHS/,\$d" s1 >truncated &&
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --onto work-next ../truncated >../actual
	) &&
	grep "message 2: line .*: corrupt patch: hunk at line .* is truncated" actual
'

test_expect_success 'a mail that cannot be parsed does not apply (1), naming the message, in its place' '
	{
		cat s1 &&
		printf "From 1234 Mon Sep 17 00:00:00 2001\nFrom: a <a@b>\nSubject: =?UTF-8?Q?a=00b?=\n\nbody\n"
	} >nul.mbox &&
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply ../nul.mbox >../out 2>../err
	) &&
	echo "error: ../nul.mbox: message 3: NUL byte in '"'"'Subject'"'"'" >expect &&
	test_cmp expect err &&
	grep "^\.\./nul\.mbox: message 3: the mail cannot be decoded\$" out
'

test_expect_success 'an unknown target is fatal (128)' '
	(
		cd repo &&
		test_expect_code 128 git-maint-dry-apply --onto no-such-branch ../s1 2>../err
	) &&
	grep "no-such-branch" err
'

test_expect_success 'a missing mailbox is fatal (128)' '
	(
		cd repo &&
		test_expect_code 128 git-maint-dry-apply ../no-such-mbox 2>../err
	) &&
	grep "no-such-mbox" err
'

test_expect_success 'an empty mailbox: no patches found (exit 1)' '
	: >empty &&
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply ../empty 2>../err
	) &&
	grep "no patches found" err
'

test_expect_success 'bad option values are usage errors (129)' '
	(
		cd repo &&
		test_expect_code 129 git-maint-dry-apply --fuzz=-1 ../s1 &&
		test_expect_code 129 git-maint-dry-apply -h >/dev/null
	)
'

test_expect_success 'every option is documented' '
	command_options git-maint-dry-apply >options &&
	test -s options &&
	while read opt
	do
		grep -e "^$opt" -e "^-.*, $opt" "$MAINT_SRC_DIR/Documentation/git-maint-dry-apply.adoc" >/dev/null ||
		{ echo "undocumented: $opt"; return 1; }
	done <options
'

test_done
