#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-mbox-split: mbox, mboxrd, directory and listing output; inputs'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-mbox-split.sh"

test_expect_success 'setup: the generated small corpus' '
	small_corpus mbox
'

test_expect_success 'round trip: everything, in input order, gives the same bytes' '
	git-maint-mbox-split --all-versions --input-order mbox >out &&
	test_cmp mbox out
'

test_expect_success 'round trip through a pipe (stdin spooled) gives the same bytes' '
	cat mbox | git-maint-mbox-split --all-versions --input-order >out &&
	test_cmp mbox out &&
	cat mbox | git-maint-mbox-split --all-versions --input-order - >out &&
	test_cmp mbox out
'

test_expect_success 'stdin and a file give the same selection' '
	git-maint-mbox-split --touches drivers/usb mbox >from-file &&
	cat mbox | git-maint-mbox-split --touches drivers/usb >from-pipe &&
	test_cmp from-file from-pipe &&
	grep -c "^From [0-9a-f]\{40\} " from-file >n &&
	test $(cat n) -gt 10
'

test_expect_success 'output is a valid mbox: git mailsplit splits it into the selected count' '
	git-maint-mbox-split --format=%m --touches drivers/usb mbox >ids &&
	mkdir again &&
	git mailsplit -oagain from-file >count &&
	test $(cat count) = $(wc -l <ids)
'

test_expect_success '-o writes the same files as git mailsplit' '
	git-maint-mbox-split --all-versions --input-order -o ours mbox >count &&
	mkdir theirs &&
	git mailsplit -otheirs mbox >theirs-count &&
	test_cmp theirs-count count &&
	diff -r theirs ours
'

test_expect_success 'round trip: the -o files put together are the mailbox' '
	cat ours/* >joined &&
	test_cmp mbox joined
'

test_expect_success '-o numbers files in output order, never from headers' '
	{
		msg b2 b0 "[PATCH 2/2] ../../escape" drivers/usb/b.c &&
		msg b0 - "[PATCH 0/2] /tmp/x" &&
		msg b1 b0 "[PATCH 1/2] name" drivers/usb/a.c
	} >names &&
	git-maint-mbox-split -q -o named names >out &&
	test_must_be_empty out &&
	ls named >actual &&
	printf "%s\n" 0001 0002 0003 >expect &&
	test_cmp expect actual &&
	grep "^Subject: \[PATCH 0/2\]" named/0001 &&
	grep "^Subject: \[PATCH 1/2\]" named/0002 &&
	grep "^Subject: \[PATCH 2/2\]" named/0003 &&
	test_path_is_missing ../escape &&
	test_path_is_missing /tmp/x
'

test_expect_success '-o replaces a symlink already in the directory without following it' '
	mkdir links &&
	echo precious >outside &&
	ln -s ../outside links/0001 &&
	git-maint-mbox-split -q -o links names &&
	echo precious >expect &&
	test_cmp expect outside &&
	test ! -h links/0001 &&
	grep "^Subject: \[PATCH 0/2\]" links/0001
'

test_expect_success '-o refuses a directory that is a symlink' '
	mkdir real &&
	ln -s real linkdir &&
	test_expect_code 128 git-maint-mbox-split -o linkdir names 2>err &&
	grep "linkdir" err &&
	ls real >actual &&
	test_must_be_empty actual
'

test_expect_success '-o replaces an existing file of the same name' '
	mkdir again2 &&
	echo old >again2/0002 &&
	git-maint-mbox-split -q -o again2 names &&
	grep "^Subject: \[PATCH 1/2\]" again2/0002
'

test_expect_success 'mboxrd input and output: >From lines survive a round trip' '
	cat >rd <<-\EOF &&
	From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.com>
	Subject: quoting
	Message-ID: <rd@example.com>

	>From the start
	>>From twice
	From-less line
	EOF
	git-maint-mbox-split --input-mboxrd --mboxrd rd >out &&
	test_cmp rd out
'

test_expect_success 'mboxrd input is unquoted in -o files, as git mailsplit --mboxrd does' '
	git-maint-mbox-split -q --input-mboxrd -o rdout rd &&
	mkdir rdgit &&
	git mailsplit --mboxrd -ordgit rd >/dev/null &&
	test_cmp rdgit/0001 rdout/0001
'

test_expect_success 'mboxrd output quotes From lines of a plain mbox' '
	git-maint-mbox-split --mboxrd rd >out &&
	grep "^>>From the start" out &&
	grep "^>>>From twice" out
'

test_expect_success 'mbox output quotes a separator-like body line of a single-message file' '
	cat >single <<-\EOF &&
	From: A U Thor <author@example.com>
	Subject: a file, not an mbox
	Message-ID: <single@example.com>

	From someone Mon Sep 17 00:00:00 2001
	From the heart
	EOF
	git-maint-mbox-split single >out &&
	grep "^>From someone Mon Sep 17 00:00:00 2001" out &&
	grep "^From the heart" out &&
	mkdir single-split &&
	git mailsplit -osingle-split out >count &&
	echo 1 >expect &&
	test_cmp expect count
'

test_expect_success 'a Maildir folder is read like git mailsplit reads it' '
	mkdir -p md/cur md/new md/tmp &&
	msg m1 - "[PATCH] usb: one" drivers/usb/a.c | sed 1d >md/cur/1.host:2,S &&
	msg m2 - "[PATCH] net: two" drivers/net/b.c | sed 1d >md/new/2.host &&
	selected --touches drivers/usb md &&
	echo m1 >expect &&
	test_cmp expect selected
'

test_expect_success 'several inputs are read in order' '
	msg f1 - "[PATCH] usb: one" drivers/usb/a.c >one &&
	msg f2 - "[PATCH] usb: two" drivers/usb/b.c >two &&
	selected two one &&
	printf "%s\n" f2 f1 >expect &&
	test_cmp expect selected
'

test_expect_success 'CRLF mailboxes are read as git mailsplit reads them' '
	sed "s/\$/\r/" one >crlf &&
	git-maint-mbox-split -q -o crlfout crlf &&
	mkdir crlfgit &&
	git mailsplit -ocrlfgit crlf >/dev/null &&
	test_cmp crlfgit/0001 crlfout/0001 &&
	git-maint-mbox-split -q --keep-cr -o crlfkeep crlf &&
	mkdir crlfgitkeep &&
	git mailsplit --keep-cr -ocrlfgitkeep crlf >/dev/null &&
	test_cmp crlfgitkeep/0001 crlfkeep/0001
'

test_expect_success 'the default listing: number, Message-ID, author, date, subject, paths' '
	AUTHOR="Lan Tianyu <tianyu.lan@intel.com>" \
		msg l1 - "[PATCH v2 1/1] usb: fix" drivers/usb/a.c drivers/usb/b.c >list-mbox &&
	git-maint-mbox-split --list list-mbox >actual &&
	printf "1\tl1@example.com\tLan Tianyu <tianyu.lan@intel.com>\tFri, 17 Aug 2012 10:00:00 +0000\t[PATCH v2 1/1] usb: fix\tdrivers/usb/a.c drivers/usb/b.c\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--format placeholders' '
	git-maint-mbox-split --format="%I|%S|%v|%k|%K|%P|%at|%o|%%|%x41%nnext" list-mbox >actual &&
	printf "1|usb: fix|2|1|1|patch|1345197600|list-mbox|%%|A\nnext\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'output to a closed pipe ends quietly' '
	git-maint-mbox-split mbox 2>err | head -1 >first &&
	grep "^From " first &&
	test_must_be_empty err
'

test_expect_success 'an empty mailbox selects nothing: exit 1, saying so' '
	>empty &&
	test_expect_code 1 git-maint-mbox-split empty >out 2>err &&
	test_must_be_empty out &&
	echo "warning: no messages found in empty" >expect &&
	test_cmp expect err &&
	test_expect_code 1 git-maint-mbox-split --touches drivers/usb - <empty >out 2>err &&
	echo "warning: no messages found in standard input" >expect &&
	test_cmp expect err &&
	test_expect_code 1 git-maint-mbox-split -q empty 2>err &&
	test_must_be_empty err
'

test_expect_success 'mail that matches nothing is not called empty' '
	test_expect_code 1 git-maint-mbox-split --touches no/such/dir mbox >out 2>err &&
	test_must_be_empty out &&
	! grep "no messages" err
'

test_expect_success 'a missing input: exit 128 naming it' '
	test_expect_code 128 git-maint-mbox-split no-such-file >out 2>err &&
	grep "no-such-file" err
'

test_expect_success 'a bad message is reported and skipped, the others are written: exit 1' '
	{
		msg g1 - "[PATCH] usb: good" drivers/usb/a.c &&
		printf "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n" &&
		printf "From: A U Thor <author@example.com>\nSubject: =?UTF-8?q?bad=00nul?=\n\nbody\n" &&
		msg g3 - "[PATCH] usb: good too" drivers/usb/b.c
	} >bad &&
	test_expect_code 1 git-maint-mbox-split --author Thor --format=%m bad >actual 2>err &&
	grep "message 2" err &&
	printf "%s\n" g1@example.com g3@example.com >expect &&
	test_cmp expect actual
'

test_expect_success 'a message over --max-message-size is reported and skipped: exit 1' '
	{
		msg s1 - "[PATCH] usb: small" drivers/usb/a.c &&
		msg s2 - "[PATCH] usb: big" drivers/usb/b.c $(seq -f "drivers/usb/f%g.c" 1 40) &&
		msg s3 - "[PATCH] usb: small too" drivers/usb/c.c
	} >sizes &&
	test_expect_code 1 git-maint-mbox-split --max-message-size 2000 sizes >out 2>err &&
	grep "sizes: message 2 exceeds max size (2000 bytes)" err &&
	grep "^Message-ID: <s[13]@" out >ids &&
	test_line_count = 2 ids &&
	test_expect_code 129 git-maint-mbox-split --max-message-size -1 sizes
'

test_expect_success 'an oversized message is exit 1 when every message is written as read too' '
	test_expect_code 1 git-maint-mbox-split --all-versions --input-order \
		--max-message-size 2000 sizes >out 2>err &&
	grep "sizes: message 2 exceeds max size" err &&
	grep "^Message-ID: <s[13]@" out >ids &&
	test_line_count = 2 ids &&
	test_expect_code 1 git-maint-mbox-split -q --all-versions --input-order \
		--max-message-size 2000 -o split sizes 2>err &&
	grep "message 2 exceeds max size" err &&
	ls split >files &&
	test_line_count = 2 files
'

test_expect_success 'an unreadable input is still exit 128 next to an oversized message' '
	test_expect_code 128 git-maint-mbox-split --max-message-size 2000 sizes no-such-file >out 2>err &&
	grep "message 2 exceeds max size" err &&
	grep "no-such-file" err
'

test_expect_success 'mbox.max-message-size from the XDG config file applies' '
	mkdir -p "$HOME/.config/git-maint" &&
	printf "[mbox]\n\tmax-message-size = 2000\n" >"$HOME/.config/git-maint/config" &&
	test_expect_code 1 git-maint-mbox-split sizes >out 2>err &&
	grep "sizes: message 2 exceeds max size (2000 bytes)" err &&
	grep "^Message-ID: <s[13]@" out >ids &&
	test_line_count = 2 ids
'

test_expect_success 'the command line wins over mbox.max-message-size (0: no limit)' '
	git-maint-mbox-split --max-message-size 0 sizes >out &&
	grep "^Message-ID: <s[123]@" out >ids &&
	test_line_count = 3 ids &&
	test_expect_code 129 git-maint-mbox-split --max-message-size 2k sizes
'

test_expect_success 'the repository maint.ini wins over the XDG file, found from a subdirectory' '
	test_when_finished "rm -rf repo" &&
	git init -q repo &&
	mkdir repo/sub &&
	printf "[mbox]\nmax-message-size = 0\n" >repo/.git/maint.ini &&
	(cd repo/sub && git-maint-mbox-split ../../sizes) >out &&
	grep "^Message-ID: <s[123]@" out >ids &&
	test_line_count = 3 ids &&
	GIT_DIR=repo/.git git-maint-mbox-split sizes >out &&
	grep "^Message-ID: <s[123]@" out >ids &&
	test_line_count = 3 ids
'

test_expect_success 'a linked worktree reads maint.ini of the main repository' '
	test_when_finished "rm -rf repo wt" &&
	git init -q repo &&
	git -C repo commit -q --allow-empty -m initial &&
	git -C repo worktree add -q ../wt &&
	printf "[mbox]\nmax-message-size = 0\n" >repo/.git/maint.ini &&
	(cd wt && git-maint-mbox-split ../sizes) >out &&
	grep "^Message-ID: <s[123]@" out >ids &&
	test_line_count = 3 ids
'

test_expect_success 'a bad mbox.max-message-size is an error naming file:line' '
	printf "[mbox]\nmax-message-size = big\n" >"$HOME/.config/git-maint/config" &&
	test_expect_code 128 git-maint-mbox-split sizes >out 2>err &&
	grep "config:2: bad value .big. for .max-message-size." err &&
	rm "$HOME/.config/git-maint/config"
'

test_done
