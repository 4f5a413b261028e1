#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-publish over http: git http-backend behind lighttpd with basic auth, the password from the Secret Service or a credential helper'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"
. "$MAINT_TEST_DIR/lib-tls.sh"

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
	test_expect_code 128 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: authentication failed (no credentials for http://127.0.0.1:$HTTP_PORT" err &&
	grep "^fatal: nothing was changed: .usb-next. stays at" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip srv/origin.git usb-next)" = "$origin_before" &&
	test_must_be_empty notify.log
'

test_expect_success 'the password git-credential-libsecret keeps in the Secret Service: published' '
	keyring_store "$PASSWORD" protocol http server 127.0.0.1 port "$HTTP_PORT" user maint &&
	tip=$(git -C r rev-parse work-next) &&
	in_repo r git-maint-publish >out 2>err &&
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
	test_expect_code 128 in_repo r git-maint-publish >out 2>err &&
	cat >expect <<-EOF &&
	error: push to '"'"'origin'"'"': authentication failed (the Secret Service'"'"'s credential for $HTTP_URL/origin.git was refused; the password was removed from the Secret Service)
	fatal: nothing was changed: '"'"'usb-next'"'"' stays at $(git -C r rev-parse usb-next)
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
	in_repo r git-maint-publish >out 2>err &&
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
	test_expect_code 128 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: authentication failed (the credential helper.s credential for $HTTP_URL/origin.git was refused; the password was removed from git.s credential helpers)" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_be_empty creds &&
	test_must_be_empty notify.log
'

test_expect_success 'a password written in the remote'"'"'s URL is never printed: the URL shown without its user-info, as git shows it (50)' '
	git -C r remote set-url origin "http://maint:url-pw-0xdead@127.0.0.1:$HTTP_PORT/git/origin.git" &&
	repo_state_of r >before &&
	test_expect_code 128 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: authentication failed (no credentials for $HTTP_URL/origin.git)\$" err &&
	in_repo r git-maint-publish --dry-run >out 2>>err &&
	! grep -F "url-pw-0xdead" out err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_be_empty notify.log &&
	git -C r remote set-url origin "$HTTP_URL/origin.git"
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

test_expect_success 'a keep-alive connection the server drops while the pack is made (lighttpd: 2 s; the pack: 4 s): published on a new connection' '
	stop_server $HTTP_PID &&
	rm -f httpd/access.log &&
	start_http_server "$PWD/srv" maint "$PASSWORD" "server.max-keep-alive-idle = 2" &&
	printf "http://maint:%s@127.0.0.1:%s\n" "$PASSWORD" "$HTTP_PORT" >>creds &&
	git -C r remote set-url origin "$HTTP_URL/origin.git" &&
	in_repo r queue_commit drivers/usb/k.c "usb: k" &&
	tip=$(git -C r rev-parse work-next) &&
	: >notify.log &&
	GIT_MAINT_TEST_PACK_DELAY=4 git -C r maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	test_line_count = 1 notify.log &&
	test_path_is_missing r/.git/maint/publish &&
	# the listing, the listing again on a new connection, one upload (the
	# failed one never reached lighttpd); its log is whole once it stopped
	stop_server $HTTP_PID &&
	grep -c "^GET /git/origin.git/info/refs?service=git-receive-pack HTTP/1.1 200\$" httpd/access.log >gets &&
	echo 2 >expect &&
	test_cmp expect gets &&
	grep -c "^POST /git/origin.git/git-receive-pack HTTP/1.1 200\$" httpd/access.log >posts &&
	echo 1 >expect &&
	test_cmp expect posts
'

test_expect_success 'a server error (HTTP 502 to the upload): exit 75, the state kept, --continue publishes' '
	cat >broken.cgi <<-EOF &&
	#!/bin/sh
	if test "\$REQUEST_METHOD" = POST
	then
		printf "Status: 502 Bad Gateway\r\nContent-Type: text/plain\r\n\r\nbroken\n"
		exit 0
	fi
	exec /usr/lib/git-core/git-http-backend
	EOF
	chmod +x broken.cgi &&
	# no login on /broken: http-backend takes a push without one when told so
	git -C srv/origin.git config http.receivepack true &&
	start_http_server "$PWD/srv" maint "$PASSWORD" "alias.url += ( \"/broken\" => \"$PWD/broken.cgi\" )
		\$HTTP[\"url\"] =~ \"^/broken\" {
			cgi.assign = ( \"\" => \"\" )
			setenv.add-environment = ( \"GIT_PROJECT_ROOT\" => \"$PWD/srv\", \"GIT_HTTP_EXPORT_ALL\" => \"\" )
		}" &&
	git -C r remote set-url origin "http://127.0.0.1:$HTTP_PORT/broken/origin.git" &&
	in_repo r queue_commit drivers/usb/l.c "usb: l" &&
	before=$(remote_tip srv/origin.git usb-next) &&
	: >notify.log &&
	test_expect_code 75 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: server error (.*502.*)" err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$before" &&
	test_path_is_file r/.git/maint/publish/state &&
	test_must_be_empty notify.log &&
	git -C r remote set-url origin "$HTTP_URL/origin.git" &&
	printf "http://maint:%s@127.0.0.1:%s\n" "$PASSWORD" "$HTTP_PORT" >>creds &&
	in_repo r git-maint-publish --continue >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test_line_count = 1 notify.log &&
	test_path_is_missing r/.git/maint/publish
'


test_expect_success 'https with a certificate no authority the system trusts vouches for: refused, exit 128, nothing changed' '
	stop_server $HTTP_PID &&
	make_tls_cert tls &&
	start_http_server "$PWD/srv" maint "$PASSWORD" "server.modules += ( \"mod_openssl\" )
		ssl.engine = \"enable\"
		ssl.pemfile = \"$PWD/tls/cert.pem\"
		ssl.privkey = \"$PWD/tls/key.pem\"" &&
	# localhost: libgit2 (mbedTLS) matches the host against the
	# certificate'"'"'s DNS names only, not its IP address
	printf "https://maint:%s@localhost:%s\n" "$PASSWORD" "$HTTP_PORT" >>creds &&
	git -C r remote set-url origin "https://localhost:$HTTP_PORT/git/origin.git" &&
	in_repo r queue_commit drivers/usb/m.c "usb: m" &&
	repo_state_of r >before &&
	origin_before=$(remote_tip srv/origin.git usb-next) &&
	: >notify.log &&
	test_expect_code 128 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: failed (.*certificate" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip srv/origin.git usb-next)" = "$origin_before" &&
	test_must_be_empty notify.log
'

test_expect_success 'http.sslCAInfo naming that certificate, as for git push: published over https' '
	git -C r config http.sslCAInfo "$PWD/tls/cert.pem" &&
	tip=$(git -C r rev-parse work-next) &&
	in_repo r git-maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	test_line_count = 1 notify.log
'

test_expect_success 'GIT_SSL_CAINFO over http.sslCAInfo, as git has it' '
	git -C r config http.sslCAInfo "$PWD/no-such-file.pem" &&
	in_repo r queue_commit drivers/usb/n.c "usb: n" &&
	tip=$(git -C r rev-parse work-next) &&
	GIT_SSL_CAINFO="$PWD/tls/cert.pem" git -C r maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	git -C r config --unset http.sslCAInfo
'

# libgit2 (with mbedTLS) parses the system's CA bundle when it starts;
# git-maint has it parsed by the push that needs it (repo.c): a run that
# opens no connection reads no certificate, an https push with no
# http.sslCAInfo still reads the system's and is still refused.
# (strace needs ptrace, which some containers refuse)
strace -qq -o /dev/null true 2>/dev/null && test_set_prereq STRACE
test_expect_success STRACE 'the system CA bundle: read by an https push that names no CA, by no other run' '
	ca_files () {
		sed -n "s|^[0-9]* *open[a-z]*([A-Z_]*, *\"\(/[^\"]*\)\".*= [0-9].*|\1|p" "$1" |
		grep -E "^/(etc|usr)/.*(ssl|cert|ca-)" || :
	} &&
	# LeakSanitizer cannot run under ptrace: no leak check (SANITIZE) in these two
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 &&
	export ASAN_OPTIONS &&
	in_repo r queue_commit drivers/usb/o.c "usb: o" &&
	test_expect_code 128 strace -f -qq -e trace=open,openat -o trace \
		git -C r maint-publish >out 2>err &&
	grep "^error: push to .origin.: failed (.*certificate" err &&
	ca_files trace >opened &&
	test -s opened &&
	git -C r tag ca-check HEAD &&
	strace -f -qq -e trace=open,openat -o trace2 git -C r maint-describe-contains HEAD >out &&
	echo ca-check >expect &&
	test_cmp expect out &&
	ca_files trace2 >opened2 &&
	test_must_be_empty opened2
'

test_done
