#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-publish over http: git http-backend behind lighttpd with basic auth, the password from the Secret Service or a credential helper'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

PASSWORD='s3cret-http-pw'

test_expect_success 'setup: lighttpd + git http-backend asking for maint'"'"'s password, a keyring' '
	start_keyring &&
	notify_stub &&
	mkdir srv &&
	make_bare_server_repo srv/origin.git &&
	start_http_server "$PWD/srv" maint "$PASSWORD" &&
	setup_article_repo r &&
	git -C r remote add origin "$HTTP_URL/origin.git" &&
	git -C r push -q "http://maint:$PASSWORD@127.0.0.1:$HTTP_PORT/git/origin.git" usb-next &&
	in_repo r queue_commit drivers/usb/a.c "usb: a"
'

test_expect_success 'no password anywhere: authentication failed naming the remote, exit 128, nothing changed (34)' '
	repo_state_of r >before &&
	origin_before=$(remote_tip srv/origin.git usb-next) &&
	test_expect_code 128 git -C r maint-publish >out 2>err &&
	grep "^error: push to .origin.: authentication failed (no credentials for http://127.0.0.1:$HTTP_PORT" err &&
	grep "^error: nothing was changed: .usb-next. stays at" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip srv/origin.git usb-next)" = "$origin_before" &&
	test_must_be_empty notify.log
'

test_expect_success 'the password git-credential-libsecret keeps in the Secret Service: published' '
	keyring_store "$PASSWORD" protocol http server 127.0.0.1 port "$HTTP_PORT" user maint &&
	tip=$(git -C r rev-parse work-next) &&
	git -C r maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	test_line_count = 1 notify.log &&
	! grep -F "$PASSWORD" out err r/.git/config
'

test_expect_success 'a wrong password in the Secret Service: one refusal, exit 128 naming the remote, nothing changed (34); the item goes, as git-credential-libsecret'"'"'s would' '
	secret-tool clear protocol http server 127.0.0.1 &&
	keyring_store "not-the-password" protocol http server 127.0.0.1 port "$HTTP_PORT" user maint &&
	in_repo r queue_commit drivers/usb/b.c "usb: b" &&
	: >notify.log &&
	repo_state_of r >before &&
	origin_before=$(remote_tip srv/origin.git usb-next) &&
	test_expect_code 128 git -C r maint-publish >out 2>err &&
	cat >expect <<-EOF &&
	error: push to '"'"'origin'"'"': authentication failed (the Secret Service'"'"'s credential for $HTTP_URL/origin.git was refused; the password was removed from the Secret Service)
	error: nothing was changed: '"'"'usb-next'"'"' stays at $(git -C r rev-parse usb-next)
	EOF
	test_cmp expect err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip srv/origin.git usb-next)" = "$origin_before" &&
	test_must_be_empty notify.log &&
	test_must_fail keyring_lookup protocol http server 127.0.0.1
'

test_expect_success 'no keyring item: git credential fill asks the configured helper, approve keeps it' '
	test_must_fail keyring_lookup protocol http server 127.0.0.1 &&
	printf "http://maint:%s@127.0.0.1:%s\n" "$PASSWORD" "$HTTP_PORT" >creds &&
	chmod 600 creds &&
	git -C r config credential.helper "store --file=\"$PWD/creds\"" &&
	tip=$(git -C r rev-parse work-next) &&
	git -C r maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test_line_count = 1 notify.log &&
	# rewritten by git credential approve, in credential-store'"'"'s own spelling
	test_line_count = 1 creds &&
	grep "^http://maint:.*@127.0.0.1%3a$HTTP_PORT\$" creds &&
	! grep -F "$PASSWORD" out err
'

test_expect_success 'a helper with a wrong password: rejected, and git credential reject tells the helper' '
	printf "http://maint:wrong@127.0.0.1:%s\n" "$HTTP_PORT" >creds &&
	in_repo r queue_commit drivers/usb/c.c "usb: c" &&
	: >notify.log &&
	repo_state_of r >before &&
	test_expect_code 128 git -C r maint-publish >out 2>err &&
	grep "^error: push to .origin.: authentication failed (the credential helper.s credential for $HTTP_URL/origin.git was refused; the password was removed from git.s credential helpers)" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_be_empty creds &&
	test_must_be_empty notify.log
'

test_expect_success 'the password never reaches the arguments of any process we start' '
	printf "http://maint:%s@127.0.0.1:%s\n" "$PASSWORD" "$HTTP_PORT" >creds &&
	git_spy "$PWD/spy" &&
	# git-maint-publish itself, not through git, which puts its own directory first on PATH
	(cd r && PATH="$PWD/../spy:$PATH" git-maint-publish -q) &&
	grep "^credential fill$" spy/argv.log &&
	grep "^credential approve$" spy/argv.log &&
	! grep -F "$PASSWORD" spy/argv.log spy/env.log
'

test_done
