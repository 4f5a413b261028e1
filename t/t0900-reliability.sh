#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='the reliability cases the command tests left open

The cases and their numbers are Documentation/technical/reliability.txt.
Each test checks the exit code, the one stderr line that names the file,
message or path, and that refs, reflogs, index and work tree are as
before (or the state can be resumed). The cases already covered by the
tests of each command (t02xx, t03xx, t04xx, t05xx) are not repeated.'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-mbox-split.sh"
. "$MAINT_TEST_DIR/lib-apply.sh"

# mail <subject> <diff file>: a patch mail around a diff, as in t0440.
mail () {
	printf "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	printf "From: Eve <eve@example.com>\nDate: Thu, 7 Apr 2005 15:13:13 -0700\nSubject: [PATCH] %s\n\nbody\n---\n" "$1"
	cat "$2"
}

# state: the repository as a read-only command must leave it (ORIG_HEAD
# aside, which a queue that stops may set, as git am does).
state () {
	repo_state ORIG_HEAD
}

# refused <branch> <mbox> <pattern>: queueing <mbox> on the checked-out
# <branch> stops at patch 1 with exit 1 and an error line matching
# <pattern>; refs, reflogs, index and work tree are as before, both while
# stopped and after --abort.
refused () {
	git checkout -q -B "$1" base &&
	: >err && : >stopped && : >after &&
	state >before &&
	test_expect_code 1 git-maint-queue -q "$1" "$2" 2>err &&
	grep "$3" err &&
	grep "^error: patch 1/1 does not apply to .$1." err &&
	state >stopped &&
	test_cmp before stopped &&
	git-maint-queue --abort >/dev/null &&
	state >after &&
	test_cmp before after &&
	test_path_is_missing .git/maint/queue
}

test_expect_success 'setup: a repository with a symlink to .git, and a series of 3' '
	git init -q &&
	echo one >file &&
	ln -s .git symlink &&
	for i in 1 2 3
	do
		seq 1 30 | sed "s/^/f$i line /" >f$i || return 1
	done &&
	git add . &&
	test_commit base f0 &&
	echo old >.git/modify-me &&
	echo gone >.git/delete-me &&
	git checkout -q -b gen &&
	for i in 1 2 3
	do
		sed -i "s/^f$i line 10$/f$i line 10 patched/" f$i &&
		test_tick &&
		git commit -q -a -m "patch $i" || return 1
	done &&
	git format-patch -q --stdout base..gen >series.mbox &&
	git checkout -q --detach base
'

# 1. ../ traversal: t0440 covers creation; deletion and a/../../x here.
test_expect_success 'queue: deleting ../foo is refused and ../foo stays (1)' '
	echo content >../foo &&
	test_when_finished "rm -f ../foo" &&
	delete_diff ../foo content >d &&
	mail "delete outside" d >del.mbox &&
	refused r1 del.mbox "^[^ ]*: message 1: line .*: invalid path .\.\./foo.: .\.. or .\.\.. in path" &&
	echo content >expect &&
	test_cmp expect ../foo
'

test_expect_success 'queue: creating a/../../x is refused (1)' '
	create_diff a/../../x >d &&
	mail "create outside" d >dotdot.mbox &&
	refused r2 dotdot.mbox "invalid path .a/\.\./\.\./x." &&
	test_path_is_missing ../x
'

# 3. CVE-2023-23946 through the queue (t0302 covers dry-apply).

for what in create modify delete
do
	test_expect_success "queue: $what beyond a renamed symlink is refused (3, CVE-2023-23946)" '
		rename_symlink_then '$what' gone >d &&
		mail "'$what' beyond" d >cve.mbox &&
		refused r3-'$what' cve.mbox "^.renamed-symlink/'$what'-me. is beyond a symbolic link" &&
		test_path_is_missing .git/create-me &&
		echo old >expect &&
		test_cmp expect .git/modify-me &&
		test_path_is_file .git/delete-me &&
		test_path_is_missing renamed-symlink
	'
done

# 5. .git look-alikes through the queue (t0440 covers .git/hooks/...).
for p in .GIT/config .git./x git~1/config
do
	test_expect_success "queue: writing '$p' is refused (5)" '
		create_diff "'"$p"'" >d &&
		mail "look-alike" d >alike.mbox &&
		refused r5 alike.mbox "invalid path .'"$p"'.: .\.git. in path"
	'
done

test_expect_success 'queue: .gitmodules may not become a symlink (5)' '
	printf "%s\n" "diff --git a/.gitmodules b/.gitmodules" "new file mode 120000" \
		"--- /dev/null" "+++ b/.gitmodules" "@@ -0,0 +1 @@" "+/etc/passwd" \
		"\\ No newline at end of file" >d &&
	mail "gitmodules" d >gm.mbox &&
	refused r5b gm.mbox "^.\.gitmodules. may not be a symbolic link" &&
	test_path_is_missing .gitmodules
'

# 16. A hunk whose header counts more lines than it has.
test_expect_success 'queue: a hunk count mismatch is refused (16)' '
	printf "%s\n" "diff --git a/file b/file" "--- a/file" "+++ b/file" \
		"@@ -1,2 +1,2 @@" "-one" "+two" >d &&
	mail "count" d >count.mbox &&
	refused r16 count.mbox "^[^ ]*: message 1: line .*: corrupt patch: hunk at line .* is truncated" &&
	echo one >expect &&
	test_cmp expect file
'

# 16. "\ No newline at end of file" where it cannot be: after a context
# line inside the hunk (git apply refuses it too), or before any line.
test_expect_success 'queue: a no-newline marker inside a hunk is refused (16)' '
	printf "%s\n" "diff --git a/f1 b/f1" "--- a/f1" "+++ b/f1" "@@ -1,3 +1,3 @@" \
		" f1 line 1" "\\ No newline at end of file" "-f1 line 2" "+f1 line two" " f1 line 3" >d &&
	test_must_fail git apply --check d &&
	mail "marker inside" d >nl1.mbox &&
	refused r16b nl1.mbox "^Hunk #1 FAILED at 1" &&
	git diff --exit-code base -- f1
'

test_expect_success 'queue: a no-newline marker before any line is refused (16)' '
	printf "%s\n" "diff --git a/f1 b/f1" "--- a/f1" "+++ b/f1" "@@ -1,3 +1,3 @@" \
		"\\ No newline at end of file" " f1 line 1" "-f1 line 2" "+f1 line two" " f1 line 3" >d &&
	mail "marker first" d >nl2.mbox &&
	refused r16c nl2.mbox "^[^ ]*: message 1: line .*: corrupt patch: .\\\\. line before any line" &&
	git diff --exit-code base -- f1
'

# 16. A binary delta whose data is damaged (t0303 damages a literal).
test_expect_success 'queue: a corrupt binary delta is refused, the file intact (16)' '
	git checkout -q -B bin base &&
	seq 1 3000 | gzip -n >blob.bin &&
	git add blob.bin &&
	test_tick &&
	git commit -q -m "add blob" &&
	git tag blob &&
	printf X | dd of=blob.bin bs=1 seek=2000 conv=notrunc 2>/dev/null &&
	test_tick &&
	git commit -q -a -m "change blob" &&
	git format-patch -q --stdout -1 >delta.mbox &&
	grep "^delta " delta.mbox &&
	sed "/^delta /{n;s/^\(......\)...../\1AAAAA/}" delta.mbox >baddelta.mbox &&
	! cmp -s delta.mbox baddelta.mbox &&
	git checkout -q -B r16d blob &&
	: >err && : >after &&
	state >before &&
	test_expect_code 1 git-maint-queue -q r16d baddelta.mbox 2>err &&
	grep "^[^ ]*: message 1: line .*: corrupt binary patch" err &&
	git-maint-queue --abort >/dev/null &&
	state >after &&
	test_cmp before after &&
	git diff --exit-code blob -- blob.bin &&
	git checkout -q --detach base
'

# 4. The same refusal when the queue works in memory (branch not checked out).
test_expect_success 'queue, branch not checked out: a write through a tracked symlink is refused (4)' '
	create_diff symlink/create-me >d &&
	mail "through the link" d >through.mbox &&
	git branch -f r4 base &&
	test_expect_code 1 git-maint-queue -q r4 through.mbox 2>err &&
	grep "^.symlink/create-me. is beyond a symbolic link" err &&
	grep "^error: patch 1/1 does not apply to .r4." err &&
	git-maint-queue --abort >/dev/null &&
	test "$(git rev-parse r4)" = "$(git rev-parse base)" &&
	test_path_is_missing .git/create-me
'

# 12. A mail that cannot be parsed in the middle of a series: the patches
# before it are queued, the queue stops there, --abort puts the branch back.
test_expect_success 'queue: a NUL in the Subject of message 2 stops there, resumable (12)' '
	{
		git format-patch -q --stdout base..gen~2 &&
		printf "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n" &&
		printf "From: A <a@example.com>\nSubject: =?UTF-8?q?bad=00nul?=\n\nbody\n"
	} >nul.mbox &&
	test $(grep -c "^From [0-9a-f]* Mon Sep" nul.mbox) = 2 &&
	git branch -f r12 base &&
	test_expect_code 1 git-maint-queue -q r12 nul.mbox 2>err &&
	grep "^error: nul.mbox: message 2: NUL byte in .Subject." err &&
	git rev-list base..r12 >applied &&
	test_line_count = 1 applied &&
	test_path_is_file .git/maint/queue/state &&
	git-maint-queue --abort >/dev/null &&
	test "$(git rev-parse r12)" = "$(git rev-parse base)" &&
	test_path_is_missing .git/maint/queue
'

# 22. Locks and races at the command level (t0400 covers the lock code).
test_expect_success 'queue: a lock left by a dead process is taken over with a warning (22)' '
	git branch -f r22 base &&
	echo 999999 >.git/git-maint.lock &&
	git-maint-queue -q r22 series.mbox 2>err &&
	grep "^warning: taking over .*/\.git/git-maint\.lock.*pid 999999.* is gone" err &&
	test_line_count = 1 err &&
	test "$(git rev-list base..r22 | wc -l)" = 3 &&
	test_path_is_missing .git/git-maint.lock
'

# The check hook runs before each patch; this one moves the branch once,
# as another writer racing the queue would.
test_expect_success 'queue: a branch moved by another writer is not overwritten (22)' '
	cat >race.sh <<-\EOF &&
	test -f racer.oid && exit 0
	git commit-tree -p base -m racer base^{tree} >racer.oid &&
	git update-ref refs/heads/race $(cat racer.oid)
	EOF
	printf "[tree \"t\"]\n\twork = race\n\tcheck = sh race.sh\n" >.git/maint.ini &&
	test_when_finished "rm -f .git/maint.ini" &&
	git branch -f race base &&
	test_expect_code 128 git-maint-queue -q race series.mbox 2>err &&
	grep "^fatal: .refs/heads/race. changed while we were working; not moving it" err &&
	test "$(git rev-parse race)" = "$(cat racer.oid)" &&
	test_path_is_file .git/maint/queue/state
'

# BUG (common/engine/queue.c, queue_abort): when the branch moved, --abort warns
# "not resetting it" and then still prints "'race' is back at <orig>".
test_expect_success 'queue: --abort after the race does not claim the branch is back (22)' '
	git-maint-queue --abort >out 2>err &&
	grep "^warning: .race. moved since the queue stopped; not resetting it" err &&
	test "$(git rev-parse race)" = "$(cat racer.oid)" &&
	! grep "is back at" out
'

test_expect_success 'queue: the state of the race is cleared (22)' '
	{ git-maint-queue --abort >/dev/null 2>&1 || :; } &&
	test_path_is_missing .git/maint/queue &&
	test "$(git rev-parse race)" = "$(cat racer.oid)"
'

# 20. Resume after the branch was deleted.
test_expect_success 'queue: --continue after the branch was deleted is refused naming it (20)' '
	git branch -f r20 base &&
	test_expect_code 1 git-maint-queue -q r20 count.mbox 2>/dev/null &&
	git branch -D r20 >/dev/null &&
	test_expect_code 128 git-maint-queue --continue 2>err &&
	grep "^fatal: .*refs/heads/r20.* not found" err &&
	test_must_fail git rev-parse -q --verify r20
'

# BUG (common/engine/queue.c, queue_abort): --abort fails the same way and keeps
# the state, so no queue can run until .git/maint/queue is removed by hand.
test_expect_success 'queue: --abort after the branch was deleted clears the state (20)' '
	git-maint-queue --abort &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'queue: clear the state left by the deleted branch' '
	rm -rf .git/maint/queue &&
	test_expect_code 128 git-maint-queue --continue 2>err &&
	grep "no queue in progress" err
'

# 36. A bad repository config stops the queue before it touches anything.
test_expect_success 'queue: a bad maint.ini is fatal naming file:line, nothing changes (36)' '
	git checkout -q -B r36 base &&
	state >before &&
	printf "[tree \"t\"]\n\twork = r36\n\tbogus = 1\n" >.git/maint.ini &&
	test_when_finished "rm -f .git/maint.ini" &&
	test_expect_code 128 git-maint-queue -q r36 series.mbox 2>err &&
	grep "^fatal: .*/\.git/maint\.ini:3: unknown key .bogus. in section .tree \"t\"." err &&
	rm .git/maint.ini &&
	state >after &&
	test_cmp before after &&
	test_path_is_missing .git/maint/queue
'

# 23. A read-only object store (a read-only bind mount, as root): the
# queue fails naming the directory and leaves nothing behind.
if test "$(id -u)" = 0 && mkdir robind.probe && mount --bind robind.probe robind.probe 2>/dev/null
then
	umount robind.probe
	test_set_prereq ROBIND
fi
rmdir robind.probe 2>/dev/null

test_expect_success ROBIND 'queue: read-only objects: exit 128 naming the path, nothing changes (23)' '
	git checkout -q -B r23 base &&
	state >before &&
	mount --bind .git/objects .git/objects &&
	test_when_finished "umount .git/objects" &&
	mount -o remount,bind,ro .git/objects &&
	test_expect_code 128 git-maint-queue -q r23 series.mbox 2>err &&
	grep "^fatal: .*/\.git/objects.*: Read-only file system" err &&
	state >after &&
	test_cmp before after &&
	test_path_is_missing .git/maint/queue
'

# 18. dry-apply: the index keeps its mtime and inode, local changes stay.
test_expect_success 'dry-apply: index stat data and local changes untouched (18)' '
	git checkout -q -B d18 base &&
	echo local >>f1 &&
	echo staged >new &&
	git add new &&
	: >after && : >index.before && : >index.after &&
	sed "s/^+f1 line 10 patched\$/+f1 line 10 otherwise/" series.mbox >other.mbox &&
	state >before &&
	stat -c "%i %s %y" .git/index >index.before &&
	git-maint-dry-apply -q series.mbox >/dev/null &&
	git-maint-dry-apply -q -3 --each --onto d18 --onto gen series.mbox >/dev/null &&
	git-maint-dry-apply -q --onto gen series.mbox >/dev/null &&
	test_expect_code 1 git-maint-dry-apply -q --onto gen other.mbox >/dev/null &&
	stat -c "%i %s %y" .git/index >index.after &&
	state >after &&
	test_cmp index.before index.after &&
	test_cmp before after &&
	git reset -q --hard base &&
	rm -f new other.mbox
'

# A kill cannot leave anything behind if nothing is ever opened for
# writing, renamed, removed or created: checked with strace (LeakSanitizer
# does not run under ptrace).
if strace -f -o /dev/null true 2>/dev/null
then
	test_set_prereq STRACE
fi

# The patches are kept in unlinked temporary files (O_TMPFILE: they never
# have a name, so nothing of them outlives the process, killed or not).
test_expect_success STRACE 'dry-apply writes no file with a name, so a kill changes nothing (18)' '
	ASAN_OPTIONS=detect_leaks=0 strace -f -o trace -e trace=%file git-maint-dry-apply -3 --onto base --onto gen series.mbox >/dev/null &&
	test -s trace &&
	grep -q O_TMPFILE trace &&
	sed -n -E -e "/\"\/dev\/null\"/d" -e "/O_TMPFILE/d" -e "/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/p" \
		-e "/^[0-9]+ +(creat|rename|renameat2?|unlink|unlinkat|mkdir|mkdirat|rmdir|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|utimensat)\(/p" \
		trace >writes &&
	test_must_be_empty writes
'

# 10, 11, 14, 15 through mbox-split (t0102 checks the parser through
# test-mailinfo): the bad message is named, the others are still written.
bad_in_middle () {
	msg g1 - "[PATCH] usb: one" drivers/usb/a.c &&
	echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001" &&
	cat &&
	echo &&
	msg g3 - "[PATCH] usb: three" drivers/usb/b.c
}

# split_skips <mbox> <pattern>: exit 1 with one error line matching
# <pattern>, messages 1 and 3 selected.
split_skips () {
	test_expect_code 1 git-maint-mbox-split --format=%m "$1" >actual 2>err &&
	grep "^error: $1: message 2: $2" err &&
	test_line_count = 1 err &&
	printf "%s\n" g1@example.com g3@example.com >expect &&
	test_cmp expect actual
}

test_expect_success 'mbox-split: invalid base64 in message 2 (10)' '
	printf "From: A <a@example.com>\nSubject: [PATCH] b64\nContent-Transfer-Encoding: base64\n\nYm9keQo=\nnot*base64!\n" |
		bad_in_middle >b64.mbox &&
	split_skips b64.mbox "invalid base64 in the body"
'

test_expect_success 'mbox-split: invalid quoted-printable in message 2 (10)' '
	printf "From: A <a@example.com>\nSubject: [PATCH] qp\nContent-Transfer-Encoding: quoted-printable\n\nbad =ZZ escape\n" |
		bad_in_middle >qp.mbox &&
	split_skips qp.mbox "invalid quoted-printable"
'

test_expect_success 'mbox-split: an unknown charset in From of message 2 (11)' '
	printf "From: =?x-foo?q?Eve?= <e@example.com>\nSubject: [PATCH] cs\n\nbody\n" |
		bad_in_middle >cs.mbox &&
	split_skips cs.mbox "cannot convert encoded word to UTF-8 in .From."
'

# Invalid UTF-8 in encoded words that declare UTF-8: read as ISO-8859-1
# with a warning naming the message and the header, never passed on.
test_expect_success 'mbox-split: invalid UTF-8 in a UTF-8 encoded word is converted, with a warning (11)' '
	{
		msg g1 - "[PATCH] usb: one" drivers/usb/a.c &&
		echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001" &&
		printf "From: =?UTF-8?q?Ren=E9?= <r@example.com>\nSubject: [PATCH] =?UTF-8?q?caf=E9?=\n" &&
		printf "Message-ID: <g2@example.com>\n\nbody\n\n"
	} >u8.mbox &&
	git-maint-mbox-split --format="%an|%s" u8.mbox >out 2>err &&
	printf "A U Thor|[PATCH] usb: one\nRen\303\251|[PATCH] caf\303\251\n" >expect &&
	test_cmp expect out &&
	grep "^warning: u8.mbox: message 2: .From. is not UTF-8, read as ISO-8859-1" err &&
	grep "^warning: u8.mbox: message 2: .Subject. is not UTF-8, read as ISO-8859-1" err &&
	test_line_count = 2 err
'

test_expect_success 'queue: invalid UTF-8 in a UTF-8 encoded author never reaches the commit (11)' '
	printf "%s\n" "diff --git a/new b/new" "new file mode 100644" "--- /dev/null" "+++ b/new" \
		"@@ -0,0 +1 @@" "+x" >d &&
	mail "x" d | sed "s/^From: Eve .*/From: =?UTF-8?q?Ren=E9?= <r@example.com>/" >u8q.mbox &&
	git branch -f r11 base &&
	git-maint-queue -q r11 u8q.mbox >/dev/null 2>err &&
	grep "^warning: .*message 1: .From. is not UTF-8, read as ISO-8859-1" err &&
	git log -1 --format=%an r11 >actual &&
	printf "Ren\303\251\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'mbox-split: multipart nested 1,000 deep in message 2 (14)' '
	{
		printf "From: A <a@example.com>\nSubject: deep mime\n" &&
		awk "BEGIN { for (i = 0; i < 1000; i++) printf \"Content-Type: multipart/mixed; boundary=b%d\\n\\npre\\n--b%d\\n\", i, i }" &&
		printf "\nbody\n"
	} | bad_in_middle >deep.mbox &&
	split_skips deep.mbox "too many nested MIME boundaries"
'

# mbox-split(1): a message that cannot be parsed is refused, exit 1; an
# empty one is such a message.
test_expect_success 'mbox-split: a file of only From separators names each empty message (15)' '
	for i in 1 2 3
	do
		echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001" || return 1
	done >seps &&
	test_expect_code 1 git-maint-mbox-split seps >out 2>err &&
	test_must_be_empty out &&
	printf "error: seps: message %d: empty message\n" 1 2 3 >expect &&
	test_cmp expect err
'

# 17. --touches on copies, a tab in a C-quoted name, binary diffs
# (t0200 covers renames, quoted UTF-8, mode-only diffs and spaces).
hdr17 () {
	printf "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n"
	printf "From: A U Thor <author@example.com>\nSubject: [PATCH] %s\nMessage-ID: <%s@example.com>\n\n---\n" "$1" "$1"
}

test_expect_success 'mbox-split: setup copies, tabs and binary diffs (17)' '
	{
		hdr17 copy &&
		printf "diff --git a/drivers/usb/a.c b/drivers/net/b.c\nsimilarity index 100%%\n" &&
		printf "copy from drivers/usb/a.c\ncopy to drivers/net/b.c\n\n" &&
		hdr17 tab &&
		printf "%s\n" "diff --git \"a/drivers/usb/my\\tfile.c\" \"b/drivers/usb/my\\tfile.c\"" \
			"index 1111111..2222222 100644" "--- \"a/drivers/usb/my\\tfile.c\"" \
			"+++ \"b/drivers/usb/my\\tfile.c\"" "@@ -1 +1 @@" "-old" "+new" "" &&
		hdr17 binary &&
		printf "diff --git a/firmware/usb.bin b/firmware/usb.bin\nindex 1111111..2222222 100644\n" &&
		printf "Binary files a/firmware/usb.bin and b/firmware/usb.bin differ\n\n" &&
		hdr17 gitbin &&
		printf "diff --git a/firmware/net.bin b/firmware/net.bin\nnew file mode 100644\n" &&
		printf "index 0000000..2222222\nGIT binary patch\nliteral 1\nIcmZpb00031\n\nliteral 0\nHcmV?d00001\n\n"
	} >p17 &&
	mkdir p17.git &&
	git mailsplit -op17.git p17 >count &&
	echo 4 >expect &&
	test_cmp expect count
'

test_expect_success 'mbox-split: --touches matches both names of a copy (17)' '
	selected --touches drivers/usb p17 &&
	printf "copy\ntab\n" >expect &&
	test_cmp expect selected &&
	selected --touches drivers/net/b.c p17 &&
	echo copy >expect &&
	test_cmp expect selected
'

test_expect_success 'mbox-split: --touches decodes a tab in a quoted name (17)' '
	selected --touches "drivers/usb/my	file.c" p17 &&
	echo tab >expect &&
	test_cmp expect selected
'

test_expect_success 'mbox-split: --touches sees binary diffs without ---/+++ lines (17)' '
	selected --touches firmware/usb.bin p17 &&
	echo binary >expect &&
	test_cmp expect selected &&
	selected --touches firmware/net.bin p17 &&
	echo gitbin >expect &&
	test_cmp expect selected
'

# 6. t0202 covers a symlink in the output directory; a hard link to a
# file elsewhere must be replaced too, not written through.
test_expect_success 'mbox-split -o: a hard link in the output directory is not written through (6)' '
	mkdir hardlinks &&
	echo precious >outside &&
	ln outside hardlinks/0001 &&
	git-maint-mbox-split -q -o hardlinks p17 &&
	echo precious >expect &&
	test_cmp expect outside &&
	grep "^Subject: \[PATCH\] copy" hardlinks/0001
'

# 36. The INI files, read by every command; mbox-split reads the XDG one.
# sizes: message 2 is over 2000 bytes, so mbox.max-message-size = 2000
# shows whether the file was applied.
test_expect_success 'config: setup' '
	{
		msg s1 - "[PATCH] usb: small" drivers/usb/a.c &&
		msg s2 - "[PATCH] usb: big" drivers/usb/b.c $(seq -f "drivers/usb/f%g.c" 1 40)
	} >sizes &&
	mkdir -p "$HOME/.config/git-maint" &&
	cfg="$HOME/.config/git-maint/config" &&
	echo "$cfg" >cfgpath
'

# bad_config <pattern>: mbox-split exits 128 with one error line naming
# the config file and matching <pattern>, and selects nothing.
bad_config () {
	test_expect_code 128 git-maint-mbox-split --format=%m sizes >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: $(cat cfgpath)$1" err &&
	test_line_count = 1 err
}

test_expect_success 'config: an unknown key (36)' '
	printf "[mbox]\nbogus = 1\n" >"$(cat cfgpath)" &&
	bad_config ":2: unknown key .bogus. in section .mbox."
'

test_expect_success 'config: a duplicate key names both lines (36)' '
	printf "[mbox]\nmax-message-size = 2000\nmax-message-size = 3000\n" >"$(cat cfgpath)" &&
	bad_config ":3: duplicate key .max-message-size. (first set at line 2)"
'

test_expect_success 'config: a line longer than inih'"'"'s buffer is read whole; one over 1 MiB is refused (36)' '
	{
		printf "[notify]\ntemplate = " &&
		awk "BEGIN { for (i = 0; i < 300; i++) printf \"x\" }" &&
		echo &&
		printf "[mbox]\nmax-message-size = 2000\n"
	} >"$(cat cfgpath)" &&
	test_expect_code 1 git-maint-mbox-split --format=%m sizes >out 2>err &&
	grep "message 2 exceeds max size (2000 bytes)" err &&
	{
		printf "[notify]\ntemplate = " &&
		head -c 1048577 /dev/zero | tr "\0" x &&
		echo
	} >"$(cat cfgpath)" &&
	bad_config ":2: line too long (limit 1048576 bytes)"
'

test_expect_success 'config: a value that is not UTF-8 (36)' '
	printf "[notify]\nfrom = caf\351\n" >"$(cat cfgpath)" &&
	bad_config ":2: value of .from. is not valid UTF-8"
'

test_expect_success 'config: a syntax error after a good line is no partial success (36)' '
	printf "[mbox]\nmax-message-size = 2000\n[notify\n" >"$(cat cfgpath)" &&
	bad_config ":3: syntax error"
'

test_expect_success 'config: a NUL byte does not hide the rest of its line (36)' '
	printf "[mbox]\nmax-message-size = 2000\n\000bogus = 1\n" >"$(cat cfgpath)" &&
	bad_config ":3: NUL byte in the line"
'

test_expect_success 'config: a file that cannot be read (a directory) (36)' '
	rm -f "$(cat cfgpath)" &&
	mkdir "$(cat cfgpath)" &&
	test_when_finished "rmdir \"$(cat cfgpath)\"" &&
	bad_config ":.*Is a directory"
'

test_expect_success 'config: a CRLF file reads like an LF one (36)' '
	printf "[mbox]\r\nmax-message-size = 2000\r\n" >"$(cat cfgpath)" &&
	test_expect_code 1 git-maint-mbox-split --format=%m sizes >out 2>err &&
	echo s1@example.com >expect &&
	test_cmp expect out &&
	grep "^error: sizes: message 2 exceeds max size (2000 bytes)" err
'

test_expect_success 'config: a password in a file others can read gets a warning naming file:line (36)' '
	printf "[smtp]\npassword = hunter2\n[mbox]\nmax-message-size = 0\n" >"$(cat cfgpath)" &&
	chmod 644 "$(cat cfgpath)" &&
	git-maint-mbox-split --format=%m sizes >out 2>err &&
	test_line_count = 2 out &&
	grep "^warning: $(cat cfgpath):2: a password in a file others can read" err &&
	! grep hunter2 err &&
	chmod 600 "$(cat cfgpath)" &&
	git-maint-mbox-split --format=%m sizes >out 2>err &&
	test_must_be_empty err &&
	rm "$(cat cfgpath)"
'

# 35. describe-contains: objects that are not commits, and revision
# syntax, each named in one error line (t0500 checks the exit code).
test_expect_success 'describe-contains: a tag of a tree or a blob is not a commit (35)' '
	git tag v1 gen &&
	git tag -a -m tree treetag base^{tree} &&
	git tag -a -m blob blobtag base:f1 &&
	for t in treetag blobtag
	do
		test_expect_code 1 git-maint-describe-contains $t >out 2>err &&
		test_must_be_empty out &&
		grep "^error: .$t. is not a commit" err &&
		test_line_count = 1 err || return 1
	done &&
	test_expect_code 1 git-maint-describe-contains --stdin >out <<-\EOF &&
	treetag
	v1
	EOF
	printf "%s\n" "treetag undefined" "v1" >expect &&
	test_cmp expect out
'

test_expect_success 'describe-contains: revision syntax is one error naming it (35)' '
	for spec in "v1@{" ".." "v1..gen" "^" "@{0" "x@{-1"
	do
		test_expect_code 1 timeout 20 git-maint-describe-contains "$spec" >out 2>err &&
		test_must_be_empty out &&
		grep -F "$spec" err >/dev/null &&
		test_line_count = 1 err ||
		{ echo "spec: $spec"; cat err; return 1; }
	done
'

test_done
