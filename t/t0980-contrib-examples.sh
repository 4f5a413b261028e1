#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='contrib/examples: the two-branch configuration (maint.ini) as it is, and the loop script (maint-loop.sh) run on it'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-smtp.sh"

cleanup stop_smtp_server

LOOP="$MAINT_SRC_DIR/contrib/examples/maint-loop.sh"

# patch_mail <branch> <author> <email> <file> <line>...: the mails of one
# commit per <line>, each appending it to <file>, made on <branch> of r
# and sent as their author sends them (format-patch, threaded)
patch_mails () {
	base=$1 name=$2 email=$3 file=$4 &&
	shift 4 &&
	rm -rf scratch &&
	git clone -q -b "$base" r scratch &&
	(
		cd scratch &&
		for l in "$@"
		do
			echo "$l" >>"$file" &&
			git add "$file" &&
			test_tick &&
			GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
				GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email git commit -q -s -m "$l" || return 1
		done &&
		git format-patch -q --stdout --thread=shallow --to="C O Mitter <committer@example.com>" \
			--cc=linux-usb@vger.kernel.org -$# HEAD
	)
}

test_expect_success 'setup: the article'"'"'s branches, checkpatch and a Makefile in the tree, two bare remotes' '
	git init -q -b master r &&
	(
		cd r &&
		mkdir -p drivers/usb/core fs scripts &&
		printf "hub\n" >drivers/usb/core/hub.c &&
		printf "file\n" >fs/file.c &&
		cat >scripts/checkpatch.pl <<-\EOF &&
		#!/bin/sh
		# checkpatch, as the demo needs it: a patch without a sign-off fails
		test "$1" = --terse && test "$2" = - || exit 2
		grep -q "^Signed-off-by: " || { echo "stdin:1: ERROR: Missing Signed-off-by: line(s)"; exit 1; }
		echo "total: 0 errors, 0 warnings"
		EOF
		chmod +x scripts/checkpatch.pl &&
		printf "all:\n\t@echo \"  CC      drivers/usb/core/hub.o\"\n" >Makefile &&
		git add . &&
		test_tick &&
		git commit -q -m "Linux 6.1" &&
		git branch usb-linus &&
		git branch usb-next &&
		git checkout -q usb-next &&
		echo "next: hub rework" >>drivers/usb/core/hub.c &&
		test_tick &&
		git commit -q -a -m "USB: hub: rework" &&
		git branch work-next &&
		git branch work-linus usb-linus &&
		git checkout -q work-next
	) &&
	git init -q --bare origin.git &&
	git init -q --bare backup.git &&
	git -C r remote add origin "$PWD/origin.git" &&
	git -C r remote add backup "$PWD/backup.git" &&
	git -C r push -q origin usb-linus usb-next &&
	git -C r push -q backup usb-linus usb-next &&
	git -C r fetch -q origin &&
	git -C r fetch -q backup
'

test_expect_success 'setup: the example configuration as it is, and a loopback mail server' '
	cp "$MAINT_SRC_DIR/contrib/examples/maint.ini" r/.git/maint.ini &&
	start_smtp_server --plain &&
	printf "[smtp]\n\tserver = 127.0.0.1\n\tport = %s\n\tencryption = none\n" "$SMTP_PORT" >>r/.git/maint.ini
'

test_expect_success 'setup: TODO: a USB series made on usb-next, an fs patch, a reply' '
	patch_mails usb-next "Lan Tianyu" tianyu.lan@intel.com drivers/usb/core/hub.c \
		"usb: hub: one" "usb: hub: two" >TODO &&
	patch_mails master "Theodore Ts'"'"'o" tytso@mit.edu fs/file.c "ext4: fix" >>TODO &&
	git-maint-mbox-split --list TODO >list &&
	test_line_count = 3 list
'

test_expect_success 'the example configuration is read: both trees, their checks and remotes' '
	(
		cd r &&
		git-maint-publish --dry-run work-next >../next &&
		git-maint-publish --dry-run work-linus >../linus
	) &&
	grep "^Would publish .work-next. to .usb-next. (tree .usb.)" next &&
	grep "^Would publish .work-linus. to .usb-linus. (tree .usb-linus.)" linus &&
	grep "^Checks: signoff, fixes" next &&
	grep "^Push: origin backup\$" next
'

test_expect_success 'maint-loop.sh -n: the branch that takes the USB patches, nothing changed' '
	(cd r && repo_state) >before &&
	(cd r && sh "$LOOP" -n ../TODO drivers/usb) >out 2>err &&
	printf "work-next\tusb: hub: one\n" >expect &&
	test_cmp expect out &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'maint-loop.sh: queued on work-next (checked, signed off, built), published, the author told' '
	(cd r && sh "$LOOP" ../TODO drivers/usb) >out 2>err &&
	grep "^Applying: usb: hub: one\$" out &&
	# the publish running (its notify) is not announced as stopped
	! grep "is stopped" err &&
	grep "^total: 0 errors, 0 warnings\$" err &&
	grep "^  CC      drivers/usb/core/hub.o\$" err &&
	tip=$(git -C r rev-parse work-next) &&
	test "$(git -C r rev-parse usb-next)" = "$tip" &&
	test "$(git -C origin.git rev-parse usb-next)" = "$tip" &&
	test "$(git -C backup.git rev-parse usb-next)" = "$tip" &&
	git -C r log --format=%s usb-next~2..usb-next >subjects &&
	printf "usb: hub: two\nusb: hub: one\n" >expect &&
	test_cmp expect subjects &&
	git -C r log -1 --format="%(trailers:key=Link,valueonly)" usb-next >link &&
	grep "^https://lore.kernel.org/r/" link &&
	git -C r log -1 --format="%(trailers:key=Signed-off-by,valueonly)" usb-next >sob &&
	test "$(grep . sob | tail -n 1)" = "C O Mitter <committer@example.com>" &&
	test "$(smtp_count)" = 2 &&
	test "$(smtp_header 1 To)" = "Lan Tianyu <tianyu.lan@intel.com>" &&
	git-maint-mbox-split --format="<%m>" --touches drivers/usb --patches-only TODO >expect &&
	{ smtp_header 1 In-Reply-To && smtp_header 2 In-Reply-To; } >actual &&
	test_cmp expect actual &&
	test "$(git -C r rev-parse usb-linus)" = "$(git -C origin.git rev-parse usb-linus)"
'

test_expect_success 'maint-loop.sh: a fix made on usb-linus goes to work-linus, the first branch that takes it' '
	patch_mails usb-linus "Alan Stern" stern@rowland.harvard.edu fs/file.c "USB: fix a fs thing" >fix &&
	(cd r && sh "$LOOP" ../fix fs/) >out 2>err &&
	tip=$(git -C r rev-parse work-linus) &&
	test "$(git -C r log -1 --format=%s work-linus)" = "USB: fix a fs thing" &&
	test "$(git -C origin.git rev-parse usb-linus)" = "$tip" &&
	test "$(git -C backup.git rev-parse usb-linus)" = "$tip" &&
	test "$(smtp_count)" = 3 &&
	test "$(smtp_header 3 To)" = "Alan Stern <stern@rowland.harvard.edu>"
'

test_expect_success 'maint-loop.sh: nothing touches the path: exit 1, one line, nothing changed' '
	(cd r && repo_state) >before &&
	test_expect_code 1 sh -c "cd r && sh \"$LOOP\" ../TODO sound/" >out 2>err &&
	echo "maint-loop: no patch in '"'"'../TODO'"'"' touches sound/" >expect &&
	test_cmp expect err &&
	test_must_be_empty out &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'maint-loop.sh: applies to no work branch: exit 1, the dry run shown, nothing changed' '
	(cd r && repo_state) >before &&
	test_expect_code 1 sh -c "cd r && sh \"$LOOP\" ../TODO drivers/usb" >out 2>err &&
	grep "^maint-loop: the patches apply to none of work-linus work-next\$" err &&
	grep "^The series applies to none of the targets\$" err &&
	test_must_be_empty out &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

# A week's TODO holds several series; each goes where it applies whole.
test_expect_success 'setup: a TODO of three series: one for work-next, one for work-linus, one for neither, a review' '
	patch_mails usb-next "Lan Tianyu" tianyu.lan@intel.com drivers/usb/core/hub.c \
		"usb: hub: three" "usb: hub: four" >week &&
	patch_mails usb-linus "Alan Stern" stern@rowland.harvard.edu fs/file.c "USB: another fs fix" >>week &&
	rm -rf scratch &&
	git clone -q -b master r scratch &&
	(
		cd scratch &&
		echo "a hub we never had" >drivers/usb/core/hub.c &&
		git commit -q -a -m "not sent" &&
		echo "usb: hub: on a hub we never had" >>drivers/usb/core/hub.c &&
		test_tick &&
		git commit -q -a -s -m "usb: hub: on a hub we never had" &&
		git format-patch -q --stdout -1 HEAD
	) >>week &&
	id=$(sed -n "s/^Message-I[dD]: <\(.*\)>\$/\1/p" week | head -n 1) &&
	{
		echo "From nobody Mon Sep 17 00:00:00 2001" &&
		echo "From: Rev Iewer <rev@example.org>" &&
		echo "Subject: Re: [PATCH 1/2] usb: hub: three" &&
		echo "Message-ID: <review.1@example.org>" &&
		echo "In-Reply-To: <$id>" &&
		echo "References: <$id>" &&
		echo "Date: Sat, 9 Apr 2005 10:00:00 +0000" &&
		echo &&
		echo "Reviewed-by: Rev Iewer <rev@example.org>" &&
		echo
	} >>week
'

test_expect_success 'maint-loop.sh -n on several series: one line each, its branch or none; exit 1 for the one left' '
	(cd r && repo_state) >before &&
	test_expect_code 1 sh -c "cd r && sh \"$LOOP\" -n ../week drivers/usb fs/" >out 2>err &&
	printf "work-next\tusb: hub: three\nwork-linus\tUSB: another fs fix\nnone\tusb: hub: on a hub we never had\n" >expect &&
	test_cmp expect out &&
	echo "maint-loop: series 3 applies to none of work-linus work-next: usb: hub: on a hub we never had" >expect &&
	test_cmp expect err &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'maint-loop.sh on several series: each queued on its branch, reviews carried, both published' '
	test_expect_code 1 sh -c "cd r && sh \"$LOOP\" ../week drivers/usb fs/" >out 2>err &&
	grep "^Applying: usb: hub: three\$" out &&
	grep "^Applying: USB: another fs fix\$" out &&
	grep "^maint-loop: series 3 applies to none of work-linus work-next: usb: hub: on a hub we never had\$" err &&
	git -C r log --format=%s usb-next~2..usb-next >actual &&
	printf "usb: hub: four\nusb: hub: three\n" >expect &&
	test_cmp expect actual &&
	test "$(git -C r log -1 --format=%s usb-linus)" = "USB: another fs fix" &&
	test "$(git -C origin.git rev-parse usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(git -C origin.git rev-parse usb-linus)" = "$(git -C r rev-parse work-linus)" &&
	git -C r log -1 --format="%(trailers:key=Reviewed-by,valueonly)" usb-next~1 >rb &&
	grep "^Rev Iewer <rev@example.org>\$" rb &&
	! git -C r log --format=%s usb-linus usb-next | grep "never had"
'

# The week of lib-todo.sh: nine series (a partial reroll, v2 in reply to
# v1, an unthreaded export, one already on work-next, one on no branch),
# made from a directory holding ~/.gitconfig, as t02xx make it in their
# trash directories (test_setup_cached: their copy of it, not a build)
test_expect_success 'maint-loop.sh -n on a week of nine series: one line each, as dry-apply decides them' '
	mkdir nine &&
	cp .gitconfig nine/ &&
	(
		cd nine &&
		. "$MAINT_TEST_DIR/lib-threads.sh" &&
		. "$MAINT_TEST_DIR/lib-todo.sh" &&
		todo_setup
	) &&
	(cd nine && repo_state) >before &&
	test_expect_code 1 sh -c "cd nine && sh \"$LOOP\" -n TODO drivers/usb fs/" >out 2>err &&
	test_expect_code 1 git -C nine maint-dry-apply -q --porcelain --onto work-linus --onto work-next TODO >verdict &&
	awk -F "\t" "\$1 == \"series\" && !(\$2 in s) { s[\$2] = \$10; o[++n] = \$2 }
		\$1 == \"series\" && \$4 == \"ok\" && !(\$2 in b) { b[\$2] = \$3 }
		END { for (i = 1; i <= n; i++) print ((o[i] in b) ? b[o[i]] : \"none\") \"\t\" s[o[i]] }" verdict >expect &&
	test_line_count = 9 expect &&
	test_cmp expect out &&
	cat >expect <<-\EOF &&
	work-next	usb: hub: cleanups
	work-linus	USB: serial: ftdi: two fixes
	work-linus	usb: gadget: udc rework
	work-linus	usb: storage: quirks
	work-linus	usb: ehci: fix a race
	none	usb: hub: wrong context
	work-linus	usb: misc: led fixes
	work-linus	usb: core: quirk table
	work-linus	ext4: fix a leak
	EOF
	test_cmp expect out &&
	echo "maint-loop: series 6 applies to none of work-linus work-next: usb: hub: wrong context" >expect &&
	test_cmp expect err &&
	(cd nine && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'maint-loop.sh: a mailbox that cannot be read: mbox-split'"'"'s error and exit status' '
	test_expect_code 128 sh -c "cd r && sh \"$LOOP\" ../nosuch drivers/usb" >out 2>err &&
	grep "^fatal: cannot open .\.\./nosuch." err &&
	! grep maint-loop err
'

test_expect_success 'maint-loop.sh without a path: usage, exit 129' '
	test_expect_code 129 sh "$LOOP" TODO 2>err &&
	echo "usage: maint-loop.sh [-n] <mailbox> <path>..." >expect &&
	test_cmp expect err
'

test_done
