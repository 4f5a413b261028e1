#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='every review carried once, to the right patch: b4 am as the oracle of the trailers queue carries'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"
. "$MAINT_TEST_DIR/lib-b4.sh"

test_expect_success 'setup: a week of mail for the USB tree' '
	todo_setup &&
	git config user.name "C O Mitter" &&
	git config user.email committer@example.com
'

# The series of the week whose reviews b4 and we carry alike: a cover
# letter's Acked-by and a patch's Reviewed-by (A), a review of a partial
# reroll (D), a review of v1 on a v2 posted in reply to v1 (H). (b4 am
# reads one thread: C's v2 in a new thread is not its case; t0210 and
# t0212 show what we carry there.)
for s in A:todo/A/0000-cover-letter.patch:3 D:todo/D1/0000-cover-letter.patch:4 \
	H:todo/H2/v2-0000-cover-letter.patch:2
do
	name=${s%%:*} rest=${s#*:} n=${s##*:} cover=${rest%:*}
	test_expect_success B4 "series $name: the trailers b4 am carries, in its order" '
		b4_trailers TODO "$(msgid '"$cover"')" >b4-'"$name"' &&
		git branch -f q-'"$name"' work-next &&
		git-maint-queue -q --no-signoff --series "$(msgid '"$cover"')" q-'"$name"' TODO &&
		our_trailers q-'"$name"' '"$n"' >actual &&
		test_cmp b4-'"$name"' actual
	'
done

# (what b4 am gave for A and H above: b4 runs in 0.5 s of CPU)
test_expect_success B4 'the reviews b4 carries are there: the oracle says something' '
	grep "^Acked-by: Ack Er <ack@example.org>\$" b4-A &&
	grep "^Reviewed-by: Rev Iewer <rev@example.net>\$" b4-H
'

# nore: a reply that kept "[PATCH] ..." and lost its "Re:", its
# signature after "--" (b4's trailers-followup-nore sample, in mails of
# our own); htmljunk: an address a mailer wrote back from HTML.
test_expect_success 'setup: a reply without "Re:", and one from a mailer that turned HTML into text' '
	git checkout -q -b simple base &&
	todo_edit drivers/usb/core/hub.c 12 "a simple fix" &&
	test_tick &&
	git commit -q -m "usb: hub: a simple fix" -m "Follow-up trailer collating test." \
		-m "Fixes: abcdef01234567890
Reviewed-by: Early Reviewer <early@example.com>
Signed-off-by: A U Thor <author@example.com>" &&
	git format-patch -q --thread=shallow -o simple -1 &&
	patch=$(ls simple/0001-*.patch) &&
	{
		echo "$FROM_LINE" &&
		echo "From: Late Reviewer <late@example.com>" &&
		echo "Date: Sat, 9 Apr 2005 10:00:00 +0000" &&
		subject_of "$patch" | sed "s/^/Subject: /" &&
		echo "Message-ID: <nore.1@example.com>" &&
		echo "In-Reply-To: <$(msgid "$patch")>" &&
		echo "References: <$(msgid "$patch")>" &&
		echo &&
		echo "> usb: hub: a simple fix" &&
		echo &&
		echo "Reviewed-by: Late Reviewer <late@example.com>" &&
		echo &&
		echo "--" &&
		echo "Reviewed-by: Not A Trailer <sig@example.com>" &&
		echo
	} >nore.mail &&
	{
		echo "$FROM_LINE" &&
		echo "From: Html Junker <junker@example.com>" &&
		echo "Date: Sat, 9 Apr 2005 11:00:00 +0000" &&
		subject_of "$patch" | sed "s/^/Subject: Re: /" &&
		echo "Message-ID: <junk.1@example.com>" &&
		echo "In-Reply-To: <$(msgid "$patch")>" &&
		echo "References: <$(msgid "$patch")>" &&
		echo &&
		echo "> usb: hub: a simple fix" &&
		echo &&
		echo "Reviewed-by: Html Junker <junker@example.com<mailto:junker@example.com>>" &&
		echo &&
		echo "--" &&
		echo "Sent from a phone" &&
		echo
	} >junk.mail &&
	cat "$patch" nore.mail >nore.mbox &&
	cat "$patch" junk.mail >junk.mbox &&
	git checkout -q work-next
'

test_expect_success 'a reply without "Re:" is a follow-up: its Reviewed-by is carried, nothing below its "--"' '
	git-maint-mbox-split --format="%P %s" nore.mbox >actual &&
	cat >expect <<-\EOF &&
	patch [PATCH] usb: hub: a simple fix
	mail [PATCH] usb: hub: a simple fix
	EOF
	test_cmp expect actual &&
	git branch -f q-nore work-next &&
	git-maint-queue -q --no-signoff q-nore nore.mbox &&
	git log -1 --format=%B q-nore | git interpret-trailers --parse >actual &&
	cat >expect <<-\EOF &&
	Fixes: abcdef01234567890
	Reviewed-by: Early Reviewer <early@example.com>
	Signed-off-by: A U Thor <author@example.com>
	Reviewed-by: Late Reviewer <late@example.com>
	EOF
	test_cmp expect actual
'

test_expect_success B4 'the same as b4 am' '
	b4_trailers nore.mbox "$(msgid simple/0001-*.patch)" >expect &&
	our_trailers q-nore 1 >actual &&
	test_cmp expect actual
'

# b4 0.12 (Debian's) carries the address as written; b4 since drops the
# "<mailto:...>" (its trailers-followup-htmljunk sample): we do as it does now.
test_expect_success 'an address written back from HTML is carried cleaned, as b4 carries it' '
	git branch -f q-junk work-next &&
	git-maint-queue -q --no-signoff q-junk junk.mbox &&
	git log -1 --format=%B q-junk | git interpret-trailers --parse >actual &&
	cat >expect <<-\EOF &&
	Fixes: abcdef01234567890
	Reviewed-by: Early Reviewer <early@example.com>
	Signed-off-by: A U Thor <author@example.com>
	Reviewed-by: Html Junker <junker@example.com>
	EOF
	test_cmp expect actual
'

test_expect_success 'the trailers of a patch come before its cover letter'"'"'s, whatever the mailbox order, as b4 orders them' '
	cat todo/A/0000-cover-letter.patch todo/A-r0.mail todo/A/0001-*.patch todo/A/0002-*.patch \
		todo/A/0003-*.patch todo/A-r2.mail >ack-first.mbox &&
	git branch -f q-ack work-next &&
	git-maint-queue -q --no-signoff q-ack ack-first.mbox &&
	git log -1 --format=%B q-ack~1 | git interpret-trailers --parse >actual &&
	cat >expect <<-EOF &&
	Signed-off-by: Hub Author <hub@example.com>
	Reviewed-by: $TODO_REV
	Acked-by: $TODO_ACK
	EOF
	test_cmp expect actual
'

test_expect_success B4 'the same as b4 am' '
	b4_trailers ack-first.mbox "$(msgid todo/A/0000-cover-letter.patch)" >expect &&
	our_trailers q-ack 3 >actual &&
	test_cmp expect actual
'

test_done
