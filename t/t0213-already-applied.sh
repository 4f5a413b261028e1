#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='a patch already applied: reported as such, not as failed hunks, and stepped over by queue'
. ./test-lib.sh
SQ="'"
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-todo.sh"

# applied_as <patch file> <branch>: the commit of <branch> with the
# patch's patch id, as git patch-id --stable finds it (the oracle), 12 digits
applied_as () {
	id=$(git patch-id --stable <"$1" | cut -d " " -f 1) &&
	git log -p --no-merges -n 1000 "$2" | git patch-id --stable >ids &&
	sed -n "s/^$id \(.\{12\}\).*/\1/p" ids
}

# Series 7 of the week (G, "usb: misc: led fixes") is on work-next already,
# as git am made it; work-linus lacks it.
test_expect_success 'setup: a week of mail for the USB tree, series G on work-next' '
	todo_setup &&
	G=$(msgid todo/G/0000-cover-letter.patch) &&
	echo "$G" >G.id &&
	applied_as todo/G/0001-*.patch work-next >G1 &&
	applied_as todo/G/0002-*.patch work-next >G2 &&
	test $(wc -c <G1) = 13 &&
	test $(wc -c <G2) = 13 &&
	test "$(cat G1)" = "$(git rev-parse --short=12 work-next~1)" &&
	git branch g-half work-next~1 &&
	git log -1 --format=%s g-half >actual &&
	echo "usb: misc: led: fix blink" >expect &&
	test_cmp expect actual
'

test_expect_success 'git apply --reverse --check, the oracle: each patch of G is on work-next, not on work-linus' '
	for p in todo/G/0001-*.patch todo/G/0002-*.patch
	do
		git apply --reverse --check "$p" &&
		git checkout -q work-linus &&
		test_must_fail git apply --reverse --check "$p" 2>/dev/null &&
		git checkout -q work-next || return 1
	done
'

test_expect_success 'dry-apply: each patch "already applied" in one line, no hunk failure; the series is taken' '
	git-maint-dry-apply --onto work-next --series "$(cat G.id)" TODO >out &&
	sed -n "/^Checking/,\$p" out >actual &&
	cat >expect <<-EOF &&
	Checking 2 patches against work-next (1 cover letter skipped)
	Patch 1/2: usb: misc: led: fix blink
	already applied as $(cat G1)
	Patch 2/2: usb: misc: led: fix brightness
	already applied as $(cat G2)
	work-next: all 2 patches are already applied
	EOF
	test_cmp expect actual &&
	! grep -i "hunk" out
'

test_expect_success 'dry-apply: a series half applied takes the rest, and says which' '
	git-maint-dry-apply --onto g-half --series "$(cat G.id)" TODO >out &&
	sed -n "/^Checking/,\$p" out >actual &&
	cat >expect <<-EOF &&
	Checking 2 patches against g-half (1 cover letter skipped)
	Patch 1/2: usb: misc: led: fix blink
	already applied as $(cat G1)
	Patch 2/2: usb: misc: led: fix brightness
	checking file drivers/usb/misc/led.c
	g-half: 1 of 2 patches apply, the other 1 is already applied
	EOF
	test_cmp expect actual
'

test_expect_success 'dry-apply --porcelain: "applied" patch records, the series record counts them' '
	git-maint-dry-apply --porcelain --onto work-next --onto work-linus --onto g-half \
		--series "$(cat G.id)" TODO >out &&
	awk -F "\t" "\$1 == \"patch\" { print \$2, \$3, \$4, \$8 }" out >actual &&
	cat >expect <<-EOF &&
	work-next 1 applied $(git rev-parse work-next~1)
	work-next 2 applied $(git rev-parse work-next)
	work-linus 1 ok 
	work-linus 2 ok 
	g-half 1 applied $(git rev-parse work-next~1)
	g-half 2 ok 
	EOF
	test_cmp expect actual &&
	awk -F "\t" "\$1 == \"series\" { print \$3, \$4, \$5, \$6, \$7, \$8 }" out >actual &&
	cat >expect <<-\EOF &&
	work-next ok 0 2 - 2
	work-linus ok 2 2 - 0
	g-half ok 1 2 - 1
	EOF
	test_cmp expect actual &&
	! grep "^hunk	work-next" out &&
	! grep "^file	work-next" out &&
	! grep "^[fh][a-z]*	g-half	1	" out
'

test_expect_success 'the whole week: series 7 is taken by both branches, and no hunk of it fails' '
	test_expect_code 1 git-maint-dry-apply --onto work-linus --onto work-next TODO >out &&
	grep "^  7: work-linus work-next: usb: misc: led fixes\$" out &&
	sed -n "/^Series 7\\//,/^Series 8\\//p" out >g &&
	! grep "FAILED" g &&
	test $(grep -c "^already applied as $(cat G1)\$" g) = 1 &&
	test $(grep -c "^already applied as $(cat G2)\$" g) = 1
'

test_expect_success 'a patch that does not apply is not taken for one already applied' '
	test_expect_code 1 git-maint-dry-apply --porcelain --onto work-linus --series 1 TODO >out &&
	awk -F "\t" "\$1 == \"patch\" { print \$4 }" out >actual &&
	printf "%s\n" failed ok ok >expect &&
	test_cmp expect actual &&
	awk -F "\t" "\$1 == \"series\" { print \$4, \$8 }" out >actual &&
	echo "failed 0" >expect &&
	test_cmp expect actual
'

test_expect_success 'queue: a series already applied is stepped over, one line a patch; nothing moves; exit 0' '
	git checkout -q work-next &&
	before=$(git rev-parse work-next) &&
	git-maint-queue --series "$(cat G.id)" work-next TODO >out 2>err &&
	grep -v "^Queueing\|^Skipping" out >actual &&
	cat >expect <<-EOF &&
	Already applied as $(cat G1): usb: misc: led: fix blink
	Already applied as $(cat G2): usb: misc: led: fix brightness
	Nothing queued on ${SQ}work-next${SQ}
	EOF
	test_cmp expect actual &&
	test_must_be_empty err &&
	test "$(git rev-parse work-next)" = "$before" &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'queue: a series half applied queues the rest, the result as on work-next' '
	git-maint-queue --series "$(cat G.id)" g-half TODO >out 2>err &&
	grep "^Already applied\|^Applying" out >actual &&
	cat >expect <<-EOF &&
	Already applied as $(cat G1): usb: misc: led: fix blink
	Applying: usb: misc: led: fix brightness
	EOF
	test_cmp expect actual &&
	test "$(git rev-parse g-half~1)" = "$(git rev-parse work-next~1)" &&
	test "$(git rev-parse g-half^{tree})" = "$(git rev-parse work-next^{tree})"
'

test_expect_success 'a patch that creates a file, a rename and a deletion: already applied where they are, as git apply -R says' '
	git checkout -q -b g-files work-next &&
	echo "new file" >drivers/usb/misc/new.c &&
	git add drivers/usb/misc/new.c &&
	git mv drivers/usb/host/ehci.c drivers/usb/host/ehci-hcd.c &&
	git rm -q fs/ext4/inode.c &&
	test_tick &&
	git commit -q -m "usb: files come and go" &&
	git format-patch -q -M -1 --stdout >files.mbox &&
	git apply --reverse --check files.mbox &&
	git-maint-dry-apply --onto g-files files.mbox >out &&
	applied_as files.mbox g-files >F &&
	test "$(cat F)" = "$(git rev-parse --short=12 g-files)" &&
	grep "^already applied as $(cat F)\$" out &&
	grep "^g-files: the patch is already applied\$" out &&
	git-maint-dry-apply --onto g-files~1 files.mbox >out &&
	grep "^g-files~1: the patch applies\$" out &&
	git checkout -q work-next
'

# A series whose middle patch reached the branch on its own, among
# other commits (cherry-picked: another commit, the same patch id)
test_expect_success 'queue: a series partly applied (its 2nd patch picked, among others) queues the rest, names the commit' '
	git checkout -q -b g-mid work-linus &&
	test_tick &&
	git commit -q --allow-empty -m "an empty commit: no patch id" &&
	git cherry-pick work-next >/dev/null &&
	echo "line" >>fs/ext4/inode.c &&
	test_tick &&
	git commit -q -a -m "ext4: something else, after it" &&
	applied_as todo/G/0002-*.patch g-mid >M &&
	test "$(cat M)" = "$(git rev-parse --short=12 g-mid~1)" &&
	git-maint-dry-apply --onto g-mid --series "$(cat G.id)" TODO >out &&
	grep -A1 "^Patch 2/2" out >actual &&
	printf "Patch 2/2: usb: misc: led: fix brightness\nalready applied as %s\n" "$(cat M)" >expect &&
	test_cmp expect actual &&
	before=$(git rev-parse g-mid) &&
	git-maint-queue --series "$(cat G.id)" g-mid TODO >out 2>err &&
	grep "^Already applied\|^Applying" out >actual &&
	cat >expect <<-EOF &&
	Applying: usb: misc: led: fix blink
	Already applied as $(cat M): usb: misc: led: fix brightness
	EOF
	test_cmp expect actual &&
	test "$(git rev-parse g-mid~1)" = "$before" &&
	git log -1 --format=%s g-mid >actual &&
	echo "usb: misc: led: fix blink" >expect &&
	test_cmp expect actual &&
	git checkout -q work-next
'

test_expect_success 'already applied inside a commit that does more (no commit has its patch id): named by the trees' '
	git checkout -q -b g-other work-linus &&
	git apply todo/G/0001-*.patch &&
	echo "another line" >>fs/ext4/inode.c &&
	test_tick &&
	git commit -q -a -m "led and ext4 in one commit" &&
	applied_as todo/G/0001-*.patch g-other >F &&
	test_must_be_empty F &&
	git-maint-dry-apply --porcelain --onto g-other --series "$(cat G.id)" TODO >out &&
	awk -F "\t" "\$1 == \"patch\" { print \$3, \$4, \$8 }" out >actual &&
	printf "1 applied %s\n2 ok \n" "$(git rev-parse g-other)" >expect &&
	test_cmp expect actual &&
	git-maint-dry-apply --onto g-other --series "$(cat G.id)" TODO >out &&
	grep "^already applied as $(git rev-parse --short=12 g-other)\$" out &&
	git checkout -q work-next
'

# files.mbox (a creation, a rename, a deletion) reached g-pieces in two
# commits: applied, but no one commit brought it
test_expect_success 'already applied in pieces: said, without a commit' '
	git checkout -q -b g-pieces work-next &&
	echo "new file" >drivers/usb/misc/new.c &&
	git add drivers/usb/misc/new.c &&
	git mv drivers/usb/host/ehci.c drivers/usb/host/ehci-hcd.c &&
	test_tick &&
	git commit -q -m "usb: files come" &&
	git rm -q fs/ext4/inode.c &&
	test_tick &&
	git commit -q -m "ext4: a file goes" &&
	git apply --reverse --check files.mbox &&
	applied_as files.mbox g-pieces >F &&
	test_must_be_empty F &&
	git-maint-dry-apply --porcelain --onto g-pieces files.mbox >out &&
	awk -F "\t" "\$1 == \"patch\" { print \$3, \$4, \$8 }" out >actual &&
	echo "1 applied " >expect &&
	test_cmp expect actual &&
	git checkout -q work-next
'

# git patch-id --stable on git log -p --binary is the oracle for binary
# patches (format-patch --binary writes full blob ids, which the patch id
# of a binary change hashes)
test_expect_success 'a binary patch already applied: detected by its post-image blob, named as git patch-id finds it' '
	git checkout -q -b g-bin work-next &&
	printf "\000\001\002 firmware v1\n" >drivers/usb/misc/fw.bin &&
	git add drivers/usb/misc/fw.bin &&
	test_tick &&
	git commit -q -m "usb: misc: firmware" &&
	printf "\000\001\002 firmware v2\n" >drivers/usb/misc/fw.bin &&
	test_tick &&
	git commit -q -a -m "usb: misc: firmware v2" &&
	echo "line" >>fs/ext4/inode.c &&
	test_tick &&
	git commit -q -a -m "ext4: after it" &&
	git format-patch -q --binary --stdout -1 g-bin~1 >bin.mbox &&
	grep "^GIT binary patch" bin.mbox &&
	test_must_fail git apply --check bin.mbox &&
	id=$(git patch-id --stable <bin.mbox | cut -d " " -f 1) &&
	git log -p --binary --no-merges g-bin | git patch-id --stable >ids &&
	sed -n "s/^$id \(.\{12\}\).*/\1/p" ids >expect &&
	test "$(cat expect)" = "$(git rev-parse --short=12 g-bin~1)" &&
	git-maint-dry-apply --onto g-bin bin.mbox >out &&
	grep "^already applied as" out | sed "s/^already applied as //" >actual &&
	test_cmp expect actual &&
	grep "^g-bin: the patch is already applied\$" out &&
	git-maint-dry-apply --onto g-bin~2 bin.mbox >out &&
	grep "^g-bin~2: the patch applies\$" out &&
	git format-patch -q --binary --stdout -1 g-bin~2 >bin1.mbox &&
	git-maint-dry-apply --onto g-bin~2 bin1.mbox >out &&
	grep "^already applied as $(git rev-parse --short=12 g-bin~2)\$" out &&
	git checkout -q work-next
'

test_expect_success 'a binary patch squashed into another commit: named by the trees' '
	git checkout -q -b g-bin-squash work-next &&
	git checkout g-bin~2 -- drivers/usb/misc/fw.bin &&
	echo "line" >>fs/ext4/inode.c &&
	git add fs/ext4/inode.c &&
	test_tick &&
	git commit -q -m "firmware and ext4" &&
	git-maint-dry-apply --porcelain --onto g-bin-squash bin1.mbox >out &&
	awk -F "\t" "\$1 == \"patch\" { print \$4, \$8 }" out >actual &&
	echo "applied $(git rev-parse g-bin-squash)" >expect &&
	test_cmp expect actual &&
	git checkout -q work-next
'

# A copy (format-patch -C -C): git's own cherry does not find copies, git
# log -p -C -C | git patch-id --stable does: that is the oracle
test_expect_success 'a copy already applied: detected by its post-image, named as git patch-id -C -C finds it' '
	git checkout -q -b g-copy work-next &&
	sed "s/line 3\$/line 3 (in the copy)/" drivers/usb/misc/led.c >drivers/usb/misc/led2.c &&
	git add drivers/usb/misc/led2.c &&
	test_tick &&
	git commit -q -m "usb: misc: a second led driver" &&
	cp drivers/usb/misc/led.c drivers/usb/misc/led3.c &&
	git add drivers/usb/misc/led3.c &&
	test_tick &&
	git commit -q -m "usb: misc: a third, the same" &&
	echo "line" >>fs/ext4/inode.c &&
	test_tick &&
	git commit -q -a -m "ext4: after them" &&
	git format-patch -q -C -C --stdout -1 g-copy~2 >copy.mbox &&
	git format-patch -q -C -C --stdout -1 g-copy~1 >copy100.mbox &&
	grep "^copy to drivers/usb/misc/led2.c" copy.mbox &&
	grep "^similarity index 100%" copy100.mbox &&
	for m in copy.mbox copy100.mbox
	do
		id=$(git patch-id --stable <$m | cut -d " " -f 1) &&
		git log -p -C -C --no-merges g-copy | git patch-id --stable >ids &&
		sed -n "s/^$id \(.\{12\}\).*/\1/p" ids >expect &&
		test -s expect &&
		git log -p --no-merges g-copy | git patch-id --stable >ids &&
		! grep "^$id " ids &&
		git-maint-dry-apply --onto g-copy $m >out &&
		grep "^already applied as" out | sed "s/^already applied as //" >actual &&
		test_cmp expect actual || return 1
	done &&
	git-maint-dry-apply --onto g-copy~3 copy.mbox >out &&
	grep "^g-copy~3: the patch applies\$" out &&
	git checkout -q work-next
'

test_expect_success 'queue.applied-depth: how many commits are searched; 0 for all; a bad value is refused' '
	git branch g-depth g-copy &&
	git-maint-dry-apply --onto g-depth copy.mbox >out &&
	grep "^already applied as $(git rev-parse --short=12 g-depth~2)\$" out &&
	git config maint.queue.applied-depth 2 &&
	git-maint-dry-apply --onto g-depth copy.mbox >out &&
	grep "^already applied\$" out &&
	git config maint.queue.applied-depth 3 &&
	git-maint-dry-apply --onto g-depth copy.mbox >out &&
	grep "^already applied as $(git rev-parse --short=12 g-depth~2)\$" out &&
	git config maint.queue.applied-depth 0 &&
	git-maint-dry-apply --onto g-depth copy.mbox >out &&
	grep "^already applied as $(git rev-parse --short=12 g-depth~2)\$" out &&
	git config maint.queue.applied-depth many &&
	test_expect_code 128 git-maint-dry-apply --onto g-depth copy.mbox >out 2>err &&
	grep "bad value ${SQ}many${SQ} for ${SQ}maint.queue.applied-depth${SQ}" err &&
	test_expect_code 128 git-maint-queue g-depth copy.mbox >out 2>err &&
	grep "bad value ${SQ}many${SQ} for ${SQ}maint.queue.applied-depth${SQ}" err &&
	test_path_is_missing .git/maint/queue &&
	git config --unset maint.queue.applied-depth
'

test_done
