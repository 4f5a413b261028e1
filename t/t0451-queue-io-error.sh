#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue when the disk fails a write (EIO): exit 128 naming the file, nothing lost'
. ./test-lib.sh

# Reliability case 23: writes fail with EIO where the test says (lib-eio.sh).
. "$MAINT_TEST_DIR/lib-eio.sh"

# What the user sees: refs, HEAD, index entries, status, work tree bytes.
# (--abort after a moved ref appends to reflogs and may leave the objects
# it wrote, unreachable, as git am --abort does.)
visible_state () {
	git for-each-ref --format="%(refname) %(objectname)" &&
	git symbolic-ref HEAD &&
	git ls-files -s &&
	git status --porcelain=v1 &&
	sha1sum f1 f2 f3 f4
}

test_expect_success EIO 'setup: a branch and a 3-patch series' '
	git init -q repo &&
	(
		cd repo &&
		for i in 1 2 3 4; do echo "line $i" >f$i || return 1; done &&
		git add . &&
		test_tick &&
		git commit -q -m base &&
		git branch base &&
		for i in 1 2 3
		do
			echo "changed $i" >>f$i &&
			test_tick &&
			git commit -q -a -m "change $i" || return 1
		done &&
		git branch orig &&
		git format-patch -q --stdout base >../series.mbox &&
		git checkout -q -B target base
	)
'

# what: the part of the path that fails; how: the grep for its error line
for case in "objects/pack:objects/pack" "maint/queue:maint/queue" "f2:f2"
do
	what=${case%%:*} path=${case#*:}
	test_expect_success EIO "EIO writing $what: exit 128 naming it; --abort if it stopped; all as before" '
		(
			cd repo &&
			git checkout -q -B target base &&
			visible_state >../before &&
			test_expect_code 128 eio "$what" git maint-queue -q target ../series.mbox 2>../err &&
			grep "Input/output error" ../err &&
			grep "$path" ../err &&
			if test -d .git/maint/queue
			then
				git maint-queue --abort >/dev/null
			fi &&
			visible_state >../after &&
			test_cmp ../before ../after
		)
	'
	test_expect_success EIO "after EIO writing $what, the queue runs to the end" '
		(
			cd repo &&
			git maint-queue -q target ../series.mbox &&
			git rev-list base..target >../applied &&
			test_line_count = 3 ../applied &&
			git diff --quiet orig target &&
			git status --porcelain --untracked-files=no >../status &&
			test_must_be_empty ../status
		)
	'
done

test_expect_success EIO 'EIO writing the work tree after the ref moved: --continue finishes the job' '
	(
		cd repo &&
		git checkout -q -B target base &&
		test_expect_code 128 eio f3 git maint-queue -q target ../series.mbox 2>../err &&
		grep "^fatal: .target. moved to .* but its work tree was not updated" ../err &&
		test -d .git/maint/queue &&
		git maint-queue -q --continue &&
		test_path_is_missing .git/maint/queue &&
		git diff --quiet orig target &&
		git status --porcelain --untracked-files=no >../status &&
		test_must_be_empty ../status
	)
'

test_done
