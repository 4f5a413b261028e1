#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue stops, resumes, skips and aborts; hooks; locks'
. ./test-lib.sh

# A series of 4 patches on base; patch 3 does not apply to "moved".
test_expect_success 'setup' '
	git init -q &&
	for i in 1 2 3 4
	do
		seq 1 30 | sed "s/^/f$i line /" >f$i || return 1
	done &&
	git add f1 f2 f3 f4 &&
	test_commit base f0 &&
	git checkout -q -b gen &&
	for i in 1 2 3 4
	do
		sed -i "s/^f$i line 10$/f$i line 10 patched/" f$i &&
		git add f$i &&
		test_tick &&
		git commit -q -m "patch $i" -m "Body $i." || return 1
	done &&
	git format-patch -q --stdout base..gen >series.mbox &&
	git checkout -q -b moved base &&
	sed -i "s/^f3 line 10$/f3 line 10 conflicting/" f3 &&
	git commit -q -a -m moved &&
	git checkout -q --detach base &&
	git am -q -s series.mbox &&
	git tag am-all &&
	git checkout -q --detach base
'

test_expect_success 'a patch that does not apply stops the queue with exit 1 and a report' '
	git branch -f t1 moved &&
	test_expect_code 1 git-maint-queue -q -s t1 series.mbox 2>err &&
	grep "Hunk #1 FAILED at 7" err &&
	grep "error: patch 3/4 does not apply to .t1.: patch 3" err &&
	git rev-list moved..t1 >applied &&
	test_line_count = 2 applied &&
	test_path_is_file .git/maint/queue/state
'

test_expect_success '--show-current prints the stopped mail' '
	git-maint-queue --show-current >current &&
	grep "^Subject: \[PATCH 3/4\] patch 3" current
'

test_expect_success 'a second queue while one is in progress is refused' '
	git branch -f other base &&
	test_expect_code 128 git-maint-queue other series.mbox 2>err &&
	grep "a queue is in progress" err &&
	test "$(git rev-parse other)" = "$(git rev-parse base)"
'

test_expect_success '--continue with the patch unchanged stops again' '
	test_expect_code 1 git-maint-queue --continue 2>err &&
	grep "Hunk #1 FAILED" err &&
	git rev-list moved..t1 >applied &&
	test_line_count = 2 applied
'

test_expect_success '--continue after editing the stored patch applies it and the rest' '
	sed -i "s/^ f3 line 10$/ f3 line 10 conflicting/; s/^-f3 line 10$/-f3 line 10 conflicting/" \
		.git/maint/queue/patch &&
	git-maint-queue -q --continue &&
	test_path_is_missing .git/maint/queue &&
	git rev-list moved..t1 >applied &&
	test_line_count = 4 applied &&
	git show t1:f3 >f3.out &&
	grep "^f3 line 10 patched$" f3.out &&
	git log -1 --format=%B t1~1 >msg &&
	grep "^Signed-off-by: C O Mitter" msg
'

test_expect_success '--skip drops the stopped patch' '
	git branch -f t2 moved &&
	test_expect_code 1 git-maint-queue -q t2 series.mbox 2>err &&
	git-maint-queue -q --skip &&
	git log --format=%s moved..t2 >subjects &&
	printf "patch 4\npatch 2\npatch 1\n" >expect &&
	test_cmp expect subjects
'

test_expect_success '--abort puts the branch back and removes the state' '
	git branch -f t3 moved &&
	test_expect_code 1 git-maint-queue -q t3 series.mbox &&
	test "$(git rev-parse t3)" != "$(git rev-parse moved)" &&
	git-maint-queue --abort >out &&
	grep "back at $(git rev-parse moved)" out &&
	test "$(git rev-parse t3)" = "$(git rev-parse moved)" &&
	test_path_is_missing .git/maint/queue &&
	git reflog show t3 | head -n 1 | grep "maint-queue: abort"
'

test_expect_success 'on the checked-out branch: resolve by hand, git add, --continue' '
	git checkout -q -B t4 moved &&
	test_expect_code 1 git-maint-queue -q t4 series.mbox &&
	git status --porcelain --untracked-files=no >status &&
	test_must_be_empty status &&
	sed -i "s/^f3 line 10 conflicting$/f3 line 10 resolved/" f3 &&
	git add f3 &&
	git-maint-queue -q --continue &&
	git log --format=%s moved..t4 >subjects &&
	printf "patch 4\npatch 3\npatch 2\npatch 1\n" >expect &&
	test_cmp expect subjects &&
	git show t4~1:f3 | grep "line 10 resolved" &&
	git log -1 --format="%an %ad" t4~1 >actual &&
	git log -1 --format="%an %ad" gen~1 >expect &&
	test_cmp expect actual &&
	git status --porcelain --untracked-files=no >status &&
	test_must_be_empty status &&
	git checkout -q --detach base
'

test_expect_success '--abort on the checked-out branch restores index and work tree' '
	git checkout -q -B t5 moved &&
	test_expect_code 1 git-maint-queue -q t5 series.mbox &&
	grep "f1 line 10 patched" f1 &&
	git-maint-queue --abort &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse moved)" &&
	git status --porcelain --untracked-files=no >status &&
	test_must_be_empty status &&
	! grep "patched" f1 &&
	git checkout -q --detach base
'

test_expect_success '--continue refuses when the branch moved meanwhile' '
	git branch -f t6 moved &&
	test_expect_code 1 git-maint-queue -q t6 series.mbox &&
	git branch -f t6 base &&
	test_expect_code 128 git-maint-queue --continue 2>err &&
	grep "moved since the queue stopped (it is at $(git rev-parse base), the queue left it at [0-9a-f]\{40\})" err &&
	! grep "left it at $(git rev-parse base)" err &&
	git-maint-queue --abort 2>err &&
	grep "not resetting it" err &&
	test "$(git rev-parse t6)" = "$(git rev-parse base)" &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'nothing to continue, skip or abort' '
	test_expect_code 128 git-maint-queue --continue 2>err &&
	grep "no queue in progress" err &&
	test_expect_code 128 git-maint-queue --abort &&
	test_expect_code 128 git-maint-queue --show-current
'

test_expect_success 'check hook: failure warns by default, mail on stdin' '
	cat >.git/maint.ini <<-\EOF &&
	[tree "t"]
		work = t7
		check = grep -q "^Subject:.*patch [13]" || { echo "checkpatch: bad $GIT_MAINT_PATCH"; exit 1; }
	EOF
	git branch -f t7 base &&
	git-maint-queue -q t7 series.mbox 2>err &&
	grep "checkpatch: bad 2" err &&
	grep "warning: check failed for patch 2/4 (exit 1): patch 2" err &&
	grep "warning: check failed for patch 4/4" err &&
	test "$(git rev-list base..t7 | wc -l)" = 4
'

test_expect_success 'check hook: check-failure = stop stops before the patch; --continue takes it' '
	cat >.git/maint.ini <<-\EOF &&
	[tree "t"]
		work = t8
		check = grep -q "^Subject:.*patch [134]"
		check-failure = stop
	EOF
	git branch -f t8 base &&
	test_expect_code 1 git-maint-queue -q t8 series.mbox 2>err &&
	grep "error: check failed for patch 2/4" err &&
	git rev-list base..t8 >applied &&
	test_line_count = 1 applied &&
	git-maint-queue -q --continue &&
	git rev-list base..t8 >applied &&
	test_line_count = 4 applied &&
	rm .git/maint.ini
'

test_expect_success 'build hook: failure stops with the series applied; --continue builds again' '
	git checkout -q -B t9 base &&
	cat >.git/maint.ini <<-\EOF &&
	[tree "t"]
		work = t9
		build = test -f build-ok && echo built >>build.log
	EOF
	test_expect_code 1 git-maint-queue -q t9 series.mbox 2>err &&
	grep "build failed (exit 1)" err &&
	test "$(git rev-list base..t9 | wc -l)" = 4 &&
	test_path_is_file .git/maint/queue/state &&
	touch build-ok &&
	git-maint-queue -q --continue &&
	test_path_is_missing .git/maint/queue &&
	test_line_count = 1 build.log
'

test_expect_success 'build hook: --abort after a failed build takes the series off' '
	git checkout -q -B t10 base &&
	rm -f build-ok &&
	sed -i "s/work = t9/work = t10/" .git/maint.ini &&
	test_expect_code 1 git-maint-queue -q t10 series.mbox &&
	git-maint-queue --abort &&
	test "$(git rev-parse t10)" = "$(git rev-parse base)" &&
	git status --porcelain --untracked-files=no >status &&
	test_must_be_empty status
'

test_expect_success 'build hook: --build-each builds after every patch' '
	git checkout -q -B t11 base &&
	touch build-ok && rm -f build.log &&
	sed -i "s/work = t10/work = t11/" .git/maint.ini &&
	git-maint-queue -q --build-each t11 series.mbox &&
	test_line_count = 4 build.log &&
	git reflog show t11 >reflog &&
	test_line_count = 5 reflog &&
	rm .git/maint.ini &&
	git checkout -q --detach base
'

test_expect_success 'lock held by another git-maint process: exit 75 at once, nothing changes' '
	git branch -f t12 base &&
	test-queue-lib lock "git maint-queue t12 series.mbox 2>err; echo \$? >rc; echo \$PPID >holder" &&
	echo 75 >expect &&
	test_cmp expect rc &&
	grep "another git-maint operation holds .*git-maint.lock (pid $(cat holder))" err &&
	test "$(git rev-parse t12)" = "$(git rev-parse base)" &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'index.lock left by git: exit 75 naming it' '
	git checkout -q -B t13 base &&
	touch .git/index.lock &&
	test_expect_code 75 git-maint-queue t13 series.mbox 2>err &&
	grep "index.lock" err &&
	rm .git/index.lock &&
	test "$(git rev-parse t13)" = "$(git rev-parse base)" &&
	test_path_is_missing .git/maint/queue &&
	git checkout -q --detach base
'

test_expect_success 'a stray state directory is reported and cleared by --abort' '
	mkdir -p .git/maint/queue &&
	git branch -f t14 base &&
	test_expect_code 128 git-maint-queue t14 series.mbox 2>err &&
	grep "a queue is in progress" err &&
	test_expect_code 128 git-maint-queue --continue 2>err &&
	grep "holds no queue state" err &&
	grep "run .git maint-queue --abort." err &&
	git-maint-queue --abort 2>err &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'a truncated state file is detected; --abort clears it' '
	git branch -f t15 moved &&
	test_expect_code 1 git-maint-queue -q t15 series.mbox &&
	head -c 40 .git/maint/queue/state >trunc &&
	mv trunc .git/maint/queue/state &&
	test_expect_code 128 git-maint-queue --continue 2>err &&
	grep "state file .* is damaged" err &&
	git-maint-queue --abort 2>err &&
	grep "damaged queue state" err &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'a zero-length state file is detected' '
	git branch -f t16 moved &&
	test_expect_code 1 git-maint-queue -q t16 series.mbox &&
	: >.git/maint/queue/state &&
	test_expect_code 128 git-maint-queue --skip 2>err &&
	grep "damaged (empty)" err &&
	git-maint-queue --abort
'

test_expect_success '--continue after switching to another branch leaves that work tree alone' '
	git checkout -q -B t17 moved &&
	test_expect_code 1 git-maint-queue -q t17 series.mbox &&
	git checkout -q -B elsewhere base &&
	sed -i "s/^ f3 line 10$/ f3 line 10 conflicting/; s/^-f3 line 10$/-f3 line 10 conflicting/" \
		.git/maint/queue/patch &&
	git-maint-queue -q --continue &&
	git rev-list moved..t17 >applied &&
	test_line_count = 4 applied &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse base)" &&
	git status --porcelain --untracked-files=no >status &&
	test_must_be_empty status &&
	git checkout -q --detach base
'

test_expect_success '--continue does not need the mbox any more (the series is kept in the state)' '
	git branch -f t18 moved &&
	cp series.mbox gone.mbox &&
	test_expect_code 1 git-maint-queue -q t18 gone.mbox &&
	rm gone.mbox &&
	git-maint-queue -q --skip &&
	git log --format=%s moved..t18 >subjects &&
	printf "patch 4\npatch 2\npatch 1\n" >expect &&
	test_cmp expect subjects
'

test_done
