#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='hostile mail through every command: long decoded lines, dates, header values in trailers, output

Reliability cases 39, 42, 43 and 47 (Documentation/technical/reliability.txt),
and the mail side of issue 10: linear decoding, dates that never make a timestamp git fsck flags,
no line added to a commit message beyond the one intended, and nothing
from a mail, a patch or a ref name reaching the terminal as a control
sequence or forging a record of a listing.'
. ./test-lib.sh

sep () {
	echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001"
}

# qp <width> <file>: <file> in quoted-printable with soft line breaks
# every <width> characters (it holds no "=" and no trailing blanks).
qp () {
	awk -v w="$1" "{
		for (i = 1; i + w <= length(\$0); i += w)
			print substr(\$0, i, w) \"=\"
		print substr(\$0, i)
	}" "$2"
}

# encoded_mail <encoding> <body file>: a patch mail whose body is <body
# file> in <encoding> (base64 or quoted-printable), on stdout.
encoded_mail () {
	sep &&
	printf "From: A U Thor <author@example.com>\nDate: Thu, 7 Apr 2005 15:13:13 -0700\n" &&
	printf "Subject: [PATCH] long line\nMessage-ID: <long@example.com>\nMIME-Version: 1.0\n" &&
	printf "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: %s\n\n" "$1" &&
	case "$1" in
	base64)
		base64 "$2" ;;
	*)
		qp 75 "$2" ;;
	esac
}

test_expect_success 'setup: a repository with f = "a"' '
	git init -q repo &&
	echo a >repo/f &&
	git -C repo add f &&
	git -C repo commit -q -m base &&
	git -C repo tag base &&
	printf "+" >line &&
	head -c 8388608 /dev/zero | tr "\\000" x >>line &&
	echo >>line &&
	{
		printf "The message.\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n" &&
		cat line
	} >body &&
	sed -n "/^---\$/,\$p" body >expect.patch &&
	sed -n "s/^+//p" line >expect.f
'

for enc in base64 quoted-printable
do
	test_expect_success "a $enc body that decodes to one 8 MB line: the parser keeps it whole" '
		encoded_mail $enc body >$enc.mbox &&
		test-mailinfo out-$enc $enc.mbox &&
		cmp expect.patch out-$enc/0001/patch
	'

	test_expect_success "the 8 MB $enc line through dry-apply and queue: applied as sent" '
		git -C repo maint-dry-apply -q --onto base ../$enc.mbox >out &&
		grep "the patch applies" out &&
		git -C repo branch -f q-$enc base &&
		git -C repo maint-queue -q q-$enc ../$enc.mbox &&
		git -C repo cat-file blob q-$enc:f >actual.f &&
		cmp expect.f actual.f
	'

	test_expect_success "the 8 MB $enc line through mbox-split: selected by path" '
		git-maint-mbox-split --touches f --format "%i %p" $enc.mbox >actual &&
		echo "1 f" >expect &&
		test_cmp expect actual
	'
done

test_expect_success 'format=flowed base64 with long soft-broken paragraphs: as git mailinfo' '
	for i in $(test_seq 1 400)
	do
		printf "word%d and more words that wrap \n  leading blanks %d \n" $i $i || return 1
	done >flowed.txt &&
	printf -- "-- \nsig\n" >>flowed.txt &&
	{
		sep &&
		printf "From: A <a@example.com>\nSubject: flowed\nMIME-Version: 1.0\n" &&
		printf "Content-Type: text/plain; format=flowed; delsp=yes\n" &&
		printf "Content-Transfer-Encoding: base64\n\n" &&
		base64 -w 12 flowed.txt &&
		sep &&
		printf "From: A <a@example.com>\nSubject: flowed qp\nMIME-Version: 1.0\n" &&
		printf "Content-Type: text/plain; format=flowed\n" &&
		printf "Content-Transfer-Encoding: quoted-printable\n\n" &&
		qp 7 flowed.txt
	} >flowed.mbox &&
	. "$MAINT_TEST_DIR/lib-mail.sh" &&
	compare_with_git flowed -- flowed.mbox
'

# date_mail <name> <Date header value>: <name>.mbox, a patch of f "a" -> "b" with that date.
date_mail () {
	{
		sep &&
		printf "From: A U Thor <author@example.com>\nDate: %s\n" "$2" &&
		printf "Subject: [PATCH] dated %s\n\nmsg\n---\n" "$1" &&
		printf "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} >"$1.mbox"
}

# refused_date <name> <date>: every command refuses the mail with exit 1
# and one error line naming the message; the repository stays as it was.
refused_date () {
	date_mail "$1" "$2" &&
	echo "error: ../$1.mbox: message 1: invalid date $SQ$2$SQ" >expect.err &&
	(
		cd repo &&
		git checkout -q -B "d-$1" base &&
		repo_state | grep -v ORIG_HEAD >../before &&
		test_expect_code 1 git-maint-mbox-split ../$1.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_expect_code 1 git-maint-dry-apply --onto base ../$1.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_expect_code 1 git-maint-queue -q "d-$1" ../$1.mbox >../out 2>../err &&
		grep -v "^hint: " ../err >../err.lines &&
		test_cmp ../expect.err ../err.lines &&
		repo_state | grep -v ORIG_HEAD >../after &&
		test_cmp ../before ../after &&
		git-maint-queue --abort >/dev/null &&
		repo_state | grep -v ORIG_HEAD >../after &&
		test_cmp ../before ../after
	)
}

SQ="'"

test_expect_success 'Date: 1.1.922337203685477580 (a year past any integer): invalid date, exit 1' '
	refused_date overflow-year "1.1.922337203685477580"
'

test_expect_success 'seconds of 20 digits: invalid date, exit 1' '
	refused_date seconds20 "12345678901234567890 +0000" &&
	refused_date at-seconds20 "@99999999999999999999 +0000" &&
	refused_date second-field "Thu, 7 Apr 2005 15:13:99999999999999999999 -0700"
'

test_expect_success 'a date before the epoch once its zone is applied (git commits it wrapped around)' '
	refused_date before-epoch "Thu, 1 Jan 1970 00:00:00 +0100"
'

test_expect_success 'years past 9999: invalid date, exit 1' '
	refused_date year-12-digits "Thu, 7 Apr 292277026596 15:13:13 +0000" &&
	refused_date seconds-year-10000 "253402300800 +0000"
'

test_expect_success 'the last second of 9999 is queued, and git fsck finds nothing wrong' '
	date_mail last-second "Fri, 31 Dec 9999 23:59:59 +0000" &&
	git -C repo branch -f d-last base &&
	git -C repo maint-queue -q d-last ../last-second.mbox &&
	git -C repo cat-file commit d-last >commit &&
	grep "^author A U Thor <author@example.com> 253402300799 +0000\$" commit &&
	git -C repo fsck --strict --no-dangling 2>err &&
	test_line_count = 0 err
'

test_expect_success 'an encoded newline in Message-ID adds no line after Link:' '
	{
		sep &&
		printf "From: A U Thor <author@example.com>\nDate: Thu, 7 Apr 2005 15:13:13 -0700\n" &&
		printf "Subject: [PATCH] linked\n" &&
		printf "Message-ID: =?utf-8?q?<id@example.com>=0AReviewed-by:_Evil_<evil@example.com>?=\n" &&
		printf "\nmsg\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} >msgid.mbox &&
	printf "[queue]\n\tlink = https://lore.kernel.org/r/%%s\n" >repo/.git/maint.ini &&
	git -C repo branch -f linked base &&
	git -C repo maint-queue -q linked ../msgid.mbox &&
	rm repo/.git/maint.ini &&
	git -C repo log -1 --format=%B linked >actual &&
	printf "linked\n\nmsg\n\nLink: https://lore.kernel.org/r/id@example.com\n\n" >expect &&
	test_cmp expect actual &&
	git -C repo notes --ref maint show linked >note &&
	grep "^Message-ID: <id@example.com>\$" note &&
	! grep Evil note
'

test_expect_success '-m adds one Message-Id line (git mailinfo -m adds every decoded line)' '
	test-mailinfo -m out-msgid msgid.mbox &&
	printf "msg\nMessage-Id: <id@example.com>\n" >expect &&
	test_cmp expect out-msgid/0001/msg
'

test_expect_success 'ids with blanks or control characters are no ids: In-Reply-To, References, Message-ID' '
	{
		sep &&
		printf "From: A <a@example.com>\nSubject: ids\n" &&
		printf "Message-ID: <a\\033]0;x\\007@example.com>\n" &&
		printf "In-Reply-To: <p q@example.com>\nReferences: <r@example.com> <s\\rt@example.com>\n\nbody\n"
	} >ids.mbox &&
	git-maint-mbox-split --input-order --format "[%m] [%r]" ids.mbox >actual &&
	echo "[] []" >expect &&
	test_cmp expect actual
'

test_expect_success 'a From name and Subject decoding to CR/LF: one line each, the commit git am makes' '
	{
		sep &&
		printf "From: =?utf-8?q?Eve=0D=0ASigned-off-by:_Linus?= <eve@example.com>\n" &&
		printf "Date: Thu, 7 Apr 2005 15:13:13 -0700\n" &&
		printf "Subject: =?utf-8?q?[PATCH]_subject=0D=0A=0AInjected-by:_x?=\n" &&
		printf "\nmsg\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} >crlf.mbox &&
	git -C repo checkout -q -B am-crlf base &&
	git -C repo am -q ../crlf.mbox &&
	git -C repo checkout -q base &&
	git -C repo branch -f crlf base &&
	git -C repo maint-queue -q crlf ../crlf.mbox &&
	git -C repo rev-parse am-crlf >expect &&
	git -C repo rev-parse crlf >actual &&
	test_cmp expect actual &&
	git -C repo log -1 --format="%an%n%B" crlf >actual &&
	printf "Eve Signed-off-by: Linus\nsubject Injected-by: x\n\nmsg\n\n" >expect &&
	test_cmp expect actual
'

# no_controls <file>...: no control character but tab and newline (no
# ESC, BEL, CR, DEL) and no C1 character (U+0080..U+009F) in the files.
no_controls () {
	c0=$(printf "[\001-\010\013-\037\177]") &&
	c1=$(printf "\302[\200-\237]") &&
	! LC_ALL=C grep -n "$c0" "$@" &&
	! LC_ALL=C grep -n "$c1" "$@"
}

test_expect_success 'setup: files named with ESC and tab, a mail full of escape sequences' '
	git init -q esc &&
	echo a >esc/f &&
	echo x >"esc/$(printf "e\\033[31m")" &&
	echo y >"esc/$(printf "t\\tb")" &&
	git -C esc add . &&
	git -C esc commit -q -m base &&
	git -C esc tag base &&
	{
		sep &&
		printf "From: =?utf-8?q?Eve_=1B[2J=C2=9B1m?= <eve@example.com>\n" &&
		printf "Date: Thu, 7 Apr 2005 15:13:13 -0700\n" &&
		printf "Subject: =?utf-8?q?[PATCH]_x=1B]0;owned=07=1B[31m?=\n" &&
		printf "Message-ID: <esc@example.com>\n\nmsg\n---\n" &&
		printf "diff --git \"a/e\\\\033[31m\" \"b/e\\\\033[31m\"\n" &&
		printf -- "--- \"a/e\\\\033[31m\"\n+++ \"b/e\\\\033[31m\"\n@@ -1 +1 @@\n-x\n+z\n" &&
		printf "diff --git \"a/t\\\\tb\" \"b/t\\\\tb\"\n" &&
		printf -- "--- \"a/t\\\\tb\"\n+++ \"b/t\\\\tb\"\n@@ -1 +1 @@\n-y\n+w\n"
	} >esc.mbox &&
	{
		sed "s/<esc@example.com>/<forge@example.com>/" esc.mbox &&
		printf "diff --git \"a/n\\\\n1\\\\tx\" \"b/n\\\\n1\\\\tx\"\nnew file mode 100644\n" &&
		printf -- "--- /dev/null\n+++ \"b/n\\\\n1\\\\tx\"\n@@ -0,0 +1 @@\n+q\n"
	} >forge.mbox
'

test_expect_success 'mbox-split --list: one line per message, paths quoted, no control character' '
	git-maint-mbox-split -l esc.mbox forge.mbox >actual &&
	test_line_count = 2 actual &&
	no_controls actual &&
	printf "%s\t%s\t%s\t%s\t%s\t%s\n" 1 esc@example.com "Eve ?[2J?1m <eve@example.com>" \
		"Thu, 7 Apr 2005 15:13:13 -0700" "[PATCH] x?]0;owned??[31m" \
		"\"e\\033[31m\" \"t\\tb\"" >expect &&
	printf "%s\t%s\t%s\t%s\t%s\t%s\n" 2 forge@example.com "Eve ?[2J?1m <eve@example.com>" \
		"Thu, 7 Apr 2005 15:13:13 -0700" "[PATCH] x?]0;owned??[31m" \
		"\"e\\033[31m\" \"t\\tb\" \"n\\n1\\tx\"" >>expect &&
	test_cmp expect actual
'

test_expect_success 'mbox-split --format: %s %S %an %p and a path with a space' '
	sed -e "s/t\\\\tb/a b/g" -e "s/<esc@/<space@/" esc.mbox >space.mbox &&
	git-maint-mbox-split --format "%s|%S|%an|%p" esc.mbox space.mbox >actual &&
	no_controls actual &&
	cat >expect <<-\EOF &&
	[PATCH] x?]0;owned??[31m|x?]0;owned??[31m|Eve ?[2J?1m|"e\033[31m" "t\tb"
	[PATCH] x?]0;owned??[31m|x?]0;owned??[31m|Eve ?[2J?1m|"e\033[31m" "a b"
	EOF
	test_cmp expect actual
'

test_expect_success 'dry-apply: the report quotes paths and neutralises the subject' '
	git -C esc maint-dry-apply -v --onto base ../esc.mbox >actual 2>err &&
	no_controls actual err &&
	cat >expect <<-\EOF &&
	Checking 1 patch against base
	Patch 1/1: x?]0;owned??[31m
	checking file "e\033[31m"
	Hunk #1 succeeded at 1.
	checking file "t\tb"
	Hunk #1 succeeded at 1.
	base: the patch applies
	EOF
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'dry-apply --porcelain: escapes, C1 included' '
	git -C esc maint-dry-apply --porcelain --onto base ../esc.mbox >actual &&
	no_controls actual &&
	head -n 1 actual >first &&
	printf "patch\tbase\t1\tok\tx\\\\033]0;owned\\\\007\\\\033[31m\t1\t1/1\t\n" >expect &&
	test_cmp expect first
'

test_expect_success 'a path with a newline: one error line in the report, nothing applied' '
	(
		cd esc &&
		test_expect_code 1 git-maint-dry-apply --onto base ../forge.mbox >../actual 2>../err &&
		no_controls ../actual ../err &&
		grep "^\.\./forge.mbox: message 1: line [0-9]*: invalid path ${SQ}n?1?x${SQ}: control character or backslash in path\$" ../actual &&
		test_line_count = 4 ../actual &&
		git branch forge base &&
		repo_state | grep -v refs/heads/forge >../before &&
		test_expect_code 1 git-maint-queue forge ../forge.mbox >../out 2>../err &&
		no_controls ../out ../err &&
		printf "Queueing 1 patch on ${SQ}forge${SQ}\nApplying: x?]0;owned??[31m\n" >../expect &&
		test_cmp ../expect ../out &&
		grep -v "^hint: " ../err >../err.lines &&
		cat >../expect <<-EOF &&
		../forge.mbox: message 1: line 17: invalid path ${SQ}n?1?x${SQ}: control character or backslash in path
		error: patch 1/1 does not apply to ${SQ}forge${SQ}: x?]0;owned??[31m
		EOF
		test_cmp ../expect ../err.lines &&
		git-maint-queue --abort >/dev/null &&
		repo_state | grep -v -e ORIG_HEAD -e refs/heads/forge >../after &&
		grep -v ORIG_HEAD ../before | test_cmp - ../after
	)
'

test_expect_success 'queue: "Applying:" without escape sequences; the commit keeps the names' '
	git -C esc branch -f q-esc base &&
	git -C esc maint-queue q-esc ../esc.mbox >out 2>err &&
	no_controls out err &&
	grep "^Applying: x?\]0;owned??\[31m\$" out &&
	git -C esc diff --name-only base q-esc >actual &&
	printf "\"e\\\\033[31m\"\n\"t\\\\tb\"\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'describe-contains: tag names with a C1 CSI or ESC reach no terminal' '
	git -C esc checkout -q -b side base &&
	git -C esc commit -q --allow-empty -m c2 &&
	git -C esc tag "$(printf "v2\\302\\2332J")" &&
	git -C esc rev-parse HEAD >"esc/.git/refs/tags/$(printf "v3\\033]0;owned\\007")" &&
	git -C esc maint-describe-contains HEAD >actual 2>err &&
	no_controls actual err &&
	test_line_count = 1 actual &&
	grep "^v[23]?" actual &&
	printf "HEAD\nno-such-thing\033[2J\n" | test_expect_code 1 git -C esc maint-describe-contains --stdin >actual 2>err &&
	no_controls actual err &&
	grep "^no-such-thing?\[2J undefined\$" actual
'

test_expect_success 'a diff of 100,000 files: each path listed once, by the parser and the scan' '
	{
		sep &&
		printf "From: A <a@example.com>\nSubject: [PATCH] many files\n\n---\n" &&
		awk "BEGIN {
			for (i = 0; i < 100000; i++)
				printf \"diff --git a/d/f%d b/d/f%d\\nnew file mode 100644\\n--- /dev/null\\n+++ b/d/f%d\\n@@ -0,0 +1 @@\\n+x\\n\", i, i, i
			printf \"diff --git a/d/f7 b/d/f7\\n--- a/d/f7\\n+++ b/d/f7\\n@@ -1 +1 @@\\n-x\\n+y\\n\"
		}"
	} >files.mbox &&
	awk "BEGIN { for (i = 0; i < 100000; i++) printf \"d/f%d\\n\", i }" >expect &&
	test-mailinfo out-files files.mbox &&
	test_cmp expect out-files/0001/paths &&
	git-maint-mbox-split --touches d/f99999 --format %p files.mbox | tr " " "\\n" >actual &&
	test_cmp expect actual
'

test_expect_success 'over mbox.max-message-size: dry-apply and queue refuse the series, nothing applied' '
	date_mail small "Thu, 7 Apr 2005 15:13:13 -0700" &&
	{
		cat small.mbox &&
		sep &&
		printf "From: A <a@example.com>\nSubject: [PATCH] big\n\n" &&
		head -c 3000 /dev/zero | tr "\\000" x &&
		printf "\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-b\n+c\n"
	} >sized.mbox &&
	echo "error: ../sized.mbox: message 2 exceeds max size (1000 bytes)" >expect.err &&
	(
		cd repo &&
		printf "[mbox]\n\tmax-message-size = 1000\n" >.git/maint.ini &&
		git checkout -q -B sized base &&
		repo_state >../before &&
		test_expect_code 1 git-maint-dry-apply --onto base ../sized.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_expect_code 1 git-maint-queue sized ../sized.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_path_is_missing .git/maint/queue &&
		repo_state >../after &&
		rm .git/maint.ini &&
		test_cmp ../before ../after
	)
'

test_expect_success 'every command that reads mail takes the mail source options' '
	for cmd in mbox-split dry-apply queue
	do
		test_expect_code 129 git-maint-$cmd -h >help &&
		grep "input-mboxrd  " help &&
		grep "keep-cr  " help &&
		grep -e "--max-message-size <bytes>" help || return 1
	done
'

test_expect_success '--max-message-size: each command refuses by it, and it wins over mbox.max-message-size' '
	echo "error: ../sized.mbox: message 2 exceeds max size (1000 bytes)" >expect.err &&
	(
		cd repo &&
		git checkout -q -B sized base &&
		repo_state >../before &&
		test_expect_code 1 git-maint-mbox-split --max-message-size 1000 ../sized.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_expect_code 1 git-maint-dry-apply --max-message-size 1000 --onto base ../sized.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_expect_code 1 git-maint-queue --max-message-size 1000 sized ../sized.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_path_is_missing .git/maint/queue &&
		repo_state >../after &&
		test_cmp ../before ../after &&
		printf "[mbox]\n\tmax-message-size = 1000\n" >.git/maint.ini &&
		git-maint-mbox-split -q --max-message-size 0 ../sized.mbox >../out &&
		test_expect_code 1 git-maint-dry-apply -q --max-message-size 4000 --onto base ../sized.mbox >../out &&
		grep "^2 series, 2 patches\$" ../out &&
		git-maint-queue -q --max-message-size 0 --series all sized ../sized.mbox &&
		rm .git/maint.ini &&
		git log --format=%s base..sized >../actual
	) &&
	printf "big\ndated small\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--input-mboxrd: dry-apply and queue unquote >From lines as mbox-split does' '
	{
		sep &&
		printf "From: A <a@example.com>\nSubject: [PATCH] quoted\n\n>From the start\n---\n" &&
		printf "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} >rd.mbox &&
	(
		cd repo &&
		git checkout -q -B rd base &&
		git-maint-dry-apply -q --input-mboxrd --onto base ../rd.mbox &&
		git-maint-queue -q --input-mboxrd rd ../rd.mbox &&
		git log -1 --format=%b rd >../actual
	) &&
	git maint-mbox-split --input-mboxrd rd.mbox | grep "^From the start$" &&
	printf "From the start\n\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'MIME nested deeper than 4: dry-apply and queue exit 1 naming the message' '
	{
		sep &&
		printf "From: A <a@example.com>\nSubject: [PATCH] deep\nMIME-Version: 1.0\n" &&
		for i in 1 2 3 4 5 6
		do
			printf "Content-Type: multipart/mixed; boundary=b$i\n\npre\n--b$i\n" || return 1
		done &&
		printf "Content-Type: text/plain\n\nmsg\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} >deep.mbox &&
	echo "error: ../deep.mbox: message 1: too many nested MIME boundaries (more than 4)" >expect.err &&
	(
		cd repo &&
		git checkout -q -B deep base &&
		repo_state >../before &&
		test_expect_code 1 git-maint-dry-apply --onto base ../deep.mbox >../out 2>../err &&
		test_cmp ../expect.err ../err &&
		test_expect_code 1 git-maint-queue -q deep ../deep.mbox >../out 2>../err &&
		grep -v "^hint: " ../err >../err.lines &&
		test_cmp ../expect.err ../err.lines &&
		git-maint-queue --abort >/dev/null &&
		repo_state | grep -v ORIG_HEAD >../after &&
		grep -v ORIG_HEAD ../before | test_cmp - ../after
	)
'

test_expect_success 'queue --show-current: the mail as it is into a file, no escape sequence on a terminal' '
	sed "s/^msg\$/msg $(printf "\\033]0;owned\\007")/" forge.mbox >raw-esc.mbox &&
	git -C esc checkout -q base &&
	git -C esc branch -f show base &&
	test_expect_code 1 git -C esc maint-queue -q show ../raw-esc.mbox 2>/dev/null &&
	git -C esc maint-queue --show-current >shown &&
	sed 1d raw-esc.mbox >expect &&
	test_cmp expect shown &&
	script -qec "git -C esc maint-queue --show-current" /dev/null >tty-out &&
	tr -d "\\r" <tty-out >tty-shown &&
	no_controls tty-shown &&
	grep "^msg ?\]0;owned?\$" tty-shown &&
	git -C esc maint-queue --abort >/dev/null
'

test_done
