#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='git maint-notify without --send: the mails as an mbox, threading, recipients, encoding, refused values'

. ./test-lib.sh

# python3's email package (policy.default decodes RFC 2047 and unfolds) is the oracle for the headers
header () {
	/usr/bin/python3 -c '
import email, sys
from email import policy
m = email.message_from_binary_file(sys.stdin.buffer, policy=policy.default)
for name in sys.argv[1:]:
    for v in m.get_all(name) or []:
        print("%s: %s" % (name, v))
' "$@"
}

body () {
	/usr/bin/python3 -c '
import email, sys
from email import policy
m = email.message_from_binary_file(sys.stdin.buffer, policy=policy.default)
sys.stdout.write(m.get_content())
'
}

# add_note <commit> <note text>: a record as git maint-queue writes it
add_note () {
	printf "%s" "$2" >note.txt &&
	git notes --ref=maint add -f -F note.txt "$1"
}

test_expect_success 'setup: a tree with a work branch and queued patches' '
	git init -q repo &&
	cd repo &&
	test_commit base &&
	git branch usb-next &&
	git checkout -q -b work-next &&
	cat >.git/maint.ini <<-\EOF &&
	[tree "usb"]
		public = usb-next
		work = work-next
		url = https://git.example.org/usb.git
		commit-url = https://git.example.org/usb.git/commit/?id=%s
	EOF
	test_tick &&
	GIT_AUTHOR_NAME="Jörg Müller" GIT_AUTHOR_EMAIL=joerg@example.de \
		git commit -q --allow-empty -m "usb: serial: fix the frobnicator" &&
	add_note HEAD "Message-ID: <patch1@example.de>
From: Jörg Müller <joerg@example.de>
Date: Fri, 1 Apr 2005 10:00:00 +0200
Subject: [PATCH v2 1/2] usb: serial: fix the frobnicator
To: C O Mitter <committer@example.com>
Cc: linux-usb@vger.kernel.org
Cc: \"Doe, John\" <john@example.net>
Cc: Jörg Müller <joerg@example.de>
In-Reply-To: <cover@example.de>
Series: v2 1/2
" &&
	test_tick &&
	GIT_AUTHOR_NAME="Ann Other" GIT_AUTHOR_EMAIL=ann@example.com \
		git commit -q --allow-empty -m "usb: core: a patch that came without a record" &&
	test_tick &&
	GIT_AUTHOR_EMAIL=committer@example.com git commit -q --allow-empty -m "usb: our own change" &&
	cd ..
'

# the Date of the mails is the time of sending: pinned
GIT_COMMITTER_DATE="1112354055 +0200"

test_expect_success 'default: the work branch commits its public branch lacks, one mail each, our own left out' '
	(cd repo && git-maint-notify >../out 2>../err) &&
	test_must_be_empty err &&
	grep "^From [0-9a-f]\{40\} Mon Sep 17 00:00:00 2001$" out >froms &&
	test_line_count = 2 froms &&
	git -C repo rev-parse work-next~2 work-next~1 >want &&
	sed "s/^From \([0-9a-f]*\) .*/\1/" froms >got &&
	test_cmp want got
'

test_expect_success 'the mail: exact bytes of a reply in the thread' '
	c=$(git -C repo rev-parse --short=12 work-next~2) &&
	csplit -s -f msg out "/^From [0-9a-f]\{40\} /" "{*}" &&
	tr Q "\t" >expect <<-EOF &&
	From: C O Mitter <committer@example.com>
	To: =?UTF-8?q?J=C3=B6rg_M=C3=BCller?= <joerg@example.de>
	Cc: linux-usb@vger.kernel.org, "Doe, John" <john@example.net>
	Subject: Re: [PATCH v2 1/2] usb: serial: fix the frobnicator
	Date: Fri, 1 Apr 2005 13:14:15 +0200
	Message-ID: <git-maint.$(sed -n "s/^Message-ID: <git-maint\.\([0-9a-f]*\)@.*/\1/p" msg01)@example.com>
	In-Reply-To: <patch1@example.de>
	References: <cover@example.de> <patch1@example.de>
	MIME-Version: 1.0
	Content-Type: text/plain; charset=UTF-8
	Content-Transfer-Encoding: 8bit

	Hi Jörg Müller,

	This is a note to let you know that your patch

	Qusb: serial: fix the frobnicator

	was added to the usb-next branch of the usb tree as commit $c.
	It can be seen at https://git.example.org/usb.git/commit/?id=$(git -C repo rev-parse work-next~2)
	The tree is at https://git.example.org/usb.git

	Thank you,
	C O Mitter
	EOF
	sed 1d msg01 >actual &&
	test_cmp expect actual
'

test_expect_success 'the headers decode to the names and subject as written (python email as the oracle)' '
	sed 1d msg01 | header From To Cc Subject >actual &&
	cat >expect <<-\EOF &&
	From: C O Mitter <committer@example.com>
	To: Jörg Müller <joerg@example.de>
	Cc: linux-usb@vger.kernel.org, "Doe, John" <john@example.net>
	Subject: Re: [PATCH v2 1/2] usb: serial: fix the frobnicator
	EOF
	test_cmp expect actual
'

test_expect_success 'a commit without a record: a fresh thread to its author' '
	sed 1d msg02 | header To Subject In-Reply-To References >actual &&
	cat >expect <<-\EOF &&
	To: Ann Other <ann@example.com>
	Subject: Applied "usb: core: a patch that came without a record" to usb-next
	EOF
	test_cmp expect actual
'

test_expect_success 'Message-IDs: one per commit, the same on every run' '
	grep -h "^Message-ID: " msg01 msg02 >ids1 &&
	sort -u ids1 >ids1.u &&
	test_line_count = 2 ids1.u &&
	(cd repo && git-maint-notify) >out2 &&
	grep "^Message-ID: " out2 >ids2 &&
	test_cmp ids1 ids2
'

test_expect_success 'the mbox splits into the same mails with git mailsplit' '
	mkdir split &&
	git mailsplit -osplit out >count &&
	echo 2 >expect &&
	test_cmp expect count &&
	test_cmp msg01 split/0001
'

test_expect_success 'a dry run changes nothing in the repository' '
	(cd repo && repo_state >../before && git-maint-notify >/dev/null && repo_state >../after) &&
	test_cmp before after &&
	test_must_fail git -C repo rev-parse --verify -q refs/notes/maint-notify
'

test_expect_success 'notify.cc is copied, notify.exclude is not' '
	cat >>repo/.git/maint.ini <<-\EOF &&
	[notify]
		cc = Stable <stable@example.org>, list@example.org
		exclude = linux-usb@vger.kernel.org
	EOF
	(cd repo && git-maint-notify work-next~3..work-next~2) | header Cc >actual &&
	echo "Cc: \"Doe, John\" <john@example.net>, Stable <stable@example.org>, list@example.org" >expect &&
	test_cmp expect actual
'

test_expect_success 'notify.from sets From and counts as ourselves' '
	git -C repo config sendemail.from "Greg <greg@example.org>" &&
	(cd repo && git-maint-notify work-next~3..work-next~2) | header From >actual &&
	echo "From: Greg <greg@example.org>" >expect &&
	test_cmp expect actual &&
	git -C repo config --unset sendemail.from
'

test_expect_success 'a template file with placeholders; a line whose placeholders are all empty goes' '
	cat >tmpl <<-\EOF &&
	%(author-name): %(subject) is %(short) on %(branch) of %(tree).
	Full id %(commit), 100% sure, %% kept.
	Never configured: %(reverted) %(reason)
	Mail of %(date) from %(author).
	-- %(me)
	EOF
	printf "\ttemplate = %s\n" "$PWD/tmpl" >>repo/.git/maint.ini &&
	(cd repo && git-maint-notify work-next~3..work-next~2) >out &&
	sed 1d out | body >actual &&
	cat >expect <<-EOF &&
	Jörg Müller: usb: serial: fix the frobnicator is $(git -C repo rev-parse --short=12 work-next~2) on usb-next of usb.
	Full id $(git -C repo rev-parse work-next~2), 100% sure, % kept.
	Mail of Fri, 1 Apr 2005 10:00:00 +0200 from Jörg Müller <joerg@example.de>.
	-- C O Mitter
	EOF
	test_cmp expect actual
'

test_expect_success 'an unknown placeholder: exit 128 naming the file and line, nothing written' '
	printf "Hello\n%%(author-name) %%(nope)\n" >bad-tmpl &&
	sed -i "s|^	template = .*|	template = $PWD/bad-tmpl|" repo/.git/maint.ini &&
	(cd repo && test_expect_code 128 git-maint-notify >../out 2>../err) &&
	test_must_be_empty out &&
	echo "fatal: $PWD/bad-tmpl:2: unknown placeholder '"'"'%(nope)'"'"'" >expect &&
	test_cmp expect err &&
	sed -i "/^	template = /d" repo/.git/maint.ini
'

test_expect_success 'a subject that is not ASCII, and one too long for a line: encoded, folded, decoded back' '
	(
		cd repo &&
		git checkout -q -b long usb-next &&
		test_tick &&
		GIT_AUTHOR_NAME="李小龙" GIT_AUTHOR_EMAIL=li@example.cn git commit -q --allow-empty \
			-m "usb: gadget: 修复 a very long subject line that goes on and on, past any sane width for a header" &&
		git-maint-notify usb-next..long >../out
	) &&
	sed 1d out >m &&
	sed -n "/^$/q;p" m >headers &&
	! grep -v "^.\{0,78\}$" headers &&
	! LC_ALL=C grep "[^ -~	]" headers &&
	header To Subject <m >actual &&
	cat >expect <<-\EOF &&
	To: 李小龙 <li@example.cn>
	Subject: Applied "usb: gadget: 修复 a very long subject line that goes on and on, past any sane width for a header" to long
	EOF
	test_cmp expect actual
'

test_expect_success 'a line over 998 bytes makes the body quoted-printable' '
	long=$(printf "%01100d" 0) &&
	(
		cd repo &&
		git checkout -q -b longline usb-next &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com git commit -q --allow-empty -m "x$long" &&
		git-maint-notify usb-next..longline >../out
	) &&
	grep "^Content-Transfer-Encoding: quoted-printable$" out &&
	! grep "^.\{999,\}" out &&
	sed 1d out | body >actual &&
	grep -x "	x$long" actual
'

test_expect_success 'a message in ISO-8859-1 (encoding header) is converted to UTF-8' '
	(
		cd repo &&
		git checkout -q -b latin usb-next &&
		git config i18n.commitEncoding ISO-8859-1 &&
		printf "usb: caf\351 support\n" >msg &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com git commit -q --allow-empty -F msg &&
		git config --unset i18n.commitEncoding &&
		git-maint-notify usb-next..latin >../out
	) &&
	sed 1d out | header Subject >actual &&
	echo "Subject: Applied \"usb: café support\" to latin" >expect &&
	test_cmp expect actual
'

# Reliability case 25: CR, LF, NUL, U+2028 in names and addresses never reach a header or a command.
test_expect_success 'setup: records with hostile values' '
	(
		cd repo &&
		git checkout -q -b hostile usb-next &&
		for i in 1 2 3 4 5 6
		do
			test_tick &&
			GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com \
				git commit -q --allow-empty -m "hostile $i" || return 1
		done &&
		printf "Message-ID: <h1@x>\nFrom: Eve\rBcc: victim@example.com <eve@example.com>\nSubject: [PATCH] hostile 1\n" >n1 &&
		printf "Message-ID: <h2@x>\nFrom: Eve <eve@example.com>\nSubject: [PATCH] hostile 2\nCc: a@example.com>\r\nRCPT TO:<c@example.com>\n" >n2 &&
		printf "Message-ID: <h3@x>\nFrom: Eve \342\200\250Bcc: v@example.com <eve@example.com>\nSubject: [PATCH] hostile 3\n" >n3 &&
		printf "Message-ID: <h4@x>\r\nBcc: victim@example.com\nFrom: Eve <eve@example.com>\nSubject: [PATCH] hostile 4\n" >n4 &&
		printf "Message-ID: <h5@x>\nFrom: Eve <eve@example.com>\nSubject: [PATCH] hostile 5\rBcc: v@example.com\n" >n5 &&
		printf "Message-ID: <h6@x>\nFrom: Eve <eve@example.com>\nSubject: [PATCH] hostile 6\nCc: <-X/tmp/log@example.com>\n" >n6 &&
		for i in 1 2 3 4 5 6
		do
			git notes --ref=maint add -f -C $(git hash-object -w n$i) hostile~$((6 - i)) || return 1
		done
	)
'

test_expect_success 'each hostile record: its mail refused with one line, exit 1, no injected header; a hostile Cc is left out, not the mail (51)' '
	(cd repo && test_expect_code 1 git-maint-notify usb-next..hostile >../out 2>../err) &&
	test_line_count = 6 err &&
	for i in 1 3 4 5
	do
		c=$(git -C repo rev-parse --short=12 hostile~$((6 - i))) &&
		grep "^error: $c: not sent: " err || return 1
	done &&
	grep "name .* holds a line break" err &&
	grep "holds a Unicode line separator" err &&
	grep "In-Reply-To .* is not a Message-ID" err &&
	grep "subject .* holds a line break" err &&
	c2=$(git -C repo rev-parse --short=12 hostile~4) &&
	c6=$(git -C repo rev-parse --short=12 hostile~0) &&
	grep "^warning: $c2: 1 Cc address left out as not plain local@domain (.a@example.com>.)$" err &&
	grep "^warning: $c6: 1 Cc address left out as not plain local@domain (.-X/tmp/log@example.com.)$" err &&
	grep "^From [0-9a-f]* Mon Sep" out >froms &&
	test_line_count = 2 froms &&
	test $(grep -c "^To: Eve <eve@example.com>$" out) = 2 &&
	test $(grep -c "^Cc: Stable <stable@example.org>, list@example.org$" out) = 2 &&
	! grep -i "bcc\|victim\|RCPT\|-X" out
'

test_expect_success 'the refused mails do not stop the good ones' '
	(cd repo && git checkout -q hostile && test_tick &&
	 GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com git commit -q --allow-empty -m good &&
	 test_expect_code 1 git-maint-notify usb-next..hostile >../out 2>../err) &&
	test_line_count = 6 err &&
	grep "^From [0-9a-f]* Mon Sep" out >froms &&
	test_line_count = 3 froms &&
	grep "^Subject: Applied \"good\" to hostile$" out
'

# Reliability case 57: a value from a record reaches the body neutralised, %(date) as every other.
test_expect_success '%(date) from a record: ESC and BEL in the body become ?' '
	(
		cd repo &&
		git checkout -q -b esc usb-next &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com git commit -q --allow-empty -m "esc date" &&
		printf "Message-ID: <e1@x>\nFrom: Ann <ann@example.com>\nDate: Fri, 1 Apr 2005 10:00:00 +0200\033[2J\033]0;owned\a\nSubject: [PATCH] esc date\n" >ne &&
		git notes --ref=maint add -f -C $(git hash-object -w ne) esc &&
		git checkout -q hostile
	) &&
	printf "Mail of %%(date).\n" >date-tmpl &&
	printf "\ttemplate = %s\n" "$PWD/date-tmpl" >>repo/.git/maint.ini &&
	(cd repo && git-maint-notify usb-next..esc) >out &&
	sed -i "/^	template = /d" repo/.git/maint.ini &&
	sed 1d out | body >actual &&
	echo "Mail of Fri, 1 Apr 2005 10:00:00 +0200?[2J?]0;owned?." >expect &&
	test_cmp expect actual &&
	! grep -q "$(printf "\033")" out
'

# cc_list <mbox>: the addresses of its Cc headers, unfolded, one a line
cc_list () {
	awk '/^Cc: /{ cc = 1; printf "%s,", substr($0, 5); next }
	     cc && /^[ \t]/{ printf "%s", $0; next }
	     { cc = 0 }
	     END { print "" }' "$1" | tr "," "\n" | sed -e "s/^[ \t]*//" -e "/^$/d"
}

test_expect_success 'a record Cc'"'"'ing 150: notify.max-cc (100) of the mail'"'"'s own, in its order, then notify.cc; repeats and odd addresses left out; one warning each (51)' '
	(
		cd repo &&
		git checkout -q -b many usb-next &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com git commit -q --allow-empty -m "many cc" &&
		{
			printf "Message-ID: <m1@x>\nFrom: Ann <ann@example.com>\nSubject: [PATCH] many cc\n" &&
			printf "To: usb-list@example.org\nCc: USB-List@Example.org\nCc: Ann <ANN@example.com>\n" &&
			printf "Cc: u@b\303\274cher.example\nCc: \"quoted local\"@example.org\n" &&
			i=1 &&
			while test $i -le 150
			do
				printf "Cc: P %d <p%d@example.org>\n" $i $i &&
				i=$((i + 1)) || return 1
			done
		} >nm &&
		git notes --ref=maint add -f -C $(git hash-object -w nm) many &&
		git checkout -q hostile
	) &&
	(cd repo && git-maint-notify usb-next..many) >out 2>err &&
	c=$(git -C repo rev-parse --short=12 many) &&
	cat >expect <<-EOF &&
	warning: $c: 2 Cc addresses left out as not plain local@domain ('"'"'u@b$(printf "\303\274")cher.example'"'"', ...)
	warning: $c: 51 more Cc addresses left out: at most 100 are copied (notify.max-cc)
	EOF
	test_cmp expect err &&
	cc_list out >actual &&
	{
		echo usb-list@example.org &&
		i=1 &&
		while test $i -le 99
		do
			echo "P $i <p$i@example.org>" &&
			i=$((i + 1)) || return 1
		done &&
		echo "Stable <stable@example.org>" &&
		echo list@example.org
	} >expect &&
	test_cmp expect actual &&
	grep "^To: Ann <ann@example.com>$" out
'

test_expect_success 'notify.max-cc: set lower it copies fewer; above 1000 (a sendmail argument list) it is refused' '
	git -C repo config maint.notify.max-cc 3 &&
	(cd repo && git-maint-notify usb-next..many) >out 2>err &&
	cc_list out >actual &&
	printf "%s\n" usb-list@example.org "P 1 <p1@example.org>" "P 2 <p2@example.org>" \
		"Stable <stable@example.org>" list@example.org >expect &&
	test_cmp expect actual &&
	grep "^warning: .*: 148 more Cc addresses left out: at most 3 are copied (notify.max-cc)$" err &&
	git -C repo config maint.notify.max-cc 1001 &&
	(cd repo && test_expect_code 128 git-maint-notify usb-next..many) >out 2>err &&
	echo "fatal: bad notify.max-cc '"'"'1001'"'"': expected a number from 0 to 1000" >expect &&
	test_cmp expect err &&
	test_must_be_empty out &&
	git -C repo config --unset maint.notify.max-cc
'

test_expect_success '--stdin: the commits named, in that order' '
	git -C repo rev-parse work-next~1 work-next~2 >ids &&
	(cd repo && git-maint-notify --stdin <../ids) >out &&
	sed -n "s/^From \([0-9a-f]*\) Mon.*/\1/p" out >got &&
	test_cmp ids got
'

test_expect_success '--stdin: a bad revision is fatal, nothing written' '
	echo nosuchcommit >ids &&
	(cd repo && test_expect_code 128 git-maint-notify --stdin <../ids >../out 2>../err) &&
	test_must_be_empty out &&
	echo "fatal: bad revision '"'"'nosuchcommit'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'a revision that is not a range is a usage error' '
	(cd repo && test_expect_code 129 git-maint-notify work-next >../out 2>../err) &&
	grep "^error: .work-next. is not a range" err
'

test_expect_success '--stdin and a range together are a usage error' '
	(cd repo && test_expect_code 129 git-maint-notify --stdin usb-next..work-next </dev/null 2>../err) &&
	grep "^error: --stdin and revision ranges cannot be used together" err
'

test_expect_success 'a detached HEAD without a range: exit 128 with a reason' '
	(cd repo && git checkout -q --detach work-next &&
	 test_expect_code 128 git-maint-notify >../out 2>../err; git checkout -q work-next) &&
	test_must_be_empty out &&
	echo "fatal: HEAD is not on a branch: give a revision range" >expect &&
	test_cmp expect err
'

test_expect_success 'a branch that names no public branch: exit 128 with a hint' '
	(cd repo && git checkout -q -b lonely usb-next &&
	 test_expect_code 128 git-maint-notify >../out 2>../err; git checkout -q work-next) &&
	test_must_be_empty out &&
	grep "^fatal: cannot tell which public branch .lonely. is the work branch of" err &&
	grep "^hint: " err
'

test_expect_success 'the article naming without configuration: work-next publishes to the one *-next' '
	git init -q bare-naming &&
	(
		cd bare-naming &&
		test_commit one &&
		git branch usb-next &&
		git checkout -q -b work-next &&
		test_tick &&
		GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com git commit -q --allow-empty -m "usb: two" &&
		git-maint-notify >../out
	) &&
	grep "^was added to the usb-next branch of the usb tree as commit" out &&
	grep "^Subject: Applied \"usb: two\" to usb-next$" out
'

test_expect_success '-h prints usage and exits 129' '
	test_expect_code 129 git-maint-notify -h >out &&
	grep "git maint-notify \[<options>\]" out
'

test_expect_success 'every option is documented' '
	command_options git-maint-notify >opts &&
	test_line_count -gt 8 opts &&
	while read o
	do
		grep -q -e "^$o" "$MAINT_SRC_DIR/Documentation/git-maint-notify.adoc" ||
		{ echo "undocumented: $o"; return 1; }
	done <opts
'

test_done
