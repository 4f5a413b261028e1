#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='dry-apply and queue against hostile patches: sizes written in the mail (reliability case 38), patches git am refuses or applies (44, 46)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-apply.sh"

SQ="'"
BINPATCH="$MAINT_TEST_DIR/t0304/binpatch.py"

# The repository is in repo/; mails and outputs stay outside it.

# dry_refused <mbox> <expected line>: dry-apply onto base exits 1, its
# report holds the line, and the repository is as it was.
dry_refused () {
	(cd repo && repo_state) >state.before &&
	(cd repo && test_expect_code 1 git-maint-dry-apply --onto base "../$1") >out &&
	grep -F "$2" out &&
	(cd repo && repo_state) >state.after &&
	test_cmp state.before state.after
}

# queue_refused <branch> <mbox> <expected line>: queue stops at patch 1
# with exit 1 and the line on stderr; after --abort the branch, index
# and work tree are as they were.
queue_refused () (
	cd repo &&
	git checkout -q -B "$1" base &&
	repo_state ORIG_HEAD >../state.before &&
	test_expect_code 1 git-maint-queue -q "$1" "../$2" 2>../err &&
	grep -F "$3" ../err &&
	grep "^error: patch 1/1 does not apply to .$1." ../err &&
	test "$(git rev-parse "$1")" = "$(git rev-parse base)" &&
	git-maint-queue --abort >/dev/null &&
	repo_state ORIG_HEAD >../state.after &&
	test_cmp ../state.before ../state.after
)

# in_repo <command>...: runs a command in repo/.
in_repo () {
	(cd repo && "$@")
}

test_expect_success 'setup' '
	git init -q repo &&
	cd repo &&
	python3 -S -c "import sys; sys.stdout.buffer.write(bytes((i * 7 + i // 251) % 256 for i in range(65536)))" >bin &&
	printf "small\000binary\n" >small.bin &&
	printf "%s\n" 1 2 3 4 5 6 7 8 9 10 >ten &&
	git add bin small.bin ten &&
	test_commit base &&
	git checkout -q -b work &&
	cd ..
'

test_expect_success 'a delta announcing 5 GB from 80,000 copy commands is refused before it is built' '
	python3 -S "$BINPATCH" delta bin repo/bin 80000 >bomb.mbox &&
	test $(wc -c <bomb.mbox) -lt 1000 &&
	dry_refused bomb.mbox \
		"binary patch to ${SQ}bin${SQ} too large (5242880000 bytes from 65536; at most 268435456 more in one patch, see mbox.max-message-size)"
'

test_expect_success 'queue refuses it the same way, nothing written' '
	in_repo count_objects >objects.before &&
	queue_refused bomb bomb.mbox "binary patch to ${SQ}bin${SQ} too large" &&
	in_repo count_objects >objects.after &&
	test_cmp objects.before objects.after
'

test_expect_success 'a literal of 256 MiB + 1 zero bytes is refused before it is inflated' '
	python3 -S "$BINPATCH" literal zeros 268435457 >big.mbox &&
	dry_refused big.mbox \
		"big.mbox: message 1: line 6: binary patch of ${SQ}zeros${SQ} too large (268435457 bytes; at most 268435456 in one patch, see mbox.max-message-size)"
'

test_expect_success 'setup: mbox.max-message-size = 1 MiB' '
	printf "[mbox]\n\tmax-message-size = 1048576\n" >repo/.git/maint.ini
'

test_expect_success 'a delta that grows a file by less than the limit applies, as in git' '
	python3 -S "$BINPATCH" delta bin repo/bin 8 >grow8.mbox &&
	in_repo git apply --check ../grow8.mbox &&
	in_repo git-maint-dry-apply -q ../grow8.mbox
'

test_expect_success 'one that grows it by more is refused' '
	python3 -S "$BINPATCH" delta bin repo/bin 32 >grow32.mbox &&
	in_repo git apply --check ../grow32.mbox &&
	dry_refused grow32.mbox \
		"binary patch to ${SQ}bin${SQ} too large (2097152 bytes from 65536; at most 1048576 more in one patch, see mbox.max-message-size)"
'

test_expect_success 'ten literals that fit one by one are refused together' '
	python3 -S "$BINPATCH" literal z 200000 10 >ten.mbox &&
	test $(wc -c <ten.mbox) -lt 20000 &&
	in_repo git apply --check ../ten.mbox &&
	dry_refused ten.mbox "binary patch of ${SQ}z5${SQ} too large (200000 bytes; at most 1048576 in one patch"
'

test_expect_success 'queue applies the same limit' '
	queue_refused ten ten.mbox "binary patch of ${SQ}z5${SQ} too large"
'

test_expect_success 'a series whose deltas each fit but together grow a file past the limit stops at the patch past it (reliability case 56)' '
	python3 -S "$BINPATCH" grow bin repo/bin 307200 4 >series.mbox &&
	test $(wc -c <series.mbox) -lt 4000 &&
	dry_refused series.mbox \
		"binary patch to ${SQ}bin${SQ} too large (1294336 bytes from 987136; at most 1048576 more in one series, 921600 of it taken by the patches before, see mbox.max-message-size)" &&
	grep -x "base: 3 of 4 patches apply; patch 4/4 is the first that does not" out &&
	python3 -S "$BINPATCH" grow bin repo/bin 307200 3 >three.mbox &&
	in_repo git-maint-dry-apply -q --onto base ../three.mbox
'

test_expect_success 'queue stops there too: three commits, exit 1, --abort puts the branch and work tree back' '
	(
		cd repo &&
		git checkout -q -B grow base &&
		test_expect_code 1 git-maint-queue -q grow ../series.mbox 2>../err &&
		grep -F "at most 1048576 more in one series, 921600 of it taken by the patches before" ../err &&
		grep "^error: patch 4/4 does not apply to .grow." ../err &&
		test "$(git rev-list --count base..grow)" = 3 &&
		test $(wc -c <bin) = 987136 &&
		git-maint-queue --abort >/dev/null &&
		test "$(git rev-parse grow)" = "$(git rev-parse base)" &&
		git status --porcelain >../status &&
		test_must_be_empty ../status &&
		git diff --quiet base &&
		test $(wc -c <bin) = 65536
	)
'

test_expect_success 'the reverse blocks are held to the limit too' '
	python3 -S "$BINPATCH" literal z 600000 >rev.mbox &&
	sed "s/^literal 0\$/literal 2000000/" rev.mbox >rev2.mbox &&
	dry_refused rev2.mbox "rev2.mbox: message 1: line 20: binary patch of ${SQ}z${SQ} too large (2000000 bytes; at most 1048576 in one patch"
'

test_expect_success 'a literal whose header claims more than its data holds is corrupt' '
	sed "s/^literal 600000\$/literal 900000/" rev.mbox >short.mbox &&
	dry_refused short.mbox "short.mbox: message 1: line 6: corrupt binary patch data"
'

test_expect_success 'mbox.max-message-size = 0 lifts the limit' '
	printf "[mbox]\n\tmax-message-size = 0\n" >repo/.git/maint.ini &&
	in_repo git-maint-dry-apply -q ../ten.mbox &&
	in_repo git-maint-dry-apply -q ../grow32.mbox &&
	rm repo/.git/maint.ini
'

test_expect_success 'hunk line counts of 2^31 are a corrupt hunk header' '
	cat >huge.mbox <<-\EOF &&
	From: A U Thor <author@example.com>
	Subject: [PATCH] huge counts

	---
	diff --git a/ten b/ten
	--- a/ten
	+++ b/ten
	@@ -1,2147483648 +1,2147483648 @@
	 1
	-2
	+two
	EOF
	dry_refused huge.mbox "huge.mbox: message 1: line 5: corrupt hunk header ${SQ}@@ -1,2147483648 +1,2147483648 @@${SQ}"
'

test_expect_success 'counts the lines do not follow are a truncated hunk' '
	sed "s/2147483648/100000000/g" huge.mbox >long.mbox &&
	dry_refused long.mbox "long.mbox: message 1: line 9: corrupt patch: hunk at line 5 is truncated"
'

# mail_of <subject> <diff-file>: a patch mail around a diff.
mail_of () {
	printf "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	printf "From: A U Thor <author@example.com>\nDate: Thu, 7 Apr 2005 15:13:13 -0700\n"
	printf "Subject: [PATCH] %s\n\n---\n" "$1"
	cat "$2"
	printf -- "-- \n2.39.5\n\n"
}

# same_as_am <branch> <mbox>: queue applies the mail on <branch> (made
# from base) and commits the tree git am commits; git fsck is content.
same_as_am () (
	cd repo &&
	git checkout -q -B "am-$1" base &&
	git am -q "../$2" &&
	git checkout -q -B "$1" base &&
	git-maint-queue -q "$1" "../$2" &&
	git rev-parse "am-$1^{tree}" >../expect &&
	git rev-parse "$1^{tree}" >../actual &&
	test_cmp ../expect ../actual &&
	git fsck --no-progress 2>&1 >/dev/null | grep -v "^warning" >../fsck.out;
	test_must_be_empty ../fsck.out
)

test_expect_success 'setup: a file and a submodule' '
	(
		cd repo &&
		git checkout -q work &&
		echo target >f &&
		git init -q sub &&
		echo one >sub/s &&
		git -C sub add s &&
		git -C sub commit -q -m one &&
		git -C sub rev-parse HEAD >../sub1 &&
		echo two >sub/s &&
		git -C sub commit -q -a -m two &&
		git -C sub rev-parse HEAD >../sub2 &&
		git -C sub checkout -q HEAD~1 &&
		git add f &&
		git update-index --add --cacheinfo 160000,$(cat ../sub1),sub &&
		test_tick &&
		git commit -q -m "a file and a submodule" &&
		git tag -f base
	) &&
	printf "%s\n" "diff --git a/sub b/sub" "index $(cut -c1-7 sub1)..$(cut -c1-7 sub2)" \
		"--- a/sub" "+++ b/sub" "@@ -1 +1 @@" "-Subproject commit $(cat sub1)" \
		"+Subproject commit $(cat sub2)" >sub.diff &&
	mail_of "bump sub" sub.diff >sub.mbox
'

test_expect_success 'a file does not turn into a symlink by a mode change alone (git apply refuses)' '
	printf "%s\n" "diff --git a/f b/f" "old mode 100644" "new mode 120000" >d &&
	mail_of "f becomes a link" d >mode.mbox &&
	test_must_fail in_repo git apply --check ../mode.mbox 2>err &&
	grep "new mode (120000) of f does not match old mode (100644)" err &&
	dry_refused mode.mbox "new mode (120000) of ${SQ}f${SQ} does not match old mode (100644)"
'

test_expect_success 'queue refuses it too, nothing committed' '
	queue_refused mode mode.mbox "new mode (120000) of ${SQ}f${SQ} does not match old mode (100644)"
'

test_expect_success 'nor with a hunk that makes its content the target' '
	printf "%s\n" "diff --git a/f b/f" "old mode 100644" "new mode 120000" "--- a/f" "+++ b/f" \
		"@@ -1 +1 @@" "-target" "+/etc/passwd" "\\ No newline at end of file" >d &&
	mail_of "f becomes a link, with content" d >mode2.mbox &&
	test_must_fail in_repo git apply --check ../mode2.mbox &&
	dry_refused mode2.mbox "new mode (120000) of ${SQ}f${SQ} does not match old mode (100644)"
'

test_expect_success 'a copy onto its own source is refused (git apply: already exists)' '
	printf "%s\n" "diff --git a/f b/f" "similarity index 100%" "copy from f" "copy to f" >d &&
	mail_of "copy f to f" d >copy.mbox &&
	test_must_fail in_repo git apply --check ../copy.mbox 2>err &&
	grep "f: already exists in working directory" err &&
	dry_refused copy.mbox "${SQ}f${SQ} already exists" &&
	queue_refused copy copy.mbox "${SQ}f${SQ} already exists"
'

test_expect_success 'a submodule diff without mode lines applies, to the tree git am makes' '
	in_repo git-maint-dry-apply -q --onto base ../sub.mbox >out &&
	echo "base: the patch applies" >expect &&
	test_cmp expect out &&
	same_as_am sub sub.mbox
'

test_expect_success 'the submodule keeps its checkout, as with git am' '
	(cd repo && git -C sub rev-parse HEAD && git status --porcelain=v1 sub) >actual &&
	{ cat sub1 && echo " M sub"; } >expect &&
	test_cmp expect actual
'

test_expect_success 'a submodule diff with its mode in the index line applies the same' '
	sed "s/^index .*/& 160000/" sub.mbox >sub-mode.mbox &&
	grep "^index .* 160000\$" sub-mode.mbox &&
	same_as_am sub-mode sub-mode.mbox
'

test_expect_success 'a submodule post-image that names no commit is refused' '
	sed "s/^+Subproject commit .*/+Subproject commit nothing/" sub.mbox >badsub.mbox &&
	in_repo git checkout -q -B am-bad base &&
	test_must_fail in_repo git am ../badsub.mbox >/dev/null 2>&1 &&
	in_repo git am --abort &&
	dry_refused badsub.mbox "corrupt patch for submodule ${SQ}sub${SQ}"
'

test_expect_success 'a hunk far past the end of the file is looked for from its end, as git apply does' '
	printf "%s\n" "diff --git a/ten b/ten" "--- a/ten" "+++ b/ten" "@@ -1000000,3 +1000000,3 @@" \
		" 1" "-2" "+two" " 3" >d &&
	mail_of "far away" d >far.mbox &&
	in_repo git-maint-dry-apply ../far.mbox >out &&
	grep "^Hunk #1 succeeded at 1 (offset -999999 lines)\.\$" out &&
	same_as_am far far.mbox
'

test_expect_success 'one bad patch does not hide the verdicts of the next ones' '
	cat mode.mbox sub.mbox copy.mbox far.mbox >series.mbox &&
	(cd repo && test_expect_code 1 git-maint-dry-apply --onto base --porcelain ../series.mbox) >out &&
	grep "^patch" out | cut -f2-4 >actual &&
	printf "base\t%s\t%s\n" 1 failed 2 ok 3 failed 4 ok >expect &&
	test_cmp expect actual
'

test_expect_success 'a binary patch whose post-image id is a tree is no blob' '
	(cd repo && printf "%s\n" "diff --git a/f b/f" \
		"index $(git rev-parse HEAD:f)..$(git rev-parse HEAD^{tree}) 100644" \
		"Binary files a/f and b/f differ") >d &&
	mail_of "f becomes a tree" d >tree.mbox &&
	dry_refused tree.mbox "cannot apply binary patch to ${SQ}f${SQ} without full index line"
'

test_done
