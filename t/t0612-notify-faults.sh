#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify --send when the server refuses, drops, stalls, or is not what it should be (reliability cases 26-28)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"

GIT_COMMITTER_DATE="1112354055 +0200"

cleanup stop_smtp_server

# fresh_repo <name> [<template>]: a copy of a template: ten commits by ten
# authors, each with a record; template-smtp (the default) is configured
# for the script's server (smtp_config), template is not
fresh_repo () {
	cp -R "${2:-template-smtp}" "$1"
}

# make_template: in one git fast-import, the objects and refs test_commit
# base, ten "git commit" by ten authors on work-next and a "git notes
# --ref=maint add" for each would make (the same ids: same dates, as
# test_tick gives them), then HEAD on work-next, checked out.
make_template () {
	git init -q template &&
	(
		cd template &&
		t=1112911993 &&
		me="$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>" &&
		committer="$GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL>" &&
		{
			printf "blob\nmark :1\ndata 5\nbase\n" &&
			printf "commit refs/heads/main\nmark :2\nauthor %s %d -0700\ncommitter %s %d -0700\ndata 5\nbase\nM 100644 :1 base.t\n" \
				"$me" $t "$committer" $t &&
			printf "reset refs/tags/base\nfrom :2\nreset refs/heads/usb-next\nfrom :2\n" &&
			for i in 1 2 3 4 5 6 7 8 9 10
			do
				t=$((t + 60)) &&
				msg="usb: patch $i" &&
				note=$(printf "Message-ID: <p%d@example.org>\nFrom: Author %d <author%d@example.org>\nSubject: [PATCH %d/10] usb: patch %d\nCc: list@example.org" \
					$i $i $i $i $i) &&
				printf "commit refs/heads/work-next\nmark :%d\nauthor Author %d <author%d@example.org> %d -0700\ncommitter %s %d -0700\ndata %d\n%s\n" \
					$((i + 2)) $i $i $t "$committer" $t $((${#msg} + 1)) "$msg" &&
				if test $i = 1
				then
					printf "from :2\n"
				fi &&
				printf "commit refs/notes/maint\nauthor %s %d -0700\ncommitter %s %d -0700\ndata 31\nNotes added by 'git notes add'\nN inline :%d\ndata %d\n%s\n" \
					"$me" $t "$committer" $t $((i + 2)) $((${#note} + 1)) "$note" || return 1
			done
		} | git fast-import --quiet &&
		git symbolic-ref HEAD refs/heads/work-next &&
		git reset -q --hard
	)
}

# journal_count <repo> <status>: how many notes say Status: <status>
# (one git grep through the notes' tree: a "<ref>:<note>:<count>" line
# for each note that says it, summed here; 0 when there are no notes)
journal_count () {
	jc_n=0
	for jc_line in $(git -C "$1" grep -c "^Status: $2\$" refs/notes/maint-notify 2>/dev/null)
	do
		jc_n=$((jc_n + ${jc_line##*:}))
	done
	echo $jc_n
}

# Reliability case 23: writes to the journal's log fail with EIO (lib-eio.sh).
. "$MAINT_TEST_DIR/lib-eio.sh"

# One server for the script: each test empties its spool and tells it how
# to misbehave (smtp_reset <opts>, t/lib-smtp.sh).
test_expect_success 'setup: keyring with the SMTP password, the server, a repository to copy' '
	make_template &&
	start_keyring &&
	keyring_store "$SMTP_PASSWORD" protocol smtp server 127.0.0.1 user "$SMTP_USER" &&
	keyring_store "$SMTP_PASSWORD" protocol smtp server localhost user "$SMTP_USER" &&
	start_smtp_server &&
	cp -R template template-smtp &&
	(cd template-smtp && smtp_config)
'

# Reliability case 26
test_expect_success '421 after 3 of 10: exit 75, 3 recorded, 7 left' '
	fresh_repo r421 &&
	smtp_reset --fail-after 3 &&
	(cd r421 && test_expect_code 75 git-maint-notify --send >../out 2>../err) &&
	test "$(smtp_count)" = 3 &&
	test "$(journal_count r421 sent)" = 3 &&
	grep "^error: [0-9a-f]*: not sent: 421 4.3.2 Service shutting down" err &&
	grep "^hint: 7 mails are waiting: run again later to send them$" err &&
	(cd r421 && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10 &&
	test "$(journal_count r421 sent)" = 10 &&
	smtp_message_ids >ids &&
	sort -u ids >unique &&
	test_line_count = 10 unique &&
	test_line_count = 10 ids
'

test_expect_success 'the connection dropped after 3 of 10: exit 75, a rerun sends exactly the other 7' '
	fresh_repo rdrop &&
	smtp_reset --drop-after 3 &&
	(cd rdrop && test_expect_code 75 git-maint-notify --send >../out 2>../err) &&
	test "$(smtp_count)" = 3 &&
	test "$(journal_count rdrop sent)" = 3 &&
	grep "^error: [0-9a-f]*: not sent: " err &&
	(cd rdrop && git-maint-notify --send -q) &&
	smtp_message_ids >ids &&
	sort -u ids >unique &&
	test_line_count = 10 unique &&
	test_line_count = 10 ids
'

test_expect_success 'a server that stops answering: timeout, exit 75, the rest waits' '
	fresh_repo rstall &&
	smtp_reset --stall-after 3 &&
	(
		cd rstall &&
		printf "[smtp]\n\ttimeout = 1\n" >.git/maint.ini &&
		test_expect_code 75 git-maint-notify --send >../out 2>../err
	) &&
	test "$(smtp_count)" = 3 &&
	test "$(journal_count rstall sent)" = 3 &&
	grep "^error: [0-9a-f]*: not sent: .*[Tt]ime" err
'

test_expect_success 'a crash between the 250 and the journal: the rerun sends that one mail again, same Message-ID' '
	fresh_repo rcrash &&
	smtp_reset &&
	(
		cd rcrash &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=notify-sent-3 git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = 3 &&
	(cd rcrash && git-maint-notify) >dry &&
	grep "^Message-ID: " dry >journal-knows &&
	test_line_count = 8 journal-knows &&
	(cd rcrash && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 11 &&
	test "$(journal_count rcrash sent)" = 10 &&
	smtp_message_ids >ids &&
	sort -u ids >unique &&
	test_line_count = 10 unique &&
	sort ids | uniq -d >dup &&
	sed -n 3p ids >expect &&
	test_cmp expect dup
'

test_expect_success 'after that crash the two before it were in the log, and the rerun folded them into the notes' '
	test_must_be_empty rcrash/.git/maint/notify-journal &&
	git -C rcrash log --format=%s refs/notes/maint-notify >folds &&
	cat >expect <<-\EOF &&
	maint-notify: 8 sent, 0 failed
	maint-notify: 2 sent, 0 failed
	EOF
	test_cmp expect folds
'

test_expect_success 'a record cut short in the log (a crash while writing it): a warning, and its mail goes again' '
	fresh_repo rtorn &&
	smtp_reset &&
	(
		cd rtorn &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=notify-sent-3 git-maint-notify --send -q
	) &&
	log=rtorn/.git/maint/notify-journal &&
	size=$(wc -c <$log) &&
	head -c $((size - 5)) $log >cut &&
	cp cut $log &&
	(cd rtorn && git-maint-notify --send -q 2>../err) &&
	echo "warning: the notify journal '"'"'$PWD/rtorn/.git/maint/notify-journal'"'"' ends with a damaged record (cut short by a crash?); its mail may be sent again" >expect &&
	grep "notify journal" err >actual &&
	test_cmp expect actual &&
	test "$(smtp_count)" = 12 &&
	smtp_message_ids | sort | uniq -d >dup &&
	smtp_message_ids | sed -n "2p;3p" | sort >expect &&
	test_cmp expect dup &&
	test "$(journal_count rtorn sent)" = 10
'

test_expect_success 'a crash after a fold moved the notes, before the log was emptied: the next run folds nothing twice, sends nothing' '
	fresh_repo rfold &&
	smtp_reset &&
	(
		cd rfold &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=notify-journal-folded git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = 10 &&
	test -s rfold/.git/maint/notify-journal &&
	test "$(journal_count rfold sent)" = 10 &&
	(cd rfold && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10 &&
	test_must_be_empty rfold/.git/maint/notify-journal &&
	git -C rfold rev-list --count refs/notes/maint-notify >commits &&
	echo 1 >expect &&
	test_cmp expect commits
'

test_expect_success 'a crash once the third record is on the disk, before anything else: the rerun sends the other 7, no duplicate' '
	fresh_repo rappend &&
	smtp_reset &&
	(
		cd rappend &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=notify-journal-appended-3 git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = 3 &&
	test_must_fail git -C rappend rev-parse -q --verify refs/notes/maint-notify &&
	(cd rappend && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10 &&
	smtp_message_ids | sort | uniq -d >dup &&
	test_must_be_empty dup &&
	test "$(journal_count rappend sent)" = 10 &&
	test_must_be_empty rappend/.git/maint/notify-journal
'

test_expect_success 'a crash in a fold once its pack is on the disk, before the notes ref moved: the rerun folds again, sends nothing' '
	fresh_repo rpack &&
	smtp_reset &&
	(
		cd rpack &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=notify-journal-packed git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = 10 &&
	test_must_fail git -C rpack rev-parse -q --verify refs/notes/maint-notify &&
	(cd rpack && git-maint-notify) >dry &&
	test_must_be_empty dry &&
	(cd rpack && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10 &&
	test "$(journal_count rpack sent)" = 10 &&
	git -C rpack log --format=%s refs/notes/maint-notify >folds &&
	echo "maint-notify: 10 sent, 0 failed" >expect &&
	test_cmp expect folds &&
	test_must_be_empty rpack/.git/maint/notify-journal &&
	git -C rpack fsck --no-progress
'

test_expect_success 'the fold is a guarded ref step: killed just before it moves the notes ref, the rerun folds again, sends nothing' '
	fresh_repo rstep &&
	smtp_reset &&
	(
		cd rstep &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=notify-journal-before-ref git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = 10 &&
	test_must_fail git -C rstep rev-parse -q --verify refs/notes/maint-notify &&
	test -s rstep/.git/maint/notify-journal &&
	(cd rstep && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10 &&
	test "$(journal_count rstep sent)" = 10 &&
	test_must_be_empty rstep/.git/maint/notify-journal &&
	git -C rstep log -g --format=%gs refs/notes/maint-notify >reflog &&
	echo "maint-notify: 10 notes" >expect &&
	test_cmp expect reflog
'

test_expect_success 'folds during the run (every 3), a crash at the 8th 250: the notes hold 6, the log 1, the rerun resends only the 8th' '
	fresh_repo rbatch &&
	smtp_reset &&
	(
		cd rbatch &&
		test_expect_code 137 env GIT_MAINT_TEST_JOURNAL_FOLD_EVERY=3 \
			GIT_MAINT_TEST_CRASH_AT=notify-sent-8 git maint-notify --send -q
	) &&
	test "$(smtp_count)" = 8 &&
	git -C rbatch log --format=%s refs/notes/maint-notify >folds &&
	printf "maint-notify: 3 sent, 0 failed\nmaint-notify: 3 sent, 0 failed\n" >expect &&
	test_cmp expect folds &&
	test "$(journal_count rbatch sent)" = 6 &&
	(cd rbatch && git-maint-notify) >dry &&
	grep "^Message-ID: " dry >journal-lacks &&
	test_line_count = 3 journal-lacks &&
	(cd rbatch && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 11 &&
	smtp_message_ids >ids &&
	sort ids | uniq -d >dup &&
	sed -n 8p ids >expect &&
	test_cmp expect dup &&
	test "$(journal_count rbatch sent)" = 10 &&
	git -C rbatch log --format=%s refs/notes/maint-notify >folds &&
	printf "maint-notify: 3 sent, 0 failed\nmaint-notify: 1 sent, 0 failed\nmaint-notify: 3 sent, 0 failed\nmaint-notify: 3 sent, 0 failed\n" >expect &&
	test_cmp expect folds
'

test_expect_success 'a crash after a fold during the run, before the log was emptied: the rerun sends the other 7, no duplicate' '
	fresh_repo rmidfold &&
	smtp_reset &&
	(
		cd rmidfold &&
		test_expect_code 137 env GIT_MAINT_TEST_JOURNAL_FOLD_EVERY=3 \
			GIT_MAINT_TEST_CRASH_AT=notify-journal-folded git maint-notify --send -q
	) &&
	test "$(smtp_count)" = 3 &&
	test -s rmidfold/.git/maint/notify-journal &&
	(cd rmidfold && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10 &&
	smtp_message_ids | sort | uniq -d >dup &&
	test_must_be_empty dup &&
	git -C rmidfold log --format=%s refs/notes/maint-notify >folds &&
	printf "maint-notify: 7 sent, 0 failed\nmaint-notify: 3 sent, 0 failed\n" >expect &&
	test_cmp expect folds
'

test_expect_success 'with PIPELINING the next mail'"'"'s commands go before the answer to the data before it' '
	fresh_repo rflight &&
	smtp_reset &&
	(cd rflight && git-maint-notify --send -v >../out 2>../err) &&
	test "$(smtp_count)" = 10 &&
	sed -n -e "s/^smtp: > MAIL FROM:.*/MAIL/p" -e "s/^smtp: < 250 2.0.0 Ok: queued .*/queued/p" \
		-e "s/^Sent .*/Sent/p" err >actual &&
	{
		echo MAIL &&
		for i in 2 3 4 5 6 7 8 9 10
		do
			printf "MAIL\nqueued\nSent\n" || return 1
		done &&
		printf "queued\nSent\n"
	} >expect &&
	test_cmp expect actual
'

test_expect_success 'without PIPELINING each mail is answered before the next one starts' '
	fresh_repo rnoflight &&
	smtp_reset --no-pipelining &&
	(cd rnoflight && git-maint-notify --send -v >../out 2>../err) &&
	test "$(smtp_count)" = 10 &&
	sed -n -e "s/^smtp: > MAIL FROM:.*/MAIL/p" -e "s/^smtp: < 250 2.0.0 Ok: queued .*/queued/p" \
		-e "s/^Sent .*/Sent/p" err | paste -d" " - - - | uniq -c >triples &&
	echo "     10 MAIL queued Sent" >expect &&
	test_cmp expect triples
'

test_expect_success EIO 'the journal cannot record the first mail (EIO): the second is not sent, exit 128; the rerun resends only the first' '
	fresh_repo reio &&
	smtp_reset &&
	(
		cd reio &&
		test_expect_code 128 eio notify-journal git maint-notify --send -q >../out 2>../err
	) &&
	test "$(smtp_count)" = 1 &&
	echo "fatal: cannot write the notify journal '"'"'$PWD/reio/.git/maint/notify-journal'"'"': Input/output error" >expect &&
	test_cmp expect err &&
	test_must_fail git -C reio rev-parse -q --verify refs/notes/maint-notify &&
	(cd reio && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 11 &&
	smtp_message_ids >ids &&
	sort ids | uniq -d >dup &&
	sed -n 1p ids >expect &&
	test_cmp expect dup &&
	test "$(journal_count reio sent)" = 10
'

# Reliability case 27
test_expect_success '550 for one recipient: that mail refused and recorded, the others go, exit 1' '
	fresh_repo r550 &&
	smtp_reset --reject author4@example.org &&
	(cd r550 && test_expect_code 1 git-maint-notify --send -q >../out 2>../err) &&
	test "$(smtp_count)" = 9 &&
	c=$(git -C r550 rev-parse --short=12 work-next~6) &&
	echo "error: $c: the server refused the mail: 550 5.1.1 <author4@example.org>: Recipient address rejected: User unknown" >expect &&
	grep -v "^hint: " err >actual &&
	test_cmp expect actual &&
	grep "^hint: once the cause is fixed, .git maint-notify --send --retry-refused. sends the refused mails again$" err &&
	git -C r550 notes --ref=maint-notify show work-next~6 >note &&
	grep "^Status: failed$" note &&
	grep "^Reply: 550 5.1.1 <author4@example.org>" note &&
	test "$(journal_count r550 sent)" = 9
'

test_expect_success '... and is not retried: the rerun sends nothing and exits 0' '
	(cd r550 && git-maint-notify --send -q >../out 2>../err) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 9
'

test_expect_success '... the server took DATA for the other recipient: notify hung up before the message, the rest went on a new connection' '
	cut -d" " -f2- "$SMTP_SPOOL/log" | grep -c "^connect$" >n &&
	echo 2 >expect &&
	test_cmp expect n &&
	grep -A2 "^1 RCPT TO:<author4@example.org>$" "$SMTP_SPOOL/log" >actual &&
	cat >expect <<-\EOF &&
	1 RCPT TO:<author4@example.org>
	1 RCPT TO:<list@example.org>
	1 DATA
	EOF
	test_cmp expect actual
'

test_expect_success 'a server without PIPELINING: one command at a time, the refused recipient ends its mail (RSET), one connection' '
	fresh_repo rnopipe &&
	smtp_reset --no-pipelining --reject author4@example.org &&
	(cd rnopipe && test_expect_code 1 git-maint-notify --send -q >../out 2>../err) &&
	test "$(smtp_count)" = 9 &&
	grep "^error: [0-9a-f]*: the server refused the mail: 550 5.1.1 <author4@example.org>" err &&
	test "$(journal_count rnopipe sent)" = 9 &&
	cut -d" " -f2- "$SMTP_SPOOL/log" | grep -c "^connect$" >n &&
	echo 1 >expect &&
	test_cmp expect n &&
	grep -A1 "^1 RCPT TO:<author4@example.org>$" "$SMTP_SPOOL/log" >actual &&
	printf "1 RCPT TO:<author4@example.org>\n1 RSET\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'PIPELINING offered only before STARTTLS: not used after it (one command at a time, RSET)' '
	fresh_repo rpipetls &&
	smtp_reset --pipelining-before-tls --reject author4@example.org &&
	(cd rpipetls && test_expect_code 1 git-maint-notify --send -q >../out 2>../err) &&
	test "$(smtp_count)" = 9 &&
	grep -A1 "^1 RCPT TO:<author4@example.org>$" "$SMTP_SPOOL/log" >actual &&
	printf "1 RCPT TO:<author4@example.org>\n1 RSET\n" >expect &&
	test_cmp expect actual
'

for pipe in "" --no-pipelining
do
	test_expect_success "the server refuses one mail after its data (554)${pipe:+, $pipe}: that mail recorded failed, the others go on the same connection, exit 1" '
		fresh_repo rrefuse &&
		test_when_finished "rm -rf rrefuse" &&
		smtp_reset --refuse-after 3 $pipe &&
		(cd rrefuse && test_expect_code 1 git-maint-notify --send -q >../out 2>../err) &&
		test "$(smtp_count)" = 9 &&
		c=$(git -C rrefuse rev-parse --short=12 work-next~6) &&
		echo "error: $c: the server refused the mail: 554 5.7.1 Message refused: content rejected" >expect &&
		grep -v "^hint: " err >actual &&
		test_cmp expect actual &&
		git -C rrefuse notes --ref=maint-notify show work-next~6 >note &&
		grep "^Status: failed$" note &&
		grep "^Reply: 554 5.7.1 Message refused" note &&
		test "$(journal_count rrefuse sent)" = 9 &&
		smtp_header 4 To >actual &&
		echo "Author 5 <author5@example.org>" >expect &&
		test_cmp expect actual &&
		cut -d" " -f2- "$SMTP_SPOOL/log" | grep -c "^connect$" >n &&
		echo 1 >expect &&
		test_cmp expect n &&
		(cd rrefuse && git-maint-notify --send -q) &&
		test "$(smtp_count)" = 9
	'
done

# the issue: 554 from the third mail on left 8 refused for good
test_expect_success 'the server refuses every mail from the third on (554): 8 recorded refused, exit 1; a plain rerun sends none' '
	fresh_repo rretry &&
	smtp_reset --refuse-from 2 &&
	(cd rretry && test_expect_code 1 git-maint-notify --send -q >../out 2>../err) &&
	test "$(smtp_count)" = 2 &&
	test "$(journal_count rretry sent)" = 2 &&
	test "$(journal_count rretry failed)" = 8 &&
	grep -c "^error: [0-9a-f]*: the server refused the mail: 554 " err >n &&
	echo 8 >expect &&
	test_cmp expect n &&
	grep "^hint: .*--retry-refused" err &&
	smtp_reset &&
	(cd rretry && git-maint-notify --send -q >../out 2>../err) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 0
'

test_expect_success '--retry-refused with a range: the refused among its commits, once; the others stay refused' '
	smtp_reset &&
	(cd rretry && git-maint-notify --send -q --retry-refused work-next~3..work-next) &&
	test "$(smtp_count)" = 3 &&
	for i in 1 2 3
	do
		smtp_header $i To || return 1
	done >actual &&
	printf "Author %d <author%d@example.org>\n" 8 8 9 9 10 10 >expect &&
	test_cmp expect actual &&
	test "$(journal_count rretry sent)" = 5 &&
	test "$(journal_count rretry failed)" = 5
'

test_expect_success '--retry-refused alone: exactly the refused ones left, oldest first, same Message-IDs; then nothing' '
	git -C rretry notes --ref=maint-notify show work-next~3 >note &&
	grep "^Message-ID: " note >expect-id &&
	smtp_reset &&
	(cd rretry && git-maint-notify --send -q --retry-refused) &&
	test "$(smtp_count)" = 5 &&
	for i in 1 2 3 4 5
	do
		smtp_header $i To || return 1
	done >actual &&
	printf "Author %d <author%d@example.org>\n" 3 3 4 4 5 5 6 6 7 7 >expect &&
	test_cmp expect actual &&
	smtp_header 5 Message-ID >actual-id &&
	sed "s/^Message-ID: //" expect-id >expect &&
	test_cmp expect actual-id &&
	test "$(journal_count rretry sent)" = 10 &&
	test "$(journal_count rretry failed)" = 0 &&
	git -C rretry log --format=%H refs/notes/maint-notify >notes-commits &&
	test_line_count -gt 1 notes-commits &&
	(cd rretry && git-maint-notify --send --retry-refused >../out 2>../err) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 5
'

test_expect_success '451 for one recipient: that mail waits (exit 75), the others go; the rerun sends it' '
	fresh_repo r451 &&
	smtp_reset --defer author2@example.org &&
	(cd r451 && test_expect_code 75 git-maint-notify --send -q >../out 2>../err) &&
	test "$(smtp_count)" = 9 &&
	grep "^error: [0-9a-f]*: the server deferred the mail: 451 4.7.1 <author2@example.org>" err &&
	test_must_fail git -C r451 notes --ref=maint-notify show work-next~8 &&
	(cd r451 && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10 &&
	smtp_header 10 To >actual &&
	echo "Author 2 <author2@example.org>" >expect &&
	test_cmp expect actual
'

# Reliability case 28
test_expect_success 'a server without STARTTLS: refused before AUTH, exit 128, nothing sent or recorded' '
	fresh_repo rnotls &&
	smtp_reset --no-starttls &&
	(cd rnotls && test_expect_code 128 git-maint-notify --send >../out 2>../err) &&
	echo "fatal: cannot send through smtp://127.0.0.1:$SMTP_PORT: the server does not offer STARTTLS" >expect &&
	test_cmp expect err &&
	! grep -e " AUTH" -e " MAIL" "$SMTP_SPOOL/log" &&
	test "$(smtp_count)" = 0 &&
	test_must_fail git -C rnotls rev-parse -q --verify refs/notes/maint-notify
'

test_expect_success 'a reply injected after the 220 to STARTTLS, before the handshake: refused, exit 128, no AUTH, nothing sent' '
	fresh_repo rinject &&
	smtp_reset --inject-starttls &&
	(cd rinject && test_expect_code 128 git-maint-notify --send >../out 2>../err) &&
	test_line_count = 1 err &&
	grep "^fatal: cannot send through smtp://127.0.0.1:$SMTP_PORT: " err &&
	! grep -e " AUTH" -e " MAIL" "$SMTP_SPOOL/log" &&
	test "$(smtp_count)" = 0 &&
	test_must_fail git -C rinject rev-parse -q --verify refs/notes/maint-notify
'

test_expect_success 'a self-signed certificate: refused, exit 128, no AUTH' '
	fresh_repo rself &&
	smtp_reset --cert "$SMTP_TLS/self.crt" --key "$SMTP_TLS/self.key" &&
	(cd rself && test_expect_code 128 git-maint-notify --send >../out 2>../err) &&
	test_line_count = 1 err &&
	grep "^fatal: cannot send through smtp://127.0.0.1:$SMTP_PORT: .*certificate" err &&
	! grep " AUTH" "$SMTP_SPOOL/log" &&
	test "$(smtp_count)" = 0
'

test_expect_success 'a certificate for another name: refused, exit 128, no AUTH' '
	fresh_repo rwrong &&
	smtp_reset --cert "$SMTP_TLS/wrong.crt" --key "$SMTP_TLS/wrong.key" &&
	(cd rwrong && test_expect_code 128 git-maint-notify --send >../out 2>../err) &&
	test_line_count = 1 err &&
	grep "^fatal: cannot send through smtp://127.0.0.1:$SMTP_PORT: .*127.0.0.1" err &&
	! grep " AUTH" "$SMTP_SPOOL/log" &&
	test "$(smtp_count)" = 0
'

test_expect_success 'the name the certificate holds: localhost works' '
	fresh_repo rlocal &&
	smtp_reset &&
	(cd rlocal && git config sendemail.smtpServer localhost && git-maint-notify --send -q) &&
	test "$(smtp_count)" = 10
'

test_expect_success 'TLS from the first byte (smtpEncryption ssl) to a STARTTLS server fails cleanly' '
	fresh_repo rssl &&
	smtp_reset &&
	(cd rssl && git config sendemail.smtpEncryption ssl &&
	 printf "[smtp]\n\ttimeout = 2\n" >.git/maint.ini &&
	 test_expect_code 128 git-maint-notify --send >../out 2>../err) &&
	test_line_count = 1 err &&
	grep "^fatal: cannot send through smtps://127.0.0.1:$SMTP_PORT: " err &&
	test "$(smtp_count)" = 0
'

test_expect_success 'plain SMTP to a host that is not loopback: refused before connecting, exit 128' '
	fresh_repo rplain template &&
	(
		cd rplain &&
		git config sendemail.smtpServer mail.example.com &&
		git config sendemail.smtpEncryption none &&
		test_expect_code 128 git-maint-notify --send >../out 2>../err
	) &&
	echo "fatal: refusing SMTP without TLS to '"'"'mail.example.com'"'"': only a loopback server may be used without encryption" >expect &&
	test_cmp expect err
'

test_expect_success 'plain SMTP to a loopback server, when configured so, works' '
	smtp_reset --plain &&
	(
		cd rplain &&
		git config sendemail.smtpServer 127.0.0.1 &&
		git config sendemail.smtpServerPort $SMTP_PORT &&
		git-maint-notify --send -q
	) &&
	test "$(smtp_count)" = 10 &&
	! grep -e STARTTLS -e AUTH "$SMTP_SPOOL/log"
'

test_expect_success 'an empty smtpSSLCertPath (send-email: do not verify) is an error, nothing sent' '
	fresh_repo rnoverify template &&
	(
		cd rnoverify &&
		git config sendemail.smtpServer 127.0.0.1 &&
		git config sendemail.smtpSSLCertPath "" &&
		test_expect_code 128 git-maint-notify --send >../out 2>../err
	) &&
	grep "^fatal: sendemail.smtpSSLCertPath is empty" err
'

test_expect_success 'a wrong password: exit 128 naming AUTH, nothing sent, nothing recorded' '
	fresh_repo rauth &&
	smtp_reset &&
	(
		cd rauth &&
		git config sendemail.smtpUser other@example.org &&
		keyring_store wrong-password protocol smtp server 127.0.0.1 user other@example.org &&
		test_expect_code 128 git-maint-notify --send >../out 2>../err
	) &&
	test_line_count = 1 err &&
	grep "^fatal: cannot send through smtp://127.0.0.1:$SMTP_PORT: .*535" err &&
	test "$(smtp_count)" = 0 &&
	test_must_fail git -C rauth rev-parse -q --verify refs/notes/maint-notify
'

test_expect_success 'no server listening: exit 75, nothing recorded' '
	fresh_repo rdown &&
	(
		cd rdown &&
		git config sendemail.smtpServerPort $SMTP_CLOSED_PORT &&
		test_expect_code 75 git-maint-notify --send >../out 2>../err
	) &&
	grep "^error: [0-9a-f]*: not sent: .*[Cc]onnect" err &&
	test_must_fail git -C rdown rev-parse -q --verify refs/notes/maint-notify
'

test_expect_success 'another notify running in the repository: exit 75, nothing sent' '
	fresh_repo rlock &&
	smtp_reset &&
	(
		cd rlock &&
		test_expect_code 75 flock .git/maint-notify.lock -c "git maint-notify --send" >../out 2>../err
	) &&
	grep "^error: another git-maint operation holds .*maint-notify.lock" err &&
	test "$(smtp_count)" = 0
'

test_expect_success 'the repository lock (held by publish) does not stop notify' '
	(
		cd rlock &&
		flock .git/git-maint.lock -c "git maint-notify --send -q"
	) &&
	test "$(smtp_count)" = 10
'

test_done
