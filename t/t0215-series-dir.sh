#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='mbox-split --series-dir: one mbox per series, named in series order, and the %q placeholders'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"

test_expect_success 'setup: a week of mail for the USB tree' '
	todo_setup
'

test_expect_success 'one mbox per series, named so that a glob reads them in series order' '
	git-maint-mbox-split --series-dir=d TODO >out 2>err &&
	cat >expect <<-\EOF &&
	d/0001-usb-hub-cleanups.mbox
	d/0002-USB-serial-ftdi-two-fixes.mbox
	d/0003-usb-gadget-udc-rework.mbox
	d/0004-usb-storage-quirks.mbox
	d/0005-usb-ehci-fix-a-race.mbox
	d/0006-usb-hub-wrong-context.mbox
	d/0007-usb-misc-led-fixes.mbox
	d/0008-usb-core-quirk-table.mbox
	d/0009-ext4-fix-a-leak.mbox
	EOF
	test_cmp expect out &&
	for f in d/*; do echo "$f"; done >glob &&
	test_cmp expect glob &&
	echo "warning: 2 selected messages are in no series, not written into ${SQ}d${SQ}" >expect &&
	test_cmp expect err
'

test_expect_success 'the files hold the selection, each message once, but the discussion without a patch' '
	git-maint-mbox-split --format="%qn %m" TODO | sed -n "s/^[1-9][0-9]* //p" | sort >expect &&
	git maint-mbox-split --format="%qn %m" TODO | grep "^ " >no-series &&
	test_line_count = 2 no-series &&
	cat d/*.mbox | git-maint-mbox-split --all-versions --input-order --format=%m - | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'each file is one series: the verdicts, file by file, are those of the whole mailbox' '
	test_expect_code 1 git-maint-dry-apply --porcelain --onto work-linus --onto work-next TODO >whole &&
	grep "^series	" whole >expect &&
	n=0 &&
	for f in d/*.mbox
	do
		n=$((n + 1)) &&
		{ git-maint-dry-apply --porcelain --onto work-linus --onto work-next "$f" >one || test $? = 1; } &&
		sed -n "s/^series	1	/series	$n	/p" one || return 1
	done >actual &&
	test_line_count = 18 actual &&
	test_cmp expect actual
'

test_expect_success '%q placeholders: each series named by its cover letter, else its first patch' '
	git-maint-mbox-split --format="%m|%qm|%qn/%qN v%qv %qK %qF %qf %qs|%s" TODO >list &&
	cut -d "|" -f 3 list | grep -v "^/" | awk "!seen[\$0]++" >actual &&
	cat >expect <<-\EOF &&
	1/9 v1 3 0001-usb-hub-cleanups.mbox usb-hub-cleanups usb: hub: cleanups
	2/9 v1 2 0002-USB-serial-ftdi-two-fixes.mbox USB-serial-ftdi-two-fixes USB: serial: ftdi: two fixes
	3/9 v2 3 0003-usb-gadget-udc-rework.mbox usb-gadget-udc-rework usb: gadget: udc rework
	4/9 v2 4 0004-usb-storage-quirks.mbox usb-storage-quirks usb: storage: quirks
	5/9 v1 2 0005-usb-ehci-fix-a-race.mbox usb-ehci-fix-a-race usb: ehci: fix a race
	6/9 v1 1 0006-usb-hub-wrong-context.mbox usb-hub-wrong-context usb: hub: wrong context
	7/9 v1 2 0007-usb-misc-led-fixes.mbox usb-misc-led-fixes usb: misc: led fixes
	8/9 v2 2 0008-usb-core-quirk-table.mbox usb-core-quirk-table usb: core: quirk table
	9/9 v1 1 0009-ext4-fix-a-leak.mbox ext4-fix-a-leak ext4: fix a leak
	EOF
	test_cmp expect actual &&
	grep "^$(msgid todo/A/0000-cover-letter.patch)|" list | cut -d "|" -f 2 >actual &&
	msgid todo/A/0000-cover-letter.patch >expect &&
	test_cmp expect actual &&
	grep "RFC" list >rfc &&
	test_line_count = 2 rfc &&
	echo "|/ v    |" >expect &&
	sed "s/^[^|]*|//; s/[^|]*\$//" rfc | sort -u >actual &&
	test_cmp expect actual &&
	test_expect_code 129 git-maint-mbox-split --format="%qx" TODO 2>err &&
	grep "unknown placeholder ${SQ}%qx${SQ}" err
'

test_expect_success 'the file name: format-patch-like, 52 bytes of subject at most' '
	printf "%s\n" "From: A U Thor <author@example.com>" \
		"Subject: [PATCH] net/ipv4: tcp...fix  a very \"long\" subject -- that goes on and on and on and on" \
		"Message-ID: <long@example.com>" "" "x" "---" " a | 1 +" >long.mail &&
	git-maint-mbox-split --format="%qF" long.mail >actual &&
	echo "0001-net-ipv4-tcp.fix-a-very-long-subject-that-goes-on-an.mbox" >expect &&
	test_cmp expect actual
'

test_expect_success 'a directory that is not empty is refused before anything is read; --force replaces the series files' '
	mkdir full &&
	echo keep >full/notes &&
	echo old >full/0042-old-series.mbox &&
	test_expect_code 128 git-maint-mbox-split --series-dir=full TODO >out 2>err &&
	test_must_be_empty out &&
	echo "fatal: ${SQ}full${SQ} is not empty (--force replaces the series files in it)" >expect &&
	test_cmp expect err &&
	ls -A full >actual &&
	printf "%s\n" 0042-old-series.mbox notes >expect &&
	test_cmp expect actual &&
	git-maint-mbox-split -q --force --series-dir=full TODO >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	ls -A full >actual &&
	{ ls d && echo notes; } >expect &&
	test_cmp expect actual &&
	for f in d/*.mbox; do cmp "$f" "full/${f#d/}" || return 1; done
'

test_expect_success 'an empty directory is used; a symbolic link or a file is refused' '
	mkdir empty &&
	git-maint-mbox-split -q --series-dir=empty --subject=ext4 TODO &&
	ls -A empty >actual &&
	echo 0001-ext4-fix-a-leak.mbox >expect &&
	test_cmp expect actual &&
	ln -s d link &&
	test_expect_code 128 git-maint-mbox-split --series-dir=link TODO 2>err &&
	grep "is not a directory (or is a symbolic link)" err &&
	>file &&
	test_expect_code 128 git-maint-mbox-split --series-dir=file TODO 2>err &&
	grep "is not a directory (or is a symbolic link)" err
'

test_expect_success 'nothing half-written: an input that cannot be read, a write that fails' '
	test_expect_code 128 git-maint-mbox-split --series-dir=new TODO no-such-mailbox 2>err &&
	test_path_is_missing new &&
	mkdir was-empty &&
	test_expect_code 128 git-maint-mbox-split --series-dir=was-empty TODO no-such-mailbox &&
	ls -A was-empty >actual &&
	test_must_be_empty actual &&
	(
		trap "" XFSZ &&
		ulimit -f 4 &&
		test_expect_code 128 git-maint-mbox-split --series-dir=big TODO 2>err
	) &&
	grep "File too large" err &&
	test_path_is_missing big
'

test_expect_success '--mboxrd: each file an mboxrd' '
	git-maint-mbox-split -q --mboxrd --series-dir=rd --subject=ext4 TODO &&
	git-maint-mbox-split -q --mboxrd --subject=ext4 TODO >expect &&
	test_cmp expect rd/0001-ext4-fix-a-leak.mbox
'

test_expect_success 'usage: --series-dir with --list or -o, --force alone' '
	test_expect_code 129 git-maint-mbox-split --series-dir=x --list TODO &&
	test_expect_code 129 git-maint-mbox-split --series-dir=x -o y TODO &&
	test_expect_code 129 git-maint-mbox-split --force TODO &&
	test_path_is_missing x &&
	test_path_is_missing y
'

test_done
