#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue reads its state files with the suspicion due to mail (reliability case 45)

$GIT_DIR/maint/queue, $GIT_DIR/maint or a file in them replaced by a
symbolic link, or a conflict list naming ../ paths: nothing outside
$GIT_DIR/maint and the work tree is read, written or deleted.'
. ./test-lib.sh

# outside: every file outside the repository (in the trash directory,
# next to w/), with its content; what no command may touch. (One find,
# which hands the files to one sha1sum, and one sort.)
outside () {
	(
		cd "$HOME" &&
		find victim victim-dir -print -type f -exec sha1sum -- {} + | LC_ALL=C sort
	)
}

# unchanged <cmd>...: runs cmd, which must exit 128 with the error in
# "$HOME"/expect-err, and leave the repository and the outside files as
# they were.
unchanged () {
	repo_state >"$HOME"/before &&
	outside >"$HOME"/outside-before &&
	test_expect_code 128 "$@" >"$HOME"/out 2>"$HOME"/err &&
	test_must_be_empty "$HOME"/out &&
	test_cmp "$HOME"/expect-err "$HOME"/err &&
	repo_state >"$HOME"/after &&
	test_cmp "$HOME"/before "$HOME"/after &&
	outside >"$HOME"/outside-after &&
	test_cmp "$HOME"/outside-before "$HOME"/outside-after
}

test_expect_success 'setup: a series that stops at its second patch, and files outside' '
	echo precious >victim &&
	mkdir victim-dir &&
	echo precious >victim-dir/state &&
	echo precious >victim-dir/keep &&
	mkdir w &&
	git init -q w/r &&
	(
		cd w/r &&
		echo one >one &&
		echo two >two &&
		git add . &&
		test_commit base &&
		git checkout -q -b gen &&
		echo one2 >>one &&
		test_tick &&
		git commit -q -a -m "patch one" &&
		echo two2 >>two &&
		test_tick &&
		git commit -q -a -m "patch two" &&
		git format-patch -q --stdout base >../series.mbox &&
		git checkout -q main &&
		echo two-diverged >two &&
		git commit -q -a -m diverged &&
		git tag diverged
	)
'

test_expect_success 'a ../../ path in the conflict list: --skip refuses, nothing outside is deleted (45)' '
	(
		cd w/r &&
		git checkout -q -B t diverged &&
		test_expect_code 1 git-maint-queue -q t ../series.mbox 2>/dev/null &&
		dir="$PWD/.git/maint/queue" &&
		printf "two\n../../victim\n" >.git/maint/queue/conflict &&
		echo "fatal: '\''$dir/conflict'\'': invalid path '\''../../victim'\'': '\''.'\'' or '\''..'\'' in path; remove that file to go on without it" >"$HOME"/expect-err &&
		unchanged git-maint-queue --skip &&
		unchanged git-maint-queue --continue &&
		unchanged git-maint-queue --abort &&
		rm .git/maint/queue/conflict &&
		git-maint-queue --abort >/dev/null &&
		test "$(git rev-parse t)" = "$(git rev-parse diverged)"
	) &&
	echo precious >expect &&
	test_cmp expect victim
'

test_expect_success 'a .git path or an absolute path in the conflict list is refused too (45)' '
	(
		cd w/r &&
		git checkout -q -B t diverged &&
		test_expect_code 1 git-maint-queue -q t ../series.mbox 2>/dev/null &&
		dir="$PWD/.git/maint/queue" &&
		printf ".git/config\n" >.git/maint/queue/conflict &&
		echo "fatal: '\''$dir/conflict'\'': invalid path '\''.git/config'\'': '\''.git'\'' in path; remove that file to go on without it" >"$HOME"/expect-err &&
		unchanged git-maint-queue --skip &&
		printf "%s\n" "$HOME/victim" >.git/maint/queue/conflict &&
		echo "fatal: '\''$dir/conflict'\'': invalid path '\''$HOME/victim'\'': absolute path; remove that file to go on without it" >"$HOME"/expect-err &&
		unchanged git-maint-queue --skip &&
		rm .git/maint/queue/conflict &&
		git-maint-queue --abort >/dev/null
	)
'

test_expect_success 'a conflict list naming a path beyond a tracked symbolic link: nothing outside is deleted (45)' '
	(
		cd w/r &&
		git checkout -q -B t diverged &&
		ln -s ../../victim-dir link &&
		git add link &&
		git commit -q -m link &&
		test_expect_code 1 git-maint-queue -q t ../series.mbox 2>/dev/null &&
		printf "link/keep\n" >.git/maint/queue/conflict &&
		printf "fatal: these paths are beyond a symbolic link or file:\n\tlink/keep\n" >"$HOME"/expect-err &&
		unchanged git-maint-queue --skip &&
		rm .git/maint/queue/conflict &&
		git-maint-queue --abort >/dev/null &&
		git reset -q --hard diverged
	)
'

test_expect_success 'the state directory a symbolic link: refused; --abort removes the link only (45)' '
	(
		cd w/r &&
		git checkout -q -B t diverged &&
		dir="$PWD/.git/maint/queue" &&
		ln -s "$HOME/victim-dir" .git/maint/queue &&
		echo "fatal: the queue state '\''$dir'\'' is not a directory or is reached through a symbolic link; not used ('\''git maint-queue --abort'\'' removes a link there)" >"$HOME"/expect-err &&
		unchanged git-maint-queue --continue &&
		unchanged git-maint-queue --skip &&
		unchanged git-maint-queue --show-current &&
		unchanged git-maint-queue -q t ../series.mbox &&
		outside >"$HOME"/outside-before &&
		git-maint-queue --abort >out 2>err &&
		test_must_be_empty out &&
		echo "warning: removed '\''$dir'\'': it was not a directory (a symbolic link?); no branch was reset" >expect &&
		test_cmp expect err &&
		test_path_is_missing .git/maint/queue &&
		outside >"$HOME"/outside-after &&
		test_cmp "$HOME"/outside-before "$HOME"/outside-after
	)
'

test_expect_success '$GIT_DIR/maint a symbolic link: refused, --abort too, nothing outside touched (45)' '
	(
		cd w/r &&
		git checkout -q -B t diverged &&
		rm -r .git/maint &&
		mkdir "$HOME"/victim-dir/queue &&
		echo precious >"$HOME"/victim-dir/queue/state &&
		ln -s "$HOME/victim-dir" .git/maint &&
		dir="$PWD/.git/maint/queue" &&
		echo "fatal: the queue state '\''$dir'\'' is not a directory or is reached through a symbolic link; not used ('\''git maint-queue --abort'\'' removes a link there)" >"$HOME"/expect-err &&
		unchanged git-maint-queue --continue &&
		unchanged git-maint-queue -q t ../series.mbox &&
		echo "fatal: '\''$PWD/.git/maint'\'' is not a directory (a symbolic link?); git-maint does not use it" >"$HOME"/expect-err &&
		unchanged git-maint-queue --abort &&
		rm .git/maint
	) &&
	rm -r victim-dir/queue
'

test_expect_success 'a state file a symbolic link: not read, and --abort removes the link only (45)' '
	(
		cd w/r &&
		git checkout -q -B t diverged &&
		test_expect_code 1 git-maint-queue -q t ../series.mbox 2>/dev/null &&
		dir="$PWD/.git/maint/queue" &&
		rm .git/maint/queue/state &&
		ln -s "$HOME/victim-dir/state" .git/maint/queue/state &&
		printf "%s\n" "error: state file '\''$dir/state'\'' is a symbolic link; not read" \
			"fatal: the queue state in '\''$dir'\'' cannot be used; run '\''git maint-queue --abort'\'' to clear it" \
			>"$HOME"/expect-err &&
		unchanged git-maint-queue --continue &&
		outside >"$HOME"/outside-before &&
		git-maint-queue --abort 2>err &&
		grep "^warning: removing the damaged queue state; no branch was reset$" err &&
		test_path_is_missing .git/maint/queue &&
		outside >"$HOME"/outside-after &&
		test_cmp "$HOME"/outside-before "$HOME"/outside-after
	)
'

test_expect_success 'the stored patch a symbolic link: --show-current and --continue do not read it (45)' '
	(
		cd w/r &&
		git checkout -q -B t diverged &&
		test_expect_code 1 git-maint-queue -q t ../series.mbox 2>/dev/null &&
		dir="$PWD/.git/maint/queue" &&
		rm .git/maint/queue/patch &&
		ln -s "$HOME/victim" .git/maint/queue/patch &&
		echo "fatal: state file '\''$dir/patch'\'' is a symbolic link; not read" >"$HOME"/expect-err &&
		unchanged git-maint-queue --show-current &&
		unchanged git-maint-queue --continue &&
		outside >"$HOME"/outside-before &&
		git-maint-queue --abort >/dev/null &&
		test_path_is_missing .git/maint/queue &&
		outside >"$HOME"/outside-after &&
		test_cmp "$HOME"/outside-before "$HOME"/outside-after &&
		test "$(git rev-parse t)" = "$(git rev-parse diverged)"
	)
'

test_done
