#!/bin/sh
test_description='attestation: patatt and DKIM signatures checked per message, patatt validate and dkimpy as the oracles'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-attest.sh"

if ! test_have_prereq PATATT
then
	skip_all='patatt or python3-dkim missing (contrib/install-deps.sh installs them)'
	test_done
fi

test_expect_success 'setup: keys, a series, each patch signed by patatt and by DKIM' '
	attest_setup &&
	attest_mail 1 >plain.eml &&
	patatt_sign plain.eml patatt.eml &&
	dkim_sign ed patatt.eml both.eml &&
	dkim_sign ed plain.eml ed.eml &&
	dkim_sign rsa plain.eml rsa.eml relaxed/relaxed &&
	dkim_sign rsa plain.eml rsa-simple.eml simple/simple
'

# check <mail> <patatt verdict> <DKIM verdict>: our verdicts of its
# developer and DKIM signatures, and the oracles on the same mail
check () {
	echo "$(sig_verdicts "$1" ed25519) $(sig_verdicts "$1" DKIM)" >actual &&
	echo "$2 $3" >expect &&
	test_cmp expect actual &&
	p=$(patatt_verdict "$1") && d=$(dkim_verdict "$1") &&
	if test "$2" = -; then test "$p" = N; else test "$p" = "$2"; fi &&
	if test "$3" = -; then test "$d" = N; else test "$d" = "$3"; fi
}

test_expect_success 'good signatures are G, as patatt validate and dkimpy say' '
	check patatt.eml G - &&
	check ed.eml - G &&
	check rsa.eml - G &&
	check rsa-simple.eml - G &&
	check both.eml G G &&
	check plain.eml - -
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

test_expect_success OPENDKIM_TESTMSG 'opendkim-testmsg signatures (rsa-sha1): B, as dkimpy says (RFC 8301)' '
	opendkim_sign plain.eml og.eml &&
	check og.eml - B &&
	grep "rsa-sha1 is not accepted" sigs.out
'

# alter <in> <out> <sed expression>: one signed part changed
alter () {
	sed "$3" "$1" >"$2" &&
	! cmp -s "$1" "$2"
}

test_expect_success 'a changed diff line: B for both kinds, as the oracles say' '
	alter both.eml body.eml "s/^+one$/+One/" &&
	check body.eml B B &&
	alter ed.eml body-ed.eml "s/^+one$/+One/" &&
	check body-ed.eml - B
'

test_expect_success 'a line added to the body: B' '
	alter both.eml added.eml "/^+one$/a\\
+evil" &&
	check added.eml B B
'

test_expect_success 'a changed subject: B for both' '
	alter both.eml subject.eml "s/^Subject: \[PATCH 1\/2\] file: add one/Subject: [PATCH 1\/2] file: add evil/" &&
	check subject.eml B B
'

test_expect_success 'a changed author name or address: B for both' '
	alter both.eml from.eml "s/^From: A U Thor/From: A N Other/" &&
	check from.eml B B &&
	alter ed.eml from-ed.eml "s/^From: A U Thor <dev@example.org>/From: A U Thor <dev@example.net>/" &&
	check from-ed.eml - B
'

test_expect_success 'a changed Date: DKIM (which signs it) B, patatt (which does not) G' '
	alter both.eml date.eml "s/^Date: .*/Date: Mon, 1 Jan 2024 00:00:00 +0000/" &&
	check date.eml G B &&
	test-attest --dkim-keys=dkim-keys date.eml >actual &&
	echo "1 G ed25519/dev@example.org" >expect &&
	test_cmp expect actual
'

test_expect_success 'a changed signature (b=) or body hash (bh=): B' '
	alter patatt.eml b.eml "/^X-Developer-Signature/,/^X-Developer-Key/s/^ b=\(.\)./ b=\1A/" &&
	check b.eml B - &&
	alter patatt.eml bh.eml "s/bh=\(.\)./bh=\1A/" &&
	check bh.eml B - &&
	alter ed.eml dkim-b.eml "/^DKIM-Signature/,/^[^ ]/s/ b=\(.\)./ b=\1A/" &&
	check dkim-b.eml - B
'

test_expect_success 'a list footer or a changed prefix does not break patatt, which signs what git am applies' '
	alter patatt.eml prefix.eml "s/^Subject: \[PATCH 1\/2\]/Subject: [PATCH v1 1\/2]/" &&
	check prefix.eml G - &&
	cp ed.eml footer.eml &&
	printf "_______________________________________________\nlist mailing list\n" >>footer.eml &&
	check footer.eml - B
'

test_expect_success 'a key nobody has: U, as patatt says NOKEY and as there is no DKIM record' '
	mv .local/share/patatt/public keys-aside &&
	test_when_finished "mv keys-aside .local/share/patatt/public" &&
	check patatt.eml U - &&
	sed "s/ s=ed;/ s=none;/" ed.eml >nokey.eml &&
	test "$(sig_verdicts nokey.eml DKIM)" = U
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
	test "$(patatt_verdict other.eml)" = G &&
	test-attest other.eml >actual &&
	echo "1 B ed25519/other@example.org: signed by other@example.org, not the From address dev@example.org" >expect &&
	test_cmp expect actual
'

test_expect_success 'a DKIM signature of another domain: B, though dkimpy finds it good' '
	sed "s/dev@example.org/dev@example.com/" plain.eml >com.eml &&
	dkim_sign ed com.eml com-signed.eml &&
	test "$(dkim_verdict com-signed.eml)" = G &&
	test-attest --dkim-keys=dkim-keys com-signed.eml >actual &&
	echo "1 B DKIM/example.org: signed by example.org, not the From domain example.com" >expect &&
	test_cmp expect actual
'

test_expect_success 'an l= short of the body: B, though dkimpy finds it good' '
	dkim_sign rsa plain.eml len.eml relaxed/simple length &&
	check len.eml - G &&
	printf "+added after the signature\n" >>len.eml &&
	test "$(dkim_verdict len.eml)" = G &&
	test "$(sig_verdicts len.eml DKIM)" = B &&
	grep "l= covers" sigs.out
'

test_expect_success 'two From headers: B, whatever the signatures say' '
	sed "1a\\
From: Mallory <mallory@example.org>" both.eml >twofrom.eml &&
	test-attest --dkim-keys=dkim-keys twofrom.eml >actual &&
	echo "1 B ed25519/dev@example.org: the message has 2 From headers" >expect &&
	test_cmp expect actual
'

# Hostile signature headers: a clear verdict each, no crash.

test_expect_success 'hostile: absurd lengths, a 1 MB key record, a wrong-size key, l= beyond the body' '
	awk "/^ b=/ && !done { printf \" b=\"; for (i = 0; i < 20000; i++) printf \"QUFB\"; print \"\"; done = 1; next } { print }" \
		patatt.eml >longb.eml &&
	test "$(sig_verdicts longb.eml ed25519)" = B &&
	sed "s/ l=[0-9]*;/ l=99999999999999999999999;/" patatt.eml >bigl.eml &&
	# l= is signed too: changing it breaks the signature
	test "$(sig_verdicts bigl.eml ed25519)" = B &&
	test "$(patatt_verdict bigl.eml)" = B &&
	dkim_sign rsa plain.eml len2.eml relaxed/simple length &&
	sed "s/ l=[0-9]*;/ l=99999;/" len2.eml >dkim-bigl.eml &&
	test "$(sig_verdicts dkim-bigl.eml DKIM)" = B &&
	test "$(dkim_verdict dkim-bigl.eml)" = B &&
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

test_expect_success 'hostile: many and duplicated signature headers, tags without values' '
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

test_done
