#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Writes the seed corpora of the fuzz targets, t/fuzz/corpus/<name>/:
# a few small inputs per target, each the shape its target reads (see
# the comment at the top of t/fuzz/fuzz-<name>.c), covering the formats
# the parser knows. Run it again after changing it; commit its output.
set -e
cd "$(dirname "$0")"
rm -rf corpus
mkdir -p corpus/mbox corpus/header corpus/mime corpus/mailinfo corpus/patch \
	corpus/apply corpus/delta corpus/config corpus/date corpus/archive corpus/imap corpus/smtp-reply
sep="From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001"
diff='diff --git a/f b/f
index 1234567..89abcde 100644
--- a/f
+++ b/f
@@ -1,3 +1,3 @@
 a
-b
+B
 c
'

# mbox: knobs byte (1 mboxrd, 2 keep CR, 4 strict, 8|16 size limit, 32 file, 64 pipe), mailbox
printf '\140%s\nFrom: A <a@x.org>\nSubject: a\n\nbody\nFrom me\n>From y Mon Sep 17 00:00:00 2001\n\n%s\nSubject: b\n\nb\n' "$sep" "$sep" >corpus/mbox/two
printf '\143%s\r\nSubject: a\r\n\r\n>>From z\r\n>From y Mon Sep 17 00:00:00 2001\r\n' "$sep" >corpus/mbox/mboxrd-crlf
printf '\150\n\nSubject: single\n\nFrom x Mon Sep 17 00:00:00 2001\n' >corpus/mbox/single
printf '\170%s\nSubject: big\n\n%0300d\n%s\nSubject: small\n\nx\n' "$sep" 0 "$sep" >corpus/mbox/oversized

# header: a header block
printf 'From: =?UTF-8?q?J=C3=B6rg?= "Q. Uoted" (comment (nested)) <j@x.org>\nSubject: [PATCH v2 1/2] =?iso-8859-1?b?Zvxy?=\n =?utf-8?q?_fold?=\nTo: a@x.org, "B, C" <b@x.org>, undisclosed:;\nMessage-ID: <1@x.org>\nReferences: <0@x.org>\n <1@x.org>\nContent-Type: text/plain; charset="utf-8"; format=flowed\n\n' >corpus/header/typical
printf 'Subject: Re: [RFC PATCH 3/10] =?utf-8*en?Q?=E2=9C=93?= =?bad?x?y?=\nFrom: <=?utf-8?b?w6k=?=@x.org>\nIn-Reply-To: no brackets here\n\n' >corpus/header/odd

# mime: charset selector byte, then bytes to decode
printf '\000SGVsbG8sIHdvcmxkIQo=\n' >corpus/mime/base64
printf '\001caf=E9 =3D=\nsoft break=20\n' >corpus/mime/qp
printf '\004\033$B$3$s$K$A$O\033(B\n' >corpus/mime/iso-2022-jp
printf '\002text/plain; charset="windows-1252"; boundary=--B_1\n' >corpus/mime/params

# mailinfo: knobs byte (see fuzz-mailinfo.c), mailbox
printf '\000%s\nFrom: =?UTF-8?q?J=C3=B6rg?= <j@x.org>\nSubject: [PATCH v2 1/2] a\n\nm\n---\n%s' "$sep" "$diff" >corpus/mailinfo/plain
printf '\001%s\nFrom: A <a@x.org>\nSubject: b\nContent-Type: multipart/mixed; boundary=B\n\n--B\nContent-Transfer-Encoding: base64\n\nbQotLS0KZGlmZiAtLWdpdCBhL2YgYi9mCg==\n--B--\n' "$sep" >corpus/mailinfo/mime
printf '\020%s\nFrom: A <a@x.org>\nSubject: c\nContent-Transfer-Encoding: quoted-printable\n\nx=3D\n-- >8 --\nFrom: B <b@x.org>\n\n---\n--- a/g\n+++ b/g\n' "$sep" >corpus/mailinfo/qp-scissors

# patch: -p selector byte, patch text
printf '\000%s' "$diff" >corpus/patch/modify
printf '\000diff --git a/old b/new\nsimilarity index 90%%\nrename from old\nrename to new\n--- a/old\n+++ b/new\n@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file\ndiff --git a/e b/e\nold mode 100644\nnew mode 100755\ndiff --git "a/q\\tx" "b/q\\tx"\nnew file mode 100644\nindex 0000000..e69de29\n' >corpus/patch/rename-mode-quoted
printf '\002Index: x/y/f\n===\n--- x/y/f.orig\n+++ x/y/f\n@@ -1,2 +1,2 @@ section\n a\n-b\n+c\n' >corpus/patch/quilt
printf '\000diff --git a/b b/b\nindex 1234567..89abcde 100644\nGIT binary patch\nliteral 5\nMcmZQzWMT#Y01a>gTmS$7\n\nliteral 0\nHcmV?d00001\n\n' >corpus/patch/binary
printf '\000*** a/f\n--- b/f\n***************\n*** 1 ****\n! a\n--- 1 ----\n! b\n' >corpus/patch/context-diff

# apply: knobs byte (1 -3, 2|4 fuzz, 8|16 check-only, 32 write the tree), f's content, NUL, patches separated by NUL
printf '\040a\nb\nc\n\000%s\000diff --git a/f b/g\nsimilarity index 100%%\nrename from f\nrename to g\n' "$diff" >corpus/apply/modify-rename
printf '\043a\nb\nc\nd\n\000diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -3,3 +3,3 @@\n 3\n-x\n+y\n 5\n\000diff --git a/link/x b/link/x\nnew file mode 100644\n--- /dev/null\n+++ b/link/x\n@@ -0,0 +1 @@\n+x\n' >corpus/apply/3way-fuzz-symlink
printf '\040x\n\000diff --git a/dir/sub/c b/dir/sub/c\ndeleted file mode 100644\n--- a/dir/sub/c\n+++ /dev/null\n@@ -1 +0,0 @@\n-c\n\000diff --git a/exec.sh b/exec.sh\nold mode 100755\nnew mode 100644\n\000diff --git a/n/e/w b/n/e/w\nnew file mode 120000\n--- /dev/null\n+++ b/n/e/w\n@@ -0,0 +1 @@\n+../a.txt\n\\ No newline at end of file\n' >corpus/apply/delete-mode-newlink

# delta: knobs byte (1 source size, 2 result size given), source length, source, commands
printf '\003\010abcdefgh\220\004\003xyz\221\002\002' >corpus/delta/copy-insert
printf '\003\000\005hello' >corpus/delta/empty-source
printf '\000\004abcd\004\004\200' >corpus/delta/raw-header

# config: an INI file
printf '[tree "usb"]\n\tpublic = main\n\twork = work-next\n\tsignoff = yes\n[queue]\nfuzz = 2\n3way = off\n[mbox]\nmax-message-size = 1048576\n; comment\n[smtp]\n  encryption = tls\n' >corpus/config/typical
printf '[tree]\npublic = x\n[Queue]\nFUZZ = -1\n[unknown]\nkey\n' >corpus/config/bad

# date: the text of a date
printf 'Thu, 7 Apr 2005 15:14:13 -0700' >corpus/date/rfc2822
printf '2005-04-07T22:14:13Z' >corpus/date/iso
printf '@1112911993 +0000' >corpus/date/internal
printf '1/2/03 11:30 pm PDT' >corpus/date/us
printf '2012-08-17 10:31' >corpus/date/select-iso

# archive: knobs byte (1 gzip'ed, 2|4 piece size, 8|16 what is picked, 32 small size limit), the thread
thread() {
	for v in 1 2
	do
		for k in 0 1 2
		do
			printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: A <a@x.org>\nSubject: [PATCH v%d %d/2] p%d\nMessage-ID: <%s@x>\n' $v $k $k "$([ $v$k = 10 ] && echo 1 || echo $v$k)"
			[ $k = 0 ] || printf 'In-Reply-To: <%s@x>\n' "$([ $v = 1 ] && echo 1 || echo ${v}0)"
			printf '\n>From the cover\n'
			[ $k = 0 ] || printf -- '---\n%s' "$diff"
			printf '\n'
		done
	done
	printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: B <b@x.org>\nSubject: Re: [PATCH v1 1/2] p1\nMessage-ID: <r@x>\nIn-Reply-To: <11@x>\n\nReviewed-by: B <b@x.org>\n'
}
{ printf '\000'; thread; } >corpus/archive/thread-whole
{ printf '\010'; thread; } >corpus/archive/thread-v1
{ printf '\001'; thread | gzip -9n; } >corpus/archive/gzip-whole
{ printf '\033'; thread | gzip -1n; printf '' | gzip -n; } >corpus/archive/gzip-members-v2
{ printf '\045'; thread | gzip -n | head -c 150; } >corpus/archive/gzip-cut-short

# smtp-reply: piece size byte (1, 2, 3, 5, 16, 100, 4097 or whole), what the server sends
printf '\003220 mx.example.org ESMTP ready\r\n250-mx.example.org\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250 8BITMIME\r\n250 2.1.0 Ok\r\n550 5.1.1 <x@y>: unknown user\r\n354 End data with <CR><LF>.<CR><LF>\r\n250 2.0.0 Ok: queued as 1\r\n221 Bye\r\n' >corpus/smtp-reply/session
printf '\000452-4.5.3 too\n452 4.5.3 many recipients\n421\n250x\n' >corpus/smtp-reply/bare-lf-and-bad
{ printf '\006250-'; head -c 4100 /dev/zero | tr '\0' a; printf '\r\n250 ok\r\n'; } >corpus/smtp-reply/long-line

# imap: knobs byte (1 unseen, 2 since, 4 mark-seen, 8|16|32 piece size, 64 small size limit,
# 128 non-ASCII folder), what the server says after the login (tags M1, M2, ...)
msg='From: A <a@x.org>\r\nSubject: [PATCH] a\r\nMessage-ID: <1@x>\r\n\r\nbody\r\n'
imap_fetch() {
	printf '* %d FETCH (UID %d BODY[] {%d}\r\n' "$1" "$1" "$(printf "$msg" | wc -c)"
	printf "$msg"
	printf ')\r\n'
}
{ printf '\010* 2 EXISTS\r\n* FLAGS (\\Seen)\r\nM1 OK [READ-ONLY] EXAMINE done\r\n* SEARCH 2 1\r\nM2 OK done\r\n'
	imap_fetch 1; imap_fetch 2; printf 'M3 OK done\r\n* BYE bye\r\nM4 OK done\r\n'; } >corpus/imap/two
{ printf '\117M1 OK [READ-WRITE] SELECT done\r\n* SEARCH 7\r\nM2 OK\r\n* 7 FETCH (FLAGS (\\Seen) UID 7 BODY[] {300}\r\n'
	head -c 300 /dev/zero | tr '\0' x; printf ')\r\n* 9 FETCH (UID 9 BODY[HEADER] {3}\r\nabc)\r\nM3 OK\r\nM4 OK stored\r\nM5 OK\r\n'; } >corpus/imap/mark-seen-oversized
printf '\203M1 OK\r\n* SEARCH\r\nM2 NO [CANNOT] search refused\r\n' >corpus/imap/refused
printf '\020M1 OK\r\n* SEARCH 1\r\nM2 OK\r\n* BYE going away\r\n' >corpus/imap/bye
