#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='queue building blocks: dates, git am messages and sign-offs, lock, state files'
. ./test-lib.sh

test_expect_success 'dates parse as git parses them' '
	cat >dates <<-\EOD &&
	Thu, 7 Apr 2005 15:13:13 -0700
	Thu, 07 Apr 2005 22:13:13 +0000 (UTC)
	2005-04-07 22:13:13 +0200
	2005-04-07T22:13:13Z
	@1112911993 -0700
	1112911993 +0130
	Mon, 3 Dec 2026 10:00:00 GMT
	7 Apr 2005 15:13 PDT
	Tue, 13 Feb 2024 01:02:03 +0000
	Sat, 1 Jan 2000 00:00:00
	Wed, 29 Feb 2012 23:59:59 +0545
	EOD
	while read d
	do
		GIT_AUTHOR_DATE="$d" git var GIT_AUTHOR_IDENT | sed "s/.*> //" >>expect &&
		test-queue-lib date "$d" >>actual || return 1
	done <dates &&
	test_cmp expect actual
'

test_expect_success 'an unreadable date is an error' '
	test_must_fail test-queue-lib date "not a date" 2>err &&
	grep "invalid date format" err
'

# The message git am -s makes from a mail with this body, compared with
# ours built from git mailinfo'"'"'s output of the same mail.
sob="Signed-off-by: C O Mitter <committer@example.com>"
check_msg () {
	n=$1 &&
	echo "content $n" >file$n &&
	git add file$n &&
	git diff --cached -- file$n >patch.txt &&
	git rm -q --cached file$n &&
	rm file$n &&
	{
		printf "From: A U Thor <author@example.com>\nDate: Thu, 7 Apr 2005 15:13:13 -0700\nSubject: [PATCH] case %s\n\n" $n &&
		cat body &&
		printf -- "---\n" &&
		cat patch.txt
	} >mail$n &&
	git am -q -s mail$n &&
	git log -1 --format=%B >expect &&
	git mailinfo msg$n patch$n <mail$n >info$n &&
	sed -n "s/^Subject: //p" info$n >subject$n &&
	test-queue-lib msg subject$n msg$n "$sob" >actual &&
	printf "\n" >>actual &&
	test_cmp expect actual
}

test_expect_success 'setup a repository for git am' '
	git init -q am &&
	(cd am && test_commit base)
'

test_expect_success 'sign-off: plain body' '
	(cd am && printf "Some text.\n\nMore text.\n" >body && check_msg 1)
'

test_expect_success 'sign-off: no body' '
	(cd am && : >body && check_msg 2)
'

test_expect_success 'sign-off: ours is already last (no duplicate)' '
	(cd am && printf "Text.\n\n%s\n" "$sob" >body && check_msg 3)
'

test_expect_success 'sign-off: ours earlier in the block, another trailer last' '
	(cd am && printf "Text.\n\n%s\nReviewed-by: R <r@example.com>\n" "$sob" >body && check_msg 4)
'

test_expect_success 'sign-off: a different last trailer' '
	(cd am && printf "Text.\n\nSigned-off-by: X <x@example.com>\n" >body && check_msg 5)
'

test_expect_success 'sign-off: trailers separated by a blank line' '
	(cd am && printf "Text.\n\nFixes: 1234 (\"x\")\n\nCc: stable@vger.kernel.org\nSigned-off-by: X <x@example.com>\n" >body && check_msg 6)
'

test_expect_success 'sign-off: last paragraph only partly trailers with a git-generated one' '
	(cd am && printf "Text.\n\nnot a trailer line\nSigned-off-by: X <x@example.com>\nLink: https://example.com/x\nAcked-by: Y <y@example.com>\n" >body && check_msg 7)
'

test_expect_success 'sign-off: last paragraph mostly prose' '
	(cd am && printf "Text.\n\nprose one\nprose two\nprose three\nprose four\nAcked-by: Y <y@example.com>\n" >body && check_msg 8)
'

test_expect_success 'sign-off: trailer with a continuation line' '
	(cd am && printf "Text.\n\nReported-by: Some Body\n  <some@example.com>\n%s\n" "$sob" >body && check_msg 9)
'

test_expect_success 'sign-off: only a trailer-like paragraph after the subject' '
	(cd am && printf "Cc: a@example.com\n" >body && check_msg 10)
'

test_expect_success 'sign-off: trailing blanks and blank lines are cleaned' '
	(cd am && printf "\n\nText.   \n\n\n\nMore.\t\n\n\n" >body && check_msg 11)
'

test_expect_success 'sign-off: a --- line in the mail ends the message' '
	(cd am && printf "Text.\n\n%s\n---\nnotes below the cut\n" "$sob" >body && check_msg 12)
'

test_expect_success 'a Link: trailer goes before our sign-off' '
	printf "Subj\n" >s && printf "Body.\n\nSigned-off-by: X <x@example.com>\n" >b &&
	test-queue-lib msg s b "Link: https://lore.kernel.org/r/1@x" "$sob" >actual &&
	cat >expect <<-EOD &&
	Subj

	Body.

	Signed-off-by: X <x@example.com>
	Link: https://lore.kernel.org/r/1@x
	$sob
	EOD
	test_cmp expect actual
'

test_expect_success 'lock: a second holder is refused with exit 75 naming path and pid' '
	git init -q lockrepo &&
	(
		cd lockrepo &&
		test-queue-lib lock "test-queue-lib lock true 2>err; echo \$? >rc; echo \$PPID >holder" &&
		echo 75 >expect &&
		test_cmp expect rc &&
		grep "another git-maint operation holds .*git-maint.lock (pid $(cat holder))" err &&
		test_path_is_missing .git/git-maint.lock
	)
'

test_expect_success 'lock: a lock file left by a dead process is taken over with a warning' '
	(
		cd lockrepo &&
		echo 999999 >.git/git-maint.lock &&
		test-queue-lib lock true 2>err &&
		grep "warning: taking over .*git-maint.lock.*pid 999999.*gone" err &&
		test_path_is_missing .git/git-maint.lock
	)
'

test_expect_success 'state: a written file reads back' '
	mkdir st &&
	printf "next 3\nlast 7\n" >payload &&
	test-queue-lib state-write st state <payload &&
	test-queue-lib state-read st state >actual &&
	test_cmp payload actual &&
	test_path_is_missing st/state.tmp
'

test_expect_success 'state: a missing file is reported as missing' '
	test_expect_code 1 test-queue-lib state-read st nothing
'

test_expect_success 'state: a truncated file is detected' '
	head -c 10 st/state >st/trunc &&
	test_expect_code 128 test-queue-lib state-read st trunc 2>err &&
	grep "state file .*trunc.* is damaged" err
'

test_expect_success 'state: a zero-length file is detected' '
	: >st/empty &&
	test_expect_code 128 test-queue-lib state-read st empty 2>err &&
	grep "damaged (empty)" err
'

test_expect_success 'state: a changed payload is detected' '
	sed "s/next 3/next 4/" st/state >st/changed &&
	test_expect_code 128 test-queue-lib state-read st changed 2>err &&
	grep "damaged (checksum does not match)" err
'

test_done
