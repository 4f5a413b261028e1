#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-publish when the mail server refuses or defers mails: a mail that can never go does not stop later ones, and publish never stays wedged (reliability case 52)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"
. "$MAINT_TEST_DIR/lib-publish.sh"

cleanup stop_smtp_server

# patch <n>: a commit by Author <n> on work-next, with the record of the
# mail it came from (Cc: the list and cc<n>)
patch () {
	(
		cd r &&
		GIT_AUTHOR_NAME="Author $1" GIT_AUTHOR_EMAIL=author$1@example.org \
			queue_commit drivers/usb/p$1.c "usb: patch $1" &&
		printf "Message-ID: <p%d@example.org>\nFrom: Author %d <author%d@example.org>\nSubject: [PATCH] usb: patch %d\nCc: list@example.org\nCc: cc%d@example.org\n" \
			$1 $1 $1 $1 $1 >../note &&
		git notes --ref=maint add -F ../note HEAD
	)
}

# mailed: "<To> <Message-ID>" of every message the server took, sorted
mailed () {
	for f in "$SMTP_SPOOL"/*.eml
	do
		test -f "$f" || continue
		tr -d "\r" <"$f" | sed -n "/^$/q;s/^To: .*<\(.*\)>$/\1/p;s/^Message-ID: //p" | paste -d" " - - ||
		return 1
	done | sort
}

test_expect_success 'setup: a bare origin, the server, the article'"'"'s branches' '
	start_smtp_server &&
	git init -q --bare origin.git &&
	setup_article_repo r &&
	git -C r remote add origin "$PWD/origin.git" &&
	git -C r push -q origin usb-next &&
	git -C r fetch -q origin &&
	cat >r/.git/maint.ini <<-EOF &&
	[tree "usb"]
		public = usb-next
		work = work-next
		remote = origin
	EOF
	(cd r && smtp_config && git config sendemail.smtpPass "$SMTP_PASSWORD")
'

test_expect_success 'the author of one of two patches refused (550): published, the other mailed, exit 1; the refusal recorded' '
	patch 1 &&
	patch 2 &&
	smtp_reset --reject author1@example.org &&
	tip=$(git -C r rev-parse work-next) &&
	test_expect_code 1 in_repo r git-maint-publish -q >out 2>err &&
	c=$(git -C r rev-parse --short=12 work-next~1) &&
	echo "error: $c: the server refused the mail: 550 5.1.1 <author1@example.org>: Recipient address rejected: User unknown" >expect &&
	grep "^error: " err >actual &&
	test_cmp expect actual &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(smtp_count)" = 1 &&
	test "$(smtp_header 1 To)" = "Author 2 <author2@example.org>" &&
	git -C r notes --ref=maint-notify show work-next~1 >note &&
	grep "^Status: failed$" note &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success '... a later publish is not held back by it: pushed, its author mailed, exit 0' '
	patch 3 &&
	tip=$(git -C r rev-parse work-next) &&
	in_repo r git-maint-publish -q >out 2>err &&
	sed "/^Sent [0-9a-f]* usb: patch [0-9]* (to author[0-9]*@example.org)$/d" err >actual &&
	test_must_be_empty actual &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(smtp_count)" = 2 &&
	test "$(smtp_header 2 To)" = "Author 3 <author3@example.org>" &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'a Cc refused (550): published, the mail goes to the others, a warning, exit 0' '
	patch 4 &&
	smtp_reset --reject cc4@example.org &&
	in_repo r git-maint-publish -q >out 2>err &&
	c=$(git -C r rev-parse --short=12 work-next) &&
	echo "warning: $c: not sent to '"'"'cc4@example.org'"'"': 550 5.1.1 <cc4@example.org>: Recipient address rejected: User unknown" >expect &&
	sed "/^Sent /d" err >actual &&
	test_cmp expect actual &&
	printf "MAIL FROM:<committer@example.com>\nRCPT TO:<author4@example.org>\nRCPT TO:<list@example.org>\n" >expect &&
	test_cmp expect "$SMTP_SPOOL/0001.env" &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'a server that takes one recipient a transaction (452): published, everyone mailed once, exit 0' '
	patch 5 &&
	smtp_reset --rcpt-max 1 &&
	in_repo r git-maint-publish -q >out 2>err &&
	sed "/^Sent [0-9a-f]* usb: patch [0-9]* (to author[0-9]*@example.org)$/d" err >actual &&
	test_must_be_empty actual &&
	test "$(smtp_count)" = 3 &&
	cat "$SMTP_SPOOL"/*.env | sed -n "s/^RCPT TO://p" | sort >actual &&
	printf "<%s>\n" author5@example.org cc5@example.org list@example.org >expect &&
	test_cmp expect actual &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'a server that defers every mail (451): published, exit 75, the mail waits in the state' '
	patch 6 &&
	smtp_reset --defer-all &&
	tip=$(git -C r rev-parse work-next) &&
	test_expect_code 75 in_repo r git-maint-publish -q >out 2>err &&
	c=$(git -C r rev-parse --short=12 work-next) &&
	echo "error: $c: the server deferred the mail: 451 4.3.0 <author6@example.org>: Recipient address deferred: try again later" >expect &&
	grep "^error: " err >actual &&
	test_cmp expect actual &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test_must_fail smtp_count &&
	grep "^notify 1$" r/.git/maint/publish/state
'

test_expect_success '... a later publish while it still defers: not wedged, the new commit pushed, exit 75, both mails wait' '
	patch 7 &&
	tip=$(git -C r rev-parse work-next) &&
	test_expect_code 75 in_repo r git-maint-publish -q >out 2>err &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse usb-next)" = "$tip" &&
	c6=$(git -C r rev-parse --short=12 work-next~1) &&
	c7=$(git -C r rev-parse --short=12 work-next) &&
	for a in $c6:6 $c6:6 $c7:7
	do
		echo "error: ${a%:*}: the server deferred the mail: 451 4.3.0 <author${a#*:}@example.org>: Recipient address deferred: try again later" || return 1
	done >expect &&
	grep "^error: " err >actual &&
	test_cmp expect actual &&
	! grep "nothing new was published" err &&
	test_must_fail smtp_count &&
	grep "^notify 1$" r/.git/maint/publish/state
'

test_expect_success '... once the server takes mail again, the next publish mails both authors once, exit 0' '
	smtp_reset &&
	in_repo r git-maint-publish -q >out 2>err &&
	sed "/^Sent [0-9a-f]* usb: patch [0-9]* (to author[0-9]*@example.org)$/d" err >actual &&
	test_must_be_empty actual &&
	mailed | cut -d" " -f1 >actual &&
	printf "author%d@example.org\n" 6 7 >expect &&
	test_cmp expect actual &&
	test_path_is_missing r/.git/maint/publish &&
	in_repo r git-maint-publish -q &&
	test "$(smtp_count)" = 2
'

test_expect_success '--abort with mails taken over from an earlier publish: the hint names every waiting author'"'"'s range, and its command mails them once' '
	smtp_reset --defer-all &&
	before=$(git -C r rev-parse usb-next) &&
	patch 8 &&
	test_expect_code 75 in_repo r git-maint-publish -q >out 2>err &&
	patch 9 &&
	after=$(git -C r rev-parse work-next) &&
	test_expect_code 75 in_repo r git-maint-publish -q >out 2>err &&
	in_repo r git-maint-publish --abort 2>err &&
	test_path_is_missing r/.git/maint/publish &&
	echo "hint: the authors of $(echo $before | cut -c1-12)..$(echo $after | cut -c1-12) were not told; '"'"'git maint-notify --send --revert --after-push origin $before..$after'"'"' tells them" >expect &&
	test_cmp expect err &&
	smtp_reset &&
	(cd r && git-maint-notify --send -q --revert --after-push origin $before..$after) &&
	mailed | cut -d" " -f1 >actual &&
	printf "author%d@example.org\n" 8 9 >expect &&
	test_cmp expect actual
'

test_expect_success 'publish -q: the author mailed, and not a line printed (notify runs with -q)' '
	smtp_reset &&
	patch 10 &&
	tip=$(git -C r rev-parse work-next) &&
	git -C r maint-publish -q >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(smtp_count)" = 1 &&
	test "$(smtp_header 1 To)" = "Author 10 <author10@example.org>" &&
	git -C r notes --ref=maint-notify show work-next >note &&
	grep "^Status: sent$" note &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success '... without -q, notify says what it sent' '
	smtp_reset &&
	patch 11 &&
	git -C r maint-publish >out 2>err &&
	c=$(git -C r rev-parse --short=12 work-next) &&
	grep "^Sent $c usb: patch 11 (to author11@example.org)\$" err &&
	test "$(smtp_count)" = 1 &&
	test_path_is_missing r/.git/maint/publish
'

test_done
