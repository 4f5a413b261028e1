#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='hand-written mails: same extraction as git mailsplit + git mailinfo

RFC 2047 words in several charsets, quoted-printable and base64 bodies,
MIME attachments, nested multipart, format=flowed, in-body headers,
scissors, odd From lines, [PATCH v2 3/5] subjects, CRLF and mboxrd
mailboxes, and git t5100-style edge cases written for this suite.'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-mail.sh"

# a small patch used as the body of most mails
patch_text () {
	cat <<-\PATCH
	---
	 drivers/usb/core/hub.c | 1 +
	 1 file changed, 1 insertion(+)

	diff --git a/drivers/usb/core/hub.c b/drivers/usb/core/hub.c
	index 1111111..2222222 100644
	--- a/drivers/usb/core/hub.c
	+++ b/drivers/usb/core/hub.c
	@@ -1,3 +1,4 @@
	 one
	 two
	 three
	+four
	--
	2.39.5
	PATCH
}

sep () {
	echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001"
}

test_expect_success 'build the corpus' '
	{
		sep &&
		printf "From: =?UTF-8?q?J=C3=B6rg_M=C3=BCller?= <jm@example.com>\n" &&
		printf "Subject: [PATCH v2 3/5] usb: =?ISO-8859-1?Q?caf=E9?= fix\n" &&
		printf "Date: Mon, 1 Jan 2024 10:00:00 +0100\n\n" &&
		printf "Q-encoded names.\n\n" && patch_text &&

		sep &&
		printf "From: =?ISO-8859-1?B?UmVu6SBMYXRpbg==?= <rl@example.com>\n" &&
		printf "Subject: =?UTF-8?B?W1BBVENIXSDDpGJj?=\n =?UTF-8?B?IMO2w7w=?=\n" &&
		printf "Date: Tue, 2 Jan 2024 10:00:00 +0000\n\n" &&
		printf "B-encoded, folded over two words.\n\n" && patch_text &&

		sep &&
		printf "From: =?KOI8-R?B?98HT0Q==?= <vasya@example.com>\n" &&
		printf "Subject: [PATCH 1/2] koi8\n\nbody\n\n" && patch_text &&

		sep &&
		printf "From: \"Doe, John (Maintainer)\" <jd@example.com>\n" &&
		printf "Subject: Re: [PATCH] quoted name\n\nbody\n\n" && patch_text &&

		sep &&
		printf "From: jd@example.com (John Doe)\n" &&
		printf "Subject: [RFC][PATCH 2/7] comment name\n\nbody\n\n" && patch_text &&

		sep &&
		printf "From: John Doe <johndoe>\n" &&
		printf "Subject: bogus from\n\nbody\n\n" && patch_text &&

		sep &&
		printf "From: A (nested (comment) here) \\\\(x\\\\) <a@example.com> (trailing)\n" &&
		printf "Subject: [PATCH net-next v3 10/12] comments\n\nbody\n\n" && patch_text &&

		sep &&
		printf "From: Long Header <lh@example.com>\n" &&
		printf "Subject: [PATCH]\n\tfolded\n    subject   with   spaces\n" &&
		printf "Date:\n Wed, 3 Jan 2024 10:00:00 +0000\n\n" &&
		printf "body\n\n" && patch_text &&

		sep &&
		printf "From: Mailer <mailer@example.com>\n" &&
		printf "Subject: [PATCH] in-body headers\n\n" &&
		printf "From: Real Author <real@example.com>\n" &&
		printf "Date: Thu, 4 Jan 2024 10:00:00 +0000\n" &&
		printf "Subject: the real\n  subject\n\nThe real message.\n\n" && patch_text &&

		sep &&
		printf "From: Mailer <mailer@example.com>\n" &&
		printf "Subject: [PATCH] in-body [PATCH] line\n\n" &&
		printf "[PATCH] the subject from the body\n\nmessage\n\n" && patch_text &&

		sep &&
		printf "From: Mailer <mailer@example.com>\n" &&
		printf "Subject: in-body headers without a patch\n\n" &&
		printf "From: Real Author <real@example.com>\n\nno patch here\n" &&

		sep &&
		printf "From: QP <qp@example.com>\n" &&
		printf "Subject: [PATCH] quoted-printable\n" &&
		printf "MIME-Version: 1.0\nContent-Type: text/plain; charset=ISO-8859-1\n" &&
		printf "Content-Transfer-Encoding: quoted-printable\n\n" &&
		printf "Caf=E9 na=EFve, a soft =\nbreak and =3D sign.\n\n" &&
		patch_text | sed "s/^+four/+f=3Dour =E9/" &&

		sep &&
		printf "From: B64 <b64@example.com>\n" &&
		printf "Subject: [PATCH] base64 body\n" &&
		printf "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n" &&
		printf "Content-Transfer-Encoding: base64\n\n" &&
		{ printf "base64 message \303\244\n\n" && patch_text; } | base64 &&

		sep &&
		printf "From: Attacher <att@example.com>\n" &&
		printf "Subject: [PATCH 4/5] patch as attachment\n" &&
		printf "MIME-Version: 1.0\n" &&
		printf "Content-Type: multipart/mixed; boundary=\"BOUND\"\n\n" &&
		printf "This is a multi-part message in MIME format.\n" &&
		printf -- "--BOUND\nContent-Type: text/plain; charset=ISO-8859-1\n" &&
		printf "Content-Transfer-Encoding: 8bit\n\n" &&
		printf "Latin-1 text \351t\351.\n\n" &&
		printf -- "--BOUND\nContent-Type: text/x-patch; name=\"fix.patch\"\n" &&
		printf "Content-Transfer-Encoding: base64\n" &&
		printf "Content-Disposition: attachment; filename=\"fix.patch\"\n\n" &&
		patch_text | sed 1,4d | base64 &&
		printf -- "--BOUND--\n\nepilogue\n" &&

		sep &&
		printf "From: Nested <nest@example.com>\n" &&
		printf "Subject: [PATCH] nested multipart\n" &&
		printf "Content-Type: multipart/mixed; boundary=outer\n\n" &&
		printf -- "--outer\nContent-Type: multipart/alternative; boundary=inner\n\n" &&
		printf -- "--inner\nContent-Type: text/plain; charset=utf-8\n" &&
		printf "Content-Transfer-Encoding: quoted-printable\n\n" &&
		printf "inner text =C3=A4\n\n" &&
		printf -- "--inner\nContent-Type: text/html\n\n<p>html</p>\n" &&
		printf -- "--inner--\n" &&
		printf -- "--outer\nContent-Type: text/x-diff\n\n" &&
		patch_text | sed 1,4d &&
		printf -- "--outer--\n" &&

		sep &&
		printf "From: Flowed <fl@example.com>\n" &&
		printf "Subject: [PATCH] format=flowed\n" &&
		printf "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n" &&
		printf "A flowed line that \ncontinues here.\n\n" &&
		printf " space stuffed\n-- \nsig\n" &&

		sep &&
		printf "From: CR <cr@example.com>\n" &&
		printf "Subject: [PATCH] quoted CR in base64\n" &&
		printf "Content-Transfer-Encoding: base64\n\n" &&
		printf "line one\r\nline two\r\n\n---\ndiff --git a/x b/x\n" | base64 &&

		sep &&
		printf "From: NoBlank <nb@example.com>\n" &&
		printf "Subject: [PATCH 0/3] cover letter\n" &&
		printf "Message-Id: <cover@example.com>\n" &&
		printf "this line has no colon and ends the headers\n" &&
		printf "Cover text.\n" &&

		sep &&
		printf "From: Trailing <tr@example.com>   \n" &&
		printf "Subject:    [PATCH v10] spaces   \n" &&
		printf "Date: Fri, 5 Jan 2024 10:00:00 +0000\n" &&
		printf "X-Header-Without-Value:\n\n" &&
		printf "\n\n   \nbody after blank lines\n---\nnot a diff\n" &&

		sep &&
		printf "Subject: no from at all\n\nbody\n" &&

		sep &&
		printf "From: Index <ix@example.com>\n" &&
		printf "Subject: [PATCH] cvs style\n\nmessage\n" &&
		printf "Index: foo.c\n=====\n--- foo.c.orig\n+++ foo.c\n@@ -1 +1 @@\n-a\n+b\n"
	} >corpus.mbox &&
	grep -c "^From 1234567890" corpus.mbox >count &&
	test $(cat count) -gt 20
'

test_expect_success 'the corpus, default options' '
	compare_with_git corpus -- corpus.mbox
'

test_expect_success 'the corpus with -k' '
	compare_with_git corpusk -k -- corpus.mbox
'

test_expect_success 'the corpus with -b' '
	compare_with_git corpusb -b -- corpus.mbox
'

test_expect_success 'the corpus with -m and --no-inbody-headers' '
	compare_with_git corpusm -m --no-inbody-headers -- corpus.mbox
'

test_expect_success 'scissors' '
	{
		sep &&
		printf "From: Sc <sc@example.com>\nSubject: [PATCH] chatter\n\n" &&
		printf "Some discussion above the cut.\n\n" &&
		printf -- "-- >8 --\n" &&
		printf "From: Cut Author <cut@example.com>\nSubject: the subject below\n\n" &&
		printf "The message below.\n\n" && patch_text &&
		sep &&
		printf "From: Sc <sc@example.com>\nSubject: [PATCH] scissors with text\n\n" &&
		printf "above\n- - - - - - - - >8 - - - - cut here - - - -\nbelow\n\n" && patch_text &&
		sep &&
		printf "From: Sc <sc@example.com>\nSubject: [PATCH] in-body continuation and scissors\n\n" &&
		printf "Subject: folded\n  -- >8 --\nbody\n\n" && patch_text
	} >scissors.mbox &&
	compare_with_git sc --scissors -- scissors.mbox &&
	compare_with_git nosc -- scissors.mbox
'

test_expect_success 'CRLF mailbox' '
	sed "s/\$/\r/" corpus.mbox >crlf.mbox &&
	compare_with_git crlf -- crlf.mbox
'

test_expect_success 'CRLF mailbox with --keep-cr, and --quoted-cr=strip/nowarn' '
	compare_with_git crlfk -- --keep-cr crlf.mbox &&
	compare_with_git crlfks --quoted-cr=strip -- --keep-cr crlf.mbox &&
	compare_with_git qcs --quoted-cr=strip -- corpus.mbox &&
	compare_with_git qcn --quoted-cr=nowarn -- corpus.mbox &&
	test_must_be_empty ours-qcn.err
'

test_expect_success 'mboxrd mailbox' '
	{
		sep &&
		printf "From: Rd <rd@example.com>\nSubject: [PATCH] mboxrd\n\n" &&
		printf ">From the start\n>>From quoted twice\n>>>From thrice\nFrom not at 10:20 there\n\n" &&
		patch_text &&
		sep &&
		printf "From: Rd <rd@example.com>\nSubject: second\n\n>From here\n"
	} >rd.mbox &&
	compare_with_git rd -- --mboxrd rd.mbox &&
	compare_with_git rdo -- rd.mbox
'

test_expect_success 'a From line inside a body that is not a separator does not split' '
	{
		sep &&
		printf "From: Fr <fr@example.com>\nSubject: embedded from\n\n" &&
		printf "From the beginning, this line is text.\n" &&
		printf "From someone Mon Sep 17 00:00:00 and no year\n\nbody\n"
	} >from.mbox &&
	compare_with_git from -- from.mbox &&
	test_path_is_missing ours-from/0002
'

test_expect_success 'a single message file and a Maildir' '
	mkdir -p md/cur md/new md/tmp &&
	sed 1d corpus.mbox | sed "/^From 1234567890/,\$d" >md/cur/2.msg &&
	cp md/cur/2.msg md/new/10.msg &&
	cp md/cur/2.msg single.eml &&
	mkdir single-git md-git &&
	git mailsplit -b -osingle-git single.eml >/dev/null &&
	test-mailinfo single-ours single.eml &&
	git mailinfo m p <single-git/0001 >info &&
	test_cmp info single-ours/0001/info &&
	test_cmp p single-ours/0001/patch &&
	git mailsplit -omd-git md >md-count &&
	test-mailinfo md-ours md &&
	test_cmp info md-ours/0001/info &&
	test_cmp info md-ours/0002/info &&
	test_path_is_missing md-ours/0003
'

test_expect_success 't5100-style subjects and odd header whitespace' '
	for subj in "[PATCH] [other] [PATCH] message" "[other] [PATCH] message" \
		"[PATCH] [foo] [bar] message" "[foo]  [PATCH]  [bar] message" \
		"Re: Re: [PATCH] double reply" "[PATCH]message without space" \
		"[PATCH-v2] hyphen" "[PATCH] [PATCH 1/2] twice" "RE: [RFC] re" \
		"	 tab and spaces	" "[]" "[PATCH"
	do
		sep && printf "From: A <a@example.com>\nSubject: %s\n\nbody\n" "$subj" || return 1
	done >subjects.mbox &&
	{
		sep && printf "From:Real Name <user@example.com>\nSubject:no space\n\nbody\n" &&
		sep && printf "from: lower <l@example.com>\nSUBJECT: upper\nDATE: Mon, 1 Jan 2024 00:00:00 +0000\n\nbody\n" &&
		sep && printf "From: \"user@example.com\" <user@example.com>\nSubject: at in name\n\nbody\n" &&
		sep && printf "From: <only@example.com>\nSubject: angle only\n\nbody\n" &&
		sep && printf "From: only@example.com\nSubject: bare address\n\nbody\n" &&
		sep && printf "From: A very long name that goes on and on for more than sixty characters <l@example.com>\nSubject: long name\n\nbody\n" &&
		sep && printf "From: Two <a@example.com>, Three <b@example.com>\nSubject: two froms\n\nbody\n" &&
		sep && printf "From: First <f@example.com>\nSubject: first\nFrom: Last <l@example.com>\nSubject: last\n\nbody\n" &&
		sep && printf "From: A <a@example.com>\nSubject: in-body without blank line\n\nFrom: B <b@example.com>\nbody right after\n---\n--- a/f\n+++ b/f\n" &&
		sep && printf "From: A <a@example.com>\nSubject: in-body date only\n\nDate: Tue, 2 Jan 2024 00:00:00 +0000\n\nbody\n---\n--- a/f\n+++ b/f\n" &&
		sep && printf "From: A <a@example.com>\nSubject: two in-body froms\n\nFrom: B <b@example.com>\nFrom: C <c@example.com>\n\nbody\n---\n--- a/f\n+++ b/f\n"
	} >headers.mbox &&
	compare_with_git subjects -- subjects.mbox &&
	compare_with_git subjectsb -b -- subjects.mbox &&
	compare_with_git subjectsk -k -- subjects.mbox &&
	compare_with_git headers -- headers.mbox
'

test_expect_success 'the source gives every byte back: From line + message rebuilds the mbox' '
	test-mailinfo --raw unused corpus.mbox >rebuilt &&
	test_cmp corpus.mbox rebuilt &&
	test-mailinfo --raw unused from.mbox >rebuilt &&
	test_cmp from.mbox rebuilt &&
	# a single mail on standard input (not a file of shell: that is no mail)
	{ printf "Subject: a script\n\n" && cat "$MAINT_TEST_DIR/t0101-mailinfo-corpus.sh"; } >single.eml &&
	test-mailinfo --raw unused - <single.eml >single &&
	{ echo "From -" && cat single.eml; } >expect &&
	test_cmp expect single
'

test_expect_success 'a single message through a pipe is read whole, at any size' '
	for n in 1 3000
	do
		{
			printf "From: A <a@example.com>\nSubject: piped\n\n" &&
			test_seq $n | sed "s/^/line /"
		} >piped.eml &&
		{ echo "From -" && cat piped.eml; } >expect &&
		cat piped.eml | test-mailinfo --raw unused - >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'standard input, as "-" and as no argument' '
	test-mailinfo stdin-dash - <corpus.mbox &&
	test-mailinfo stdin-none <corpus.mbox &&
	test-mailinfo stdin-file corpus.mbox &&
	# every file of every message, in one diff -r each (which also fails
	# on a file one side has and the other not)
	diff -r -u stdin-file stdin-dash &&
	diff -r -u stdin-file stdin-none
'

test_done
