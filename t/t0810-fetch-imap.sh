#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='mail from an IMAP folder: dovecot on loopback over TLS, the password from the Secret Service as git keeps it, unseen only, flags untouched'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-keyring.sh"
. "$MAINT_TEST_DIR/lib-imap.sh"

if ! test_have_prereq DOVECOT
then
	skip_all='dovecot is not installed'
	test_done
fi

mid () {
	sed -n 's/^[Mm][Ee][Ss][Ss][Aa][Gg][Ee]-[Ii][Dd]: *<\(.*\)>$/\1/p' "$1" | sed -n 1p
}

imap_config () {
	printf "[imap]\n\tcainfo = %s\n" "$IMAP_CA" >"$1/.git/maint.ini"
}

test_expect_success 'setup: a series of three in INBOX/TODO, the first read, a reply; the password in the keyring' '
	start_keyring &&
	start_imap &&
	git init -q r &&
	(
		cd r &&
		printf "%s\n" one two three four five six >frob.c &&
		git add frob.c &&
		test_tick &&
		git commit -q -m "frob: the start" &&
		git checkout -q -b topic &&
		for w in one three five
		do
			sed -i s/$w/$w-x/ frob.c &&
			test_tick &&
			git commit -q -a -m "frob: $w" || exit 1
		done &&
		git checkout -q main &&
		git format-patch -q --thread=shallow -o ../p main..topic
	) &&
	cat >reply.eml <<-EOF &&
	From: Rev Iewer <reviewer@example.com>
	Subject: Re: [PATCH 1/3] frob: one
	Message-ID: <reply@example.com>
	In-Reply-To: <$(mid p/0001-*.patch)>
	Date: Fri, 1 Apr 2005 12:00:00 +0000

	Fine.
	EOF
	# with the folders of later tests (outside ASCII; unread, for
	# ?mark-seen), in one login: an IMAP client costs a python with ssl
	imap_append INBOX/TODO "\\Seen" p/0001-*.patch -- \
		INBOX/TODO "" p/0002-*.patch p/0003-*.patch -- \
		INBOX/TODO "\\Seen" reply.eml -- \
		INBOX/Series "" p/*.patch -- \
		"Entw&APw-rfe" "" p/0002-*.patch -- \
		INBOX/Fresh "" p/0001-*.patch p/0002-*.patch &&
	cat p/*.patch >series.mbox &&
	keyring_store "$IMAP_PASSWORD" protocol imaps server 127.0.0.1 port "$IMAP_PORT" user "$IMAP_USER" &&
	imap_config r &&
	URL="imaps://$IMAP_USER@127.0.0.1:$IMAP_PORT/INBOX/TODO" &&
	# as messages show it: without the user-info, as git shows URLs
	SHOWN_URL="imaps://127.0.0.1:$IMAP_PORT/INBOX/TODO"
'

test_expect_success 'every message of the folder, in order; no flag changed' '
	imap_flags INBOX/TODO >before &&
	grep -c Seen before >seen &&
	echo 2 >expect &&
	test_cmp expect seen &&
	for f in p/0001-*.patch p/0002-*.patch p/0003-*.patch
	do
		mid $f || return 1
	done >expect &&
	echo reply@example.com >>expect &&
	in_repo r git-maint-mbox-split --input-order --format=%m "$URL" >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	imap_flags INBOX/TODO >after &&
	test_cmp before after
'

test_expect_success '?unseen: only the unread messages, and they stay unread' '
	imap_flags INBOX/TODO >before &&
	for f in p/0002-*.patch p/0003-*.patch
	do
		mid $f || return 1
	done >expect &&
	in_repo r git-maint-mbox-split --input-order --format=%m "$URL?unseen" >actual 2>err &&
	test_cmp expect actual &&
	imap_flags INBOX/TODO >after &&
	test_cmp before after
'

test_expect_success 'dry-apply and queue: the same from the folder as from the local mbox' '
	in_repo r git-maint-dry-apply ../series.mbox >expect &&
	in_repo r git-maint-dry-apply "imaps://127.0.0.1:$IMAP_PORT/INBOX/Series" >actual &&
	test_cmp expect actual &&
	git clone -q r q1 &&
	git clone -q r q2 &&
	imap_config q2 &&
	in_repo q1 git-maint-queue -q main ../series.mbox &&
	in_repo q2 git-maint-queue -q main "imaps://127.0.0.1:$IMAP_PORT/INBOX/Series" &&
	git -C q1 log --format="%T %an <%ae> %ad%n%B" origin/main..main >expect &&
	git -C q2 log --format="%T %an <%ae> %ad%n%B" origin/main..main >actual &&
	test_cmp expect actual &&
	git -C q2 rev-list origin/main..main >revs &&
	test_line_count = 3 revs
'

test_expect_success 'queue: the reply in the folder is stepped over, the patches queued' '
	git clone -q r q3 &&
	imap_config q3 &&
	in_repo q3 git-maint-queue main "$URL" >out &&
	grep "^Skipping reply: Re: \[PATCH 1/3\] frob: one$" out &&
	git -C q1 log --format="%T %an <%ae> %ad%n%B" origin/main..main >expect &&
	git -C q3 log --format="%T %an <%ae> %ad%n%B" origin/main..main >actual &&
	test_cmp expect actual
'

test_expect_success '?since=<date>: by the date the server received them' '
	in_repo r git-maint-mbox-split --format=%m "$URL?since=2000-01-01" >actual &&
	test_line_count = 4 actual &&
	test_expect_code 1 in_repo r git-maint-mbox-split --format=%m "$URL?since=2999-01-01" >actual 2>err &&
	test_must_be_empty actual &&
	grep "^warning: no messages found in" err
'

test_expect_success 'the user from the keyring when the URL names none' '
	in_repo r git-maint-mbox-split --format=%m "imaps://127.0.0.1:$IMAP_PORT/INBOX/TODO?unseen" >actual &&
	test_line_count = 2 actual
'

test_expect_success 'a folder name outside ASCII, in modified UTF-7' '
	mid p/0002-*.patch >expect &&
	in_repo r git-maint-mbox-split --format=%m "imaps://127.0.0.1:$IMAP_PORT/Entw%C3%BCrfe" >actual &&
	test_cmp expect actual
'

test_expect_success '?mark-seen: asked to, the messages read are marked read' '
	imap_flags INBOX/Fresh >before &&
	! grep Seen before &&
	in_repo r git-maint-mbox-split --format=%m "imaps://127.0.0.1:$IMAP_PORT/INBOX/Fresh?unseen&mark-seen" >actual &&
	test_line_count = 2 actual &&
	imap_flags INBOX/Fresh >after &&
	test "$(grep -c Seen after)" = 2 &&
	test_expect_code 1 in_repo r git-maint-mbox-split --format=%m "imaps://127.0.0.1:$IMAP_PORT/INBOX/Fresh?unseen" >actual 2>/dev/null &&
	test_must_be_empty actual
'

test_expect_success 'a message over mbox.max-message-size: not fetched, reported in its place, exit 1' '
	git clone -q r small &&
	imap_config small &&
	printf "[mbox]\n\tmax-message-size = 400\n" >>small/.git/maint.ini &&
	test_expect_code 1 in_repo small git-maint-mbox-split --format=%m "$URL" >actual 2>err &&
	for n in 1 2 3
	do
		echo "error: $URL: message $n exceeds max size (400 bytes)" || return 1
	done >expect.err &&
	test_cmp expect.err err &&
	echo reply@example.com >expect &&
	test_cmp expect actual
'

test_expect_success 'the password never shows, nor goes into a command line' '
	in_repo r git-maint-mbox-split "$URL" >out 2>err &&
	! grep -F "$IMAP_PASSWORD" out err &&
	! grep -rF "$IMAP_PASSWORD" r/.git
'

test_expect_success 'no password in the Secret Service: exit 128, the error and a hint' '
	git clone -q r nopw &&
	imap_config nopw &&
	test_expect_code 128 in_repo nopw git-maint-mbox-split "imaps://nobody@127.0.0.1:$IMAP_PORT/INBOX/TODO" >out 2>err &&
	cat >expect <<-EOF &&
	fatal: no password for '"'"'nobody'"'"' at imaps://127.0.0.1:$IMAP_PORT
	hint: give it one of two ways, as for git (or run on a terminal to be asked):
	hint:   git config --global credential.helper store (or cache, ...); git credential approve
	hint:     given protocol=imaps, host=127.0.0.1:$IMAP_PORT, username=nobody, password=<password>, a line each
	hint:   to a Secret Service on the session bus, as git-credential-libsecret keeps it:
	hint:     secret-tool store --label='"'"'Git: imaps://127.0.0.1:$IMAP_PORT/'"'"' protocol imaps server 127.0.0.1 port $IMAP_PORT user nobody
	EOF
	test_cmp expect err &&
	test_must_be_empty out
'

test_expect_success 'no session bus: exit 128 naming the cause in the hint' '
	test_expect_code 128 run_without_bus git -C r maint-mbox-split "$URL" >out 2>err &&
	grep "^hint:     (the Secret Service cannot be reached: .*D-Bus" err &&
	test_must_be_empty out
'

test_expect_success 'a wrong password: the login refused, exit 128; the item goes, as git-credential-libsecret'"'"'s would' '
	keyring_store wrong-password protocol imaps server 127.0.0.1 port "$IMAP_PORT" user mallory &&
	test_expect_code 128 in_repo r git-maint-mbox-split "imaps://mallory@127.0.0.1:$IMAP_PORT/INBOX/TODO" >out 2>err &&
	echo "fatal: '"'"'imaps://127.0.0.1:$IMAP_PORT/INBOX/TODO'"'"': the server refused the login of '"'"'mallory'"'"'" >expect &&
	test_cmp expect err &&
	test_must_fail keyring_lookup protocol imaps server 127.0.0.1 user mallory
'

test_expect_success 'TLS: the server'"'"'s certificate not trusted: refused before the login, exit 128' '
	git clone -q r untrusting &&
	grep -c "Login: user=" "$IMAP_DIR/dovecot.log" >logins.before &&
	test_expect_code 128 in_repo untrusting git-maint-mbox-split "$URL" >out 2>err &&
	grep "^fatal: cannot read '"'"'$SHOWN_URL'"'"': SSL certificate problem: self-signed certificate" err &&
	test_line_count = 1 err &&
	grep -c "Login: user=" "$IMAP_DIR/dovecot.log" >logins.after &&
	test_cmp logins.before logins.after
'

test_expect_success 'imap:// with STARTTLS: the same folder, TLS first' '
	keyring_store "$IMAP_PASSWORD" protocol imap server 127.0.0.1 port "$IMAP_PLAIN_PORT" user "$IMAP_USER" &&
	in_repo r git-maint-mbox-split --format=%m "imaps://127.0.0.1:$IMAP_PORT/INBOX/TODO" >expect &&
	in_repo r git-maint-mbox-split --format=%m "imap://$IMAP_USER@127.0.0.1:$IMAP_PLAIN_PORT/INBOX/TODO" >actual &&
	test_cmp expect actual
'

test_expect_success 'imap:// to a server without STARTTLS: refused before any password is sent, exit 128' '
	start_no_starttls_server &&
	keyring_store "$IMAP_PASSWORD" protocol imap server 127.0.0.1 port "$NO_TLS_PORT" user "$IMAP_USER" &&
	test_expect_code 128 in_repo r git-maint-mbox-split "imap://$IMAP_USER@127.0.0.1:$NO_TLS_PORT/INBOX" >out 2>err &&
	grep "^fatal: cannot read '"'"'imap://127.0.0.1:$NO_TLS_PORT/INBOX'"'"': " err &&
	test_line_count = 1 err &&
	! grep -i -e LOGIN -e AUTHENTICATE no-starttls.log &&
	! grep -F "$(printf "\0%s\0%s" "$IMAP_USER" "$IMAP_PASSWORD" | base64)" no-starttls.log
'

test_expect_success 'no such folder: exit 128 with the server'"'"'s answer' '
	test_expect_code 128 in_repo r git-maint-mbox-split "imaps://127.0.0.1:$IMAP_PORT/INBOX/Nowhere" >out 2>err &&
	grep "^fatal: '"'"'imaps://127.0.0.1:$IMAP_PORT/INBOX/Nowhere'"'"': the server refused EXAMINE: NO " err
'

test_expect_success 'a bad query is refused before anything is asked' '
	test_expect_code 128 in_repo r git-maint-mbox-split "$URL?flagged" 2>err &&
	echo "fatal: '"'"'$SHOWN_URL?flagged'"'"': unknown query '"'"'flagged'"'"' (unseen, since=<date>, mark-seen)" >expect &&
	test_cmp expect err
'

test_expect_success 'a password written in the URL is neither used nor printed (50)' '
	secret_url="imaps://$IMAP_USER:url-pw-0xdead@127.0.0.1:$IMAP_PORT/INBOX/TODO" &&
	test_expect_code 128 in_repo r git-maint-mbox-split "$secret_url?flagged" 2>err &&
	echo "fatal: '"'"'$SHOWN_URL?flagged'"'"': unknown query '"'"'flagged'"'"' (unseen, since=<date>, mark-seen)" >expect &&
	test_cmp expect err &&
	in_repo r git-maint-mbox-split --format=%m "$secret_url" >actual 2>err &&
	in_repo r git-maint-mbox-split --format=%m "$URL" >expect &&
	test_cmp expect actual &&
	! grep -F "url-pw-0xdead" err
'

test_expect_success 'a server that accepts and never answers: exit 75, nothing changed' '
	start_silent_server &&
	printf "\ttimeout = 1\n" >>r/.git/maint.ini &&
	keyring_store "$IMAP_PASSWORD" protocol imaps server 127.0.0.1 port "$SILENT_PORT" user "$IMAP_USER" &&
	(cd r && repo_state) >before &&
	test_expect_code 75 in_repo r git-maint-queue main "imaps://$IMAP_USER@127.0.0.1:$SILENT_PORT/INBOX" >out 2>err &&
	grep "^error: cannot read .*: SSL connection timeout$" err &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'the server gone: queue exits 75 and nothing changed' '
	stop_imap &&
	(cd r && repo_state) >before &&
	test_expect_code 75 in_repo r git-maint-queue main "$URL" >out 2>err &&
	grep "^error: cannot read '"'"'$SHOWN_URL'"'"': .*[Cc]onnect" err &&
	test_line_count = 1 err &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_done
