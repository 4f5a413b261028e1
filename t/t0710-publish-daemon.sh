#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-publish to a real git daemon (receive-pack) and a bare backup: per-remote results, --continue, nothing forced'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

test_expect_success 'setup: origin served by git daemon, a bare backup, the article'"'"'s branches' '
	notify_stub &&
	mkdir srv &&
	make_bare_server_repo srv/origin.git &&
	make_bare_server_repo backup.git &&
	start_git_daemon "$PWD/srv" &&
	ORIGIN_URL=$DAEMON_URL &&
	setup_article_repo r &&
	git -C r remote add origin "$DAEMON_URL/origin.git" &&
	git -C r remote add backup "$PWD/backup.git" &&
	printf "[tree \"usb\"]\n\tpublic = usb-next\n\twork = work-next\n\tremote = origin\n\tbackup = backup\n" \
		>r/.git/maint.ini &&
	git -C r push -q origin usb-next &&
	git -C r push -q backup usb-next &&
	in_repo r queue_commit drivers/usb/a.c "usb: a"
'

test_expect_success 'published to origin over git:// and to the backup, each named' '
	before=$(git -C r rev-parse usb-next) &&
	tip=$(git -C r rev-parse work-next) &&
	in_repo r git-maint-publish >out 2>err &&
	echo "usb-next: fast-forward $(git -C r rev-parse --short=7 $before)..$(git -C r rev-parse --short=7 $tip) (1 commit)" >expect &&
	test_cmp expect out &&
	# each remote'"'"'s result on stderr, as git push reports it
	cat >expect <<-EOF &&
	origin: usb-next $(git -C r rev-parse --short=7 $before)..$(git -C r rev-parse --short=7 $tip)
	backup: usb-next $(git -C r rev-parse --short=7 $before)..$(git -C r rev-parse --short=7 $tip)
	EOF
	test_cmp expect err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/backup/usb-next)" = "$tip" &&
	echo "--send --revert --after-push origin --after-push backup $before..$tip" >expect &&
	test_cmp expect notify.log
'

test_expect_success 'the public server moved on: refused as non-fast-forward, nothing changed, nothing forced, no notify (31)' '
	git clone -q "$DAEMON_URL/origin.git" other &&
	git -C other checkout -q usb-next &&
	in_repo other queue_commit drivers/usb/z.c "usb: someone else" &&
	git -C other push -q origin usb-next &&
	theirs=$(git -C other rev-parse usb-next) &&
	in_repo r queue_commit drivers/usb/b.c "usb: b" &&
	: >notify.log &&
	repo_state_of r >before &&
	backup_before=$(remote_tip backup.git usb-next) &&
	test_expect_code 1 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: rejected (non-fast-forward: its .usb-next. is at [0-9a-f]*, which .usb-next. here does not hold); nothing was changed" err &&
	grep "^hint: fetch from .origin., merge its .usb-next. into .work-next., and publish again; nothing is forced" err &&
	test_line_count = 2 err &&
	test_must_be_empty out &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip srv/origin.git usb-next)" = "$theirs" &&
	test "$(remote_tip backup.git usb-next)" = "$backup_before" &&
	test_must_be_empty notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'after fetching and merging their commit: a fast-forward for everyone' '
	git -C r fetch -q origin &&
	git -C r merge -q -m "Merge origin/usb-next" origin/usb-next &&
	in_repo r git-maint-publish -q &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(remote_tip backup.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	git -C srv/origin.git merge-base --is-ancestor $theirs usb-next
'

test_expect_success 'refused by the server after the transfer (a hook): seen through the per-ref status, exit 1, state kept (31, 49)' '
	printf "#!/bin/sh\necho no pushes today >&2\nexit 1\n" >srv/origin.git/hooks/pre-receive &&
	chmod +x srv/origin.git/hooks/pre-receive &&
	in_repo r queue_commit drivers/usb/c.c "usb: c" &&
	origin_before=$(remote_tip srv/origin.git usb-next) &&
	backup_before=$(remote_tip backup.git usb-next) &&
	: >notify.log &&
	test_expect_code 1 in_repo r git-maint-publish >out 2>err &&
	cat >expect <<-EOF &&
	remote: no pushes today
	error: push to '"'"'origin'"'"': rejected (pre-receive hook declined)
	backup: usb-next $(git -C r rev-parse --short=7 $backup_before)..$(git -C r rev-parse --short=7 work-next)
	EOF
	test_cmp expect err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$origin_before" &&
	test "$(git -C r rev-parse usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(remote_tip backup.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test_must_be_empty notify.log &&
	grep "^pushed backup$" r/.git/maint/publish/state
'

test_expect_success '--continue once the server takes it: only origin is pushed to, then notify' '
	rm srv/origin.git/hooks/pre-receive &&
	in_repo r git-maint-publish --continue >out 2>err &&
	test_must_be_empty out &&
	echo "origin: usb-next $(git -C r rev-parse --short=7 $origin_before)..$(git -C r rev-parse --short=7 work-next)" >expect &&
	test_cmp expect err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test_line_count = 1 notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'the backup down while origin succeeds: exit 75 naming it, origin has it, no notify (32)' '
	make_bare_server_repo srv2/backup.git &&
	git -C srv2/backup.git fetch -q "$PWD/backup.git" "+refs/heads/*:refs/heads/*" &&
	start_git_daemon "$PWD/srv2" &&
	backup_pid=$DAEMON_PID &&
	git -C r remote set-url backup "$DAEMON_URL/backup.git" &&
	stop_server $backup_pid &&
	in_repo r queue_commit drivers/usb/d.c "usb: d" &&
	: >notify.log &&
	test_expect_code 75 in_repo r git-maint-publish >out 2>err &&
	grep "^origin: usb-next [0-9a-f]*\.\.$(git -C r rev-parse --short=7 work-next)$" err &&
	grep "^error: push to .backup.: unreachable (.*127.0.0.1.*)" err &&
	grep "^hint: once the remotes can be reached, .git maint-publish --continue. pushes to those still missing" err &&
	test_line_count = 3 err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(git -C r rev-parse usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(remote_tip srv2/backup.git usb-next)" != "$(git -C r rev-parse work-next)" &&
	test_must_be_empty notify.log &&
	grep "^pushed origin$" r/.git/maint/publish/state
'

test_expect_success 'a new publish first finishes the one in progress: the backup still down, exit 75, nothing new' '
	in_repo r queue_commit drivers/usb/e.c "usb: e" &&
	before=$(git -C r rev-parse usb-next) &&
	test_expect_code 75 in_repo r git-maint-publish >out 2>err &&
	grep "^Finishing the publish in progress first" err &&
	grep "^error: push to .backup.: unreachable" err &&
	grep "^error: the publish in progress (.*) is not finished; nothing new was published" err &&
	test "$(git -C r rev-parse usb-next)" = "$before" &&
	test_must_be_empty notify.log &&
	git -C r reset -q --hard HEAD~1
'

test_expect_success '--continue with the backup up again pushes only to it, then notifies' '
	start_git_daemon "$PWD/srv2" &&
	git -C r remote set-url backup "$DAEMON_URL/backup.git" &&
	in_repo r git-maint-publish --continue >out 2>err &&
	test_must_be_empty out &&
	echo "backup: usb-next $(git -C r rev-parse --short=7 usb-next~1)..$(git -C r rev-parse --short=7 usb-next)" >expect &&
	test_cmp expect err &&
	test "$(remote_tip srv2/backup.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	echo "--send --revert --after-push origin --after-push backup $(git -C r rev-parse usb-next~1)..$(git -C r rev-parse usb-next)" >expect &&
	test_cmp expect notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'the public server unreachable: exit 75, nothing changed (34)' '
	in_repo r queue_commit drivers/usb/e.c "usb: e" &&
	git -C r remote set-url origin "git://127.0.0.1:$(free_port)/origin.git" &&
	repo_state_of r >before &&
	: >notify.log &&
	test_expect_code 75 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .origin.: unreachable (.*)" err &&
	grep "^error: nothing was changed: .usb-next. stays at $(git -C r rev-parse usb-next)" err &&
	test_line_count = 2 err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_be_empty notify.log
'

test_expect_success 'a server that hangs: timed out, exit 75, nothing changed (34)' '
	start_silent_server &&
	git -C r remote set-url origin "git://127.0.0.1:$SILENT_PORT/origin.git" &&
	repo_state_of r >before &&
	test_expect_code 75 in_repo r git-maint-publish --timeout=1 >out 2>err &&
	echo "error: push to '"'"'origin'"'"': timed out (no answer for 1 second)" >expect &&
	echo "error: nothing was changed: '"'"'usb-next'"'"' stays at $(git -C r rev-parse usb-next)" >>expect &&
	test_cmp expect err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_be_empty notify.log
'

test_expect_success 'a backup that hangs: origin has it, the backup timed out, exit 75, --continue later' '
	git -C r remote set-url origin "$ORIGIN_URL/origin.git" &&
	git -C r remote set-url backup "git://127.0.0.1:$SILENT_PORT/backup.git" &&
	# long enough for origin to answer on a loaded machine
	test_expect_code 75 in_repo r git-maint-publish --timeout=3 >out 2>err &&
	grep "^error: push to .backup.: timed out (no answer for 3 seconds)" err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test_must_be_empty notify.log &&
	git -C r remote set-url backup "$DAEMON_URL/backup.git" &&
	in_repo r git-maint-publish -q --continue &&
	test "$(remote_tip srv2/backup.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test_line_count = 1 notify.log
'

test_expect_success 'the backup moved on: origin has it, the backup refused (exit 1, nothing forced), state kept (31, 32)' '
	git clone -q "$PWD/srv2/backup.git" other2 &&
	git -C other2 checkout -q usb-next &&
	in_repo other2 queue_commit drivers/usb/y.c "usb: only on the backup" &&
	git -C other2 push -q origin usb-next &&
	theirs=$(git -C other2 rev-parse usb-next) &&
	in_repo r queue_commit drivers/usb/f.c "usb: f" &&
	: >notify.log &&
	test_expect_code 1 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .backup.: rejected (non-fast-forward: its .usb-next. is at [0-9a-f]*, which .usb-next. here does not hold)$" err &&
	grep "^hint: fetch from .backup. and merge its .usb-next. into .work-next.; then .git maint-publish --abort. and publish again; nothing is forced" err &&
	grep "^origin: usb-next [0-9a-f]*\.\.$(git -C r rev-parse --short=7 work-next)$" err &&
	test_line_count = 3 err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(remote_tip srv2/backup.git usb-next)" = "$theirs" &&
	test_must_be_empty notify.log &&
	grep "^pushed origin$" r/.git/maint/publish/state
'

test_expect_success 'as the hint says: fetch, merge, --abort, publish again' '
	git -C r fetch -q backup &&
	git -C r merge -q -m "Merge backup/usb-next" backup/usb-next &&
	before=$(sed -n "s/^before //p" r/.git/maint/publish/state) &&
	after=$(sed -n "s/^after //p" r/.git/maint/publish/state) &&
	in_repo r git-maint-publish --abort 2>err &&
	echo "hint: the authors of $(echo $before | cut -c1-12)..$(echo $after | cut -c1-12) were not told; '"'"'git maint-notify --send --revert --after-push origin --after-push backup $before..$after'"'"' tells them" >expect &&
	test_cmp expect err &&
	in_repo r git-maint-publish -q &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(remote_tip srv2/backup.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	git -C srv2/backup.git merge-base --is-ancestor $theirs usb-next &&
	test_line_count = 1 notify.log
'

test_expect_success 'http.sslCAInfo is for https: one naming no file does not stop a git:// push' '
	git -C r config http.sslCAInfo "$PWD/no-such-ca.pem" &&
	in_repo r queue_commit drivers/usb/s.c "usb: s" &&
	in_repo r git-maint-publish -q &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	git -C r config --unset http.sslCAInfo
'

test_expect_success 'every server is stopped by the library' '
	stop_git_servers &&
	test_path_is_missing .git-server-pids
'

test_done
