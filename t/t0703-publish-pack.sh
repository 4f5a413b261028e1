#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='the pack publish pushes (pushpack): the objects the remote lacks, git rev-list the oracle; thin deltas only against objects worth their cost to the server, completed by git index-pack --fix-thin'
. ./test-lib.sh

# 12 KiB of lines, different for each seed
big_file () {
	awk -v s="$1" 'BEGIN { for (i = 0; i < 400; i++) printf "int f%d_%d(void) { return %d; }\n", s, i, i * s }'
}

test_expect_success 'setup: the remote has A; B changes a big file, a small one and a big directory' '
	git init -q r &&
	(
		cd r &&
		big_file 1 >big.c &&
		seq 1 400 >small.c &&
		mkdir many &&
		for i in $(seq 100 399); do echo $i >many/file$i.c || return 1; done &&
		git add . &&
		test_tick &&
		git commit -q -m A &&
		git tag A &&
		test $(git cat-file -s A:many) -ge 8192 &&
		test $(git cat-file -s A:) -lt 8192 &&
		echo "int more(void);" >>big.c &&
		echo 401 >>small.c &&
		test $(git cat-file -s A:small.c) -lt 8192 &&
		test $(git cat-file -s A:small.c) -gt 1024 &&
		echo changed >many/file200.c &&
		git commit -q -a -m B &&
		git tag B &&
		echo "int again(void);" >>big.c &&
		git commit -q -a -m C &&
		git tag C
	) &&
	git clone -q --bare --no-local r remote.git &&
	git -C remote.git update-ref -d refs/tags/B &&
	git -C remote.git update-ref -d refs/tags/C &&
	git -C remote.git update-ref refs/heads/master A &&
	git -C remote.git repack -adq &&
	git -C remote.git prune
'

# pushed <pack> <tip>: a copy of the remote that took the pack as
# receive-pack does (index-pack --fix-thin) and moved master to <tip>;
# whole under fsck --strict, and holding every object of <tip>'s history
pushed () {
	rm -rf remote-copy.git &&
	cp -R remote.git remote-copy.git &&
	git -C remote-copy.git index-pack --stdin --fix-thin <"$1" >/dev/null &&
	git -C remote-copy.git update-ref refs/heads/master $(git -C r rev-parse "$2") &&
	git -C remote-copy.git fsck --strict --no-dangling &&
	git -C remote-copy.git rev-list --objects master | cut -d" " -f1 | sort >have &&
	git -C r rev-list --objects "$2" | cut -d" " -f1 | sort >want &&
	test_cmp want have
}

test_expect_success 'one commit: what git rev-list lists, the big file and big tree thin deltas, the small ones whole' '
	(cd r && test-pushpack B ../b.pack $(git rev-parse A)) >out &&
	printf "commits 1\nobjects 6\nofs 0\nthin 2\n" >expect &&
	test_cmp expect out &&
	git -C r rev-list --objects A..B | cut -d" " -f1 | sort >expect &&
	test_line_count = 6 expect &&
	pushed b.pack B
'

test_expect_success 'the big file'"'"'s thin base is what the remote has: git index-pack without --fix-thin refuses the pack' '
	rm -rf scratch.git &&
	git init -q --bare scratch.git &&
	test_must_fail git -C scratch.git index-pack --stdin <b.pack 2>err &&
	grep "unresolved deltas" err
'

test_expect_success 'two commits: the second version of the big file an OFS delta against the first, in the pack' '
	(cd r && test-pushpack C ../c.pack $(git rev-parse A)) >out &&
	printf "commits 2\nobjects 9\nofs 1\nthin 2\n" >expect &&
	test_cmp expect out &&
	git -C r rev-list --objects A..C | cut -d" " -f1 | sort >expect &&
	test_line_count = 9 expect &&
	pushed c.pack C
'

test_expect_success 'a server that said no-thin gets a pack that stands alone' '
	(cd r && test-pushpack C ../c-alone.pack --no-thin $(git rev-parse A)) >out &&
	grep "^thin 0$" out &&
	rm -rf scratch.git &&
	git init -q --bare scratch.git &&
	git -C scratch.git index-pack --stdin <c-alone.pack >/dev/null &&
	idx=$(echo scratch.git/objects/pack/*.idx) &&
	git show-index <"$idx" | cut -d" " -f2 | sort >have &&
	git -C r rev-list --objects A..C | cut -d" " -f1 | sort >want &&
	test_cmp want have
'

test_expect_success 'a remote that has B already: only C'"'"'s objects' '
	(cd r && test-pushpack C ../c-only.pack $(git rev-parse A) $(git rev-parse B)) >out &&
	git -C r rev-list --objects C --not A B | wc -l >expect &&
	sed -n "s/^objects //p" out >actual &&
	test_cmp expect actual
'

test_done
