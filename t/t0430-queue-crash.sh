#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue killed at every step: --continue or --abort always gets back to a consistent branch'
. ./test-lib.sh

test_expect_success 'setup: a series of 5 and what git am makes of it' '
	git init -q &&
	for i in 1 2 3 4 5
	do
		seq 1 30 | sed "s/^/f$i line /" >f$i || return 1
	done &&
	git add f1 f2 f3 f4 f5 &&
	test_commit base f0 &&
	git checkout -q -b gen &&
	for i in 1 2 3 4 5
	do
		sed -i "s/^f$i line 10$/f$i line 10 patched/" f$i &&
		echo "new $i" >n$i &&
		git add f$i n$i &&
		test_tick &&
		git commit -q -m "patch $i" || return 1
	done &&
	git format-patch -q --stdout base..gen >series.mbox &&
	git checkout -q --detach base &&
	git am -q -s series.mbox &&
	git tag expect &&
	git checkout -q --detach base &&
	echo "true" >build-ok.sh
'

# crash <branch> <point> [<options>]: queue is killed at point (exit 137).
crash () {
	b=$1 point=$2 &&
	shift 2 &&
	test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT="$point" \
		git-maint-queue -q -s "$@" "$b" series.mbox
}

# same_commit <rev> <rev>: both name the same commit (one git rev-parse).
same_commit () {
	same_ids=$(git rev-parse "$1" "$2") &&
	set -- $same_ids &&
	test $# = 2 && test "$1" = "$2"
}

# The branch holds exactly the series once, byte for byte as git am -s made it.
whole () {
	same_commit "$1" expect
}

for point in queue-after-read queue-objects-written queue-state-write queue-before-ref queue-after-ref
do
	test_expect_success "killed at $point: --continue completes the series exactly once" '
		git branch -f c-$point base &&
		crash c-$point $point &&
		git-maint-queue -q --continue &&
		whole c-$point &&
		test_path_is_missing .git/maint/queue &&
		test_path_is_missing .git/git-maint.lock
	'

	test_expect_success "killed at $point: --abort restores the original tip" '
		git branch -f a-$point base &&
		crash a-$point $point &&
		git-maint-queue --abort &&
		same_commit a-$point base &&
		test_path_is_missing .git/maint/queue
	'

	test_expect_success "killed at $point on the checked-out branch: --continue leaves a clean work tree" '
		git checkout -q -B w-$point base &&
		crash w-$point $point &&
		git-maint-queue -q --continue &&
		whole w-$point &&
		git status --porcelain --untracked-files=no >status &&
		test_must_be_empty status &&
		test_path_is_file n5 &&
		git checkout -q --detach base
	'

	test_expect_success "killed at $point on the checked-out branch: --abort leaves a clean work tree" '
		git checkout -q -B wa-$point base &&
		crash wa-$point $point &&
		git-maint-queue --abort &&
		same_commit HEAD base &&
		git status --porcelain --untracked-files=no >status &&
		test_must_be_empty status &&
		test_path_is_missing n1 &&
		git checkout -q --detach base
	'
done

# With a build after each patch, every patch is its own step: kill after patch k.
for k in 1 3 5
do
	for point in queue-before-ref:$k queue-after-ref:$k
	do
		test_expect_success "build-each, killed at $point: --continue resumes after patch $k" '
			bn=e-$k-${point%%:*} &&
			git checkout -q -B $bn base &&
			cat >.git/maint.ini <<-EOF &&
			[tree "e"]
				work = $bn
				build = sh build-ok.sh
				build-each = true
			EOF
			crash $bn $point &&
			git-maint-queue -q --continue &&
			whole $bn &&
			git status --porcelain --untracked-files=no >status &&
			test_must_be_empty status &&
			rm .git/maint.ini &&
			git checkout -q --detach base
		'
	done
done

# --abort moves the branch and the notes back in a step of its own.
for abort_point in queue-abort-before-ref queue-abort-after-ref
do
	test_expect_success "--abort killed at $abort_point: --abort again restores the original tip" '
		git checkout -q -B ab-$abort_point base &&
		git notes --ref=maint list >notes-before &&
		git rev-parse -q --verify refs/notes/maint >notes-ref-before &&
		crash ab-$abort_point queue-after-ref &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=$abort_point git-maint-queue --abort &&
		git-maint-queue --abort >out &&
		grep "is back at $(git rev-parse base)" out &&
		same_commit HEAD base &&
		git rev-parse -q --verify refs/notes/maint >notes-ref-after &&
		test_cmp notes-ref-before notes-ref-after &&
		git status --porcelain --untracked-files=no >status &&
		test_must_be_empty status &&
		test_path_is_missing n1 &&
		test_path_is_missing .git/maint/queue &&
		git checkout -q --detach base
	'
done

test_expect_success 'killed after reading: the original tip is in the state and the reflog' '
	git branch -f r1 base &&
	crash r1 queue-before-ref &&
	grep "^orig $(git rev-parse base)$" .git/maint/queue/state &&
	git-maint-queue -q --continue &&
	git reflog show r1 >reflog &&
	grep "$(git rev-parse --short base)" reflog &&
	whole r1
'

test_expect_success 'killed twice (again during --continue): still exactly once' '
	git branch -f r2 base &&
	crash r2 queue-before-ref &&
	test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=queue-after-ref git maint-queue -q --continue &&
	git-maint-queue -q --continue &&
	whole r2
'

test_expect_success 'notes survive a crash between the ref moves' '
	git branch -f r3 base &&
	crash r3 queue-after-ref &&
	git-maint-queue -q --continue &&
	for c in $(git rev-list base..r3)
	do
		git notes --ref=maint show $c >/dev/null || return 1
	done
'

test_done
