#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue and the maintainer'\''s files: nothing untracked is lost (reliability case 37)

git am is the oracle: where it refuses to overwrite an untracked or
ignored file, queue refuses too, before the branch moves, and leaves the
file, the repository and everything outside as they were.'
. ./test-lib.sh

# state: what a refused queue must leave as it was (ORIG_HEAD aside: git
# am sets it too), plus every file of the work tree, untracked or not.
state () {
	repo_state ORIG_HEAD &&
	files
}

# files: every file and link of the work tree, with its mode and content
# (one find, which hands the files to one sha1sum, and one sort).
files () {
	find . -path ./.git -prune -o -type l -printf "link %p -> %l\n" \
		-o -type f -printf "file %p %m\n" -exec sha1sum -- {} + |
		LC_ALL=C sort
}

# way <doing> <path>...: the error for untracked files in the way.
way () {
	doing=$1 &&
	shift &&
	printf "fatal: untracked working tree files would be overwritten%s:\n" "${doing:+ by $doing}" &&
	printf "\t%s\n" "$@" &&
	echo "move or remove them first"
}

# refused <mbox> <path>...: on branch t (checked out, set up by the
# caller), queue exits 128 naming the paths, and everything is as before;
# git am refuses the same series in the same state, leaving the files.
refused () {
	mbox=$1 &&
	shift &&
	state >"$HOME"/before &&
	test_expect_code 128 git-maint-queue -q t "$mbox" >"$HOME"/out 2>"$HOME"/err &&
	test_must_be_empty "$HOME"/out &&
	way queue "$@" >"$HOME"/expect &&
	test_cmp "$HOME"/expect "$HOME"/err &&
	state >"$HOME"/after &&
	test_cmp "$HOME"/before "$HOME"/after &&
	test_path_is_missing .git/maint/queue &&
	files >"$HOME"/before &&
	tip=$(git rev-parse t) &&
	test_must_fail git am -q "$mbox" >/dev/null 2>&1 &&
	files >"$HOME"/after-am &&
	git am --abort &&
	test_cmp "$HOME"/before "$HOME"/after-am &&
	test "$(git rev-parse t)" = "$tip"
}

test_expect_success 'setup: a base and the series that need a directory or a file' '
	git init -q r &&
	(
		cd r &&
		echo base >file &&
		echo old >old &&
		echo keep >keep &&
		git add . &&
		test_commit base &&
		git checkout -q -b gen &&
		mkdir notes &&
		echo x >notes/x.c &&
		git add notes &&
		test_tick &&
		git commit -q -m "add notes/x.c" &&
		git format-patch -q --stdout base >../notes.mbox &&
		git reset -q --hard base &&
		mkdir -p a/b/c &&
		echo d >a/b/c/d &&
		git add a &&
		test_tick &&
		git commit -q -m "add a/b/c/d" &&
		git format-patch -q --stdout base >../deep.mbox &&
		git reset -q --hard base &&
		echo top >top &&
		git add top &&
		test_tick &&
		git commit -q -m "add top" &&
		git format-patch -q --stdout base >../top.mbox &&
		git reset -q --hard base &&
		mkdir many &&
		for i in $(seq 1 70)
		do
			echo $i >many/f$i || return 1
		done &&
		echo dd >dd &&
		git add many dd &&
		test_tick &&
		git commit -q -m "seventy files and dd" &&
		git format-patch -q --stdout base >../many.mbox &&
		git reset -q --hard base &&
		git rm -q old &&
		test_tick &&
		git commit -q -m "remove old" &&
		echo keep2 >>keep &&
		test_tick &&
		git commit -q -a -m "change keep" &&
		git format-patch -q --stdout base >../stops.mbox &&
		git checkout -q main
	) &&
	mkdir outside
'

test_expect_success 'an untracked file where a patch needs a directory is kept (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		echo mine >notes &&
		refused ../notes.mbox notes &&
		echo mine >"$HOME"/expect &&
		test_cmp "$HOME"/expect notes &&
		rm notes
	)
'

test_expect_success 'an untracked symbolic link where a patch needs a directory: nothing written through it (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		ln -s ../outside notes &&
		state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue -q t ../notes.mbox 2>"$HOME"/err &&
		way queue notes >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after &&
		test "$(readlink notes)" = ../outside &&
		rm notes
	) &&
	find outside >actual &&
	echo outside >"$HOME"/expect &&
	test_cmp "$HOME"/expect actual
'

test_expect_success 'an untracked file in place of a directory three levels up is kept (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		echo mine >a &&
		refused ../deep.mbox a &&
		rm a
	)
'

test_expect_success 'an ignored file where a patch needs a directory is kept, as git am keeps it (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		echo notes >.git/info/exclude &&
		echo mine >notes &&
		refused ../notes.mbox notes &&
		rm notes .git/info/exclude
	)
'

test_expect_success 'an ignored file at a path a patch creates: refused before the branch moves (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		echo top >.git/info/exclude &&
		echo mine >top &&
		refused ../top.mbox top &&
		rm top .git/info/exclude
	)
'

test_expect_success 'untracked and ignored files in a directory where a file goes, among many paths (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		echo "*.o" >.git/info/exclude &&
		mkdir -p dd/sub &&
		echo mine >dd/mine &&
		echo obj >dd/sub/x.o &&
		refused ../many.mbox dd/mine dd/sub/x.o &&
		rm -r dd .git/info/exclude
	)
'

test_expect_success 'a directory holding only empty directories where a file goes is replaced' '
	(
		cd r &&
		git checkout -q -B t base &&
		mkdir -p top/empty/er &&
		git-maint-queue -q t ../top.mbox &&
		echo top >"$HOME"/expect &&
		test_cmp "$HOME"/expect top &&
		git status --porcelain --ignored >"$HOME"/status &&
		test_must_be_empty "$HOME"/status
	)
'

test_expect_success '--abort refuses to lose an untracked file, as git am --abort does; nothing moves (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		echo diverged >keep &&
		git commit -q -a -m diverged &&
		git tag diverged &&
		test_expect_code 1 git-maint-queue -q t ../stops.mbox 2>/dev/null &&
		mkdir old &&
		echo mine >old/mine &&
		state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue --abort >"$HOME"/out 2>"$HOME"/err &&
		test_must_be_empty "$HOME"/out &&
		way --abort old/mine >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after &&
		rm -r old &&
		git-maint-queue --abort >/dev/null &&
		test "$(git rev-parse t)" = "$(git rev-parse diverged)" &&
		git status --porcelain --ignored >"$HOME"/status &&
		test_must_be_empty "$HOME"/status
	)
'

# After a kill between the ref move and the work tree update, a new file
# of the step may already be written but not yet in the index. (The
# lock file the killed process left is removed, so that the state
# compared is the work tree's.)
test_expect_success '--continue after a crash finishes a file the step wrote (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=queue-after-ref \
			git-maint-queue -q t ../top.mbox &&
		rm .git/git-maint.lock &&
		git show t:top >top &&
		git-maint-queue -q --continue &&
		git status --porcelain --ignored >"$HOME"/status &&
		test_must_be_empty "$HOME"/status
	)
'

test_expect_success '--continue after a crash keeps a file of the user in the way (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=queue-after-ref \
			git-maint-queue -q t ../top.mbox &&
		rm .git/git-maint.lock &&
		echo mine >top &&
		state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue -q --continue 2>"$HOME"/err &&
		way "" top >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after &&
		rm top &&
		git-maint-queue -q --continue &&
		git status --porcelain --ignored >"$HOME"/status &&
		test_must_be_empty "$HOME"/status
	)
'

test_expect_success '--abort after a crash removes a file the step wrote, keeps one of the user (37)' '
	(
		cd r &&
		git checkout -q -B t base &&
		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=queue-after-ref \
			git-maint-queue -q t ../top.mbox &&
		rm .git/git-maint.lock &&
		git show t:top >top &&
		git-maint-queue --abort >/dev/null &&
		test_path_is_missing top &&
		test "$(git rev-parse t)" = "$(git rev-parse base)" &&

		test_expect_code 137 env GIT_MAINT_TEST_CRASH_AT=queue-after-ref \
			git-maint-queue -q t ../top.mbox &&
		rm .git/git-maint.lock &&
		echo mine >top &&
		state >"$HOME"/before &&
		test_expect_code 128 git-maint-queue --abort 2>"$HOME"/err &&
		way --abort top >"$HOME"/expect &&
		test_cmp "$HOME"/expect "$HOME"/err &&
		state >"$HOME"/after &&
		test_cmp "$HOME"/before "$HOME"/after &&
		rm top &&
		git-maint-queue --abort >/dev/null &&
		git status --porcelain --ignored >"$HOME"/status &&
		test_must_be_empty "$HOME"/status
	)
'

test_done
