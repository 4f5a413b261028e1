#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='one message set, whatever the source: the same thread from a file, a public-inbox archive and an IMAP folder gives the same series, trailers and commits'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-imap.sh"
. "$MAINT_TEST_DIR/lib-archive.sh"

if ! test_have_prereq PUBLIC_INBOX || ! test_have_prereq DOVECOT
then
	skip_all='needs public-inbox and dovecot'
	test_done
fi

# commits <branch>: what a commit is made of, for the last commits of
# <branch> since work-next: tree, author, date and message (the ids too:
# the committer and its date are pinned).
commits () {
	git log --format="%H %T %an <%ae> %ad%n%B" "work-next..$1"
}

# report <dry-apply output>: without what tells of the list's second copy
# of A 2/3, in the file and the folder, not in the archive (one copy a
# Message-ID): the line stepping over it, and the count in "Checking".
report () {
	grep -v -e "^Skipping duplicate: " -e "^Checking " "$1"
}

test_expect_success 'setup: the week of mail in a file, in public-inbox over https, and in an IMAP folder' '
	todo_setup &&
	git config user.name "C O Mitter" &&
	git config user.email committer@example.com &&
	# the archive holds one copy of a message: not the list'"'"'s second copy of A 2/3 (I), the last
	n=$(grep -n "^From [0-9a-f]* Mon Sep 17 00:00:00 2001\$" TODO | tail -n 1 | cut -d: -f1) &&
	tail -n +$n TODO | grep "^List-Id: " &&
	head -n $((n - 1)) TODO >archive.mbox &&
	archive_init linux-usb -L basic &&
	archive_deliver linux-usb archive.mbox &&
	start_archive https &&
	start_keyring &&
	start_imap &&
	mkdir split &&
	git mailsplit -osplit TODO >/dev/null &&
	imap_append INBOX/usb "" split/* &&
	keyring_store "$IMAP_PASSWORD" protocol imaps server 127.0.0.1 port "$IMAP_PORT" user "$IMAP_USER" &&
	cat >.git/maint.ini <<-EOF &&
	[archive]
		url = $ARCHIVE_URL/linux-usb/
		cainfo = $TRASH_DIRECTORY/tls/cert.pem
	[imap]
		cainfo = $IMAP_CA
	EOF
	IMAP_URL="imaps://$IMAP_USER@127.0.0.1:$IMAP_PORT/INBOX/usb" &&
	echo "$IMAP_URL" >imap.url
'

# A: a cover letter with an Acked-by, a Reviewed-by on 2/3; D: a partial
# reroll (v2 3/4 in reply to v1 3/4) with a Reviewed-by on it.
for s in A:todo/A/0000-cover-letter.patch D:todo/D1/0000-cover-letter.patch
do
	name=${s%%:*} cover=${s#*:}
	test_expect_success "series $name: the same selection from the file, the archive and the folder" '
		id=$(msgid '"$cover"') &&
		git-maint-dry-apply --onto work-next --series "$id" TODO >out &&
		report out >expect &&
		git-maint-dry-apply --onto work-next "<$id>" >out &&
		report out >actual &&
		test_cmp expect actual &&
		git-maint-dry-apply --onto work-next --series "$id" "$(cat imap.url)" >out &&
		report out >actual &&
		test_cmp expect actual &&
		grep "^    + " expect &&
		grep "^Skipping reply: " expect
	'

	test_expect_success "series $name: the same commits, trailers and ids from the three" '
		id=$(msgid '"$cover"') &&
		git branch -f '"$name"'-file work-next &&
		git branch -f '"$name"'-archive work-next &&
		git branch -f '"$name"'-imap work-next &&
		git-maint-queue -q --series "$id" '"$name"'-file TODO &&
		git-maint-queue -q '"$name"'-archive "<$id>" &&
		git-maint-queue -q --series "$id" '"$name"'-imap "$(cat imap.url)" &&
		commits '"$name"'-file >expect &&
		commits '"$name"'-archive >actual &&
		test_cmp expect actual &&
		commits '"$name"'-imap >actual &&
		test_cmp expect actual &&
		grep "^Reviewed-by: $TODO_REV\$" expect
	'
done

test_expect_success 'series A: the cover letter'"'"'s Acked-by reached every commit, from each source' '
	for b in A-file A-archive A-imap
	do
		test $(git log --format=%B work-next..$b | grep -c "^Acked-by: $TODO_ACK\$") = 3 || return 1
	done
'

test_done
