#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue --attest: verdicts on the Applying: lines, hardfail refuses an altered patch with nothing committed, softfail warns'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-attest.sh"


test_expect_success 'setup: a series signed by patatt and DKIM, one copy altered, one unsigned' '
	attest_setup &&
	attest_mail 1 >p1.eml &&
	attest_mail 2 >p2.eml &&
	patatt_sign p1.eml p1.signed &&
	patatt_sign p2.eml p2.patatt &&
	dkim_sign ed p2.patatt p2.signed &&
	sed "s/^+two$/+evil/" p2.signed >p2.altered &&
	attest_mbox good.mbox p1.signed p2.signed &&
	attest_mbox bad.mbox p1.signed p2.altered &&
	attest_mbox unsigned.mbox p1.signed p2.eml &&
	mkdir -p .config/git-maint &&
	printf "[attest]\n\tdkim-keys = %s\n" "$PWD/dkim-keys" >.config/git-maint/config &&
	git -C repo branch -q base HEAD~2 &&
	git -C repo checkout -q -b work base
'

test_expect_success 'hardfail refuses an altered patch: exit 1, nothing committed, no state' '
	(cd repo && test_expect_code 1 git-maint-queue --attest=hardfail work ../bad.mbox) >out 2>err &&
	grep "^error: ../bad.mbox: message 2: B ed25519/dev@example.org: body hash mismatch (attest.policy hardfail)$" err &&
	test "$(git -C repo rev-parse work)" = "$(git -C repo rev-parse base)" &&
	test_path_is_missing repo/.git/maint/queue &&
	! grep Applying out &&
	git -C repo status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'hardfail refuses an unsigned patch too, as attest.policy' '
	printf "[attest]\n\tdkim-keys = %s\n\tpolicy = hardfail\n" "$PWD/dkim-keys" >.config/git-maint/config &&
	test_when_finished "printf \"[attest]\n\tdkim-keys = %s\n\" \"$PWD/dkim-keys\" >.config/git-maint/config" &&
	(cd repo && test_expect_code 1 git-maint-queue work ../unsigned.mbox) 2>err &&
	grep "message 2: not signed (attest.policy hardfail)" err &&
	test "$(git -C repo rev-parse work)" = "$(git -C repo rev-parse base)"
'

test_expect_success 'hardfail queues the good ones, each Applying: line with its verdict' '
	(cd repo && git-maint-queue --attest=hardfail work ../good.mbox) >out &&
	cat >expect <<-\EOF &&
	Applying: file: add one [G ed25519/dev@example.org]
	Applying: file: add two [G ed25519/dev@example.org]
	EOF
	grep "^Applying" out >actual &&
	test_cmp expect actual &&
	git -C repo log --format=%s base..work >actual &&
	printf "file: add two\nfile: add one\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'softfail warns and queues; check (the default) shows and queues' '
	git -C repo reset -q --hard base &&
	(cd repo && git-maint-queue --attest=softfail work ../bad.mbox) >out 2>err &&
	grep "^warning: ../bad.mbox: message 2: B ed25519/dev@example.org: body hash mismatch$" err &&
	grep "^Applying: file: add two \[B ed25519/dev@example.org: body hash mismatch\]$" out &&
	test $(git -C repo rev-list --count base..work) = 2 &&
	git -C repo reset -q --hard base &&
	(cd repo && git-maint-queue work ../unsigned.mbox) >out 2>err &&
	test_must_be_empty err &&
	printf "Applying: file: add one [G ed25519/dev@example.org]\nApplying: file: add two\n" >expect &&
	grep "^Applying" out >actual &&
	test_cmp expect actual
'

test_expect_success 'off checks nothing' '
	git -C repo reset -q --hard base &&
	(cd repo && git-maint-queue --attest=off work ../bad.mbox) >out &&
	printf "Applying: file: add one\nApplying: file: add two\n" >expect &&
	grep "^Applying" out >actual &&
	test_cmp expect actual
'

# (A branch that has patch 1 already is not a stop: queue steps over it.
# The stop here is a line that differs, mended by hand.)
test_expect_success '--attest given at the start holds for --continue' '
	git -C repo reset -q --hard base &&
	echo uno >>repo/file &&
	git -C repo commit -q -a -m "uno, by hand" &&
	(cd repo && test_expect_code 1 git-maint-queue --attest=off work ../good.mbox) >out 2>err &&
	grep "^attest off$" repo/.git/maint/queue/state &&
	printf "base\none\n" >repo/file &&
	git -C repo add file &&
	(cd repo && git-maint-queue --continue) >out &&
	grep "^Applying: file: add two$" out &&
	! grep "^Applying: .*\[" out &&
	test_path_is_missing repo/.git/maint/queue
'

test_done
