#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-publish with the real git-maint-notify: pushed to a git daemon and a backup, the authors mailed through an SMTP server (STARTTLS, AUTH, the password in gnome-keyring), exactly once across reruns and a kill -9'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

cleanup stop_smtp_server

# mails_for <n> <author name> <author email> <subject>...: an mbox of
# <n> patches as their author sends them (git format-patch, threaded),
# each adding a line to drivers/usb/<subject>.c, made on top of usb-next.
mails_for () {
	n=$1 name=$2 email=$3 &&
	shift 3 &&
	rm -rf scratch &&
	git clone -q -b usb-next r scratch &&
	(
		cd scratch &&
		mkdir -p drivers/usb &&
		for s in "$@"
		do
			echo "$s" >"drivers/usb/$s.c" &&
			git add "drivers/usb/$s.c" &&
			test_tick &&
			GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email git commit -q -s -m "usb: $s" || return 1
		done &&
		git format-patch -q --stdout --thread=shallow --to="C O Mitter <committer@example.com>" \
			--cc=linux-usb@vger.kernel.org -$n HEAD
	)
}

# The Message-IDs of the patch mails of an mbox, in order.
patch_ids () {
	git-maint-mbox-split --patches-only --format="<%m>" "$@"
}

# The In-Reply-To (or any header) of each mail the server received, in
# order (one awk for all of them).
received () {
	awk -v name="$1: " '
		FNR == 1 { head = 1 }
		head { gsub(/\r/, ""); if ($0 == "") head = 0
			else if (index($0, name) == 1) print substr($0, length(name) + 1) }' "$SMTP_SPOOL"/*.eml
}

test_expect_success 'setup: SMTP server with STARTTLS and AUTH, its password in the keyring' '
	start_keyring &&
	start_smtp_server &&
	keyring_store "$SMTP_PASSWORD" protocol smtp server 127.0.0.1 port "$SMTP_PORT" user "$SMTP_USER"
'

test_expect_success 'setup: origin served by git daemon, a bare backup, the article'"'"'s branches' '
	mkdir srv &&
	make_bare_server_repo srv/origin.git &&
	make_bare_server_repo backup.git &&
	start_git_daemon "$PWD/srv" &&
	setup_article_repo r &&
	git -C r remote add origin "$DAEMON_URL/origin.git" &&
	git -C r remote add backup "$PWD/backup.git" &&
	git -C r push -q origin usb-next &&
	git -C r push -q backup usb-next &&
	git -C r fetch -q origin &&
	git -C r fetch -q backup &&
	cat >r/.git/maint.ini <<-EOF &&
	[tree "usb"]
		public = usb-next
		work = work-next
		remote = origin
		backup = backup
		url = $DAEMON_URL/origin.git
	EOF
	(cd r && smtp_config)
'

test_expect_success 'setup: three patches from two authors queued on work-next' '
	mails_for 2 "Lan Tianyu" tianyu.lan@intel.com endpoint quirks >lan.mbox &&
	mails_for 1 "Johan Hovold" johan@kernel.org serial >johan.mbox &&
	in_repo r git-maint-queue -q usb-next ../lan.mbox &&
	in_repo r git-maint-queue -q usb-next ../johan.mbox &&
	test "$(git -C r rev-list --count usb-next..work-next)" = 3
'

test_expect_success 'publish: pushed to both remotes, then each author mailed in the patch'"'"'s thread' '
	tip=$(git -C r rev-parse work-next) &&
	in_repo r git-maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse usb-next)" = "$tip" &&
	grep "^origin: usb-next " err &&
	grep "^backup: usb-next " err &&
	test "$(grep -c "^Sent [0-9a-f]* usb: " err)" = 3 &&
	test "$(smtp_count)" = 3 &&
	patch_ids lan.mbox johan.mbox >expect &&
	received In-Reply-To >actual &&
	test_cmp expect actual &&
	cat >expect <<-\EOF &&
	MAIL FROM:<committer@example.com>
	RCPT TO:<tianyu.lan@intel.com>
	RCPT TO:<linux-usb@vger.kernel.org>
	EOF
	test_cmp expect "$SMTP_SPOOL/0001.env" &&
	grep "^RCPT TO:<johan@kernel.org>\$" "$SMTP_SPOOL/0003.env" &&
	test "$(smtp_header 3 Subject)" = "Re: [PATCH] usb: serial" &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'the mails went over STARTTLS, after AUTH with the keyring'"'"'s password' '
	grep "^1 STARTTLS" "$SMTP_SPOOL/log" &&
	grep "^1 tls\$" "$SMTP_SPOOL/log" &&
	grep "^1 AUTH " "$SMTP_SPOOL/log" &&
	test "$(grep -c " connect\$" "$SMTP_SPOOL/log")" = 1 &&
	sed -n "/ STARTTLS\$/,\$p" "$SMTP_SPOOL/log" | grep " AUTH " &&
	! grep -r "$SMTP_PASSWORD" r/.git out err
'

test_expect_success 'the journal has one entry per commit' '
	git -C r rev-list usb-next~3..usb-next >commits &&
	while read c
	do
		git -C r notes --ref=maint-notify show $c >note &&
		grep -i "sent" note || return 1
	done <commits
'

test_expect_success 'publish again: nothing pushed, nothing mailed twice' '
	in_repo r git-maint-publish >out 2>err &&
	grep "up to date" out &&
	test "$(smtp_count)" = 3
'

test_expect_success 'notify run by hand after publish: nothing mailed twice' '
	in_repo r git-maint-notify --send --after-push origin --after-push backup usb-next~3..usb-next 2>err &&
	test "$(smtp_count)" = 3
'

test_expect_success 'kill -9 between the pushes and notify: both remotes have it, no mail yet' '
	mails_for 2 "Alan Stern" stern@rowland.harvard.edu hub hcd >alan.mbox &&
	in_repo r git-maint-queue -q usb-next ../alan.mbox &&
	tip=$(git -C r rev-parse work-next) &&
	test_expect_code 137 in_repo r env GIT_MAINT_TEST_CRASH_AT=publish-before-notify \
		git-maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$tip" &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	test "$(smtp_count)" = 3 &&
	grep "^notify 1\$" r/.git/maint/publish/state
'

test_expect_success '--continue: the two mails go out, once, the state is gone' '
	in_repo r git-maint-publish --continue >out 2>err &&
	test "$(smtp_count)" = 5 &&
	patch_ids lan.mbox johan.mbox alan.mbox >expect &&
	received In-Reply-To >actual &&
	test_cmp expect actual &&
	received Message-ID | sort | uniq -d >dups &&
	test_must_be_empty dups &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'kill -9 after notify sent, before publish recorded it: --continue mails nobody twice' '
	mails_for 1 "Uwe Kleine-König" u.kleine-koenig@pengutronix.de gadget >uwe.mbox &&
	in_repo r git-maint-queue -q usb-next ../uwe.mbox &&
	test_expect_code 137 in_repo r env GIT_MAINT_TEST_CRASH_AT=publish-after-notify \
		git-maint-publish >out 2>err &&
	test "$(smtp_count)" = 6 &&
	test_path_is_file r/.git/maint/publish/state &&
	in_repo r git-maint-publish --continue >out 2>err &&
	test "$(smtp_count)" = 6 &&
	test_path_is_missing r/.git/maint/publish &&
	test "$(smtp_header 6 To)" = "=?UTF-8?q?Uwe_Kleine-K=C3=B6nig?= <u.kleine-koenig@pengutronix.de>"
'

test_expect_success 'kill -9 inside notify, after the server took a mail, before the journal: only that mail again, same Message-ID' '
	mails_for 2 "Hayes Wang" hayeswang@realtek.com lpm phy >hayes.mbox &&
	in_repo r git-maint-queue -q usb-next ../hayes.mbox &&
	# notify dies, publish sees it killed: exit 128, the commits published
	test_expect_code 128 in_repo r env GIT_MAINT_TEST_CRASH_AT=notify-sent-1 \
		git-maint-publish >out 2>err &&
	grep "^fatal: git-maint-notify failed" err &&
	test "$(smtp_count)" = 7 &&
	in_repo r git-maint-publish --continue >out 2>err &&
	test "$(smtp_count)" = 9 &&
	received Message-ID | sort | uniq -d >dups &&
	test_line_count = 1 dups &&
	test "$(sed -n "s/^Message-ID: //p" "$SMTP_SPOOL/0007.eml" | tr -d "\r")" = "$(cat dups)" &&
	test "$(sed -n "s/^Message-ID: //p" "$SMTP_SPOOL/0008.eml" | tr -d "\r")" = "$(cat dups)"
'

test_expect_success 'kill -9 once the backup took the push, before its tracking ref moved: --continue finishes and notifies (53)' '
	mails_for 1 "Oliver Neukum" oneukum@suse.com acm >oliver.mbox &&
	in_repo r git-maint-queue -q usb-next ../oliver.mbox &&
	tip=$(git -C r rev-parse work-next) &&
	old=$(git -C r rev-parse refs/remotes/backup/usb-next) &&
	test_expect_code 137 in_repo r env GIT_MAINT_TEST_CRASH_AT=push-before-ref:backup \
		git-maint-publish >out 2>err &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/backup/usb-next)" = "$old" &&
	grep "^pushed origin\$" r/.git/maint/publish/state &&
	test "$(smtp_count)" = 9 &&
	in_repo r git-maint-publish --continue >out 2>err &&
	grep "^backup: usb-next up to date\$" err &&
	test "$(git -C r rev-parse refs/remotes/backup/usb-next)" = "$tip" &&
	git -C r reflog show -1 --format=%gs refs/remotes/backup/usb-next >reflog &&
	echo "update by push" >expect &&
	test_cmp expect reflog &&
	test "$(smtp_count)" = 10 &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'the backup pushed by hand (its tracking ref stale) after publish could not reach it: the next publish finishes, notifies (53)' '
	mails_for 1 "Mathias Nyman" mathias.nyman@linux.intel.com xhci >mathias.mbox &&
	in_repo r git-maint-queue -q usb-next ../mathias.mbox &&
	tip=$(git -C r rev-parse work-next) &&
	mv backup.git backup.moved &&
	test_expect_code 75 in_repo r git-maint-publish >out 2>err &&
	grep "^error: push to .backup.: unreachable" err &&
	test "$(smtp_count)" = 10 &&
	mv backup.moved backup.git &&
	git -C r push -q "$PWD/backup.git" usb-next &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	test "$(git -C r rev-parse refs/remotes/backup/usb-next)" != "$tip" &&
	in_repo r git-maint-publish >out 2>err &&
	grep "^Finishing the publish in progress first" err &&
	grep "^backup: usb-next up to date\$" err &&
	test "$(git -C r rev-parse refs/remotes/backup/usb-next)" = "$tip" &&
	test "$(smtp_count)" = 11 &&
	test_path_is_missing r/.git/maint/publish
'

test_expect_success 'a write-only backup (no fetch refspec, no tracking ref): notify trusts the push publish recorded' '
	git -C r config --unset remote.backup.fetch &&
	git -C r update-ref -d refs/remotes/backup/usb-next &&
	mails_for 1 "Peter Chen" peter.chen@nxp.com chipidea >peter.mbox &&
	in_repo r git-maint-queue -q usb-next ../peter.mbox &&
	tip=$(git -C r rev-parse work-next) &&
	in_repo r git-maint-publish >out 2>err &&
	test "$(remote_tip backup.git usb-next)" = "$tip" &&
	test_must_fail git -C r rev-parse -q --verify refs/remotes/backup/usb-next &&
	test "$(smtp_count)" = 12 &&
	test_path_is_missing r/.git/maint/publish &&
	# by hand, with no record and no tracking ref, notify cannot tell
	test_expect_code 128 in_repo r git-maint-notify --send --after-push backup usb-next~1..usb-next 2>err &&
	grep "no remote-tracking branches" err
'

test_expect_success 'a revert of an announced commit: publish announces it in that commit'"'"'s thread' '
	git -C r config --add remote.backup.fetch "+refs/heads/*:refs/remotes/backup/*" &&
	reverted=$(git -C r log --format=%H -1 --grep="^usb: serial\$" usb-next) &&
	git -C r notes --ref=maint-notify show $reverted >note &&
	notice=$(sed -n "s/^Message-ID: //p" note) &&
	test -n "$notice" &&
	# the maintainer reverts: the author of the revert is the committer
	GIT_AUTHOR_NAME="C O Mitter" GIT_AUTHOR_EMAIL=committer@example.com \
		git -C r revert --no-edit $reverted >/dev/null &&
	git -C r commit -q --amend -m "Revert \"usb: serial\"" -m "It breaks the console on resume." \
		-m "This reverts commit $reverted." &&
	count=$(smtp_count) &&
	in_repo r git-maint-publish >out 2>err &&
	test "$(smtp_count)" = $((count + 1)) &&
	n=$(smtp_count) &&
	test "$(smtp_header $n In-Reply-To)" = "$notice" &&
	test "$(smtp_header $n To)" = "Johan Hovold <johan@kernel.org>" &&
	tr -d "\r" <"$SMTP_SPOOL/$(printf %04d $n).eml" >mail &&
	grep "^> It breaks the console on resume.\$" mail &&
	git -C r notes --ref=maint-notify show usb-next >note &&
	grep "^Kind: revert $reverted\$" note
'

test_expect_success 'tree.<name>.notify-reverts = false: the revert is published, nobody is mailed' '
	reverted=$(git -C r log --format=%H -1 --grep="^usb: hub\$" usb-next) &&
	GIT_AUTHOR_NAME="C O Mitter" GIT_AUTHOR_EMAIL=committer@example.com \
		git -C r revert --no-edit $reverted >/dev/null &&
	printf "\tnotify-reverts = false\n" >>r/.git/maint.ini &&
	count=$(smtp_count) &&
	in_repo r git-maint-publish >out 2>err &&
	test "$(remote_tip srv/origin.git usb-next)" = "$(git -C r rev-parse work-next)" &&
	test "$(smtp_count)" = $count
'

test_done
