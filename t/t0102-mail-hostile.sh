#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='the mail core on hostile and broken input

Reliability cases 9-15 (Documentation/technical/reliability.txt): a
defined result or one error line naming the message number and the
header or problem; never a crash, a hang or memory growing with the
input.'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-mail.sh"

sep () {
	echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001"
}

small_patch () {
	printf -- "---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
}

test_expect_success 'a megabyte of nested comments in From is parsed iteratively' '
	{
		printf "From: Deep " &&
		awk "BEGIN { for (i = 0; i < 1048576; i++) printf \"(\" }" &&
		printf " <deep@example.com>\nSubject: deep\n\nbody\n"
	} >deep.eml &&
	test-mailinfo out-deep deep.eml &&
	grep "^Email: deep@example.com\$" out-deep/0001/info
'

# long_subject <n>: a mail whose Subject is <n> folded lines of "Re: [x] ::"
# before "end".
long_subject () {
	printf "From: A <a@example.com>\nSubject: " &&
	awk "BEGIN { for (i = 0; i < $1; i++) printf \"Re: [x] :: \\n \" }" &&
	printf "end\n\nbody\n"
}

# git mailinfo takes seconds over the megabyte (it is quadratic there), so
# it is the oracle on 1/16 of it, where its answer is the one it gives on
# 1/32: the length does not change it.
test_expect_success 'a megabyte-long folded Subject of blanks and colons is cleaned in linear time' '
	long_subject 65536 >long-subject.eml &&
	long_subject 4096 | git mailinfo m p >expect &&
	long_subject 2048 | git mailinfo m p >expect.half &&
	test_cmp expect expect.half &&
	test-mailinfo out-ls long-subject.eml &&
	test_cmp expect out-ls/0001/info
'

test_expect_success '10,000 headers' '
	{
		printf "From: A <a@example.com>\n" &&
		awk "BEGIN { for (i = 0; i < 10000; i++) printf \"X-H%d: v\\n\", i }" &&
		printf "Subject: many headers\n\nbody\n"
	} >many.eml &&
	git mailinfo m p <many.eml >expect &&
	test-mailinfo out-many many.eml &&
	test_cmp expect out-many/0001/info
'

test_expect_success 'unterminated quoted string and comment in From (t5100)' '
	# git 2.39 reads past the end of the string here; we stop at it
	printf "From: \"unterminated <a@example.com>\nSubject: q\n\nbody\n" >uq.eml &&
	test-mailinfo out-uq uq.eml &&
	printf "Author: unterminated\nEmail: a@example.com\nSubject: q\n\n" >expect &&
	test_cmp expect out-uq/0001/info &&
	printf "From: Name (unterminated <a@example.com>\nSubject: c\n\nbody\n" >uc.eml &&
	printf "Author: Name (unterminated\nEmail: a@example.com\nSubject: c\n\n" >expect &&
	test-mailinfo out-uc uc.eml &&
	test_cmp expect out-uc/0001/info
'

test_expect_success 'a header without a colon ends the header block, as in git' '
	printf "From: A <a@example.com>\nNo colon here\nSubject: lost\n\nbody\n" >nocolon.eml &&
	git mailinfo m p <nocolon.eml >expect &&
	test-mailinfo out-nc nocolon.eml &&
	test_cmp expect out-nc/0001/info &&
	test_cmp m out-nc/0001/msg
'

test_expect_success 'a NUL byte in an encoded Subject is an error naming the header' '
	printf "From: A <a@example.com>\nSubject: =?UTF-8?q?a=00b?=\n\nbody\n" >nul-subject.eml &&
	test_expect_code 1 test-mailinfo out-nul nul-subject.eml 2>err &&
	grep "nul-subject.eml: message 1: NUL byte in .Subject." err
'

test_expect_success 'a raw NUL byte in a header line is an error' '
	printf "From: A <a@example.com>\nSubject: a\000b\n\nbody\n" >nul-raw.eml &&
	test_expect_code 1 test-mailinfo out-nulr nul-raw.eml 2>err &&
	grep "message 1: NUL byte in header .Subject." err
'

test_expect_success 'a NUL byte in the commit message is an error' '
	printf "From: A <a@example.com>\nSubject: s\n\nbody \000 here\n" >nul-body.eml &&
	test_expect_code 1 test-mailinfo out-nulb nul-body.eml 2>err &&
	grep "message 1: NUL byte in the commit message" err
'

test_expect_success 'NUL bytes in the patch are kept (binary patch)' '
	{
		printf "From: A <a@example.com>\nSubject: bin\n\nmsg\n---\n" &&
		printf "diff --git a/b b/b\nliteral \000\001\002\n"
	} >nul-patch.eml &&
	git mailinfo m p <nul-patch.eml >expect &&
	test-mailinfo out-nulp nul-patch.eml &&
	test_cmp expect out-nulp/0001/info &&
	test_cmp p out-nulp/0001/patch
'

test_expect_success 'an unknown charset in an encoded word: error naming the header, text kept' '
	printf "From: A <a@example.com>\nSubject: =?x-foo?q?abc?=\n\nbody\n" >xfoo.eml &&
	test_expect_code 1 test-mailinfo out-xfoo xfoo.eml 2>err &&
	grep "message 1: cannot convert encoded word to UTF-8 in .Subject." err &&
	test_expect_code 1 git mailinfo m p <xfoo.eml >expect 2>/dev/null &&
	test_cmp expect out-xfoo/0001/info
'

test_expect_success 'an unknown charset of the body: error' '
	printf "From: A <a@example.com>\nSubject: s\nContent-Type: text/plain; charset=x-foo\n\nbody\n" >xfoo-body.eml &&
	test_expect_code 1 test-mailinfo out-xfb xfoo-body.eml 2>err &&
	grep "message 1: cannot convert from x-foo to UTF-8" err
'

test_expect_success 'raw 8-bit headers are read as ISO-8859-1, never emitted as invalid UTF-8' '
	printf "From: Ren\351 <r@example.com>\nSubject: caf\351\n\nbody\n" >latin.eml &&
	test-mailinfo out-latin latin.eml 2>err &&
	grep "message 1: .From. is not UTF-8" err &&
	printf "Author: Ren\303\251\nEmail: r@example.com\nSubject: caf\303\251\n\n" >expect &&
	test_cmp expect out-latin/0001/info
'

test_expect_success 'invalid base64 in the body is an error, never a silent truncation' '
	{
		printf "From: A <a@example.com>\nSubject: b64\nContent-Transfer-Encoding: base64\n\n" &&
		printf "Ym9keQo=\nnot*base64!\n"
	} >bad64.eml &&
	test_expect_code 1 test-mailinfo out-b64 bad64.eml 2>err &&
	grep "bad64.eml: message 1: invalid base64 in the body" err
'

test_expect_success 'truncated base64 (a dangling group) is an error' '
	{
		printf "From: A <a@example.com>\nSubject: b64\nContent-Transfer-Encoding: base64\n\n" &&
		printf "Ym9keQo=\nYm9ke\n"
	} >trunc64.eml &&
	test_expect_code 1 test-mailinfo out-t64 trunc64.eml 2>err &&
	grep "message 1: invalid base64" err
'

test_expect_success 'invalid quoted-printable is an error; =00 and soft breaks are fine' '
	{
		printf "From: A <a@example.com>\nSubject: qp\nContent-Transfer-Encoding: quoted-printable\n\n" &&
		printf "soft =\nbreak\n---\ndiff --git a/b b/b\nliteral nul=00 here\n"
	} >goodqp.eml &&
	test-mailinfo out-gqp goodqp.eml 2>err &&
	test_must_be_empty err &&
	{
		printf "From: A <a@example.com>\nSubject: qp\nContent-Transfer-Encoding: quoted-printable\n\n" &&
		printf "bad =ZZ escape\n"
	} >badqp.eml &&
	test_expect_code 1 test-mailinfo out-bqp badqp.eml 2>err &&
	grep "message 1: invalid quoted-printable" err
'

test_expect_success 'broken MIME: missing end boundary, boundary text in a patch line, empty boundary' '
	{
		sep &&
		printf "From: A <a@example.com>\nSubject: no end\nContent-Type: multipart/mixed; boundary=B\n\n" &&
		printf -- "--B\nContent-Type: text/plain\n\nmsg\n" && small_patch &&
		sep &&
		printf "From: A <a@example.com>\nSubject: in patch\nContent-Type: multipart/mixed; boundary=ab\n\n" &&
		printf -- "--ab\n\nmsg\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+--ab and more\n--ab--\n" &&
		sep &&
		printf "From: A <a@example.com>\nSubject: empty\nContent-Type: multipart/mixed; boundary=\"\"\n\n" &&
		printf -- "--\nmsg\n--\n" &&
		sep &&
		printf "From: A <a@example.com>\nSubject: long\nContent-Type: multipart/mixed; boundary=" &&
		awk "BEGIN { for (i = 0; i < 100; i++) printf \"b\" }" && printf "\n\n--" &&
		awk "BEGIN { for (i = 0; i < 100; i++) printf \"b\" }" && printf "\n\nmsg\n"
	} >mime.mbox &&
	compare_with_git mime -- mime.mbox
'

test_expect_success 'multipart nested 1,000 deep: one error naming the message' '
	{
		printf "From: A <a@example.com>\nSubject: deep mime\n" &&
		awk "BEGIN { for (i = 0; i < 1000; i++) printf \"Content-Type: multipart/mixed; boundary=b%d\\n\\npre\\n--b%d\\n\", i, i }" &&
		printf "\nbody\n"
	} >deep-mime.eml &&
	test_expect_code 1 test-mailinfo out-dm deep-mime.eml 2>err &&
	grep "deep-mime.eml: message 1: too many nested MIME boundaries" err &&
	test_line_count = 1 err
'

test_expect_success 'a 50 MB line without a newline, under the size limit' '
	{
		printf "From: A <a@example.com>\nSubject: long line\n\n" &&
		head -c 52428800 /dev/zero | tr "\\000" x
	} >longline.eml &&
	test-mailinfo out-ll longline.eml &&
	test $(wc -c <out-ll/0001/msg) = 52428800
'

test_expect_success 'over the size limit: "message N exceeds max size", the others still read' '
	{
		sep && printf "From: A <a@example.com>\nSubject: one\n\nsmall\n" &&
		sep && printf "From: A <a@example.com>\nSubject: two\n\n" &&
		head -c 3000000 /dev/zero | tr "\\000" y && echo &&
		sep && printf "From: A <a@example.com>\nSubject: three\n\nsmall\n"
	} >big.mbox &&
	TEST_MAILINFO_MAX_SIZE=1000000 test_expect_code 1 test-mailinfo out-big big.mbox 2>err &&
	grep "big.mbox: message 2 exceeds max size (1000000 bytes)" err &&
	test_line_count = 1 err &&
	grep "Subject: one" out-big/0001/info &&
	test_path_is_missing out-big/0002 &&
	grep "Subject: three" out-big/0003/info
'

test_expect_success 'over the size limit from a pipe: memory stays bounded' '
	{
		{
			sep && printf "From: A <a@example.com>\nSubject: huge\n\n" &&
			head -c 104857600 /dev/zero | tr "\\000" z && echo &&
			sep && printf "From: A <a@example.com>\nSubject: after\n\nsmall\n"
		} | TEST_MAILINFO_MAX_SIZE=1048576 /usr/bin/time -f "%M" -o rss \
			test-mailinfo out-pipe 2>err
		test $? = 1
	} &&
	grep -- "-: message 1 exceeds max size" err &&
	grep "Subject: after" out-pipe/0002/info &&
	test $(tail -n 1 rss) -lt 40000
'

test_expect_success 'a 100 MB line starting with "From " from a pipe: memory stays bounded' '
	{
		{
			sep && printf "From: A <a@example.com>\nSubject: huge\n\nFrom " &&
			head -c 104857600 /dev/zero | tr "\\000" z && echo &&
			sep && printf "From: A <a@example.com>\nSubject: after\n\nsmall\n"
		} | TEST_MAILINFO_MAX_SIZE=1048576 /usr/bin/time -f "%M" -o rss \
			test-mailinfo out-pipe2 2>err
		test $? = 1
	} &&
	grep -- "-: message 1 exceeds max size" err &&
	grep "Subject: after" out-pipe2/0002/info &&
	test $(tail -n 1 rss) -lt 40000
'

test_expect_success 'a mapped 100 MB mailbox: resident memory stays bounded' '
	# 200 messages of a 512 KB line, written by one awk
	awk -v sep="$(sep)" "BEGIN {
		w = \"w\"
		while (length(w) < 524288)
			w = w w
		for (i = 1; i <= 200; i++)
			printf \"%s\\nFrom: A <a@example.com>\\nSubject: m%d\\n\\n%s\\n\", sep, i, w
	}" >many.mbox &&
	test $(wc -c <many.mbox) -gt 104857600 &&
	/usr/bin/time -f "%M" -o rss test-mailinfo --fast out-many-mb many.mbox >list &&
	test_line_count = 200 list &&
	test $(tail -n 1 rss) -lt 40000
'

test_expect_success 'empty inputs: a 0-byte file, blanks only, only separators' '
	: >empty.mbox &&
	test-mailinfo out-empty empty.mbox &&
	test_path_is_missing out-empty/0001 &&
	printf "\n\n  \n" >blank.mbox &&
	test-mailinfo out-blank blank.mbox &&
	test_path_is_missing out-blank/0001 &&
	{ sep && sep && sep; } >seps.mbox &&
	test_expect_code 1 test-mailinfo out-seps seps.mbox 2>err &&
	grep "seps.mbox: message 3: empty message" err &&
	test_line_count = 3 err
'

test_expect_success 'a truncated mailbox: the last message ends where the file ends' '
	{
		sep && printf "From: A <a@example.com>\nSubject: whole\n\nbody\n" &&
		sep && printf "From: A <a@example.com>\nSubject: cut\n\nmsg\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b"
	} >trunc.mbox &&
	compare_with_git trunc -- trunc.mbox
'

test_expect_success 'a missing file is an error naming it; the next input is still read' '
	printf "From: A <a@example.com>\nSubject: there\n\nbody\n" >there.eml &&
	test_expect_code 1 test-mailinfo out-missing missing.mbox there.eml 2>err &&
	grep "cannot open .missing.mbox." err &&
	grep "Subject: there" out-missing/0001/info
'

# Reliability case 55: of a References header the root and the last 99
# ids are kept (common/mail/mail.h, MAIL_REFERENCES_MAX), so 100,000 ids
# (2.5 MB) cost the parser and mbox-split's scan 7 and 9 MiB; keeping
# every id made them 10 and 23 MiB (git-maint(7), LIMITS, Mail). Memory
# only; the sanitizers keep freed memory in quarantine.
test_expect_success !SANITIZE '100,000 ids in References: the parser and the scan stay under 16 MiB (55)' '
	{
		sep &&
		printf "From: A <a@example.com>\nMessage-ID: <p@example.com>\n" &&
		printf "Subject: [PATCH] refs\nReferences:" &&
		awk "BEGIN { for (i = 0; i < 100000; i++) printf \" <r%d@example.org>\\n\", i }" &&
		printf "\nFix.\n" &&
		small_patch
	} >refs.mbox &&
	test $(wc -c <refs.mbox) -gt 2000000 &&
	/usr/bin/time -f "%M" -o rss-parse test-mailinfo --list out-refs refs.mbox >parsed &&
	echo "1 v1 0/0 patch <p@example.com> <> refs | f" >expect &&
	test_cmp expect parsed &&
	test $(tail -n 1 rss-parse) -lt 16384 &&
	/usr/bin/time -f "%M" -o rss-scan git-maint-mbox-split --list refs.mbox >list &&
	printf "1\tp@example.com\tA <a@example.com>\t\t[PATCH] refs\tf\n" >expect &&
	test_cmp expect list &&
	test $(tail -n 1 rss-scan) -lt 16384
'

test_done
