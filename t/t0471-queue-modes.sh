#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue writes file modes as git writes them (reliability case 44)

A tracked file rewritten by a patch gets the permissions git gives the
file it creates in its place: 0666 or 0777 less the umask, no setuid,
setgid or sticky bit kept. Trees with legacy modes (100664, 100775)
compare as git'\''s index compares them.'
. ./test-lib.sh

# modes: the permissions of every file of the work tree.
modes () {
	find . -path ./.git -prune -o -type f -printf "%p %m\n" | LC_ALL=C sort
}

test_expect_success 'setup: files, an executable, and a series changing them' '
	git init -q orig &&
	(
		cd orig &&
		echo f >f &&
		echo g >g &&
		echo h >h &&
		echo x >x &&
		chmod +x g x &&
		git add . &&
		test_commit base &&
		echo f2 >>f &&
		echo g2 >>g &&
		echo h2 >>h &&
		chmod +x h &&
		echo x2 >>x &&
		chmod -x x &&
		test_tick &&
		git commit -q -a -m "change all four" &&
		git format-patch -q --stdout base >../series.mbox &&
		git reset -q --hard base
	)
'

# special <dir>: setuid, setgid and sticky bits, and a narrow mode, on the tracked files.
special () {
	chmod 4644 "$1"/f &&
	chmod 6755 "$1"/g &&
	chmod 1600 "$1"/h &&
	chmod 2700 "$1"/x
}

test_expect_success 'setuid, setgid and sticky bits go, modes become 0644/0755 as with git am (44)' '
	git clone -q orig am &&
	git clone -q orig q &&
	special am &&
	special q &&
	(cd am && git am -q ../series.mbox) &&
	(cd q && git-maint-queue -q main ../series.mbox) &&
	test "$(git -C am rev-parse HEAD)" = "$(git -C q rev-parse HEAD)" &&
	(cd am && modes) >expect &&
	(cd q && modes) >actual &&
	test_cmp expect actual &&
	cat >expect <<-\EOF &&
	./base.t 644
	./f 644
	./g 755
	./h 755
	./x 644
	EOF
	test_cmp expect actual
'

test_expect_success 'the umask applies as it does for git am (44)' '
	git clone -q orig am-umask &&
	git clone -q orig q-umask &&
	special am-umask &&
	special q-umask &&
	(umask 027 && cd am-umask && git am -q ../series.mbox) &&
	(umask 027 && cd q-umask && git-maint-queue -q main ../series.mbox) &&
	(cd am-umask && modes) >expect &&
	(cd q-umask && modes) >actual &&
	test_cmp expect actual &&
	grep "^./f 640$" actual &&
	grep "^./g 750$" actual
'

# A commit whose tree has legacy modes, written with git mktree (git
# itself has not written them since 2005, but old trees keep them).
test_expect_success 'setup: a tree with 100664 and 100775 entries, and a patch to it' '
	git init -q legacy &&
	(
		cd legacy &&
		echo a >a &&
		echo b >b &&
		echo c >c &&
		a=$(git hash-object -w a) &&
		b=$(git hash-object -w b) &&
		c=$(git hash-object -w c) &&
		printf "100664 blob %s\ta\n100775 blob %s\tb\n100644 blob %s\tc\n" $a $b $c >entries &&
		tree=$(git mktree <entries) &&
		test_tick &&
		commit=$(git commit-tree -m legacy $tree) &&
		git reset -q --hard $commit &&
		git tag legacy &&
		rm entries &&
		git cat-file tree legacy^{tree} | tr "\0" "\n" | grep -a "^100664 a$" >/dev/null &&
		echo a2 >>a &&
		echo c2 >>c &&
		test_tick &&
		git commit -q -a -m "change a and c" &&
		git format-patch -q --stdout legacy >../legacy.mbox &&
		git reset -q --hard legacy &&
		git status --porcelain >../status &&
		test_must_be_empty ../status
	)
'

test_expect_success 'legacy modes are no local changes: queued on the checked-out branch as git am does (4 of issue 9)' '
	git clone -q legacy legacy-am &&
	git clone -q legacy legacy-q &&
	(cd legacy-am && git am -q ../legacy.mbox) &&
	(cd legacy-q && git-maint-queue -q main ../legacy.mbox 2>../err) &&
	test_must_be_empty err &&
	test "$(git -C legacy-am rev-parse HEAD)" = "$(git -C legacy-q rev-parse HEAD)" &&
	git -C legacy-q status --porcelain >status &&
	test_must_be_empty status &&
	(cd legacy-am && modes) >expect &&
	(cd legacy-q && modes) >actual &&
	test_cmp expect actual
'

test_expect_success 'a real change to a legacy-mode file is still a local change' '
	git clone -q legacy legacy-dirty &&
	(
		cd legacy-dirty &&
		echo mine >>a &&
		repo_state >../before &&
		test_expect_code 128 git-maint-queue -q main ../legacy.mbox 2>../err &&
		repo_state >../after
	) &&
	grep -v ORIG_HEAD before >expect &&
	grep -v ORIG_HEAD after >actual &&
	test_cmp expect actual &&
	printf "fatal: your local changes to these files would be overwritten by queue:\n\ta\ncommit or stash them first\n" >expect &&
	test_cmp expect err
'

test_done
