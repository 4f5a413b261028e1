#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify --send when the server refuses or defers some recipients: 550 for one Cc, 452 after N, 451 (reliability case 52)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-notify.sh"

GIT_COMMITTER_DATE="1112354055 +0200"

cleanup stop_smtp_server

# Three patches by three authors; each record copies the list and cc1..cc5:
# a thank-you goes to 7 (the author, the list, five Cc).
record () {
	printf "Message-ID: <p%d@example.org>\nFrom: Author %d <author%d@example.org>\n" $1 $1 $1 &&
	printf "Subject: [PATCH %d/3] usb: patch %d\nCc: list@example.org\n" $1 $1 &&
	printf "Cc: cc%d@example.org\n" 1 2 3 4 5
}

test_expect_success 'setup: the server, three patches with records Cc-ing six' '
	start_smtp_server &&
	notify_commits template 3 record &&
	(
		cd template &&
		smtp_config &&
		git config sendemail.smtpPass "$SMTP_PASSWORD"
	)
'

# journal_status <repo> <rev>: the Status line of its journal note (cut
# out by the shell)
journal_status () {
	js_note=$(git -C "$1" notes --ref=maint-notify show "$2") &&
	case $js_note in
	*"${LF}Status: "*|"Status: "*)
		js_note=${js_note#*Status: } &&
		echo "${js_note%%"$LF"*}" ;;
	esac
}

# pairs: "<Message-ID> <recipient>" for every recipient of every message accepted, sorted
# (one awk: each message's header, then its envelope)
pairs () {
	set -- &&
	for env in "$SMTP_SPOOL"/*.env
	do
		set -- "$@" "${env%.env}.eml" "$env"
	done &&
	awk '
	FILENAME != cur {	# (an empty file has no line: no FNR == 1)
		if (cur ~ /\.env$/ || FILENAME ~ /\.eml$/)
			id = ""
		head = 1
		cur = FILENAME
	}
	FILENAME ~ /\.eml$/ {
		gsub(/\r/, "")
		if ($0 == "")
			head = 0
		else if (head && sub(/^Message-ID: /, ""))
			id = $0
		next
	}
	/^RCPT TO:<.*>$/ { print id " " substr($0, 10, length($0) - 10) }' "$@" | sort
}

# expect_pairs <first> <last>: what pairs gives when patches first..last
# went to all seven (the notes' Message-IDs: one git log prints the
# journal notes of patches last..first, newest first, each after a line
# "commit")
expect_pairs () {
	git -C r log -n $(($2 - $1 + 1)) --notes=maint-notify --format="commit%n%N" \
		"work-next~$((3 - $2))" |
	awk -v i=$(($2 + 1)) '
		$0 == "commit" { i--; next }
		sub(/^Message-ID: /, "") {
			print $0 " author" i "@example.org"
			print $0 " list@example.org"
			for (c = 1; c <= 5; c++)
				print $0 " cc" c "@example.org"
		}' | sort
}

for pipe in "" --no-pipelining
do
	test_expect_success "550 for one Cc${pipe:+ ($pipe)}: the mail goes to the others, one warning naming the address and the reply, exit 0" '
		rm -rf r && cp -R template r &&
		smtp_reset --reject cc3@example.org $pipe &&
		(cd r && git-maint-notify --send -q >../out 2>../err) &&
		test_must_be_empty out &&
		for i in 2 1 0
		do
			c=$(git -C r rev-parse --short=12 work-next~$i) &&
			echo "warning: $c: not sent to '"'"'cc3@example.org'"'"': 550 5.1.1 <cc3@example.org>: Recipient address rejected: User unknown" || return 1
		done >expect &&
		test_cmp expect err &&
		test "$(smtp_count)" = 3 &&
		expect_pairs 1 3 | grep -v " cc3@" >expect &&
		pairs >actual &&
		test_cmp expect actual &&
		cut -d" " -f2- "$SMTP_SPOOL/log" | grep -c "^connect$" >n &&
		echo 1 >expect &&
		test_cmp expect n
	'

	test_expect_success "... recorded sent, the refused Cc named in the journal; a rerun sends nothing${pipe:+ ($pipe)}" '
		git -C r notes --ref=maint-notify show work-next~1 >note &&
		grep "^Status: sent$" note &&
		echo "Refused: cc3@example.org 550 5.1.1 <cc3@example.org>: Recipient address rejected: User unknown" >expect &&
		grep "^Refused: " note >actual &&
		test_cmp expect actual &&
		(cd r && git-maint-notify --send -q >../out 2>../err) &&
		test_must_be_empty err &&
		test "$(smtp_count)" = 3
	'
done

test_expect_success 'the author refused (550), the Cc accepted: that mail is refused, goes to no one, exit 1; the others go' '
	rm -rf r && cp -R template r &&
	smtp_reset --reject author2@example.org &&
	(cd r && test_expect_code 1 git-maint-notify --send -q >../out 2>../err) &&
	c=$(git -C r rev-parse --short=12 work-next~1) &&
	echo "error: $c: the server refused the mail: 550 5.1.1 <author2@example.org>: Recipient address rejected: User unknown" >expect &&
	grep -v "^hint: " err >actual &&
	test_cmp expect actual &&
	test "$(journal_status r work-next~1)" = failed &&
	{ expect_pairs 1 1 && expect_pairs 3 3; } | sort >expect &&
	pairs >actual &&
	test_cmp expect actual
'

for pipe in "" --no-pipelining
do
	test_expect_success "452 after 3 recipients${pipe:+ ($pipe)}: each mail in three transactions (3, 3, 1), everyone once, exit 0" '
		rm -rf r && cp -R template r &&
		smtp_reset --rcpt-max 3 $pipe &&
		(cd r && git-maint-notify --send >../out 2>../err) &&
		test_must_be_empty out &&
		grep -c "^Sent " err >n &&
		echo 3 >expect &&
		test_cmp expect n &&
		! grep -v "^Sent " err &&
		test "$(smtp_count)" = 9 &&
		expect_pairs 1 3 >expect &&
		pairs >actual &&
		test_cmp expect actual &&
		for i in 0 1 2
		do
			test "$(journal_status r work-next~$i)" = sent || return 1
		done &&
		! git -C r notes --ref=maint-notify show work-next | grep -e "^Pending:" -e "^Refused:" &&
		cut -d" " -f2- "$SMTP_SPOOL/log" | grep -c "^connect$" >n &&
		echo 1 >expect &&
		test_cmp expect n &&
		(cd r && git-maint-notify --send -q) &&
		test "$(smtp_count)" = 9
	'
done

for point in 1 2
do
	test_expect_success "killed (-9) after transaction $point of 3 of one mail was recorded: the rerun sends it to the rest only, no one twice" '
		rm -rf r && cp -R template r &&
		smtp_reset --rcpt-max 3 &&
		(
			cd r &&
			test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=notify-journal-appended-$point \
				git-maint-notify --send -q
		) &&
		test "$(smtp_count)" = $point &&
		(cd r && GIT_COMMITTER_DATE="1112355055 +0200" git maint-notify --send -q >../out 2>../err) &&
		sed "/^warning: taking over .*maint-notify.lock.: the git-maint process that held it (pid [0-9]*) is gone$/d" err >actual &&
		test_must_be_empty actual &&
		test "$(smtp_count)" = 9 &&
		expect_pairs 1 3 >expect &&
		pairs >actual &&
		test_cmp expect actual &&
		test "$(journal_status r work-next~2)" = sent &&
		for n in 1 2 3
		do
			smtp_header $n Date || return 1
		done | sort -u >dates &&
		echo "Fri, 1 Apr 2005 13:14:15 +0200" >expect &&
		test_cmp expect dates &&
		smtp_header 4 Date >actual &&
		echo "Fri, 1 Apr 2005 13:30:55 +0200" >expect &&
		test_cmp expect actual
	'
done

test_expect_success 'a server that takes one recipient a transaction: 20 transactions at most, the rest left out with a warning each, exit 0' '
	rm -rf r && cp -R template r &&
	git -C r config maint.notify.cc "$(printf "x%d@example.org, " $(test_seq 16))" &&
	smtp_reset --rcpt-max 1 &&
	(cd r && git-maint-notify --send -q work-next~1..work-next >../out 2>../err) &&
	test "$(smtp_count)" = 20 &&
	c=$(git -C r rev-parse --short=12 work-next) &&
	for a in x14 x15 x16
	do
		echo "warning: $c: not sent to '"'"'$a@example.org'"'"': 452 4.5.3 Too many recipients" || return 1
	done >expect &&
	test_cmp expect err &&
	pairs | cut -d" " -f2 | sort -u >got &&
	test_line_count = 20 got &&
	git -C r notes --ref=maint-notify show work-next >note &&
	grep "^Status: sent$" note &&
	grep -c "^Refused: x1[456]@example.org 452 " note >n &&
	echo 3 >expect &&
	test_cmp expect n
'

test_expect_success '451 for one Cc: the mail goes without it, reported, not retried (exit 0)' '
	rm -rf r && cp -R template r &&
	smtp_reset --defer cc2@example.org &&
	(cd r && git-maint-notify --send -q >../out 2>../err) &&
	c=$(git -C r rev-parse --short=12 work-next~2) &&
	echo "warning: $c: not sent to '"'"'cc2@example.org'"'"': 451 4.7.1 <cc2@example.org>: Recipient address deferred: try again later" >expect &&
	test_cmp expect err &&
	test "$(smtp_count)" = 3 &&
	git -C r notes --ref=maint-notify show work-next~2 >note &&
	grep "^Refused: cc2@example.org 451 " note &&
	id=$(sed -n "s/^Message-ID: //p" note) &&
	expect_pairs 1 3 | grep -v "^$id cc2@example.org$" >expect &&
	pairs >actual &&
	test_cmp expect actual &&
	(cd r && git-maint-notify --send -q >../out 2>../err) &&
	test_must_be_empty err &&
	test "$(smtp_count)" = 3
'

test_expect_success 'a server that defers every recipient (451): every mail waits, exit 75, nothing recorded; once it takes them, each goes once' '
	rm -rf r && cp -R template r &&
	smtp_reset --defer-all &&
	(cd r && test_expect_code 75 git-maint-notify --send -q >../out 2>../err) &&
	grep -c "^error: [0-9a-f]*: the server deferred the mail: 451 4.3.0 <author[123]@example.org>" err >n &&
	echo 3 >expect &&
	test_cmp expect n &&
	grep "^hint: 3 mails are waiting: run again later to send them$" err &&
	test_must_fail git -C r rev-parse -q --verify refs/notes/maint-notify &&
	test_must_fail smtp_count &&
	smtp_reset &&
	(cd r && git-maint-notify --send -q) &&
	expect_pairs 1 3 >expect &&
	pairs >actual &&
	test_cmp expect actual
'

test_expect_success 'a server that takes no recipient at all (452 from the first): the mail waits, exit 75' '
	rm -rf r && cp -R template r &&
	smtp_reset --rcpt-max 0 &&
	(cd r && test_expect_code 75 git-maint-notify --send -q work-next~1..work-next >../out 2>../err) &&
	c=$(git -C r rev-parse --short=12 work-next) &&
	echo "error: $c: the server deferred the mail: 452 4.5.3 Too many recipients" >expect &&
	grep -v "^hint: " err >actual &&
	test_cmp expect actual &&
	test_must_fail smtp_count
'

test_done
