#!/bin/sh
test_description='hostile mail through every command: long decoded lines, dates, header values in trailers, output

RELIABILITY.md items 39, 42, 43 and 47, and the mail side of issue 10:
linear decoding, dates that never make a timestamp git fsck flags,
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
		git maint-mbox-split --touches f --format "%i %p" $enc.mbox >actual &&
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

test_done
