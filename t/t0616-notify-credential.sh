#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify --send on a box reached over ssh: no D-Bus, no desktop; the SMTP password from sendemail.smtpPass, git credential helpers (what git send-email stored), or the terminal; 535 rejects it; it never leaks'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-smtp.sh"

# no session bus, no display: nothing can reach a Secret Service
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY

GIT_COMMITTER_DATE="1112354055 +0200"

cleanup stop_smtp_server

# new_commits <n>: n commits on work-next to announce, one author each
new_commits () {
	for i in $(test_seq "$1")
	do
		test_tick &&
		GIT_AUTHOR_NAME="Author $test_tick" GIT_AUTHOR_EMAIL=a$test_tick@example.org \
			git -C repo commit -q --allow-empty -m "usb: patch $test_tick" || return 1
	done
}

# the fields git send-email gives git credential for this server
send_email_fields () {
	printf "protocol=smtp\nhost=127.0.0.1:%s\nusername=%s\n" "$SMTP_PORT" "$SMTP_USER"
}

# git send-email, as a maintainer runs it, one patch to one address
send_email () {
	git -C repo format-patch -1 --stdout base >one.patch &&
	git -C repo send-email --quiet --confirm=never --no-validate --suppress-cc=all \
		--from="$GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL>" --to=list@example.org \
		"$@" "$PWD/one.patch" </dev/null
}

test_expect_success 'setup: a server, three commits to announce, send-email configured' '
	git init -q repo &&
	(
		cd repo &&
		test_commit base &&
		git branch usb-next &&
		git checkout -q -b work-next
	) &&
	new_commits 3 &&
	start_smtp_server &&
	(cd repo && smtp_config)
'

test_expect_success 'no helper, no Secret Service, no terminal: exit 128, one error and the three ways, nothing sent' '
	(cd repo && test_expect_code 128 setsid -w env -u GIT_TERMINAL_PROMPT \
		git-maint-notify --send </dev/null >../out 2>../err) &&
	test_must_be_empty out &&
	cat >expect <<-EOF &&
	fatal: no password for '"'"'$SMTP_USER'"'"' at smtp://127.0.0.1:$SMTP_PORT
	hint: give it one of three ways, as for git send-email (or run on a terminal to be asked):
	hint:   git config sendemail.smtpPass <password>
	hint:   git config --global credential.helper store (or cache, ...); git maint-notify --store-password
	hint:   git maint-notify --store-password, to a Secret Service on the session bus
	hint:     (the Secret Service cannot be reached: Cannot autolaunch D-Bus without X11 \$DISPLAY)
	EOF
	test_cmp expect err &&
	test_must_fail smtp_count
'

test_expect_success 'sendemail.smtpPass: the mails go out, and nothing is stored anywhere' '
	git -C repo config sendemail.smtpPass "$SMTP_PASSWORD" &&
	(cd repo && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 3 &&
	test_path_is_missing .git-credentials
'

test_expect_success 'a wrong sendemail.smtpPass: exit 128, the 535 named, the key to mend named' '
	git -C repo config sendemail.smtpPass wrong &&
	new_commits 1 &&
	(cd repo && test_expect_code 128 git-maint-notify --send -q 2>../err) &&
	grep "^fatal: cannot send through smtp://127.0.0.1:$SMTP_PORT: .*535.*; the password is in the configuration (sendemail.smtpPass)$" err &&
	test_line_count = 1 err &&
	test "$(smtp_count)" = 3
'

test_expect_success 'smtp.password in maint.ini wins over sendemail.smtpPass, as every [smtp] key does' '
	printf "[smtp]\n\tpassword = %s\n" "$SMTP_PASSWORD" >repo/.git/maint.ini &&
	(cd repo && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 4 &&
	rm repo/.git/maint.ini &&
	git -C repo config --unset sendemail.smtpPass
'

test_expect_success 'what git send-email stored through credential.helper=store, notify finds' '
	git config --global credential.helper store &&
	# send-email approves the password it was given: the helper keeps it
	send_email --smtp-pass="$SMTP_PASSWORD" &&
	test "$(smtp_count)" = 5 &&
	test_line_count = 1 .git-credentials &&
	new_commits 1 &&
	(cd repo && setsid -w git-maint-notify --send -q </dev/null) &&
	test "$(smtp_count)" = 6
'

test_expect_success 'stored by git credential approve with send-email'"'"'s fields: notify sends' '
	rm .git-credentials &&
	{ send_email_fields && printf "password=%s\n\n" "$SMTP_PASSWORD"; } | git credential approve &&
	new_commits 2 &&
	(cd repo && setsid -w git-maint-notify --send -q </dev/null) &&
	test "$(smtp_count)" = 8
'

test_expect_success 'a helper for this URL only (credential.<url>.helper) counts, one for another does not' '
	git config --global --unset credential.helper &&
	git config --global "credential.smtp://127.0.0.1:$SMTP_PORT.helper" store &&
	git config --global credential.https://127.0.0.1.helper "!false" &&
	new_commits 1 &&
	(cd repo && setsid -w git-maint-notify --send -q </dev/null) &&
	test "$(smtp_count)" = 9 &&
	git config --global --unset "credential.smtp://127.0.0.1:$SMTP_PORT.helper" &&
	git config --global --unset credential.https://127.0.0.1.helper &&
	git config --global credential.helper store
'

test_expect_success 'a 535 rejects the stored password, as git send-email does: the helper no longer has it' '
	# the oracle: send-email with the same wrong password in the same helper
	{ send_email_fields && printf "password=wrong\n\n"; } | git credential approve &&
	test_must_fail send_email 2>/dev/null &&
	test_must_be_empty .git-credentials &&
	{ send_email_fields && printf "password=wrong\n\n"; } | git credential approve &&
	new_commits 1 &&
	before=$(smtp_count) &&
	(cd repo && test_expect_code 128 setsid -w git-maint-notify --send -q </dev/null 2>../err) &&
	grep "^fatal: cannot send through .*535.*; the password was removed from git.s credential helpers$" err &&
	test_must_be_empty .git-credentials &&
	test "$(smtp_count)" = "$before"
'

test_expect_success 'the next run has none: the hint says the helpers have none for it' '
	(cd repo && test_expect_code 128 setsid -w env -u GIT_TERMINAL_PROMPT \
		git-maint-notify --send -q </dev/null 2>../err) &&
	grep "^hint:     (the configured helpers have none for it)$" err
'

test_expect_success 'on a terminal, git asks: the typed password sends, and the helper keeps it (approve)' '
	before=$(smtp_count) &&
	(cd repo && env -u GIT_TERMINAL_PROMPT /usr/bin/python3 -S "$MAINT_TEST_DIR/lib/pty-run.py" \
		--expect "Password for " --send "$SMTP_PASSWORD" -- git maint-notify --send -q >../out) &&
	grep "^Password for .smtp://maint%40example.org@127.0.0.1:$SMTP_PORT.: $" out &&
	! grep -e "$SMTP_PASSWORD" out &&
	test "$(smtp_count)" = $((before + 1)) &&
	test_line_count = 1 .git-credentials &&
	git credential fill <<-EOF >filled &&
	$(send_email_fields)

	EOF
	grep "^password=$SMTP_PASSWORD$" filled
'

test_expect_success 'no helper and no Secret Service, on a terminal: asked, nothing kept' '
	git config --global --unset credential.helper &&
	rm .git-credentials &&
	new_commits 1 &&
	before=$(smtp_count) &&
	(cd repo && env -u GIT_TERMINAL_PROMPT /usr/bin/python3 -S "$MAINT_TEST_DIR/lib/pty-run.py" \
		--expect "Password for " --send "$SMTP_PASSWORD" -- git maint-notify --send -q >../out) &&
	test "$(smtp_count)" = $((before + 1)) &&
	test_path_is_missing .git-credentials
'

test_expect_success 'a terminal only: standard input is never read for the password' '
	new_commits 1 &&
	before=$(smtp_count) &&
	(cd repo && printf "%s\n" "$SMTP_PASSWORD" |
		test_expect_code 128 setsid -w env -u GIT_TERMINAL_PROMPT git-maint-notify --send -q 2>../err) &&
	grep "^fatal: no password for" err &&
	test "$(smtp_count)" = "$before"
'

test_expect_success '--store-password stores where git would: the helper; send-email and notify find it' '
	git config --global credential.helper store &&
	(cd repo && printf "%s\n" "$SMTP_PASSWORD" | git-maint-notify --store-password) &&
	test_line_count = 1 .git-credentials &&
	before=$(smtp_count) &&
	send_email &&
	(cd repo && setsid -w git-maint-notify --send -q </dev/null) &&
	test "$(smtp_count)" = $((before + 2))
'

test_expect_success '--store-password on a terminal: git asks' '
	rm .git-credentials &&
	(cd repo && env -u GIT_TERMINAL_PROMPT /usr/bin/python3 -S "$MAINT_TEST_DIR/lib/pty-run.py" \
		--expect "Password for " --send "$SMTP_PASSWORD" -- git maint-notify --store-password >../out) &&
	grep "^Password for .smtp://maint%40example.org@127.0.0.1:$SMTP_PORT.: $" out &&
	grep -F ":$SMTP_PASSWORD@127.0.0.1" .git-credentials
'

test_expect_success '--forget-password: git credential reject, the helper forgets' '
	(cd repo && git-maint-notify --forget-password) &&
	test_must_be_empty .git-credentials
'

test_expect_success '--store-password with no helper and no Secret Service: exit 128, nothing stored' '
	git config --global --unset credential.helper &&
	(cd repo && echo pw | test_expect_code 128 git-maint-notify --store-password 2>../err) &&
	grep "^fatal: cannot store the password for smtp://127.0.0.1 in the Secret Service: .*D-Bus" err &&
	grep "^hint: or keep it with git.s credential helpers" err &&
	test_must_be_empty .git-credentials
'

# The password must not be in any process's arguments or environment, in
# anything written (output, the journal, the repository), or in a core
# file. A spy on PATH logs every git (credential) run; the server holds
# the mail at DATA while the test looks at the process.
test_expect_success 'nothing leaks: argv and environment of every process, output, journal, repository' '
	git config --global credential.helper store &&
	{ send_email_fields && printf "password=%s\n\n" "$SMTP_PASSWORD"; } | git credential approve &&
	git_spy "$PWD/spy" &&
	new_commits 1 &&
	notify_held_at_data repo env PATH="$PWD/spy:$PATH" &&
	grep "^credential fill$" spy/argv.log &&
	grep "^credential approve$" spy/argv.log &&
	grep "^Max core file size  *0  *0 " limits &&
	b64=$(printf "\0%s\0%s" "$SMTP_USER" "$SMTP_PASSWORD" | base64) &&
	! grep -e "$SMTP_PASSWORD" -e "$b64" spy/argv.log spy/env.log cmdline environ out err &&
	grep "^smtp: > <redacted>$" err &&
	! grep -r -a -e "$SMTP_PASSWORD" repo/.git &&
	(cd repo && git cat-file --batch-all-objects --batch) >objects &&
	! grep -a -e "$SMTP_PASSWORD" objects
'

test_expect_success 'stop the server' '
	stop_smtp_server
'

test_done
