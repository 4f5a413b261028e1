#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-request-pull --send: the tag pushed to a bare remote and to git daemon, checked there, mailed once through the SMTP server (STARTTLS, AUTH)'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-request-pull.sh"

cleanup stop_smtp_server

# The body of the n-th mail the server accepted.
mail_body () {
	tr -d "\r" <"$SMTP_SPOOL/$(printf %04d "$1").eml" | sed "1,/^\$/d"
}

# The message of an mbox (its one mail) and of a spooled mail, Date aside.
without_date () {
	sed -e "/^Date: /d" -e "/^From [0-9a-f]\{40\} /d"
}

test_expect_success 'setup: a bare origin, the SMTP server, its settings' '
	setup_pull_repos &&
	start_smtp_server &&
	(cd r && smtp_config && git config sendemail.smtpPass "$SMTP_PASSWORD")
'

test_expect_success '--send: tagged, pushed, checked, mailed: the body holds git request-pull'"'"'s text' '
	in_repo r git-maint-request-pull --no-sign --tag usb-6.2-rc4 -F ../msg >dry.mbox &&
	in_repo r git-maint-request-pull --no-sign --tag usb-6.2-rc4 -F ../msg --send >out 2>err &&
	test_must_be_empty out &&
	tag=$(git -C r rev-parse refs/tags/usb-6.2-rc4) &&
	test "$(git -C r cat-file -t $tag)" = tag &&
	test "$(git -C r rev-parse usb-6.2-rc4^{commit})" = "$(git -C r rev-parse usb-next)" &&
	test "$(git -C origin.git rev-parse refs/tags/usb-6.2-rc4)" = "$tag" &&
	test "$(smtp_count)" = 1 &&
	test "$(smtp_header 1 Subject)" = "[GIT PULL] USB changes for 6.2-rc4" &&
	test "$(smtp_header 1 To)" = "Linus <linus@example.org>" &&
	oracle r usb-6.2-rc4 "$PWD/origin.git" >expect &&
	mail_body 1 >body &&
	pull_text body >actual &&
	test_cmp expect actual &&
	grep "^origin: tags/usb-6.2-rc4 created$" err &&
	grep "^Sent \[GIT PULL\] USB changes for 6.2-rc4 (to Linus <linus@example.org>)$" err &&
	test_path_is_missing r/.git/maint/request-pull
'

test_expect_success 'the mail sent is the dry run'"'"'s, but for its Date' '
	without_date <dry.mbox >expect &&
	tr -d "\r" <"$SMTP_SPOOL/0001.eml" | without_date >actual &&
	test_cmp expect actual
'

test_expect_success 'the journal records the mail against the tag object' '
	git -C r notes --ref=maint-notify show usb-6.2-rc4 >note &&
	grep "^Status: sent$" note &&
	grep "^Kind: pull usb-6.2-rc4$" note &&
	grep "^Message-ID: $(smtp_header 1 Message-ID)$" note
'

test_expect_success 'a rerun mails nothing' '
	in_repo r git-maint-request-pull --tag usb-6.2-rc4 --send >out 2>err &&
	test "$(smtp_count)" = 1 &&
	grep "the pull request for .usb-6.2-rc4. went out already" err &&
	grep "^origin: tags/usb-6.2-rc4 up to date$" err
'

test_expect_success 'a remote with another tag of that name: refused before anything changes' '
	git -C r tag -a -m "elsewhere" other master &&
	git -C r push -q origin other:refs/tags/usb-taken &&
	git -C r tag -d other &&
	in_repo r queue_commit drivers/usb/c.c "usb: c" &&
	git -C r push -q origin usb-next &&
	repo_state_of r >before &&
	test_expect_code 1 in_repo r git-maint-request-pull --no-sign --tag usb-taken -m "USB taken" --send 2>err &&
	grep "error: .origin. has another tag .usb-taken. (.*); nothing was changed" err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_path_is_missing r/.git/maint/request-pull &&
	test "$(smtp_count)" = 1
'

test_expect_success 'a branch the remote lacks: no mail; published, --continue mails once' '
	in_repo r queue_commit drivers/usb/d.c "usb: d" &&
	test_expect_code 1 in_repo r git-maint-request-pull --no-sign --tag usb-d -m "USB d" --send 2>err &&
	grep "error: .origin. does not have .usb-next. at" err &&
	test "$(smtp_count)" = 1 &&
	test "$(git -C origin.git rev-parse refs/tags/usb-d)" = "$(git -C r rev-parse usb-d)" &&
	test -d r/.git/maint/request-pull &&
	test_expect_code 128 in_repo r git-maint-request-pull --no-sign --tag usb-e -m "USB e" --send 2>err &&
	grep "a pull request is in progress" err &&
	git -C r push -q origin usb-next &&
	in_repo r git-maint-request-pull --continue 2>err &&
	test "$(smtp_count)" = 2 &&
	test "$(smtp_header 2 Subject)" = "[GIT PULL] USB d" &&
	test_path_is_missing r/.git/maint/request-pull &&
	test_expect_code 128 in_repo r git-maint-request-pull --continue 2>err &&
	grep "no pull request in progress" err
'

test_expect_success 'an unreachable remote: 75, nothing changed; the same command later mails once' '
	in_repo r queue_commit drivers/usb/e.c "usb: e" &&
	git -C r push -q origin usb-next &&
	git -C r remote set-url --push origin "git://127.0.0.1:$SMTP_CLOSED_PORT/origin.git" &&
	test_expect_code 75 in_repo r git-maint-request-pull --no-sign --tag usb-e -m "USB e" --send 2>err &&
	grep "error: push to .origin.: unreachable" err &&
	test_must_fail git -C r rev-parse -q --verify refs/tags/usb-e &&
	test_path_is_missing r/.git/maint/request-pull &&
	test "$(smtp_count)" = 2 &&
	git -C r remote set-url --delete --push origin "git://127.0.0.1:$SMTP_CLOSED_PORT/origin.git" &&
	in_repo r git-maint-request-pull --no-sign --tag usb-e -m "USB e" --send 2>err &&
	test "$(smtp_count)" = 3 &&
	test "$(git -C origin.git rev-parse refs/tags/usb-e)" = "$(git -C r rev-parse usb-e)"
'

test_expect_success 'the SMTP server defers: 75; --continue mails once' '
	in_repo r queue_commit drivers/usb/f.c "usb: f" &&
	git -C r push -q origin usb-next &&
	smtp_mode --fail-after 0 &&
	test_expect_code 75 in_repo r git-maint-request-pull --no-sign --tag usb-f -m "USB f" --send 2>err &&
	test "$(smtp_count)" = 3 &&
	smtp_mode &&
	in_repo r git-maint-request-pull --continue 2>err &&
	test "$(smtp_count)" = 4 &&
	test "$(smtp_header 4 Subject)" = "[GIT PULL] USB f"
'

# kill -9 at <point>, then --continue (or the same command, when the
# state was not written yet): the pull request mailed, once.
crash_then_finish () {
	point=$1 tag=$2 &&
	in_repo r queue_commit "drivers/usb/$tag.c" "usb: $tag" &&
	git -C r push -q origin usb-next &&
	before=$(smtp_count) &&
	test_expect_code 137 in_repo r env GIT_MAINT_TEST_CRASH_AT=$point \
		git-maint-request-pull --no-sign --tag $tag -m "USB $tag" --send 2>err &&
	if test -f r/.git/maint/request-pull/state
	then
		in_repo r git-maint-request-pull --continue 2>err
	else
		in_repo r git-maint-request-pull --no-sign --tag $tag -m "USB $tag" --send 2>err
	fi &&
	test "$(git -C origin.git rev-parse refs/tags/$tag)" = "$(git -C r rev-parse refs/tags/$tag)" &&
	git -C r notes --ref=maint-notify show refs/tags/$tag >note &&
	grep "^Status: sent$" note &&
	test_path_is_missing r/.git/maint/request-pull
}

for point in request-pull-tag-objects-written request-pull-tag-state-write \
	request-pull-tag-before-ref request-pull-tag-after-ref request-pull-pushed
do
	test_expect_success "kill -9 at $point: finished, mailed exactly once" '
		crash_then_finish $point t-$point &&
		test "$(smtp_count)" = $((before + 1))
	'
done

test_expect_success 'kill -9 between the server'"'"'s answer and the journal: one more mail, the same Message-ID' '
	crash_then_finish request-pull-sent t-sent &&
	test "$(smtp_count)" = $((before + 2)) &&
	n=$(smtp_count) &&
	test "$(smtp_header $n Message-ID)" = "$(smtp_header $((n - 1)) Message-ID)" &&
	in_repo r git-maint-request-pull --tag t-sent --send &&
	test "$(smtp_count)" = $n
'

test_expect_success 'git daemon: the tag pushed over git://, seen there, mailed' '
	mkdir srv &&
	git clone -q --bare origin.git srv/pub.git &&
	git -C srv/pub.git config receive.denyNonFastForwards true &&
	start_git_daemon "$PWD/srv" &&
	git -C r remote add pub "$DAEMON_URL/pub.git" &&
	git -C r config maint.tree.usb.remote pub &&
	in_repo r queue_commit drivers/usb/g.c "usb: g" &&
	git -C r push -q pub usb-next &&
	in_repo r git-maint-request-pull --no-sign --tag usb-g -m "USB g" --send 2>err &&
	grep "^pub: tags/usb-g created$" err &&
	test "$(git -C srv/pub.git rev-parse refs/tags/usb-g)" = "$(git -C r rev-parse usb-g)" &&
	n=$(smtp_count) &&
	test "$(smtp_header $n Subject)" = "[GIT PULL] USB g" &&
	oracle r usb-g "$DAEMON_URL/pub.git" >expect &&
	mail_body $n >body &&
	pull_text body >actual &&
	test_cmp expect actual
'

test_done
