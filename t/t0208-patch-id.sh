#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='patch ids of mailed patches: what git patch-id --stable computes'
. ./test-lib.sh

test_expect_success 'setup: commits of every kind of change' '
	git init -q &&
	seq 1 40 >a &&
	seq 1 10 >b &&
	printf "one\ntwo" >nonl &&
	printf "\000\001\002" >bin &&
	echo keep >moved &&
	echo mode >m &&
	echo gone >gone &&
	git add . &&
	test_tick &&
	git commit -q -m base &&
	sed -i "s/^3\$/three/; s/^30\$/thirty/" a &&
	test_tick &&
	git commit -q -am "two hunks" &&
	sed -i "s/^5\$/five/" a &&
	sed -i "s/^5\$/five/" b &&
	test_tick &&
	git commit -q -am "two files" &&
	echo new >new &&
	git add new &&
	git rm -q gone &&
	test_tick &&
	git commit -q -m "a new file, a deleted one" &&
	git mv moved renamed &&
	test_tick &&
	git commit -q -m "a rename" &&
	chmod +x m &&
	test_tick &&
	git commit -q -am "a mode change" &&
	printf "\000\001\003" >bin &&
	test_tick &&
	git commit -q -am "a binary change" &&
	printf "one\ntwo\nthree" >nonl &&
	test_tick &&
	git commit -q -am "no newline at the end" &&
	sed -i "2a\\
added" b &&
	test_tick &&
	git commit -q -am "a one-line hunk" &&
	sed -i "s/^1\$/  1 /" b &&
	test_tick &&
	git commit -q -am "whitespace only" &&
	test_tick &&
	git commit -q --allow-empty -m "no diff at all"
'

test_expect_success 'the diff of git log -p, and the mail of git format-patch: git patch-id --stable' '
	for c in $(git rev-list --reverse HEAD~10..HEAD)
	do
		git show $c >show &&
		git format-patch -1 --stdout $c >mail &&
		git show $c | git patch-id --stable | cut -d" " -f1 >expect &&
		test-series patch-id show >actual &&
		test_cmp expect actual &&
		git patch-id --stable <mail | cut -d" " -f1 >expect &&
		test-series patch-id mail >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'the same change with another message and elsewhere in the file: the same id' '
	git checkout -q -b other HEAD~10 &&
	sed -i "15a\\
15.5" a &&
	test_tick &&
	git commit -q -am "moved down" &&
	sed -i "s/^3\$/three/; s/^30\$/thirty/" a &&
	test_tick &&
	git commit -q -am "two hunks, told otherwise" &&
	git format-patch -1 --stdout >moved.mail &&
	git format-patch -1 --stdout main~9 >orig.mail &&
	test-series patch-id moved.mail >actual &&
	test-series patch-id orig.mail >expect &&
	test_cmp expect actual &&
	test "$(grep "^@@" moved.mail)" != "$(grep "^@@" orig.mail)" &&
	sed -i "s/^+thirty/+thirty-one/" moved.mail &&
	test-series patch-id moved.mail >changed &&
	! test_cmp expect changed
'

test_expect_success 'files in another order: the same id, as --stable promises' '
	git format-patch -1 --stdout main~8 >two.mail &&
	printf "b\na\n" >order &&
	git format-patch -1 --stdout -Oorder main~8 >swapped.mail &&
	! test_cmp two.mail swapped.mail &&
	test-series patch-id two.mail >expect &&
	test-series patch-id swapped.mail >actual &&
	test_cmp expect actual &&
	git patch-id --stable <swapped.mail | cut -d" " -f1 >oracle &&
	test_cmp oracle actual
'

test_done
