#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='dry-apply and queue: the mail is not held in memory

patch_mails_read() keeps the patches in an unlinked temporary file and
gives them back one at a time (common/mail/patch-mails.h), so dry-apply
holds the index of the mailbox plus the patch it is at, from a file or
from a pipe: its peak memory stays far below the size of a mailbox of
large messages. queue writes its stored series (the "mails" state file)
from that file a mail at a time and reads it back the same way, on the
first run and on --continue (common/repo/state.h). The bound is on
memory, never on time; the sanitizers keep freed memory in quarantine,
so these tests do not run under them.'

. ./test-lib.sh

# 48 patches rewriting one 700 KB file whole: a mailbox over 64 MB whose
# patches all apply, while the tree they change stays at one such file.
# t0307/gen-mailbox.py writes the repository (for one git fast-import)
# and the mailbox as git format-patch --no-stat writes it, which the
# first three mails show against git's own.
test_expect_success 'setup: a mailbox of 48 patches of 1.5 MB each' '
	git init -q repo &&
	python3 -S "$MAINT_TEST_DIR/t0307/gen-mailbox.py" stream |
	git -C repo -c core.compression=1 fast-import --depth=0 --quiet --export-marks=../marks &&
	git -C repo reset -q --hard main &&
	python3 -S "$MAINT_TEST_DIR/t0307/gen-mailbox.py" mbox marks \
		"$(git -C repo log -1 --format=%aD tip)" "$(git version | sed "s/^git version //")" >large.mbox &&
	test $(wc -c <large.mbox) -gt 67108864 &&
	git -C repo format-patch -q --no-stat --stdout base..tip~45 >three.mbox &&
	sed "s|^\(Subject: \[PATCH\) \([0-9]\)/3\]|\1 0\2/48]|" three.mbox >expect &&
	head -c $(wc -c <expect) large.mbox >actual &&
	test_cmp expect actual
'

test_expect_success !SANITIZE 'dry-apply on a mailbox file over 64 MB: memory stays bounded' '
	(cd repo && /usr/bin/time -f "%M" -o ../rss git-maint-dry-apply -q --onto base ../large.mbox >../out) &&
	echo "base: all 48 patches apply" >expect &&
	test_cmp expect out &&
	test $(tail -n 1 rss) -lt 49152
'

test_expect_success !SANITIZE 'dry-apply on a mailbox over 64 MB from a pipe: memory stays bounded' '
	(cd repo && cat ../large.mbox | /usr/bin/time -f "%M" -o ../rss git-maint-dry-apply -q --onto base - >../out) &&
	echo "base: all 48 patches apply" >expect &&
	test_cmp expect out &&
	test $(tail -n 1 rss) -lt 49152
'

test_expect_success 'dry-apply from a pipe reports what it does from the file' '
	(cd repo && git-maint-dry-apply --onto base ../large.mbox >../expect) &&
	(cd repo && cat ../large.mbox | git-maint-dry-apply --onto base >../actual) &&
	test_cmp expect actual
'

test_expect_success 'queue from a pipe commits what git am commits' '
	(
		cd repo &&
		git checkout -q -B am base &&
		git am -q ../three.mbox &&
		git checkout -q -B queued base &&
		cat ../three.mbox | git-maint-queue -q queued - &&
		git log --format=%T am >../expect &&
		git log --format=%T queued >../actual
	) &&
	test_cmp expect actual
'

# the commits base..<branch>: 48, each subject as in the series, the
# result tip's tree; the branch checked out clean, no queue left
queued_all () {
	git -C repo rev-list --count base.."$1" >count &&
	echo 48 >expect &&
	test_cmp expect count &&
	git -C repo log --format=%s base..tip >expect &&
	git -C repo log --format=%s base.."$1" >actual &&
	test_cmp expect actual &&
	test "$(git -C repo rev-parse "$1^{tree}")" = "$(git -C repo rev-parse "tip^{tree}")" &&
	git -C repo status --porcelain --untracked-files=no >status &&
	test_must_be_empty status &&
	test_path_is_missing repo/.git/maint/queue
}

test_expect_success !SANITIZE 'queue on a mailbox over 64 MB: memory stays bounded, all 48 committed' '
	(
		cd repo &&
		git checkout -q -B queued-big base &&
		/usr/bin/time -f "%M" -o ../rss git-maint-queue -q queued-big ../large.mbox >../out
	) &&
	grep "^Queued on .queued-big.: " out &&
	queued_all queued-big &&
	test $(tail -n 1 rss) -lt 49152
'

test_expect_success !SANITIZE 'queue --continue on that series: reads the stored series a mail at a time' '
	cat >repo/.git/maint.ini <<-\EOF &&
	[tree "t"]
		work = queued-stop
		check = test "$GIT_MAINT_PATCH" != 24 || test -f ../check-ok
		check-failure = stop
	EOF
	(
		cd repo &&
		git checkout -q -B queued-stop base &&
		test_expect_code 1 git-maint-queue -q queued-stop ../large.mbox 2>../err
	) &&
	grep "^error: check failed for patch 24/48 (exit 1): rewrite big, take 24\$" err &&
	git -C repo rev-list --count base..queued-stop >count &&
	echo 23 >expect &&
	test_cmp expect count &&
	test_path_is_file repo/.git/maint/queue/mails &&
	touch check-ok &&
	(cd repo && /usr/bin/time -f "%M" -o ../rss git-maint-queue -q --continue) &&
	queued_all queued-stop &&
	test $(tail -n 1 rss) -lt 49152 &&
	rm repo/.git/maint.ini
'

# One big mail: what dry-apply and queue hold of it while its diff is
# applied (the decoded diff, the file it builds, the lines of both; the
# mail's own bytes only until it is decoded, its header for queue's
# note) stays a small multiple of its size: 24 MB of a patch adding one
# file under 4.5 times that (about 3.5 now; 6 when the mail, a copy of
# the diff and one of the file were held too), and a 24 MB line in
# base64 (32 MB of mail) under 4 times (about 3.4; 5.6 when the line was
# decoded into three buffers at once).
peak_under () {
	test $(tail -n 1 rss) -lt $(($(wc -c <"$1") * $2 / $3 / 1024))
}

test_expect_success !SANITIZE 'dry-apply and queue on one 24 MB mail: a few times its size' '
	python3 "$MAINT_SRC_DIR/t/perf/gen-mail-bounds.py" message 24 >big.mbox &&
	python3 "$MAINT_SRC_DIR/t/perf/gen-mail-bounds.py" base64-patch 24 >long.mbox &&
	git init -q one &&
	git -C one commit -q --allow-empty -m base &&
	git -C one branch -M base &&
	(cd one && /usr/bin/time -f "%M" -o ../rss git-maint-dry-apply -q --onto base ../big.mbox >../out) &&
	echo "base: the patch applies" >expect &&
	test_cmp expect out &&
	peak_under big.mbox 9 2 &&
	(cd one && /usr/bin/time -f "%M" -o ../rss git-maint-dry-apply -q --onto base ../long.mbox >../out) &&
	test_cmp expect out &&
	peak_under long.mbox 4 1 &&
	(
		cd one &&
		git checkout -q -B queued-one base &&
		/usr/bin/time -f "%M" -o ../rss git-maint-queue -q queued-one ../big.mbox >../out
	) &&
	peak_under big.mbox 9 2 &&
	git -C one rev-parse queued-one:big >/dev/null &&
	(
		cd one &&
		git checkout -q -B queued-line base &&
		/usr/bin/time -f "%M" -o ../rss git-maint-queue -q queued-line ../long.mbox >../out
	) &&
	peak_under long.mbox 4 1 &&
	git -C one rev-parse queued-line:line >/dev/null
'

test_expect_success 'dry-apply without a usable TMPDIR fails before any verdict, changing nothing' '
	(
		cd repo &&
		git checkout -q base &&
		repo_state >../state.before &&
		TMPDIR=$(pwd)/../no-such-dir test_expect_code 128 \
			git-maint-dry-apply --onto base ../large.mbox >../out 2>../err &&
		repo_state >../state.after
	) &&
	test_must_be_empty out &&
	grep "^fatal: cannot create a temporary file in .*no-such-dir.*: No such file or directory\$" err &&
	test_line_count = 1 err &&
	test_cmp state.before state.after
'

test_done
