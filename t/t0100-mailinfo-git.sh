#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='the mail core extracts what git mailsplit + git mailinfo extract

Every message of a varied corpus (git format-patch output of odd commits,
and hand-written mails: RFC 2047, quoted-printable, base64, MIME
attachments, in-body headers, scissors, CRLF, mboxrd) goes through
test-mailinfo (source + mailinfo_parse) and through git mailsplit and
git mailinfo; author, email, subject, date, message and patch must be
byte-identical.'
. ./test-lib.sh

. "$MAINT_TEST_DIR/lib-mail.sh"

test_expect_success 'a repository with odd commits' '
	git init -q repo &&
	(
		cd repo &&
		mkdir -p drivers/usb/core "dir with space" &&
		printf "one\ntwo\nthree\n" >drivers/usb/core/hub.c &&
		printf "x\n" >README &&
		git add . && test_tick && git commit -q -m "initial" &&

		echo four >>drivers/usb/core/hub.c &&
		test_tick &&
		GIT_AUTHOR_NAME="Jörg Müller-Lüdenscheidt" git commit -q -a \
			-m "usb: hub: add a fourth line" -m "Body with ümlauts and a Signed-off-by.

Signed-off-by: Jörg Müller-Lüdenscheidt <author@example.com>" &&

		git mv drivers/usb/core/hub.c drivers/usb/core/hub2.c &&
		test_tick && git commit -q -m "usb: rename hub.c" &&

		echo y >"dir with space/file name.txt" &&
		printf "\303\244\n" >"drivers/usb/\303\244.c" &&
		git add . && test_tick &&
		git commit -q -m "[RFC] odd [brackets] in the subject" \
			-m "A message line starting with From someone at 10:20:30 1999
and a line with --- inside, and a diff -u mention." &&

		printf "\000\001\002binary\377" >drivers/usb/blob.bin &&
		git add . && test_tick && git commit -q -m "add a binary file" &&

		chmod +x README && git add README && test_tick &&
		git commit -q -m "Re: make README executable" &&

		git config i18n.commitEncoding ISO-8859-1 &&
		echo five >>drivers/usb/core/hub2.c &&
		test_tick &&
		printf "caf\351: latin-1 subject\n\nna\357ve body\n" >../latin1-msg &&
		GIT_AUTHOR_NAME="$(printf "Ren\351 Latin")" git commit -q -a -F ../latin1-msg &&
		git config --unset i18n.commitEncoding &&

		git rm -q "dir with space/file name.txt" &&
		test_tick &&
		git commit -q -m "a very long subject line that goes on and on and on well past the point where mail headers get folded by format-patch" &&

		printf "a\r\nb\r\n" >crlf.txt && git add crlf.txt && test_tick &&
		git commit -q -m "add a file with CRLF lines" &&

		mkdir -p "x b" && echo m >"x b/y b.sh" && printf "t\n" >"tab	name" &&
		echo l >"\"quoted\"" && ln -s README link &&
		git add . && test_tick && git commit -q -m "odd names: tab, quotes, \" b/\", symlink" &&
		chmod +x "x b/y b.sh" && git add . && test_tick &&
		git commit -q -m "mode only, on a name with \" b/\" inside" &&
		git mv "tab	name" "tab	renamed" && git rm -q link && test_tick &&
		git commit -q -m "rename a quoted name, delete a symlink" &&
		seq 1 50 >big.txt && git add big.txt && test_tick && git commit -q -m "big file" &&
		cp big.txt copy.txt && echo 51 >>copy.txt && git add copy.txt && test_tick &&
		git commit -q -m "copy a file"
	)
'

test_expect_success 'format-patch mbox' '
	git -C repo format-patch -q --stdout --root -M >fp.mbox &&
	compare_with_git fp -- fp.mbox
'

test_expect_success 'the paths of every patch are those the commit changes, both names of a rename' '
	compare_paths_with_commits ours-fp repo HEAD
'

test_expect_success 'copies (format-patch -C): both names' '
	git -C repo format-patch -q --stdout -C -C --root >copies.mbox &&
	grep "^copy from" copies.mbox &&
	compare_with_git copies -- copies.mbox &&
	DIFF_TREE_OPTS="-C -C" compare_paths_with_commits ours-copies repo HEAD
'

test_expect_success 'format-patch with cover letter, numbering, v2 and RFC prefix' '
	git -C repo format-patch -q --stdout -v2 --cover-letter --subject-prefix="RFC PATCH" \
		--thread --in-reply-to="<orig@example.com>" -n -3 >v2.mbox &&
	compare_with_git v2 -- v2.mbox
'

test_expect_success 'format-patch --attach and --inline (MIME)' '
	git -C repo format-patch -q --stdout --attach -3 >attach.mbox &&
	compare_with_git attach -- attach.mbox &&
	compare_paths_with_commits ours-attach repo -3 HEAD &&
	git -C repo format-patch -q --stdout --inline -3 >inline.mbox &&
	compare_with_git inline -- inline.mbox
'

test_expect_success 'format-patch with -k and -b subjects' '
	compare_with_git fpk -k -- fp.mbox &&
	compare_with_git fpb -b -- fp.mbox &&
	compare_with_git v2k -k -- v2.mbox &&
	compare_with_git v2b -b -- v2.mbox
'

test_expect_success 'format-patch with -m (Message-ID into the message)' '
	compare_with_git v2m -m -- v2.mbox
'

test_done
