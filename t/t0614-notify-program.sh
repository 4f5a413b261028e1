#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify --send through a sendmail-like program: msmtp to the real server, and a script for the exit statuses'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-notify.sh"

GIT_COMMITTER_DATE="1112354055 +0200"

cleanup stop_smtp_server

record () {
	printf "Message-ID: <p%d@example.org>\nFrom: Author %d <author%d@example.org>\nSubject: [PATCH] usb: patch %d\nCc: list@example.org\n" \
		$1 $1 $1 $1
}

test_expect_success 'setup: three commits with records, a fake sendmail that keeps what it gets' '
	notify_commits repo 3 record &&
	mkdir calls &&
	cat >fake-sendmail <<-EOF &&
	#!/bin/sh
	n=\$(ls "$PWD/calls" | grep -c "^args")
	n=\$((n + 1))
	printf "%s\n" "\$@" >"$PWD/calls/args.\$n"
	cat >"$PWD/calls/stdin.\$n"
	env >"$PWD/calls/env.\$n"
	test -n "\$FAKE_STDERR" && echo "\$FAKE_STDERR" >&2
	test -n "\$FAKE_SIGNAL" && kill -\$FAKE_SIGNAL \$\$
	exit \${FAKE_EXIT:-0}
	EOF
	chmod +x fake-sendmail &&
	(cd repo && git-maint-notify >../dry.mbox)
'

test_expect_success 'the program is run as git send-email runs it: -i, -f, the recipients; the mail on stdin' '
	(cd repo && git config sendemail.smtpServer "$TRASH_DIRECTORY/fake-sendmail" &&
	 git-maint-notify --send -q >../out 2>../err) &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	-i
	-f
	committer@example.com
	author1@example.org
	list@example.org
	EOF
	test_cmp expect calls/args.1 &&
	csplit -s -z -f part dry.mbox "/^From [0-9a-f]\{40\} Mon Sep 17/" "{*}" &&
	sed 1d part00 >expect &&
	test_cmp expect calls/stdin.1 &&
	ls calls | grep -c "^args" >n &&
	echo 3 >expect &&
	test_cmp expect n &&
	git -C repo notes --ref=maint-notify show work-next~2 >note &&
	grep "^Status: sent$" note &&
	grep "^Server: .*/fake-sendmail$" note
'

test_expect_success 'sendemail.smtpServerOption and envelopeSender reach the program' '
	rm -rf calls/* &&
	(
		cd repo &&
		git config --add sendemail.smtpServerOption -oi &&
		git config --add sendemail.smtpServerOption "--account=a b" &&
		git config sendemail.envelopeSender bounce@example.org &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.org git commit -q --allow-empty -m "usb: patch 4" &&
		git-maint-notify --send -q
	) &&
	cat >expect <<-\EOF &&
	-oi
	--account=a b
	-i
	-f
	bounce@example.org
	ann@example.org
	EOF
	test_cmp expect calls/args.1 &&
	git -C repo config --unset-all sendemail.smtpServerOption &&
	git -C repo config --unset sendemail.envelopeSender
'

test_expect_success 'exit 75 (EX_TEMPFAIL): exit 75, nothing recorded, its stderr reported' '
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_NAME=Bob GIT_AUTHOR_EMAIL=bob@example.org git commit -q --allow-empty -m "usb: patch 5" &&
		FAKE_EXIT=75 FAKE_STDERR="msmtp: cannot connect to mail.example.org" \
			test_expect_code 75 git-maint-notify --send -q >../out 2>../err
	) &&
	c=$(git -C repo rev-parse --short=12 HEAD) &&
	cat >expect <<-EOF &&
	error: $c: not sent: msmtp: cannot connect to mail.example.org
	hint: 1 mail is waiting: run again later to send it
	EOF
	test_cmp expect err &&
	test_must_fail git -C repo notes --ref=maint-notify show HEAD
'

test_expect_success 'killed by a signal: exit 75, nothing recorded' '
	(cd repo && FAKE_SIGNAL=TERM test_expect_code 75 git-maint-notify --send -q >../out 2>../err) &&
	grep "^error: [0-9a-f]*: not sent: killed by signal 15$" err &&
	test_must_fail git -C repo notes --ref=maint-notify show HEAD
'

test_expect_success 'exit 69 (EX_UNAVAILABLE): refused, recorded, exit 1' '
	(cd repo && FAKE_EXIT=69 FAKE_STDERR="550 5.1.1 <bob@example.org>: unknown user" \
		test_expect_code 1 git-maint-notify --send -q >../out 2>../err) &&
	grep "^error: [0-9a-f]*: the server refused the mail: 550 5.1.1 <bob@example.org>: unknown user$" err &&
	git -C repo notes --ref=maint-notify show HEAD >note &&
	grep "^Status: failed$" note &&
	grep "^Reply: 550 5.1.1 <bob@example.org>: unknown user$" note
'

test_expect_success 'exit 78 (EX_CONFIG): a setup problem, exit 128, nothing recorded' '
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_NAME=Cy GIT_AUTHOR_EMAIL=cy@example.org git commit -q --allow-empty -m "usb: patch 6" &&
		FAKE_EXIT=78 FAKE_STDERR="msmtp: no configuration" \
			test_expect_code 128 git-maint-notify --send -q >../out 2>../err
	) &&
	echo "fatal: cannot send through $PWD/fake-sendmail: msmtp: no configuration" >expect &&
	test_cmp expect err &&
	test_must_fail git -C repo notes --ref=maint-notify show HEAD
'

test_expect_success 'a program that is not there: exit 128' '
	(cd repo && git config sendemail.smtpServer /nonexistent/sendmail &&
	 test_expect_code 128 git-maint-notify --send -q >../out 2>../err) &&
	echo "fatal: cannot send through /nonexistent/sendmail: cannot run '"'"'/nonexistent/sendmail'"'"': No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success 'no password is looked up for a program, and none is in its environment' '
	rm -rf calls/* &&
	(
		cd repo &&
		git config sendemail.smtpServer "$TRASH_DIRECTORY/fake-sendmail" &&
		git config sendemail.smtpUser maint@example.org &&
		run_no_bus () { env -u DBUS_SESSION_BUS_ADDRESS "$@"; } &&
		run_no_bus git maint-notify --send -q
	) &&
	test -f calls/env.1 &&
	! grep -i -e secret -e password calls/env.1
'

test_expect_success 'msmtp delivers to the real server (STARTTLS, AUTH with its own password)' '
	start_smtp_server &&
	cat >msmtprc <<-EOF &&
	account test
	host 127.0.0.1
	port $SMTP_PORT
	tls on
	tls_starttls on
	tls_trust_file "$SMTP_TLS/ca.crt"
	auth on
	user $SMTP_USER
	passwordeval "cat '"'"'$TRASH_DIRECTORY/smtp-password'"'"'"
	account default : test
	EOF
	chmod 600 msmtprc &&
	(
		cd repo &&
		git config sendemail.smtpServer /usr/bin/msmtp &&
		git config --add sendemail.smtpServerOption -C &&
		git config --add sendemail.smtpServerOption "$TRASH_DIRECTORY/msmtprc" &&
		test_tick &&
		GIT_AUTHOR_NAME=Dee GIT_AUTHOR_EMAIL=dee@example.org git commit -q --allow-empty -m "usb: patch 7" &&
		git-maint-notify >../dry7.mbox &&
		git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = 1 &&
	cat >expect <<-\EOF &&
	MAIL FROM:<committer@example.com>
	RCPT TO:<dee@example.org>
	EOF
	test_cmp expect "$SMTP_SPOOL/0001.env" &&
	sed 1d dry7.mbox >expect &&
	tr -d "\r" <"$SMTP_SPOOL/0001.eml" >actual &&
	test_cmp expect actual &&
	grep " STARTTLS" "$SMTP_SPOOL/log" &&
	grep " AUTH" "$SMTP_SPOOL/log"
'

test_expect_success 'msmtp and a recipient the server refuses: that mail refused (exit 1), recorded' '
	smtp_mode --reject eve@example.org &&
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_NAME=Eve GIT_AUTHOR_EMAIL=eve@example.org git commit -q --allow-empty -m "usb: patch 8" &&
		test_expect_code 1 git-maint-notify --send -q >../out 2>../err
	) &&
	grep "^error: [0-9a-f]*: the server refused the mail: .*550" err &&
	git -C repo notes --ref=maint-notify show HEAD >note &&
	grep "^Status: failed$" note
'

# Reliability case 52: a program takes or refuses a mail whole (one exit
# status); over SMTP the same Cc would be left out and the mail would go
# (t0617).
test_expect_success 'msmtp and a Cc the server refuses: the program refuses the mail whole (exit 1), recorded, sent to no one; --retry-refused sends it once the cause is fixed' '
	smtp_reset --reject gone@example.org &&
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_NAME=Fay GIT_AUTHOR_EMAIL=fay@example.org git commit -q --allow-empty -m "usb: patch 9" &&
		printf "Message-ID: <p9@example.org>\nFrom: Fay <fay@example.org>\nSubject: [PATCH] usb: patch 9\nCc: gone@example.org\n" >../note9 &&
		git notes --ref=maint add -F ../note9 HEAD &&
		test_expect_code 1 git-maint-notify --send -q >../out 2>../err
	) &&
	grep "^error: [0-9a-f]*: the server refused the mail: .*gone@example.org" err &&
	test_must_fail smtp_count &&
	git -C repo notes --ref=maint-notify show HEAD >note &&
	grep "^Status: failed$" note &&
	smtp_reset &&
	(cd repo && git-maint-notify --send -q --retry-refused HEAD~1..HEAD) &&
	test "$(smtp_count)" = 1 &&
	printf "MAIL FROM:<committer@example.com>\nRCPT TO:<fay@example.org>\nRCPT TO:<gone@example.org>\n" >expect &&
	test_cmp expect "$SMTP_SPOOL/0001.env"
'

# Reliability case 51: a record Cc'ing 60,000 once overflowed the
# program's argument list, so every run exited 128, nothing was recorded
# and the authors after it were never mailed. The Cc is capped at
# notify.max-cc (100 by default, 1,000 at most).
test_expect_success 'a record Cc'"'"'ing 60,000 through a program: 100 in its arguments, one warning, recorded, and the next author mailed (51)' '
	wide_record () {
		record $1 &&
		if test $1 = 1
		then
			awk "BEGIN { for (i = 1; i <= 60000; i++) printf \"Cc: P %d <p%d@example.net>\\n\", i, i }"
		fi
	} &&
	notify_commits wide 2 wide_record &&
	rm -rf calls &&
	mkdir calls &&
	(cd wide && git config sendemail.smtpServer "$TRASH_DIRECTORY/fake-sendmail" &&
	 git-maint-notify --send -q >../out 2>../err) &&
	c=$(git -C wide rev-parse --short=12 work-next~1) &&
	echo "warning: $c: 59901 more Cc addresses left out: at most 100 are copied (notify.max-cc)" >expect &&
	test_cmp expect err &&
	{
		printf "%s\n" -i -f committer@example.com author1@example.org list@example.org &&
		test_seq 1 99 | sed "s/.*/p&@example.net/"
	} >expect &&
	test_cmp expect calls/args.1 &&
	printf "%s\n" -i -f committer@example.com author2@example.org list@example.org >expect &&
	test_cmp expect calls/args.2 &&
	test_path_is_missing calls/args.3 &&
	for rev in work-next~1 work-next
	do
		git -C wide notes --ref=maint-notify show $rev >note &&
		grep "^Status: sent$" note || return 1
	done
'

test_done
