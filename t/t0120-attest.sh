#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='attestation: patatt and DKIM signatures checked per message, patatt validate and dkimpy as the oracles'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-attest.sh"

test_expect_success 'setup: keys, a series, each patch signed by patatt and by DKIM' '
	attest_setup &&
	attest_mail 1 >plain.eml &&
	patatt_sign plain.eml patatt.eml &&
	sed "s/dev@example.org/dev@example.com/" plain.eml >com.eml &&
	# every DKIM signature of the script, in one python (the later tests
	# use com-signed.eml, len.eml and len2.eml)
	dkim_sign ed patatt.eml both.eml -- ed plain.eml ed.eml -- \
		rsa plain.eml rsa.eml relaxed/relaxed -- rsa plain.eml rsa-simple.eml simple/simple -- \
		ed com.eml com-signed.eml -- rsa plain.eml len.eml relaxed/simple length -- \
		rsa plain.eml len2.eml relaxed/simple length &&
	# <mail> <ours: developer> <patatt validate> <ours: DKIM> <dkimpy>
	cat >cases <<-\EOF
	patatt.eml G G - N
	ed.eml - N G G
	rsa.eml - N G G
	rsa-simple.eml - N G G
	both.eml G G G G
	plain.eml - N - N
	EOF
'

test_expect_success 'the message verdict and signer: the developer signature decides' '
	test-attest --dkim-keys=dkim-keys both.eml ed.eml plain.eml >actual &&
	cat >expect <<-\EOF &&
	1 G ed25519/dev@example.org
	2 G DKIM/example.org
	3 N
	EOF
	test_cmp expect actual
'

test_expect_success OPENDKIM_TESTMSG 'opendkim-testmsg signs rsa-sha1: B (RFC 8301)' '
	opendkim_sign plain.eml og.eml &&
	test-attest --dkim-keys=dkim-keys og.eml >actual &&
	echo "1 B DKIM/example.org: rsa-sha1 is not accepted" >expect &&
	test_cmp expect actual &&
	echo "og.eml - N B B" >>cases
'

# alter <in> <out> <sed expression>: one signed part changed
alter () {
	sed "$3" "$1" >"$2" &&
	! cmp -s "$1" "$2"
}

test_expect_success 'a changed diff line: B for both kinds, as the oracles say' '
	alter both.eml body.eml "s/^+one$/+One/" &&
	echo "body.eml B B B B" >>cases &&
	alter ed.eml body-ed.eml "s/^+one$/+One/" &&
	echo "body-ed.eml - N B B" >>cases
'

test_expect_success 'a line added to the body: B' '
	alter both.eml added.eml "/^+one$/a\\
+evil" &&
	echo "added.eml B B B B" >>cases
'

test_expect_success 'a changed subject: B for both' '
	alter both.eml subject.eml "s/^Subject: \[PATCH 1\/2\] file: add one/Subject: [PATCH 1\/2] file: add evil/" &&
	echo "subject.eml B B B B" >>cases
'

test_expect_success 'a changed author name or address: B for both' '
	alter both.eml from.eml "s/^From: A U Thor/From: A N Other/" &&
	echo "from.eml B B B B" >>cases &&
	alter ed.eml from-ed.eml "s/^From: A U Thor <dev@example.org>/From: A U Thor <dev@example.net>/" &&
	echo "from-ed.eml - N B B" >>cases
'

test_expect_success 'a changed Date: DKIM (which signs it) B, patatt (which does not) G' '
	alter both.eml date.eml "s/^Date: .*/Date: Mon, 1 Jan 2024 00:00:00 +0000/" &&
	echo "date.eml G G B B" >>cases &&
	test-attest --dkim-keys=dkim-keys date.eml >actual &&
	echo "1 G ed25519/dev@example.org" >expect &&
	test_cmp expect actual
'

test_expect_success 'a changed signature (b=) or body hash (bh=): B' '
	alter patatt.eml b.eml "/^X-Developer-Signature/,/^X-Developer-Key/s/^ b=\(.\)./ b=\1A/" &&
	echo "b.eml B B - N" >>cases &&
	alter patatt.eml bh.eml "s/bh=\(.\)./bh=\1A/" &&
	echo "bh.eml B B - N" >>cases &&
	alter ed.eml dkim-b.eml "/^DKIM-Signature/,/^[^ ]/s/ b=\(.\)./ b=\1A/" &&
	echo "dkim-b.eml - N B B" >>cases
'

test_expect_success 'a list footer or a changed prefix does not break patatt, which signs what git am applies' '
	alter patatt.eml prefix.eml "s/^Subject: \[PATCH 1\/2\]/Subject: [PATCH v1 1\/2]/" &&
	echo "prefix.eml G G - N" >>cases &&
	cp ed.eml footer.eml &&
	printf "_______________________________________________\nlist mailing list\n" >>footer.eml &&
	echo "footer.eml - N B B" >>cases
'

test_expect_success 'a key nobody has: U, as patatt says NOKEY and as there is no DKIM record' '
	sed "s/ s=test;/ s=lost;/" patatt.eml >nokey.eml &&
	sed "s/ s=ed;/ s=none;/" ed.eml >nokey-dkim.eml &&
	echo "nokey.eml U U - N" >>cases &&
	echo "nokey-dkim.eml - N U U" >>cases
'

test_expect_success 'keys from the keyring sources: a ref of the repository, a directory' '
	mkdir -p keyring/ed25519/example.org/dev &&
	cp .local/share/patatt/public/ed25519/example.org/dev/test keyring/ed25519/example.org/dev/test &&
	test-attest --keyring="$PWD/keyring" patatt.eml >actual &&
	echo "1 G ed25519/dev@example.org" >expect &&
	test_cmp expect actual &&
	# a work tree with the key under .keys/, not committed: read from the files
	mkdir -p repo/.keys &&
	cp -R keyring/ed25519 repo/.keys/ &&
	(cd repo && test-attest --keyring="ref:::.keys" ../patatt.eml) >actual &&
	test_cmp expect actual &&
	(cd repo && test-attest --keyring="ref:::.nothing" ../patatt.eml) >actual &&
	echo "1 U ed25519/dev@example.org: no key for dev@example.org (selector test)" >expect &&
	test_cmp expect actual
'

test_expect_success 'verdicts are cached per Message-ID; an altered copy is checked again' '
	cat both.eml body.eml >pair.mbox.in &&
	{ echo "From x Mon Sep 17 00:00:00 2001" && cat both.eml &&
	  echo "From x Mon Sep 17 00:00:00 2001" && cat body.eml; } >pair.mbox &&
	test-attest --twice --dkim-keys=dkim-keys pair.mbox >actual &&
	cat >expect <<-\EOF &&
	1 G ed25519/dev@example.org
	1 G ed25519/dev@example.org
	2 B ed25519/dev@example.org: body hash mismatch
	2 B ed25519/dev@example.org: body hash mismatch
	EOF
	test_cmp expect actual
'

# Where we are stricter than the oracles, as attest.h says.

test_expect_success 'signed by someone else than the From address: B here, PASS to patatt' '
	git config --global user.email other@example.org &&
	test_when_finished "git config --global user.email dev@example.org &&
		git config --global patatt.signingkey ed25519:test &&
		git config --global patatt.selector test" &&
	patatt genkey -n other >/dev/null 2>&1 &&
	git config --global patatt.signingkey ed25519:other &&
	git config --global patatt.selector other &&
	patatt_sign plain.eml other.eml &&
	echo "other.eml B G - N" >>cases &&
	test-attest other.eml >actual &&
	echo "1 B ed25519/other@example.org: signed by other@example.org, not the From address dev@example.org" >expect &&
	test_cmp expect actual
'

test_expect_success 'a DKIM signature of another domain: B, though dkimpy finds it good' '
	echo "com-signed.eml - N B G" >>cases &&
	test-attest --dkim-keys=dkim-keys com-signed.eml >actual &&
	echo "1 B DKIM/example.org: signed by example.org, not the From domain example.com" >expect &&
	test_cmp expect actual
'

test_expect_success 'an l= short of the body: B, though dkimpy finds it good (58)' '
	echo "len.eml - N G G" >>cases &&
	cp len.eml len-added.eml &&
	printf "+added after the signature\n" >>len-added.eml &&
	echo "len-added.eml - N B G" >>cases &&
	test-attest --dkim-keys=dkim-keys len-added.eml >actual &&
	grep "^1 B DKIM/example.org: l= covers" actual
'

test_expect_success 'two From headers: B, whatever the signatures say (patatt validate: PASS)' '
	sed "/^From: A U Thor/i\\
From: Mallory <mallory@example.org>" both.eml >twofrom.eml &&
	test-attest --dkim-keys=dkim-keys twofrom.eml >actual &&
	echo "1 B ed25519/dev@example.org: the message has 2 From headers" >expect &&
	test_cmp expect actual &&
	echo "twofrom.eml B G B B" >>cases
'

# Hostile signature headers: a clear verdict each, no crash.

test_expect_success 'hostile: absurd lengths, a 1 MB key record, a wrong-size key, l= beyond the body (58)' '
	awk "/^ b=/ && !done { printf \" b=\"; for (i = 0; i < 20000; i++) printf \"QUFB\"; print \"\"; done = 1; next } { print }" \
		patatt.eml >longb.eml &&
	sed "s/ l=[0-9]*;/ l=99999999999999999999999;/" patatt.eml >bigl.eml &&
	# l= is signed too: changing it breaks the signature
	sed "s/ l=[0-9]*;/ l=99999;/" len2.eml >dkim-bigl.eml &&
	cat >>cases <<-\EOF &&
	longb.eml B X - N
	bigl.eml B B - N
	dkim-bigl.eml - N B B
	EOF
	{ printf "ed._domainkey.example.org v=DKIM1; k=ed25519; p=" &&
	  head -c 1048576 /dev/zero | tr "\0" A && echo; } >big-keys &&
	test-attest --all --dkim-keys=big-keys ed.eml >actual &&
	grep -a "^1 B DKIM/example.org: the key record is too long (1048598 bytes)" actual &&
	mkdir -p short/ed25519/example.org/dev &&
	echo AAAA >short/ed25519/example.org/dev/test &&
	test-attest --keyring="$PWD/short" patatt.eml >actual &&
	echo "1 B ed25519/dev@example.org: the key has 3 bytes, not 32" >expect &&
	test_cmp expect actual
'

test_expect_success 'hostile: many and duplicated signature headers, tags without values (58)' '
	{
		sed -n "1,/^X-Developer-Signature/p" patatt.eml | sed "\$d" &&
		for i in $(test_seq 200)
		do
			echo "X-Developer-Signature: v=1; a=ed25519-sha256; i=dev@example.org; s=test; h=from:subject; b=;bh; ;;=" &&
			echo "DKIM-Signature: v=1; a=rsa-sha256; d=example.org; s=rsa; h=from; bh=; b=" || return 1
		done &&
		sed -n "/^X-Developer-Signature/,\$p" patatt.eml
	} >many.eml &&
	test-attest --all --dkim-keys=dkim-keys many.eml >actual &&
	grep "^1 B " actual &&
	test $(grep -c "^	B DKIM" actual) = 200 &&
	printf "From: a@example.org\nSubject: x\nX-Developer-Signature: \nDKIM-Signature: ;;;;\n\nbody\n" >empty.eml &&
	test-attest --all empty.eml >actual &&
	grep "^1 B " actual
'

command -v gpg >/dev/null && test_set_prereq GPG

test_expect_success GPG 'OpenPGP developer signatures (patatt sign with a gpg key): G, altered B, no key U' '
	test_when_finished "gpgconf --kill gpg-agent; git config --global patatt.signingkey ed25519:test" &&
	mkdir -m 700 -p "$HOME/.gnupg" &&
	gpg --batch --passphrase "" --quick-gen-key "A U Thor <dev@example.org>" ed25519 sign never 2>/dev/null &&
	fpr=$(gpg --list-keys --with-colons dev@example.org | sed -n "s/^fpr:*\([0-9A-F]*\):*\$/\1/p" | head -n 1) &&
	test -n "$fpr" &&
	git config --global patatt.signingkey "openpgp:$fpr" &&
	patatt_sign plain.eml pgp.eml &&
	grep "^X-Developer-Key: i=dev@example.org; a=openpgp" pgp.eml &&
	alter pgp.eml pgp-body.eml "s/^+one$/+One/" &&
	alter pgp.eml pgp-from.eml "s/^From: A U Thor/From: A N Other/" &&
	test-attest pgp.eml pgp-body.eml pgp-from.eml >actual &&
	cat >expect <<-\EOF &&
	1 G openpgp/dev@example.org
	2 B openpgp/dev@example.org: body hash mismatch
	3 B openpgp/dev@example.org: the headers signed differ
	EOF
	test_cmp expect actual &&
	cat >>cases <<-\EOF &&
	pgp.eml G G - N
	pgp-body.eml B B - N
	pgp-from.eml B B - N
	EOF
	# nobody has the key: U, as patatt says NOKEY; then the key from a keyring
	# directory, under the selector patatt.selector names
	mkdir -m 700 nokeys &&
	GNUPGHOME="$PWD/nokeys" test-attest pgp.eml >actual &&
	echo "1 U openpgp/dev@example.org: no key" >expect &&
	test_cmp expect actual &&
	{ GNUPGHOME="$PWD/nokeys" patatt validate pgp.eml /dev/null >out 2>&1 || :; } &&
	grep "NOKEY" out &&
	mkdir -p pgpring/openpgp/example.org/dev &&
	gpg --export --armor dev@example.org >pgpring/openpgp/example.org/dev/test &&
	GNUPGHOME="$PWD/nokeys" test-attest --keyring="$PWD/pgpring" pgp.eml >actual &&
	echo "1 G openpgp/dev@example.org" >expect &&
	test_cmp expect actual
'

test_expect_success 'every case against patatt validate and dkimpy (the table of the closing note)' '
	oracle_table $(cut -d" " -f1 cases) >table &&
	test_cmp cases table
'

test_done
