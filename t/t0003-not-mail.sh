#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='input that is not mail is refused before anything starts

A Makefile or a binary file given where mail is expected is refused by
mbox-split, dry-apply and queue as git am refuses it ("Patch format
detection failed."): one fatal line naming the file, exit 128, no
output, no queue state, no ref moved. git am is the oracle for what is
mail: what it refuses we refuse, what it takes we take.'
. ./test-lib.sh

test_expect_success 'setup: a repository, a patch mail, a Makefile, a binary file' '
	git init -q r &&
	(
		cd r &&
		echo a >a &&
		git add a &&
		test_commit base &&
		git branch work-next &&
		git branch usb-next &&
		echo b >>a &&
		git commit -q -a -m "add b" &&
		git format-patch -1 --stdout >../patch.mbox &&
		git reset -q --hard base
	) &&
	printf "# a comment\nall: prog\n\tcc -o prog prog.c\n" >Makefile &&
	printf "\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000" >binary &&
	head -c 4096 /dev/urandom >>binary &&
	sed -n "/^From: /,\$p" patch.mbox >headers-first.eml
'

test_expect_success 'git am refuses the Makefile and the binary file, takes the mail (the oracle)' '
	for f in Makefile binary
	do
		test_expect_code 128 git -C r am "$HOME/$f" 2>err &&
		grep "^Patch format detection failed" err &&
		test_path_is_missing r/.git/rebase-apply || return 1
	done &&
	git -C r am -q "$HOME/headers-first.eml" &&
	git -C r reset -q --hard base
'

# refused <file> <command...>: the command exits 128 with one fatal line
# naming the file and writes nothing to stdout.
refused () {
	file=$1 && shift &&
	test_expect_code 128 "$@" >out 2>err &&
	echo "fatal: patch format detection failed: $file is neither a mailbox nor a mail" >expect &&
	test_cmp expect err &&
	test_must_be_empty out
}

for f in Makefile binary
do
	test_expect_success "mbox-split refuses the $f, writing nothing" '
		refused "'\''$HOME/$f'\''" git maint-mbox-split "$HOME/patch.mbox" "$HOME/'$f'"
	'

	test_expect_success "mbox-split -o refuses the $f, making no file" '
		refused "'\''$HOME/$f'\''" git maint-mbox-split -o split "$HOME/patch.mbox" "$HOME/'$f'" &&
		test_path_is_missing split/0001
	'

	test_expect_success "dry-apply refuses the $f" '
		(cd r && refused "'\''$HOME/$f'\''" git maint-dry-apply --onto work-next "$HOME/'$f'")
	'

	test_expect_success "queue refuses the $f: no queue state, no ref moved" '
		git -C r rev-parse work-next usb-next >before &&
		(cd r && refused "'\''$HOME/$f'\''" git maint-queue usb-next "$HOME/patch.mbox" "$HOME/'$f'") &&
		test_path_is_missing r/.git/maint/queue &&
		git -C r rev-parse work-next usb-next >after &&
		test_cmp before after
	'
done

test_expect_success 'standard input that is not mail is refused too (when it is read)' '
	refused "standard input" git maint-mbox-split <Makefile &&
	echo "fatal: patch format detection failed: standard input is neither a mailbox nor a mail" >expect &&
	(cd r && test_expect_code 128 git-maint-queue usb-next <"$HOME/binary" 2>../err) &&
	test_cmp expect err &&
	test_path_is_missing r/.git/maint/queue
'

test_expect_success 'a mail that starts with its header (no From_ line) is mail, as for git am' '
	git-maint-mbox-split headers-first.eml >out &&
	grep "^Subject: \[PATCH\] add b" out &&
	(cd r && git-maint-queue -q usb-next "$HOME/headers-first.eml") &&
	git -C r log -1 --format=%s work-next >subject &&
	echo "add b" >expect &&
	test_cmp expect subject
'

test_expect_success 'a bare diff is a patch, as patch(1) takes it: dry-apply checks it, queue refuses it as git am does' '
	sed -n "/^diff --git/,/^-- \$/p" patch.mbox | sed "\$d" >bare.diff &&
	grep "^diff --git" bare.diff &&
	test_expect_code 128 git -C r am "$HOME/bare.diff" 2>err &&
	grep "^Patch format detection failed" err &&
	test_path_is_missing r/.git/rebase-apply &&
	(cd r && git-maint-dry-apply -q --onto base "$HOME/bare.diff") >out &&
	echo "base: the patch applies" >expect &&
	test_cmp expect out &&
	git -C r rev-parse work-next usb-next >before &&
	(cd r && refused "'\''$HOME/bare.diff'\''" git maint-queue usb-next "$HOME/bare.diff") &&
	test_path_is_missing r/.git/maint/queue &&
	git -C r rev-parse work-next usb-next >after &&
	test_cmp before after
'

test_expect_success 'an empty file is no mail, not an error (as before)' '
	>empty &&
	test_expect_code 1 git-maint-mbox-split empty >out 2>err &&
	test_must_be_empty out &&
	grep "^warning: no messages found in empty" err
'

test_done
