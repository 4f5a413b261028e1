#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify --after-push (what publish runs) and --revert, against the real server'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-notify.sh"

GIT_COMMITTER_DATE="1112354055 +0200"

record () {
	printf "Message-ID: <p%d@example.org>\nFrom: Author %d <author%d@example.org>\nSubject: [PATCH %d/3] usb: patch %d\nCc: list@example.org\nIn-Reply-To: <cover@example.org>\n" \
		$1 $1 $1 $1 $1
}

test_expect_success 'setup: keyring, server, three queued patches, two remotes' '
	start_keyring &&
	keyring_store "$SMTP_PASSWORD" protocol smtp server 127.0.0.1 user "$SMTP_USER" &&
	start_smtp_server &&
	git init -q --bare origin.git &&
	git init -q --bare backup.git &&
	notify_commits repo 3 record &&
	(
		cd repo &&
		smtp_config &&
		git remote add origin ../origin.git &&
		git remote add backup ../backup.git &&
		git push -q origin work-next:usb-next
	)
'

test_expect_success '--after-push with a remote that has no remote-tracking branches: exit 128, nothing sent' '
	(cd repo && test_expect_code 128 git-maint-notify --send --after-push origin --after-push backup \
		usb-next..work-next >../out 2>../err) &&
	echo "fatal: remote '"'"'backup'"'"' has no remote-tracking branches (refs/remotes/backup/): cannot tell what it has" >expect &&
	test_cmp expect err &&
	test "$(smtp_count)" = 0
'

test_expect_success '--after-push with an unknown remote: exit 128' '
	(cd repo && test_expect_code 128 git-maint-notify --send --after-push nope usb-next..work-next 2>../err) &&
	echo "fatal: no remote '"'"'nope'"'"'" >expect &&
	test_cmp expect err &&
	test "$(smtp_count)" = 0
'

test_expect_success 'a commit not yet on every remote waits (exit 75); those on all of them go' '
	(
		cd repo &&
		git push -q backup work-next~1:refs/heads/usb-next &&
		test_expect_code 75 git-maint-notify --send --after-push origin --after-push backup \
			usb-next..work-next >../out 2>../err
	) &&
	test "$(smtp_count)" = 2 &&
	c=$(git -C repo rev-parse --short=12 work-next) &&
	grep "^Waiting: $c usb: patch 3 is not on .backup. yet$" err &&
	grep "^hint: 1 mail is waiting" err &&
	test_must_fail git -C repo notes --ref=maint-notify show work-next
'

test_expect_success 'once the remote has it, the rerun sends only that one (exit 0)' '
	(
		cd repo &&
		git push -q backup work-next:usb-next &&
		git-maint-notify --send -q --after-push origin --after-push backup usb-next..work-next
	) &&
	test "$(smtp_count)" = 3 &&
	smtp_header 3 To >actual &&
	echo "Author 3 <author3@example.org>" >expect &&
	test_cmp expect actual
'

test_expect_success 'the range can be given by commit ids, as publish does' '
	(cd repo && git-maint-notify --send -q --after-push origin \
		$(git rev-parse usb-next)..$(git rev-parse work-next) >../out 2>../err) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 3
'

test_expect_success 'setup: a revert of patch 1, with its reason' '
	(
		cd repo &&
		c1=$(git rev-parse work-next~2) &&
		test_tick &&
		printf "Revert \"usb: patch 1\"\n\nThis reverts commit %s.\n\nIt breaks the frobnicator on big-endian machines,\nsee the report by Tester.\n\nSigned-off-by: C O Mitter <committer@example.com>\n" $c1 >msg &&
		GIT_AUTHOR_NAME="C O Mitter" GIT_AUTHOR_EMAIL=committer@example.com \
			git commit -q --allow-empty -F msg
	)
'

test_expect_success 'without --revert, our own revert is not mailed' '
	(cd repo && git-maint-notify --send -q usb-next..work-next >../out 2>../err) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 3 &&
	test_must_fail git -C repo notes --ref=maint-notify show work-next
'

test_expect_success '--revert: a reply to our notification, to the same people, quoting the reason' '
	(cd repo && git-maint-notify --send --revert usb-next..work-next >../out 2>../err) &&
	test "$(smtp_count)" = 4 &&
	first_id=$(smtp_header 1 Message-ID) &&
	smtp_header 4 To >actual &&
	smtp_header 4 Cc >>actual &&
	smtp_header 4 Subject >>actual &&
	smtp_header 4 In-Reply-To >>actual &&
	smtp_header 4 References >>actual &&
	cat >expect <<-EOF &&
	Author 1 <author1@example.org>
	list@example.org
	Re: [PATCH 1/3] usb: patch 1
	$first_id
	<cover@example.org> <p1@example.org> $first_id
	EOF
	test_cmp expect actual &&
	tr -d "\r" <"$SMTP_SPOOL/0004.eml" >mail &&
	grep "^was reverted by commit $(git -C repo rev-parse --short=12 work-next), \"Revert \"usb: patch 1\"\":$" mail &&
	grep "^> It breaks the frobnicator on big-endian machines,$" mail &&
	grep "^> see the report by Tester.$" mail &&
	! grep -e "This reverts commit" -e "Signed-off-by" mail &&
	git -C repo notes --ref=maint-notify show work-next >note &&
	grep "^Kind: revert $(git -C repo rev-parse work-next~3)$" note
'

test_expect_success 'the revert is announced once' '
	(cd repo && git-maint-notify --send --revert -q usb-next..work-next) &&
	test "$(smtp_count)" = 4
'

test_expect_success 'a revert of a commit never announced is an ordinary commit (ours: no mail)' '
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_EMAIL=committer@example.com git commit -q --allow-empty -m "usb: local change" &&
		test_tick &&
		printf "Revert \"usb: local change\"\n\nThis reverts commit %s.\n" $(git rev-parse HEAD) >msg &&
		GIT_AUTHOR_EMAIL=committer@example.com git commit -q --allow-empty -F msg &&
		git-maint-notify --send --revert -q usb-next..work-next >../out 2>../err
	) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 4
'

test_expect_success 'stop the server' '
	stop_smtp_server
'

test_done
