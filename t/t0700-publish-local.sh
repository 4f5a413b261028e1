#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-publish: the public branch brought to the work branch, fast-forward or merge in memory, to a bare repository'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

test_expect_success 'setup: the article'"'"'s branches, a bare origin, notify recorded' '
	notify_stub &&
	setup_article_repo r &&
	make_bare_server_repo origin.git &&
	git -C r remote add origin "$PWD/origin.git" &&
	git -C r push -q origin usb-next &&
	in_repo r queue_commit drivers/usb/a.c "usb: a" &&
	in_repo r queue_commit drivers/usb/b.c "usb: b"
'

test_expect_success '--dry-run prints the plan and changes nothing' '
	repo_state_of r >before &&
	base=$(git -C r rev-parse --short=7 usb-next) &&
	tip=$(git -C r rev-parse --short=7 work-next) &&
	in_repo r git-maint-publish --dry-run >out &&
	cat >expect <<-EOF &&
	Would publish '"'"'work-next'"'"' to '"'"'usb-next'"'"'
	Commits: 2
	  $(git -C r rev-parse --short=7 work-next~1) usb: a
	  $tip usb: b
	Update: fast-forward $base..$tip
	Push: origin
	Notify: git-maint-notify --send --revert --after-push origin $(git -C r rev-parse usb-next)..$(git -C r rev-parse work-next)
	EOF
	test_cmp expect out &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse base)" &&
	test_must_be_empty notify.log
'

test_expect_success 'a fast-forward: usb-next moved with a reflog line, pushed, authors notified' '
	before=$(git -C r rev-parse usb-next) &&
	tip=$(git -C r rev-parse work-next) &&
	git -C r status --porcelain=v1 >status.before &&
	in_repo r git-maint-publish >out &&
	test "$(git -C r rev-parse usb-next)" = "$tip" &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	git -C r reflog show --format=%gs -1 usb-next >reflog &&
	echo "maint-publish: fast-forward to work-next" >expect &&
	test_cmp expect reflog &&
	test "$(git -C r symbolic-ref HEAD)" = refs/heads/work-next &&
	git -C r status --porcelain=v1 >status.after &&
	test_cmp status.before status.after &&
	echo "--send --revert --after-push origin $before..$tip" >expect &&
	test_cmp expect notify.log &&
	test_path_is_missing r/.git/maint/publish &&
	test_path_is_missing r/.git/git-maint.lock
'

test_expect_success 'nothing new: up to date, nothing pushed, nobody notified' '
	: >notify.log &&
	in_repo r git-maint-publish >out 2>err &&
	echo "'"'"'usb-next'"'"' is up to date with '"'"'work-next'"'"'" >expect &&
	test_cmp expect out &&
	echo "origin: usb-next up to date" >expect &&
	test_cmp expect err &&
	test_must_be_empty notify.log
'

test_expect_success 'public moved on locally: a merge commit built in memory, as git merge-tree makes it' '
	git -C r update-ref refs/heads/usb-next \
		$(git -C r commit-tree -p usb-next -m "usb: fix on public" usb-next^{tree}) &&
	git -C r push -q origin usb-next &&
	in_repo r queue_commit drivers/usb/c.c "usb: c" &&
	git -C r status --porcelain=v1 >status.before &&
	cp r/.git/index index.before &&
	old=$(git -C r rev-parse usb-next) &&
	in_repo r git-maint-publish >out &&
	git -C r rev-parse usb-next^1 usb-next^2 >parents &&
	printf "%s\n" $old $(git -C r rev-parse work-next) >expect &&
	test_cmp expect parents &&
	git -C r merge-tree --write-tree $old work-next >oracle &&
	test "$(git -C r rev-parse usb-next^{tree})" = "$(cat oracle)" &&
	git -C r log -1 --format=%s usb-next >msg &&
	echo "Merge branch '"'"'work-next'"'"' into usb-next" >expect &&
	test_cmp expect msg &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse usb-next)" &&
	git -C r reflog show --format=%gs -1 usb-next >reflog &&
	echo "maint-publish: merge work-next" >expect &&
	test_cmp expect reflog &&
	git -C r status --porcelain=v1 >status.after &&
	test_cmp status.before status.after &&
	cmp r/.git/index index.before &&
	test "$(git -C r symbolic-ref HEAD)" = refs/heads/work-next
'

# usb-next gets a commit of its own that edits a.c, as work-next does.
public_edit () {
	blob=$(echo "public side" | git -C r hash-object -w --stdin) &&
	git -C r read-tree --index-output="$PWD/tmp-index" usb-next &&
	GIT_INDEX_FILE="$PWD/tmp-index" git -C r update-index --add --cacheinfo "100644,$blob,$1" &&
	tree=$(GIT_INDEX_FILE="$PWD/tmp-index" git -C r write-tree) &&
	rm tmp-index &&
	git -C r update-ref refs/heads/usb-next \
		$(git -C r commit-tree -p usb-next -m "usb: public edit of $1" $tree)
}

test_expect_success 'a conflict stops with nothing changed: exit 1, the paths listed, no object written (33)' '
	public_edit drivers/usb/a.c &&
	git -C r push -q origin usb-next &&
	in_repo r queue_commit drivers/usb/a.c "usb: work edit of a.c" &&
	: >notify.log &&
	repo_state_of r >before &&
	origin_before=$(remote_tip origin.git usb-next) &&
	test_expect_code 1 in_repo r git-maint-publish >out 2>err &&
	cat >expect <<-\EOF &&
	error: '"'"'work-next'"'"' does not merge cleanly into '"'"'usb-next'"'"'; nothing was changed
	conflict: drivers/usb/a.c
	hint: merge '"'"'usb-next'"'"' into '"'"'work-next'"'"' yourself (git merge), or fix '"'"'work-next'"'"', then publish again
	EOF
	test_cmp expect err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip origin.git usb-next)" = "$origin_before" &&
	test_must_be_empty notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'resolved by merging the public branch into the work branch, then a fast-forward' '
	git -C r merge -q -X theirs -m "Merge usb-next" usb-next &&
	in_repo r git-maint-publish >out &&
	test "$(git -C r rev-parse usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse work-next)"
'

test_expect_success 'a stopped queue refuses, nothing changed' '
	in_repo r queue_commit drivers/usb/d.c "usb: d" &&
	mkdir -p r/.git/maint/queue &&
	repo_state_of r >before &&
	test_expect_code 128 in_repo r git-maint-publish 2>err &&
	grep "^fatal: a queue is stopped; finish it" err &&
	test_line_count = 1 err &&
	repo_state_of r >after &&
	test_cmp before after &&
	rmdir r/.git/maint/queue
'

test_expect_success 'a held lock refuses with exit 75, nothing changed (22)' '
	repo_state_of r >before &&
	(cd r && test-queue-lib lock "git maint-publish 2>../err; echo \$? >../rc") &&
	echo 75 >expect &&
	test_cmp expect rc &&
	grep "^error: another git-maint operation holds .*git-maint.lock (pid [0-9]*)" err &&
	test_line_count = 1 err &&
	repo_state_of r >after &&
	test_cmp before after
'

test_expect_success 'the public branch checked out: refused, nothing changed' '
	git -C r checkout -q usb-next &&
	repo_state_of r >before &&
	test_expect_code 128 in_repo r git-maint-publish work-next 2>err &&
	echo "fatal: '"'"'usb-next'"'"' is checked out; publish moves it without a work tree, so check out '"'"'work-next'"'"' first" >expect &&
	test_cmp expect err &&
	repo_state_of r >after &&
	test_cmp before after &&
	git -C r checkout -q work-next
'

test_expect_success 'the public branch named on the command line finds its work branch' '
	in_repo r git-maint-publish -n usb-next >out &&
	head -1 out >actual &&
	echo "Would publish '"'"'work-next'"'"' to '"'"'usb-next'"'"'" >expect &&
	test_cmp expect actual
'

test_expect_success 'two candidate public branches: say which with tree.<name>.public, as git config names it' '
	git -C r branch tty-next base &&
	test_expect_code 128 in_repo r git-maint-publish 2>err &&
	cat >expect <<-\EOF &&
	fatal: '"'"'work-next'"'"' could be the work branch of '"'"'tty-next'"'"' or '"'"'usb-next'"'"'; say which with tree.<name>.public
	hint: git config maint.tree.<name>.work work-next; git config maint.tree.<name>.public tty-next
	EOF
	test_cmp expect err &&
	git -C r config maint.tree.usb.public usb-next &&
	git -C r config maint.tree.usb.work work-next &&
	in_repo r git-maint-publish -n >out &&
	git -C r config --remove-section maint.tree.usb &&
	grep "^Would publish .work-next. to .usb-next. (tree .usb.)" out &&
	printf "[tree \"usb\"]\n\tpublic = usb-next\n\twork = work-next\n" >r/.git/maint.ini &&
	in_repo r git-maint-publish -n >out &&
	grep "^Would publish .work-next. to .usb-next. (tree .usb.)" out
'

test_expect_success '--no-notify and tree.<name>.notify = false: published, nobody notified' '
	: >notify.log &&
	in_repo r git-maint-publish --no-notify -q &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	in_repo r queue_commit drivers/usb/e.c "usb: e" &&
	printf "\tnotify = false\n" >>r/.git/maint.ini &&
	in_repo r git-maint-publish -q &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test_must_be_empty notify.log &&
	git -C r branch -D tty-next &&
	rm r/.git/maint.ini
'

test_expect_success 'a remote named in the configuration that does not exist: refused before anything, its key named' '
	printf "[tree \"usb\"]\n\tpublic = usb-next\n\twork = work-next\n\tbackup = nowhere\n" >r/.git/maint.ini &&
	test_expect_code 128 in_repo r git-maint-publish 2>err &&
	echo "fatal: no remote '"'"'nowhere'"'"' (from tree.usb.backup); add it with '"'"'git remote add'"'"'" >expect &&
	test_cmp expect err &&
	rm r/.git/maint.ini &&
	git -C r config maint.tree.usb.public usb-next &&
	git -C r config maint.tree.usb.work work-next &&
	git -C r config maint.tree.usb.remote "origin elsewhere" &&
	test_expect_code 128 in_repo r git-maint-publish 2>err &&
	git -C r config --remove-section maint.tree.usb &&
	echo "fatal: no remote '"'"'elsewhere'"'"' (from tree.usb.remote); add it with '"'"'git remote add'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'notify asks to be run again (75): exit 75, state kept, --continue runs only notify' '
	in_repo r queue_commit drivers/usb/f.c "usb: f" &&
	: >notify.log &&
	test_expect_code 75 env NOTIFY_EXIT=75 git -C r maint-publish -q 2>err &&
	grep "^hint: .git maint-publish --continue. runs git-maint-notify again for the mails still missing" err &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	grep "^notify 1$" r/.git/maint/publish/state &&
	in_repo r git-maint-publish --continue >out &&
	test_must_be_empty out &&
	test_line_count = 2 notify.log &&
	test "$(sed -n 1p notify.log)" = "$(sed -n 2p notify.log)" &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'notify reports mails refused for good (1): exit 1, nothing left to resume' '
	in_repo r queue_commit drivers/usb/g.c "usb: g" &&
	: >notify.log &&
	test_expect_code 1 env NOTIFY_EXIT=1 git -C r maint-publish -q &&
	test_line_count = 1 notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'notify fails (128): exit 128 naming it, state kept for --continue' '
	in_repo r queue_commit drivers/usb/h.c "usb: h" &&
	: >notify.log &&
	test_expect_code 128 env NOTIFY_EXIT=128 git -C r maint-publish -q 2>err &&
	grep "^fatal: git-maint-notify failed (exit 128); the commits are published" err &&
	test_path_is_file r/.git/maint/publish/state &&
	in_repo r git-maint-publish -q --continue &&
	test_line_count = 2 notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'no git-maint-notify anywhere: exit 128, published, --abort drops the mails' '
	in_repo r queue_commit drivers/usb/i.c "usb: i" &&
	# a copy of the program with nothing next to it, and a PATH without notify
	mkdir lonely &&
	cp "$MAINT_BUILD_DIR/bin/git-maint-publish" lonely/ &&
	(cd r && test_expect_code 128 env PATH=/usr/bin:/bin ../lonely/git-maint-publish -q 2>../err) &&
	grep "^fatal: cannot find git-maint-notify (on PATH or next to git-maint-publish); the commits are published, the authors not told" err &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	in_repo r git-maint-publish --abort &&
	test_path_is_missing r/.git/maint/publish
'

# write_hook <path>: a shell script from stdin, executable
write_hook () {
	{ echo "#!/bin/sh" && cat; } >"$1" &&
	chmod +x "$1"
}

test_expect_success 'a local origin whose pre-receive refuses: refused as git push is, in the remote'"'"'s words, exit 1, nothing moved there (49)' '
	write_hook origin.git/hooks/pre-receive <<-\EOF &&
	echo "no pushes to this tree" >&2
	exit 1
	EOF
	write_hook origin.git/hooks/post-receive <<-EOF &&
	cat >>"$PWD/post-receive.log"
	EOF
	in_repo r queue_commit drivers/usb/j.c "usb: j" &&
	origin_before=$(remote_tip origin.git usb-next) &&
	tracking_before=$(git -C r rev-parse refs/remotes/origin/usb-next) &&
	: >notify.log &&
	test_expect_code 1 in_repo r git-maint-publish >out 2>err &&
	cat >expect <<-EOF &&
	remote: no pushes to this tree
	error: push to '"'"'origin'"'"': rejected (pre-receive hook declined)
	EOF
	test_cmp expect err &&
	test "$(remote_tip origin.git usb-next)" = "$origin_before" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tracking_before" &&
	test_path_is_missing post-receive.log &&
	test_must_be_empty notify.log &&
	test_path_is_file r/.git/maint/publish/state &&
	# the oracle: git push to the same repository is refused the same way
	test_must_fail git -C r push origin usb-next 2>git-err &&
	grep "^ ! \[remote rejected\] usb-next -> usb-next (pre-receive hook declined)" git-err
'

test_expect_success '--continue once the hook accepts: pushed, post-receive ran with the update, the tracking ref follows (49)' '
	rm origin.git/hooks/pre-receive &&
	in_repo r git-maint-publish --continue -q &&
	tip=$(git -C r rev-parse work-next) &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	echo "$origin_before $tip refs/heads/usb-next" >expect &&
	test_cmp expect post-receive.log &&
	test_line_count = 1 notify.log &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'a file:// backup whose update hook refuses: origin published, the backup named, exit 1, --continue pushes only to it (49)' '
	make_bare_server_repo backup.git &&
	git -C r remote add backup "file://$PWD/backup.git" &&
	git -C r push -q backup usb-next &&
	printf "[tree \"usb\"]\n\tpublic = usb-next\n\twork = work-next\n\tbackup = backup\n" >r/.git/maint.ini &&
	write_hook backup.git/hooks/update <<-\EOF &&
	echo "read-only medium: $1 stays" >&2
	exit 1
	EOF
	in_repo r queue_commit drivers/usb/k.c "usb: k" &&
	backup_before=$(remote_tip backup.git usb-next) &&
	origin_before=$(remote_tip origin.git usb-next) &&
	tip=$(git -C r rev-parse work-next) &&
	rm post-receive.log &&
	: >notify.log &&
	test_expect_code 1 in_repo r git-maint-publish >out 2>err &&
	cat >expect <<-EOF &&
	origin: usb-next $(git -C r rev-parse --short=7 $origin_before)..$(git -C r rev-parse --short=7 $tip)
	remote: read-only medium: refs/heads/usb-next stays
	remote: error: hook declined to update refs/heads/usb-next
	error: push to '"'"'backup'"'"': rejected (hook declined)
	EOF
	test_cmp expect err &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(remote_tip backup.git usb-next)" = "$backup_before" &&
	test "$(git -C r rev-parse refs/remotes/backup/usb-next)" = "$backup_before" &&
	test_must_be_empty notify.log &&
	rm backup.git/hooks/update &&
	in_repo r git-maint-publish --continue -q &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	test_line_count = 1 post-receive.log &&
	test_line_count = 1 notify.log &&
	rm r/.git/maint.ini
'

test_expect_success 'every option is documented' '
	command_options git-maint-publish >opts &&
	test_line_count -gt 4 opts &&
	while read o
	do
		grep -q -e "^$o" "$MAINT_SRC_DIR/Documentation/git-maint-publish.adoc" ||
		{ echo "undocumented: $o"; return 1; }
	done <opts
'

test_done
