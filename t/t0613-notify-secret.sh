#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify: the SMTP password from a real Secret Service (missing bus, service, item; locked), and where it must never be (reliability cases 29, 30)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-notify.sh"

GIT_COMMITTER_DATE="1112354055 +0200"

test_expect_success 'setup: a keyring, a server, three commits to announce' '
	start_keyring &&
	notify_commits repo 3 &&
	start_smtp_server &&
	(cd repo && smtp_config)
'

# the hint for every "no password" below
no_password_hint () {
	cat <<-EOF
	fatal: no password for '$SMTP_USER' at smtp://127.0.0.1:$SMTP_PORT
	hint: give it one of three ways, as for git send-email (or run on a terminal to be asked):
	hint:   git config sendemail.smtpPass <password>
	hint:   git config --global credential.helper store (or cache, ...); git maint-notify --store-password
	hint:   git maint-notify --store-password, to a Secret Service on the session bus
	EOF
}

test_expect_success 'no session bus, no helper, no terminal: exit 128, the ways to give a password, nothing sent' '
	(cd repo && test_expect_code 128 run_without_bus setsid -w env -u GIT_TERMINAL_PROMPT \
		git-maint-notify --send </dev/null >../out 2>../err) &&
	test_must_be_empty out &&
	no_password_hint >expect &&
	echo "hint:     (the Secret Service cannot be reached: Cannot autolaunch D-Bus without X11 \$DISPLAY)" >>expect &&
	test_cmp expect err &&
	test "$(smtp_count)" = 0 &&
	test_must_fail git -C repo rev-parse -q --verify refs/notes/maint-notify
'

test_expect_success 'a bus without a Secret Service: the same, naming why' '
	(cd repo && test_expect_code 128 run_without_secret_service git maint-notify --send </dev/null >../out 2>../err) &&
	test_must_be_empty out &&
	grep "^hint:     (the Secret Service cannot be reached: .*org.freedesktop.secrets" err &&
	test "$(smtp_count)" = 0
'

test_expect_success 'no password stored: exit 128 with the hint, nothing sent' '
	(cd repo && test_expect_code 128 git-maint-notify --send </dev/null >../out 2>../err) &&
	no_password_hint >expect &&
	test_cmp expect err &&
	test "$(smtp_count)" = 0
'

test_expect_success '--store-password (from stdin) stores it where git-credential-libsecret looks' '
	(cd repo && printf "%s\n" "$SMTP_PASSWORD" | git-maint-notify --store-password >../out 2>../err) &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	keyring_lookup protocol smtp server 127.0.0.1 port "$SMTP_PORT" user "$SMTP_USER" >actual &&
	printf "%s" "$SMTP_PASSWORD" >expect &&
	test_cmp expect actual &&
	secret-tool search protocol smtp server 127.0.0.1 >items 2>&1 &&
	grep "^label = Git: smtp://127.0.0.1:$SMTP_PORT/$" items
'

test_expect_success 'with it, the mails go out' '
	(cd repo && git-maint-notify --send -q </dev/null) &&
	test "$(smtp_count)" = 3
'

test_expect_success 'nothing left to send: no keyring needed (a rerun without a bus exits 0)' '
	(cd repo && run_without_bus git maint-notify --send </dev/null >../out 2>../err) &&
	test_must_be_empty out &&
	test_must_be_empty err
'

# Reliability case 30: argv, environment, output, trace, repository
# The server holds the mail at DATA (--stall-after 0) until the test has
# looked, then answers 421: exit 75, without waiting for the timeout.
test_expect_success 'the password is never in the process arguments or environment while it sends' '
	(
		cd repo &&
		printf "%s\n" "$SMTP_PASSWORD" | git maint-notify --store-password &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.org git commit -q --allow-empty -m "usb: patch 4"
	) &&
	notify_held_at_data repo &&
	grep "^--send$" cmdline &&
	grep "^Max core file size  *0  *0 " limits &&
	! grep -e "$SMTP_PASSWORD" cmdline environ &&
	b64=$(printf "\0%s\0%s" "$SMTP_USER" "$SMTP_PASSWORD" | base64) &&
	! grep -e "$SMTP_PASSWORD" -e "$b64" out err &&
	grep "^smtp: > <redacted>$" err
'

test_expect_success 'nor in the repository, its config or its objects' '
	! grep -r -a -e "$SMTP_PASSWORD" repo/.git &&
	(cd repo && git cat-file --batch-all-objects --batch) >objects &&
	! grep -a -e "$SMTP_PASSWORD" objects
'

test_expect_success '--forget-password removes it; a second time there is nothing (exit 1)' '
	(cd repo && git-maint-notify --forget-password) &&
	test_must_fail keyring_lookup protocol smtp server 127.0.0.1 port "$SMTP_PORT" user "$SMTP_USER" &&
	(cd repo && test_expect_code 1 git-maint-notify --forget-password 2>../err) &&
	grep "^error: no password stored for" err
'

test_expect_success '--store-password without a user configured: exit 128' '
	(
		cd repo &&
		git config --unset sendemail.smtpUser &&
		echo pw | test_expect_code 128 git maint-notify --store-password 2>../err &&
		git config sendemail.smtpUser "$SMTP_USER"
	) &&
	echo "fatal: no SMTP user configured: set sendemail.smtpUser or smtp.user" >expect &&
	test_cmp expect err
'

test_expect_success '--store-password with an empty input: exit 128, nothing stored' '
	(cd repo && test_expect_code 128 git-maint-notify --store-password </dev/null 2>../err) &&
	echo "fatal: no password given" >expect &&
	test_cmp expect err &&
	test_must_fail keyring_lookup protocol smtp server 127.0.0.1 port "$SMTP_PORT" user "$SMTP_USER"
'

test_expect_success '--store-password takes no other option' '
	(cd repo && test_expect_code 129 git-maint-notify --store-password --send </dev/null 2>../err) &&
	grep "^error: --store-password and --forget-password take no other option" err
'

test_expect_success 'a locked keyring: exit 128 naming it, no prompt, nothing sent' '
	(cd repo && printf "%s\n" "$SMTP_PASSWORD" | git-maint-notify --store-password) &&
	gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
		--method org.freedesktop.Secret.Service.Lock \
		"[objectpath \"/org/freedesktop/secrets/collection/login\"]" >/dev/null &&
	before=$(smtp_count) &&
	(
		cd repo &&
		test_tick &&
		GIT_AUTHOR_NAME=Lou GIT_AUTHOR_EMAIL=lou@example.org git commit -q --allow-empty -m "usb: patch 5" &&
		test_expect_code 128 env -u DISPLAY -u WAYLAND_DISPLAY git-maint-notify --send </dev/null >../out 2>../err
	) &&
	echo "fatal: the Secret Service holds the password for smtp://127.0.0.1 in a locked collection; unlock it and try again" >expect &&
	test_cmp expect err &&
	test "$(smtp_count)" = "$before"
'

test_expect_success 'stop the server' '
	stop_smtp_server
'

test_done
