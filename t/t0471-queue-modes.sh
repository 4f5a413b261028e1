#!/bin/sh
test_description='git maint-queue writes file modes as git writes them (RELIABILITY 44)

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
	(cd q && git maint-queue -q main ../series.mbox) &&
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
	(umask 027 && cd q-umask && git maint-queue -q main ../series.mbox) &&
	(cd am-umask && modes) >expect &&
	(cd q-umask && modes) >actual &&
	test_cmp expect actual &&
	grep "^./f 640$" actual &&
	grep "^./g 750$" actual
'

test_done
