#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='two versions of a series, patch by patch: what git range-diff shows of the same commits'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-reviews.sh"

SQ="'"

# cfile <name> <n>: a C-like file of n functions, so hunks have function names.
cfile () {
	i=1 &&
	while test $i -le $2
	do
		printf "int %s_%d(void)\n{\n\tint x = %d;\n\n\treturn x;\n}\n\n" "$1" $i $i &&
		i=$((i + 1)) || return 1
	done >"$1"
}

# commit_with <message> <command>...: run the command, commit all with the message.
commit_with () {
	msg=$1 &&
	shift &&
	"$@" &&
	git add -A &&
	test_tick &&
	git commit -q -m "$msg"
}

# compare <old range> <new range> [<creation factor>]: ours on their mails against git range-diff.
compare () {
	rm -rf old new &&
	git format-patch -q -o old "$1" &&
	git format-patch -q -o new "$2" &&
	cat old/* >old.mbox 2>/dev/null || : >old.mbox &&
	cat new/* >new.mbox 2>/dev/null || : >new.mbox &&
	git range-diff --no-color ${3:+--creation-factor=$3} "$1" "$2" >expect &&
	test-series range-diff old.mbox new.mbox $3 >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: a base and two versions of a series of twelve' '
	git init -q &&
	cfile one.c 12 &&
	cfile two.c 8 &&
	printf "no newline" >nonl &&
	echo gone >gone.txt &&
	echo "keep me" >moved.txt &&
	echo script >run.sh &&
	git add -A &&
	test_tick &&
	git commit -q -m base &&
	git tag base &&

	git checkout -q -b v1 &&
	commit_with "one: change f1" sed -i "s/int x = 1;/int x = 100;/" one.c &&
	commit_with "one: change f3 and f9" sed -i "s/int x = 3;/int x = 300;/; s/int x = 9;/int x = 900;/" one.c &&
	commit_with "two: add a line to f2" sed -i "/int x = 2;/a\\
	x++;" two.c &&
	commit_with "new: a new file" sh -c "echo new >new.txt" &&
	commit_with "gone: delete a file" git rm -q gone.txt &&
	commit_with "moved: rename" git mv moved.txt renamed.txt &&
	commit_with "run: make it executable" chmod +x run.sh &&
	commit_with "nonl: more text, still no newline" sh -c "printf \"no newline, more\" >nonl" &&
	git commit -q --amend -m "nonl: more text, still no newline" -m "A body	with a tab,
		and an indented line with	tabs." &&
	commit_with "one: change f5" sed -i "s/int x = 5;/int x = 500;/" one.c &&
	commit_with "two: change f7" sed -i "s/int x = 7;/int x = 700;/" two.c &&
	commit_with "one: change f11" sed -i "s/int x = 11;/int x = 1100;/" one.c &&
	commit_with "two: change f8" sed -i "s/int x = 8;/int x = 800;/" two.c &&

	# v2: f3/f9 patch reworked, "two: change f7" dropped, a new patch,
	# two patches swapped, messages reworded, the rename with a change
	git checkout -q -b v2 base &&
	commit_with "one: change f1" sed -i "s/int x = 1;/int x = 100;/" one.c &&
	commit_with "one: change f3 and f9" sed -i "s/int x = 3;/int x = 301;/; s/int x = 9;/int x = 900;/" one.c &&
	commit_with "two: add a line to f2" sed -i "/int x = 2;/a\\
	x++;" two.c &&
	commit_with "gone: delete a file" git rm -q gone.txt &&
	commit_with "new: a new file" sh -c "echo new >new.txt" &&
	commit_with "moved: rename, and change it" sh -c "git mv moved.txt renamed.txt && echo more >>renamed.txt" &&
	commit_with "run: make it executable" chmod +x run.sh &&
	commit_with "nonl: more text, still no newline" sh -c "printf \"no newline, more\" >nonl" &&
	git commit -q --amend -m "nonl: more text, still no newline" -m "The body, reworded." &&
	commit_with "one: change f5" sed -i "s/int x = 5;/int x = 500;/" one.c &&
	commit_with "one: change f6, new in v2" sed -i "s/int x = 6;/int x = 600;/" one.c &&
	commit_with "one: change f11" sed -i "s/int x = 11;/int x = 1100;/" one.c &&
	commit_with "two: change f8" sed -i "s/int x = 8;/int x = 800;/" two.c &&
	git checkout -q --detach base
'

test_expect_success 'v1 against v2: the same as git range-diff' '
	compare base..v1 base..v2
'

test_expect_success 'v2 against v1, and a version against itself' '
	compare base..v2 base..v1 &&
	compare base..v1 base..v1
'

test_expect_success 'other creation factors pair otherwise, as in git' '
	compare base..v1 base..v2 0 &&
	compare base..v1 base..v2 20 &&
	compare base..v1 base..v2 200
'

test_expect_success 'a version against a part of the other' '
	compare base..v1~6 base..v2 &&
	compare base..v1 v2~3..v2
'

test_expect_success 'the topic of the thread tests: v2 changes patch 3' '
	mkdir threads &&
	(
		cd threads &&
		threads_setup &&
		git range-diff --no-color base..v1 base..v2 >expect &&
		test-series range-diff v1-patches.mbox v2-patches.mbox >actual &&
		test_cmp expect actual
	)
'

test_expect_success 'dry-apply --range-diff: v1, v2 and their replies in one mailbox, as git range-diff' '
	mkdir reviews &&
	(
		cd reviews &&
		reviews_setup &&
		git range-diff --no-color base..v1 base..v2 >range &&
		{
			echo "Range-diff of ${SQ}topic: four changes${SQ} v1 against v2:" &&
			cat range
		} >../expect &&
		repo_state >../before &&
		git-maint-dry-apply --range-diff reviews-v2.mbox >../actual 2>../err &&
		repo_state >../after
	) &&
	test_cmp expect actual &&
	cp expect expect.range &&
	test_must_be_empty err &&
	test_cmp before after
'

test_expect_success 'dry-apply --range-diff: one version only is a negative answer' '
	(
		cd reviews &&
		test_expect_code 1 git-maint-dry-apply --range-diff reviews.mbox >../out 2>../err
	) &&
	test_must_be_empty out &&
	echo "error: no series with two versions in the input" >expect &&
	test_cmp expect err
'

test_expect_success 'dry-apply --range-diff: versions over 1,000,000 pairs of patches are refused in one line, exit 1, the others shown (55)' '
	python3 "$MAINT_SRC_DIR/t/perf/gen-review.py" rangediff 1001 >huge.mbox &&
	(
		cd reviews &&
		test_expect_code 1 git-maint-dry-apply --range-diff ../huge.mbox reviews-v2.mbox >../out 2>../err
	) &&
	echo "error: ${SQ}usb: many fixes${SQ}: v1 and v2 have 1001 and 1001 patches; a range-diff compares every pair, at most 1000000 pairs" >expect &&
	test_cmp expect err &&
	test_cmp expect.range out
'

test_done
