#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue: which branch a name queues on

A <tree>-next (<tree>-linus) name is queued on work-next (work-linus)
only when <tree>-next itself exists, or when a [tree] names it; a
branch that does not exist exits 128 "no such branch" and changes
nothing: a typo must not land on another tree.'
. ./test-lib.sh

# scissors_mail <n> <subject> <file> <line>: a patch mail (whose body
# has a reply above a scissors line: --scissors is used below).
scissors_mail () {
	cat <<-EOF
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.com>
	Date: Thu, 7 Apr 2005 15:1$1:13 -0700
	Subject: [PATCH $1/3] Re: an earlier thread

	Thanks for the report, how about this?

	-- >8 --
	Subject: $2

	The real message of patch $1.
	---
	 $3 | 1 +
	 1 file changed, 1 insertion(+)

	diff --git a/$3 b/$3
	--- a/$3
	+++ b/$3
	@@ -1 +1,2 @@
	 $3
	+$4

	EOF
}

test_expect_success 'setup: a repository and a patch mail' '
	git init -q r &&
	(
		cd r &&
		echo a >a &&
		git add a &&
		test_commit base
	) &&
	scissors_mail 1 "fix a" a a2 >one.mbox
'

test_expect_success 'setup: what git am makes of the mail, and the branches' '
	(
		cd r &&
		git checkout -q -b am-sc base &&
		git am -q --scissors "$HOME"/one.mbox &&
		git checkout -q --detach base &&
		git branch -f work-next base &&
		git branch -f usb-next base &&
		git branch -f usb-linus base
	)
'

test_expect_success 'an existing <tree>-next is queued on work-next' '
	(
		cd r &&
		git-maint-queue --scissors usb-next "$HOME"/one.mbox >"$HOME"/out &&
		head -n 1 "$HOME"/out >"$HOME"/actual &&
		echo "'\''usb-next'\'' is queued on its work branch '\''work-next'\''" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/actual &&
		test "$(git rev-parse work-next)" = "$(git rev-parse am-sc)" &&
		test "$(git rev-parse usb-next)" = "$(git rev-parse base)"
	)
'

test_expect_success 'a <tree>-next that does not exist: exit 128 "no such branch", work-next untouched (issue 9)' '
	(
		cd r &&
		repo_state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue foo-next "$HOME"/one.mbox >"$HOME"/out 2>"$HOME"/err &&
		test_must_be_empty "$HOME"/out &&
		printf "%s\n" "fatal: no such branch '\''foo-next'\''" \
			"hint: the most similar branch is" "hint: 	work-next" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		repo_state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after
	)
'

test_expect_success 'the same for <tree>-linus, with work-linus there' '
	(
		cd r &&
		git branch -f work-linus base &&
		repo_state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue foo-linus "$HOME"/one.mbox 2>"$HOME"/err &&
		printf "%s\n" "fatal: no such branch '\''foo-linus'\''" \
			"hint: the most similar branch is" "hint: 	work-linus" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		repo_state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after
	)
'

test_expect_success 'a branch that does not exist at all: exit 128 "no such branch"' '
	(
		cd r &&
		repo_state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue nosuch "$HOME"/one.mbox 2>"$HOME"/err &&
		echo "fatal: no such branch '\''nosuch'\''" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		repo_state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after
	)
'

test_expect_success 'an existing <tree>-linus without work-linus is queued on itself' '
	(
		cd r &&
		git branch -D work-linus &&
		git-maint-queue --scissors usb-linus "$HOME"/one.mbox >"$HOME"/out &&
		head -n 1 "$HOME"/out >"$HOME"/actual &&
		echo "Queueing 1 patch on '\''usb-linus'\''" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/actual &&
		test "$(git rev-parse usb-linus)" = "$(git rev-parse am-sc)"
	)
'

test_expect_success 'a configured tree maps its public branch even when it is not here; its work branch must be' '
	(
		cd r &&
		printf "[tree \"usb\"]\n\tpublic = usb-mainline\n\twork = usb-work\n" >.git/maint.ini &&
		repo_state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue usb-mainline "$HOME"/one.mbox 2>"$HOME"/err &&
		echo "fatal: no such branch '\''usb-work'\''" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		repo_state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after &&
		git branch usb-work base &&
		git-maint-queue -q --scissors usb-mainline "$HOME"/one.mbox &&
		test "$(git rev-parse usb-work)" = "$(git rev-parse am-sc)" &&
		rm .git/maint.ini
	)
'

test_done
