#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='attestation shown: mbox-split --format %G? %GS, dry-apply report and porcelain, trailers marked by the reply verdict, policies'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-attest.sh"


test_expect_success 'setup: a signed series, an altered copy, a signed review' '
	attest_setup &&
	attest_mail 1 >p1.eml &&
	attest_mail 2 >p2.eml &&
	patatt_sign p1.eml p1.signed &&
	id=$(sed -n "s/^Message-I[dD]: <\(.*\)>/\1/p" p1.eml) &&
	cat >reply.eml <<-EOF &&
	From: Rev Iewer <rev@example.org>
	Subject: Re: [PATCH 1/2] file: add one
	Message-ID: <review@example.org>
	In-Reply-To: <$id>
	Date: Fri, 1 Apr 2005 14:00:00 +0200

	Reviewed-by: Rev Iewer <rev@example.org>
	EOF
	dkim_sign ed p2.eml p2.signed -- rsa reply.eml reply.signed &&
	sed "s/^+two$/+evil/" p2.signed >p2.altered &&
	attest_mbox good.mbox p1.signed p2.signed reply.signed &&
	attest_mbox bad.mbox p1.signed p2.altered &&
	attest_mbox plain.mbox p1.eml p2.eml &&
	mkdir -p .config/git-maint &&
	printf "[attest]\n\tdkim-keys = %s\n" "$PWD/dkim-keys" >.config/git-maint/config
'

test_expect_success 'mbox-split --format: %G? and %GS per message' '
	git-maint-mbox-split --format="%i %G? %GS" good.mbox >actual &&
	cat >expect <<-\EOF &&
	1 G ed25519/dev@example.org
	3 G DKIM/example.org
	2 G DKIM/example.org
	EOF
	test_cmp expect actual &&
	git-maint-mbox-split --all-versions --input-order --format="%i %G? %GS" bad.mbox >actual &&
	cat >expect <<-\EOF &&
	1 G ed25519/dev@example.org
	2 B DKIM/example.org
	EOF
	test_cmp expect actual &&
	git-maint-mbox-split --format="%i %G?%GS." plain.mbox >actual &&
	printf "1 N.\n2 N.\n" >expect &&
	test_cmp expect actual &&
	git-maint-mbox-split --attest=off --format="%i %G?%GS." good.mbox >actual &&
	printf "1 .\n3 .\n2 .\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'mbox-split: a bad --attest is a usage error; a bad attest.policy names its line' '
	test_expect_code 129 git-maint-mbox-split --attest=maybe --format=%G? good.mbox &&
	printf "[attest]\n\tpolicy = sometimes\n" >bad.ini &&
	test_must_fail env XDG_CONFIG_HOME="$PWD/badcfg" sh -c "mkdir -p badcfg/git-maint && cp bad.ini badcfg/git-maint/config && git-maint-mbox-split --format=%G? good.mbox" 2>err &&
	grep "config:2" err
'

test_expect_success 'mbox-split --show-trailers: the trailers marked with the reply verdict' '
	git-maint-mbox-split --show-trailers --format="%G? %s" good.mbox >actual &&
	grep "^    + Reviewed-by: Rev Iewer <rev@example.org> (Rev Iewer <rev@example.org>) \[G DKIM/example.org\]" actual
'

test_expect_success 'dry-apply: each patch line marked, porcelain attest records' '
	git -C repo checkout -q HEAD~2 &&
	(cd repo && git-maint-dry-apply ../good.mbox) >actual &&
	grep "^Patch 1/2: file: add one \[G ed25519/dev@example.org\]$" actual &&
	grep "^Patch 2/2: file: add two \[G DKIM/example.org\]$" actual &&
	grep "Reviewed-by: Rev Iewer <rev@example.org> (Rev Iewer <rev@example.org>) \[G DKIM/example.org\]" actual &&
	(cd repo && git-maint-dry-apply --porcelain ../good.mbox) >actual &&
	grep "^attest	1	G	ed25519/dev@example.org	$" actual &&
	grep "^attest	2	G	DKIM/example.org	$" actual &&
	(cd repo && git-maint-dry-apply ../plain.mbox) >actual &&
	grep "^Patch 1/2: file: add one$" actual
'

test_expect_success 'dry-apply --attest=softfail warns, hardfail refuses naming the patch' '
	(cd repo && git-maint-dry-apply --attest=softfail ../bad.mbox) >actual 2>err &&
	grep "^Patch 2/2: file: add two \[B DKIM/example.org: body hash mismatch\]$" actual &&
	grep "^warning: message 2 (file: add two): B DKIM/example.org: body hash mismatch$" err &&
	(cd repo && test_expect_code 1 git-maint-dry-apply --attest=hardfail ../bad.mbox) >actual 2>err &&
	grep "^error: message 2 (file: add two): B DKIM/example.org: body hash mismatch (attest.policy hardfail)$" err &&
	! grep "^Patch" actual &&
	(cd repo && test_expect_code 1 git-maint-dry-apply --attest=hardfail ../plain.mbox) 2>err &&
	test $(grep -c "not signed (attest.policy hardfail)" err) = 2 &&
	(cd repo && git-maint-dry-apply --attest=hardfail ../good.mbox) >actual &&
	grep "all 2 patches apply" actual
'

test_done
