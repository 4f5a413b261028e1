#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='an archive that asks for a login (HTTP 401): the password found as git finds it (git credential helpers, the terminal), approved or rejected; no D-Bus'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-git-server.sh"

unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY

PASSWORD='s3cret-archive-pw'

# the fields git gives git credential for this archive
archive_fields () {
	printf "protocol=http\nhost=127.0.0.1:%s\nusername=maint\n" "$HTTP_PORT"
}

test_expect_success 'setup: a thread behind basic auth (lighttpd), maint.archive.url in git config' '
	mkdir -p srv httpd/docroot/list/p1@example.org &&
	{
		printf "From 0 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <author@example.com>\n" &&
		printf "Date: Thu, 7 Apr 2005 15:13:13 -0700\nSubject: [PATCH] usb: fix the frobnicator\n" &&
		printf "Message-ID: <p1@example.org>\n\nmsg\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} | gzip >httpd/docroot/list/p1@example.org/t.mbox.gz &&
	start_http_server "$PWD/srv" maint "$PASSWORD" "\$HTTP[\"url\"] =~ \"^/list/\" {
		auth.backend = \"plain\"
		auth.backend.plain.userfile = \"$TRASH_DIRECTORY/httpd/users\"
		auth.require = ( \"\" => ( \"method\" => \"basic\", \"realm\" => \"list\", \"require\" => \"valid-user\" ) )
	}" &&
	git init -q repo &&
	git -C repo config maint.archive.url "http://127.0.0.1:$HTTP_PORT/list/"
'

test_expect_success 'no helper, no Secret Service, no terminal: exit 128, the ways to give a login' '
	(cd repo && test_expect_code 128 setsid -w env -u GIT_TERMINAL_PROMPT \
		git-maint-mbox-split --no-cache --format=%s "<p1@example.org>" >../out 2>../err) &&
	test_must_be_empty out &&
	grep "^fatal: no user and password for http://127.0.0.1:$HTTP_PORT$" err &&
	grep "^hint:   git config --global credential.helper store" err
'

test_expect_success 'stored by git credential approve (credential.helper=store): fetched, and approved again' '
	git config --global credential.helper store &&
	{ archive_fields && printf "password=%s\n\n" "$PASSWORD"; } | git credential approve &&
	(cd repo && git-maint-mbox-split --no-cache --format=%s "<p1@example.org>" >../out 2>../err) &&
	echo "[PATCH] usb: fix the frobnicator" >expect &&
	test_cmp expect out &&
	test_line_count = 1 .git-credentials &&
	! grep -e "$PASSWORD" err
'

test_expect_success 'a wrong password: the second 401 rejects it (the helper forgets it), exit 128' '
	{ archive_fields && printf "password=wrong\n\n"; } | git credential approve &&
	(cd repo && test_expect_code 128 git-maint-mbox-split --no-cache --format=%s "<p1@example.org>" >../out 2>../err) &&
	grep "^fatal: cannot fetch .http://127.0.0.1:$HTTP_PORT/list/p1@example.org/t.mbox.gz.: the server answered 401; the password was removed from git.s credential helpers$" err &&
	test_must_be_empty .git-credentials
'

test_expect_success 'on a terminal, git asks for the user and the password; the helper keeps them' '
	(cd repo && env -u GIT_TERMINAL_PROMPT /usr/bin/python3 -S "$MAINT_TEST_DIR/lib/pty-run.py" \
		--expect "Username for " --send maint --expect "Password for " --send "$PASSWORD" -- \
		git-maint-mbox-split --no-cache --format=%s "<p1@example.org>" >../out) &&
	grep "^Username for .http://127.0.0.1:$HTTP_PORT.: maint$" out &&
	grep "^\[PATCH\] usb: fix the frobnicator$" out &&
	! grep -e "$PASSWORD" out &&
	grep -F "maint:$PASSWORD@127.0.0.1" .git-credentials
'

test_done
