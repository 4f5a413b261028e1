#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue on a checked-out branch: the work tree and index git am leaves'
. ./test-lib.sh

# snapshot <dir>: every path of the work tree (not .git) with its type,
# permissions and content (a checksum), and the index, as one text. One
# find lists them all (sha1sum reads the files), one sort orders it:
# a stat, od and tr a file cost some 60 processes a snapshot.
snapshot () {
	(
		cd "$1" &&
		find . -path ./.git -prune -o -type d -printf "dir %p\n" \
			-o -type l -printf "link %p -> %l\n" \
			-o -printf "file %p %m\n" -exec sha1sum -- {} + |
		LC_ALL=C sort &&
		git ls-files -s &&
		git status --porcelain
	)
}

test_expect_success 'setup: a base and a series that reshapes the tree' '
	git init -q orig &&
	(
		cd orig &&
		mkdir dir dir2 solo crlf &&
		seq 1 50 >dir2/moved.c &&
		echo gone >dir2/gone.c &&
		echo a >dir/a.c &&
		echo b >dir/b.c &&
		echo only >solo/only.c &&
		printf "echo x\n" >x.sh &&
		printf "echo y\n" >y.sh &&
		chmod +x y.sh &&
		echo top >top &&
		printf "*.txt text eol=crlf\n" >crlf/.gitattributes &&
		printf "one\ntwo\n" >crlf/t.txt &&
		printf "one\ntwo\n" >plain.txt &&
		git add . &&
		test_tick &&
		git commit -q -m base &&
		git branch -m main &&
		git checkout -q -b gen &&

		echo "a changed" >dir/a.c &&
		git commit -q -a -m "change a" &&
		chmod +x x.sh &&
		chmod -x y.sh &&
		git commit -q -a -m "modes" &&
		git rm -q -r dir &&
		echo "now a file" >dir &&
		git add dir &&
		git commit -q -m "dir becomes a file" &&
		git mv dir2/moved.c moved.c &&
		git rm -q dir2/gone.c &&
		echo "dir2 is a file now" >dir2 &&
		git add dir2 &&
		git commit -q -m "rename out of a dir that becomes a file" &&
		git rm -q top &&
		mkdir top &&
		echo inner >top/inner.c &&
		git add top &&
		git commit -q -m "file becomes a dir" &&
		git rm -q solo/only.c &&
		git commit -q -m "empty a directory" &&
		ln -s x.sh link &&
		mkdir -p new/deep/er &&
		echo deep >new/deep/er/file.c &&
		git add link new &&
		git commit -q -m "symlink and new directories" &&
		printf "one\ntwo\nthree\n" >crlf/t.txt &&
		printf "one\ntwo\nthree\n" >plain.txt &&
		git commit -q -a -m "text files" &&
		git format-patch -q -M --stdout main >../series.mbox &&
		git checkout -q main
	)
'

test_expect_success 'the work tree, modes, links and index end as git am -s leaves them' '
	git clone -q orig am &&
	git clone -q orig q &&
	(cd am && git am -q -s ../series.mbox) &&
	(cd q && git-maint-queue -q -s main ../series.mbox) &&
	test "$(git -C am rev-parse HEAD)" = "$(git -C q rev-parse HEAD)" &&
	snapshot am >expect &&
	snapshot q >actual &&
	test_cmp expect actual &&
	grep "^link ./link -> x.sh" actual &&
	printf "one\r\ntwo\r\nthree\r\n" >expect.crlf &&
	test_cmp expect.crlf q/crlf/t.txt
'

test_expect_success 'with core.autocrlf=true the files are written as git am writes them' '
	git clone -q -c core.autocrlf=true orig am-crlf &&
	git clone -q -c core.autocrlf=true orig q-crlf &&
	(cd am-crlf && git am -q -s ../series.mbox) &&
	(cd q-crlf && git-maint-queue -q -s main ../series.mbox) &&
	snapshot am-crlf >expect &&
	snapshot q-crlf >actual &&
	test_cmp expect actual &&
	printf "one\r\ntwo\r\nthree\r\n" >expect.crlf &&
	test_cmp expect.crlf q-crlf/plain.txt
'

test_expect_success 'a read-only file in the work tree is replaced as git am replaces it' '
	git clone -q orig am-ro &&
	git clone -q orig q-ro &&
	chmod a-w am-ro/plain.txt q-ro/plain.txt &&
	(cd am-ro && git am -q -s ../series.mbox) &&
	(cd q-ro && git-maint-queue -q -s main ../series.mbox) &&
	snapshot am-ro >expect &&
	snapshot q-ro >actual &&
	test_cmp expect actual
'

test_expect_success '--abort after a failed build puts the reshaped work tree back' '
	git clone -q orig before &&
	git clone -q orig ab &&
	(
		cd ab &&
		printf "[tree \"t\"]\n\twork = main\n\tbuild = false\n" >.git/maint.ini &&
		test_expect_code 1 git-maint-queue -q -s main ../series.mbox 2>../err &&
		grep "build failed" ../err &&
		git-maint-queue --abort >../out &&
		test "$(git rev-parse HEAD)" = "$(git rev-parse origin/main)"
	) &&
	snapshot before >expect &&
	snapshot ab >actual &&
	test_cmp expect actual
'

test_expect_success 'setup: a series whose second patch conflicts under -3' '
	git init -q orig3 &&
	(
		cd orig3 &&
		seq 1 10 >f &&
		seq 1 5 >g &&
		echo h >h &&
		git add . &&
		test_tick &&
		git commit -q -m base &&
		git branch -m main &&
		git checkout -q -b side &&
		echo "h changed" >h &&
		git commit -q -a -m "clean one" &&
		sed -i "s/^5\$/5 side/" f &&
		sed -i "s/^2\$/2 side/" g &&
		git commit -q -a -m "conflicting one" &&
		git format-patch -q --stdout main >../conflict.mbox &&
		git checkout -q main &&
		sed -i "s/^5\$/5 main/" f &&
		git commit -q -a -m "main moved on"
	)
'

test_expect_success '-3 with a conflict: work tree, index stages and markers as git am -3 leaves them' '
	git clone -q orig3 am3 &&
	git clone -q orig3 q3 &&
	(cd am3 && test_must_fail git am -q -3 ../conflict.mbox >/dev/null 2>&1) &&
	(cd q3 && test_expect_code 1 git-maint-queue -q -3 main ../conflict.mbox 2>../err) &&
	grep "CONFLICT (content): Merge conflict in f" err &&
	test "$(git -C am3 rev-parse HEAD)" = "$(git -C q3 rev-parse HEAD)" &&
	snapshot am3 >expect &&
	snapshot q3 >actual &&
	test_cmp expect actual &&
	grep "^UU f" actual &&
	grep "^M  g" actual
'

test_expect_success '-3 conflict: resolved, git add, --continue makes the commit git am --continue makes' '
	for d in am3 q3
	do
		seq 1 10 | sed "s/^5\$/5 both/" >$d/f &&
		git -C $d add f || return 1
	done &&
	(cd am3 && git am -q --continue) &&
	(cd q3 && git-maint-queue -q --continue) &&
	test "$(git -C am3 rev-parse HEAD)" = "$(git -C q3 rev-parse HEAD)" &&
	test_path_is_missing q3/.git/maint/queue &&
	git -C q3 status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success '-3 conflict: --continue with nothing resolved is refused' '
	git clone -q orig3 q3n &&
	(
		cd q3n &&
		test_expect_code 1 git-maint-queue -q -3 main ../conflict.mbox 2>/dev/null &&
		test_must_fail git-maint-queue --continue 2>../err
	) &&
	grep "still has conflicts" err
'

test_expect_success '-3 conflict: --skip puts the paths back and drops the patch' '
	git clone -q orig3 q3s &&
	(
		cd q3s &&
		test_expect_code 1 git-maint-queue -q -3 main ../conflict.mbox 2>/dev/null &&
		git-maint-queue -q --skip &&
		git status --porcelain >../status &&
		test "$(git log -1 --format=%s)" = "clean one"
	) &&
	test_must_be_empty status &&
	test_path_is_missing q3s/.git/maint/queue
'

test_expect_success '-3 conflict: --abort puts everything back' '
	git clone -q orig3 before3 &&
	git clone -q orig3 q3a &&
	(
		cd q3a &&
		test_expect_code 1 git-maint-queue -q -3 main ../conflict.mbox 2>/dev/null &&
		git-maint-queue --abort >/dev/null
	) &&
	snapshot before3 >expect &&
	snapshot q3a >actual &&
	test_cmp expect actual
'

test_done
