#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-publish when the server closes the connection before its report: a temporary failure (exit 75), the state kept, --continue resumes (reliability cases 34 and 53)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

PASSWORD='s3cret-http-pw'

# cut_at <hook>: the server's git-receive-pack dies (kill -9) in that
# hook, after saying a word (a sideband packet reached us first), so the
# connection closes before its report (nothing was updated).
cut_at () {
	printf "#!/bin/sh\necho checking >&2\nsleep 0.2\nkill -9 \$PPID\nsleep 1\n" >srv/origin.git/hooks/$1 &&
	chmod +x srv/origin.git/hooks/$1
}

test_expect_success 'setup: origin served by git daemon and by http-backend, the article'"'"'s branches' '
	notify_stub &&
	mkdir srv &&
	make_bare_server_repo srv/origin.git &&
	start_git_daemon "$PWD/srv" &&
	start_http_server "$PWD/srv" maint "$PASSWORD" &&
	setup_article_repo r &&
	git -C r remote add origin "$DAEMON_URL/origin.git" &&
	git -C r push -q origin usb-next &&
	git -C r fetch -q origin &&
	printf "protocol=http\nhost=127.0.0.1:%s\nusername=maint\npassword=%s\n" "$HTTP_PORT" "$PASSWORD" |
		git -C r credential-store --file="$PWD/creds" store &&
	git -C r config credential.helper "store --file=\"$PWD/creds\""
'

for url in daemon http local
do
	test_expect_success "$url: receive-pack killed before its report: exit 75, one error naming the remote, state kept, the remote unchanged" '
		case $url in
		daemon) git -C r remote set-url origin "$DAEMON_URL/origin.git" ;;
		http) git -C r remote set-url origin "$HTTP_URL/origin.git" ;;
		local) git -C r remote set-url origin "$PWD/srv/origin.git" ;;
		esac &&
		in_repo r queue_commit drivers/usb/$url.c "usb: $url" &&
		tip=$(git -C r rev-parse work-next) &&
		remote_before=$(remote_tip srv/origin.git usb-next) &&
		tracking_before=$(git -C r rev-parse refs/remotes/origin/usb-next) &&
		cut_at pre-receive &&
		: >notify.log &&
		test_expect_code 75 in_repo r git-maint-publish >out 2>err &&
		grep "^error: " err >actual &&
		echo "error: push to '"'"'origin'"'"': unreachable (the connection was cut before the server'"'"'s report)" >expect &&
		test_cmp expect actual &&
		grep "^hint: once the remotes can be reached, .git maint-publish --continue. pushes to those still missing$" err &&
		test "$(git -C r rev-parse usb-next)" = "$tip" &&
		test "$(remote_tip srv/origin.git usb-next)" = "$remote_before" &&
		test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tracking_before" &&
		test_path_is_file r/.git/maint/publish/state &&
		test_must_be_empty notify.log
	'

	test_expect_success "$url: --continue once the server answers: pushed, notified, the state gone" '
		rm srv/origin.git/hooks/pre-receive &&
		in_repo r git-maint-publish --continue >out 2>err &&
		test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
		test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
		test_line_count = 1 notify.log &&
		test_path_is_missing r/.git/maint/publish
	'
done

# Reliability case 53: the remote got the tip another way (a push by
# hand) while publish waited; its tracking ref is stale.
test_expect_success 'cut before the report, then the tip pushed to origin by hand: --continue counts it pushed, brings the tracking ref up, notifies' '
	git -C r remote set-url origin "$DAEMON_URL/origin.git" &&
	in_repo r queue_commit drivers/usb/hand.c "usb: by hand" &&
	tip=$(git -C r rev-parse work-next) &&
	old=$(git -C r rev-parse refs/remotes/origin/usb-next) &&
	cut_at pre-receive &&
	: >notify.log &&
	test_expect_code 75 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: unreachable (the connection was cut before the server.s report)$" err &&
	rm srv/origin.git/hooks/pre-receive &&
	git -C r push -q "$PWD/srv/origin.git" usb-next &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$old" &&
	in_repo r git-maint-publish --continue >out 2>err &&
	grep "^origin: usb-next up to date$" err &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	test_line_count = 1 notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_done
