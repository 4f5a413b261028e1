#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-publish killed at every step of the guarded step, the pushes and the hand-off to notify'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

# The case: usb-next has a commit of its own, so the publish is a merge
# (objects written at the step), pushed to origin and backup. Built once,
# copied for each run.
make_case () {
	setup_article_repo tmpl/r &&
	make_bare_server_repo tmpl/origin.git &&
	make_bare_server_repo tmpl/backup.git &&
	git -C tmpl/r remote add origin "$PWD/origin.git" &&
	git -C tmpl/r remote add backup "$PWD/backup.git" &&
	printf "[tree \"usb\"]\n\tpublic = usb-next\n\twork = work-next\n\tremote = origin\n\tbackup = backup\n" \
		>tmpl/r/.git/maint.ini &&
	git -C tmpl/r checkout -q usb-next &&
	in_repo tmpl/r queue_commit drivers/usb/p.c "usb: public fix" &&
	git -C tmpl/r checkout -q work-next &&
	git -C tmpl/r push -q "$PWD/tmpl/origin.git" usb-next &&
	git -C tmpl/r push -q "$PWD/tmpl/backup.git" usb-next &&
	in_repo tmpl/r queue_commit drivers/usb/a.c "usb: a"
}

setup_case () {
	rm -rf r origin.git backup.git &&
	cp -R tmpl/r tmpl/origin.git tmpl/backup.git . &&
	: >notify.log
}

test_expect_success 'setup: what an uninterrupted publish makes' '
	notify_stub &&
	make_case &&
	setup_case &&
	before=$(git -C r rev-parse usb-next) &&
	in_repo r git-maint-publish -q &&
	git -C r rev-parse usb-next >expect.tip &&
	test "$(git -C r rev-parse usb-next^1)" = "$before" &&
	echo "--send -q --revert --after-push origin --after-push backup $before..$(cat expect.tip)" >expect.notify &&
	test_cmp expect.notify notify.log
'

# Everything as after an uninterrupted run; notify ran <n> times.
complete () {
	read -r tip <expect.tip &&
	# the branch and HEAD, which is on work-next, in one git
	test "$(git -C r rev-parse usb-next --symbolic-full-name HEAD)" = "$tip${LF}refs/heads/work-next" &&
	test "$(remote_tip origin.git usb-next)" = "$tip" &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	for i in $(test_seq $1)
	do
		cat expect.notify || return 1
	done >expect &&
	test_cmp expect notify.log &&
	test_path_is_missing r/.git/maint/publish &&
	test_path_is_missing r/.git/git-maint.lock &&
	git -C r status --porcelain=v1 >status &&
	test_must_be_empty status
}

crash () {
	test_expect_code 137 in_repo r env GIT_MAINT_TEST_CRASH_AT="$1" git-maint-publish -q
}

test_expect_success 'killed after the merge objects are written: nothing to resume, a rerun publishes' '
	setup_case &&
	old=$(git -C r rev-parse usb-next) &&
	crash publish-objects-written &&
	test_path_is_missing r/.git/maint/publish &&
	test "$(git -C r rev-parse usb-next)" = "$old" &&
	test "$(remote_tip origin.git usb-next)" = "$old" &&
	test_expect_code 128 in_repo r git-maint-publish --continue 2>err &&
	grep "^warning: taking over .*git-maint.lock.*is gone" err &&
	grep "^fatal: no publish in progress" err &&
	test_line_count = 2 err &&
	in_repo r git-maint-publish -q &&
	complete 1
'

test_expect_success 'killed while writing the state: --continue names the damage, --abort clears it, a rerun publishes' '
	setup_case &&
	old=$(git -C r rev-parse usb-next) &&
	crash publish-state-write &&
	test "$(git -C r rev-parse usb-next)" = "$old" &&
	test_expect_code 128 in_repo r git-maint-publish --continue 2>err &&
	grep "^error: .*holds no publish state" err &&
	grep "^fatal: the publish state in .* cannot be used; run .git maint-publish --abort. to clear it" err &&
	in_repo r git-maint-publish --abort &&
	test_path_is_missing r/.git/maint/publish &&
	test "$(git -C r rev-parse usb-next)" = "$old" &&
	in_repo r git-maint-publish -q &&
	complete 1
'

test_expect_success 'killed while writing the state: a new publish clears what it left (nothing had changed) and publishes' '
	setup_case &&
	crash publish-state-write &&
	in_repo r git-maint-publish -q 2>err &&
	grep "^warning: removing .*: a publish killed before it wrote its state left it; nothing had changed" err &&
	complete 1
'

for point in publish-before-ref publish-after-ref publish-after-push:origin push-before-ref:backup \
	publish-after-push:backup publish-before-notify
do
	test_expect_success "killed at $point: --continue completes, notify runs once" '
		setup_case &&
		crash $point &&
		test_path_is_file r/.git/maint/publish/state &&
		test_must_be_empty notify.log &&
		in_repo r git-maint-publish -q --continue &&
		complete 1
	'

	test_expect_success "killed at $point: a new publish finishes it first, notify runs once" '
		setup_case &&
		crash $point &&
		in_repo r git-maint-publish 2>err &&
		grep "^Finishing the publish in progress first" err &&
		complete 1
	'
done

test_expect_success 'killed after notify ran: --continue runs it again (notify'"'"'s journal sends what is missing)' '
	setup_case &&
	crash publish-after-notify &&
	test_path_is_file r/.git/maint/publish/state &&
	in_repo r git-maint-publish -q --continue &&
	complete 2
'

test_expect_success 'killed before the ref moved, then the branch moved by someone else: refused, nothing forced (22)' '
	setup_case &&
	crash publish-before-ref &&
	other=$(git -C r commit-tree -p usb-next -m "someone else" usb-next^{tree}) &&
	git -C r update-ref refs/heads/usb-next $other &&
	test_expect_code 128 in_repo r git-maint-publish --continue 2>err &&
	grep "^fatal: .refs/heads/usb-next. moved since the publish step began (it is at $other, the step moves it to [0-9a-f]*)" err &&
	test "$(git -C r rev-parse usb-next)" = "$other" &&
	test "$(remote_tip origin.git usb-next)" != "$(cat expect.tip)" &&
	test_must_be_empty notify.log &&
	in_repo r git-maint-publish --abort &&
	test "$(git -C r rev-parse usb-next)" = "$other"
'

test_expect_success '--abort after the step forgets the pushes, rewinds nothing' '
	setup_case &&
	crash publish-after-ref &&
	in_repo r git-maint-publish --abort &&
	test_path_is_missing r/.git/maint/publish &&
	test "$(git -C r rev-parse usb-next)" = "$(cat expect.tip)" &&
	test "$(git -C r rev-parse usb-next^1)" = "$(git -C r rev-parse usb-next@{1})" &&
	test_must_be_empty notify.log
'

test_done
