#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify --send to a real SMTP server (aiosmtpd, STARTTLS, AUTH) with the password from a real Secret Service'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-notify.sh"

GIT_COMMITTER_DATE="1112354055 +0200"

test_expect_success 'setup: keyring, the SMTP password stored as git-credential-libsecret stores it' '
	start_keyring &&
	keyring_store "$SMTP_PASSWORD" protocol smtp server 127.0.0.1 user "$SMTP_USER"
'

record () {
	printf "Message-ID: <patch%d@example.org>\nFrom: Author %d <author%d@example.org>\nSubject: [PATCH %d/10] usb: patch %d\nTo: C O Mitter <committer@example.com>\nCc: linux-usb@vger.kernel.org\nIn-Reply-To: <cover@example.org>\n" \
		$1 $1 $1 $1 $1
}

test_expect_success 'setup: ten queued patches from ten authors, with their records' '
	notify_commits repo 10 record
'

test_expect_success 'start the server' '
	start_smtp_server
'

test_expect_success '--send: every mail delivered, exit 0, one line each on stderr' '
	test_when_finished "cd \"$TRASH_DIRECTORY\"" &&
	cd repo &&
	smtp_config &&
	git-maint-notify >../dry.mbox &&
	git-maint-notify --send >../out 2>../err &&
	cd .. &&
	test_must_be_empty out &&
	test_line_count = 10 err &&
	grep "^Sent [0-9a-f]* usb: patch 1 (to author1@example.org)$" err &&
	test "$(smtp_count)" = 10
'

test_expect_success 'the server received exactly the mails of the dry run, byte for byte' '
	csplit -s -z -f part dry.mbox "/^From [0-9a-f]\{40\} Mon Sep 17/" "{*}" &&
	i=0 &&
	for f in part*
	do
		i=$((i + 1)) &&
		sed 1d $f >expect &&
		tr -d "\r" <"$SMTP_SPOOL/$(printf %04d $i).eml" >actual &&
		test_cmp expect actual || return 1
	done &&
	test $i = 10
'

test_expect_success 'the wire carries CRLF line ends' '
	head -n 1 "$SMTP_SPOOL/0001.eml" | od -c | grep "\\\\r  *\\\\n"
'

test_expect_success 'envelope: our address, the author and the copied people' '
	cat >expect <<-\EOF &&
	MAIL FROM:<committer@example.com>
	RCPT TO:<author1@example.org>
	RCPT TO:<linux-usb@vger.kernel.org>
	EOF
	test_cmp expect "$SMTP_SPOOL/0001.env"
'

test_expect_success 'threading: in reply to the patch, referencing the cover letter' '
	smtp_header 4 In-Reply-To >actual &&
	smtp_header 4 References >>actual &&
	smtp_header 4 Subject >>actual &&
	cat >expect <<-\EOF &&
	<patch4@example.org>
	<cover@example.org> <patch4@example.org>
	Re: [PATCH 4/10] usb: patch 4
	EOF
	test_cmp expect actual
'

test_expect_success 'one connection for all ten: STARTTLS, then AUTH, then the mails' '
	cut -d" " -f1 "$SMTP_SPOOL/log" | sort -u >conns &&
	test_line_count = 1 conns &&
	cut -d" " -f2- "$SMTP_SPOOL/log" | sed -n "s/^EHLO .*/EHLO/;1,6p" >actual &&
	cat >expect <<-\EOF &&
	connect
	EHLO
	STARTTLS
	tls
	EHLO
	AUTH PLAIN
	EOF
	test_cmp expect actual &&
	grep -c " MAIL FROM:" "$SMTP_SPOOL/log" >n &&
	echo 10 >expect &&
	test_cmp expect n &&
	tail -n 1 "$SMTP_SPOOL/log" >last &&
	echo "1 QUIT" >expect &&
	test_cmp expect last
'

test_expect_success 'the journal: one note per commit in refs/notes/maint-notify, with the id and the reply' '
	git -C repo notes --ref=maint-notify list >notes &&
	test_line_count = 10 notes &&
	git -C repo notes --ref=maint-notify show work-next~9 >note &&
	grep "^Status: sent$" note &&
	grep "^Kind: applied$" note &&
	grep "^To: Author 1 <author1@example.org>$" note &&
	grep "^Cc: linux-usb@vger.kernel.org$" note &&
	grep "^Server: smtp://127.0.0.1:$SMTP_PORT$" note &&
	grep "^Reply: 250 2.0.0 Ok: queued as 0001$" note &&
	sed -n "s/^Message-ID: //p" note >id &&
	smtp_header 1 Message-ID >expect &&
	test_cmp expect id
'

test_expect_success 'the journal uses git notes fan-out (ab/cdef...), which git reads' '
	git -C repo ls-tree refs/notes/maint-notify >top &&
	! grep -v "^040000 tree [0-9a-f]*	[0-9a-f][0-9a-f]$" top &&
	c=$(git -C repo rev-parse work-next) &&
	git -C repo ls-tree -r --name-only refs/notes/maint-notify >paths &&
	grep -x "$(echo $c | cut -c1-2)/$(echo $c | cut -c3-)" paths
'

test_expect_success 'a rerun sends nothing: the journal has them all' '
	(cd repo && git-maint-notify --send >../out 2>../err) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 10 &&
	(cd repo && git-maint-notify >../out) &&
	test_must_be_empty out
'

test_expect_success 'the journal lists the commits the same as git notes would, and travels with a clone' '
	git clone -q --bare repo clone.git &&
	git -C clone.git fetch -q ../repo "refs/notes/*:refs/notes/*" &&
	git -C clone.git notes --ref=maint-notify list >notes &&
	test_line_count = 10 notes
'

test_expect_success 'a new commit later: only it is sent' '
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_NAME="Late Comer" GIT_AUTHOR_EMAIL=late@example.org \
			git commit -q --allow-empty -m "usb: patch 11" &&
		git-maint-notify --send -q >../out 2>../err
	) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 11 &&
	smtp_header 11 To >actual &&
	echo "Late Comer <late@example.org>" >expect &&
	test_cmp expect actual
'

test_expect_success '-v shows the conversation with AUTH redacted and no password anywhere' '
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_NAME="V Erbose" GIT_AUTHOR_EMAIL=v@example.org \
			git commit -q --allow-empty -m "usb: patch 12" &&
		git-maint-notify --send -v >../out 2>../err
	) &&
	grep "^smtp: > STARTTLS$" err &&
	grep "^smtp: > AUTH PLAIN$" err &&
	grep "^smtp: > <redacted>$" err &&
	grep "^smtp: < 235 " err &&
	grep "^smtp: > MAIL FROM:<committer@example.com>" err &&
	b64=$(printf "\0%s\0%s" "$SMTP_USER" "$SMTP_PASSWORD" | base64) &&
	! grep -e "$SMTP_PASSWORD" -e "$b64" out err &&
	! grep "This is a note" err
'

test_expect_success 'the password is nowhere in the repository' '
	(cd repo && git cat-file --batch-all-objects --batch) >objects &&
	! grep -a -e "$SMTP_PASSWORD" objects &&
	! grep -r -a -e "$SMTP_PASSWORD" repo/.git
'

# Reliability case 25, on the wire: what the server received
test_expect_success 'hostile records: their mails refused and recorded, nothing injected reaches the server' '
	before=$(smtp_count) &&
	(
		cd repo &&
		for i in 1 2 3
		do
			test_tick &&
			GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.org \
				git commit -q --allow-empty -m "usb: hostile $i" || return 1
		done &&
		printf "Message-ID: <h1@x>\nFrom: Eve\rBcc: victim@example.com <eve@example.com>\nSubject: [PATCH] h1\n" >n1 &&
		printf "Message-ID: <h2@x>\nFrom: Eve <eve@example.com>\nSubject: [PATCH] h2\nCc: a@example.com>\r\nRCPT TO:<victim@example.com>\n" >n2 &&
		git notes --ref=maint add -f -C $(git hash-object -w n1) HEAD~2 &&
		git notes --ref=maint add -f -C $(git hash-object -w n2) HEAD~1 &&
		test_expect_code 1 git-maint-notify --send -q >../out 2>../err
	) &&
	grep "^error: " err >errors &&
	test_line_count = 1 errors &&
	grep "^warning: [0-9a-f]*: 1 Cc address left out as not plain local@domain (.a@example.com>.)$" err &&
	grep "^hint: .*--retry-refused" err &&
	test_line_count = 3 err &&
	test "$(smtp_count)" = $((before + 2)) &&
	! grep -i victim "$SMTP_SPOOL/log" &&
	! cat "$SMTP_SPOOL"/*.eml | tr -d "\r" | grep -i -e "^bcc" -e victim &&
	git -C repo notes --ref=maint-notify show HEAD~2 >note &&
	grep "^Status: failed$" note &&
	grep "^Reply: not sent: the To name .* holds a line break$" note &&
	(cd repo && git-maint-notify --send -q) &&
	test "$(smtp_count)" = $((before + 2))
'

test_expect_success 'a server restarted on another port: the same password (stored without a port) serves' '
	stop_smtp_server &&
	before=$(smtp_count) &&
	start_smtp_server &&
	test_when_finished stop_smtp_server &&
	(
		cd repo &&
		smtp_config &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.org git commit -q --allow-empty -m "usb: patch 13" &&
		git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = $((before + 1))
'

test_done
