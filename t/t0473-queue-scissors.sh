#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue --scissors, --no-scissors and mailinfo.scissors as git am has them

The commits equal git am'\''s for the same mails and options.'
. ./test-lib.sh

# scissors_mail <n> <subject> <file> <line>: a patch mail whose body has
# a reply above a scissors line.
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

test_expect_success 'setup: a repository and a series whose mails have scissors' '
	git init -q r &&
	(
		cd r &&
		echo a >a &&
		echo b >b &&
		echo c >c &&
		git add a b c &&
		test_commit base
	) &&
	scissors_mail 1 "fix a" a a2 >one.mbox &&
	{
		scissors_mail 1 "fix a" a a2 &&
		scissors_mail 2 "fix b" b "does not apply: context is wrong" | sed "s/^ b$/ not-b/" &&
		scissors_mail 3 "fix c" c c2
	} >three.mbox
'

# am <branch> <options>...: git am's commits for the mails, on <branch> from base.
am () {
	b=$1 &&
	shift &&
	git checkout -q -B "$b" base &&
	"$@" &&
	git checkout -q --detach base
}

test_expect_success '--scissors gives the commit git am --scissors gives (issue 9)' '
	(
		cd r &&
		am am-sc git am -q --scissors "$HOME"/one.mbox &&
		git branch -f q-sc base &&
		git-maint-queue -q --scissors q-sc "$HOME"/one.mbox &&
		test "$(git rev-parse q-sc)" = "$(git rev-parse am-sc)" &&
		git log -1 --format=%s q-sc >"$HOME"/actual &&
		echo "fix a" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/actual
	)
'

test_expect_success 'without it, the whole body is the message, as with git am' '
	(
		cd r &&
		am am-plain git am -q "$HOME"/one.mbox &&
		git branch -f q-plain base &&
		git-maint-queue -q q-plain "$HOME"/one.mbox &&
		test "$(git rev-parse q-plain)" = "$(git rev-parse am-plain)"
	)
'

test_expect_success 'mailinfo.scissors=true is the default, --no-scissors overrides it, as with git am' '
	test_when_finished "git -C r config --unset mailinfo.scissors" &&
	(
		cd r &&
		git config mailinfo.scissors true &&
		am am-cfg git am -q "$HOME"/one.mbox &&
		git branch -f q-cfg base &&
		git-maint-queue -q q-cfg "$HOME"/one.mbox &&
		test "$(git rev-parse q-cfg)" = "$(git rev-parse am-cfg)" &&
		test "$(git rev-parse q-cfg)" = "$(git rev-parse am-sc)" &&
		am am-no git am -q --no-scissors "$HOME"/one.mbox &&
		git branch -f q-no base &&
		git-maint-queue -q --no-scissors q-no "$HOME"/one.mbox &&
		test "$(git rev-parse q-no)" = "$(git rev-parse am-no)" &&
		test "$(git rev-parse q-no)" = "$(git rev-parse am-plain)"
	)
'

test_expect_success 'a mailinfo.scissors that is not a boolean: exit 128, nothing changed' '
	test_when_finished "git -C r config --unset mailinfo.scissors" &&
	(
		cd r &&
		git config mailinfo.scissors maybe &&
		git branch -f q-bad base &&
		repo_state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue -q q-bad "$HOME"/one.mbox 2>"$HOME"/err &&
		echo "fatal: bad boolean config value '\''maybe'\'' for '\''mailinfo.scissors'\''" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		repo_state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after &&
		test_must_fail git am "$HOME"/one.mbox 2>"$HOME"/am-err &&
		grep "bad boolean config value .maybe. for .mailinfo.scissors." "$HOME"/am-err &&
		test_might_fail git am --abort
	)
'

test_expect_success '--scissors holds after a stop: --skip goes on with it, as git am --skip' '
	(
		cd r &&
		git checkout -q -B am-skip base &&
		test_must_fail git am -q --scissors "$HOME"/three.mbox >/dev/null 2>&1 &&
		git am --skip >/dev/null 2>&1 &&
		git checkout -q --detach base &&
		git branch -f q-skip base &&
		test_expect_code 1 git-maint-queue -q --scissors q-skip "$HOME"/three.mbox 2>/dev/null &&
		git-maint-queue -q --skip 2>/dev/null &&
		test "$(git rev-parse q-skip)" = "$(git rev-parse am-skip)" &&
		git log --format=%s base..q-skip >"$HOME"/actual &&
		printf "fix c\nfix a\n" >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/actual
	)
'

test_done
