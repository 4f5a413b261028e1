#!/bin/sh

test_description='dry-apply and queue against hostile patches: sizes written in the mail (RELIABILITY 38)'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-apply.sh"

SQ="'"
BINPATCH="$MAINT_TEST_DIR/t0304/binpatch.py"

# The repository is in repo/; mails and outputs stay outside it.

# dry_refused <mbox> <expected line>: dry-apply exits 1, its report holds
# the line, and the repository is as it was.
dry_refused () {
	(cd repo && repo_state) >state.before &&
	(cd repo && test_expect_code 1 git maint-dry-apply "../$1") >out &&
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
	repo_state | grep -v ORIG_HEAD >../state.before &&
	test_expect_code 1 git maint-queue -q "$1" "../$2" 2>../err &&
	grep -F "$3" ../err &&
	grep "^error: patch 1 does not apply to .$1." ../err &&
	test "$(git rev-parse "$1")" = "$(git rev-parse base)" &&
	git maint-queue --abort >/dev/null &&
	repo_state | grep -v ORIG_HEAD >../state.after &&
	test_cmp ../state.before ../state.after
)

# in_repo <command>...: runs a command in repo/.
in_repo () {
	(cd repo && "$@")
}

test_expect_success 'setup' '
	git init -q repo &&
	cd repo &&
	python3 -c "import sys; sys.stdout.buffer.write(bytes((i * 7 + i // 251) % 256 for i in range(65536)))" >bin &&
	printf "small\000binary\n" >small.bin &&
	printf "%s\n" 1 2 3 4 5 6 7 8 9 10 >ten &&
	git add bin small.bin ten &&
	test_commit base &&
	git checkout -q -b work &&
	cd ..
'

test_expect_success 'a delta announcing 5 GB from 80,000 copy commands is refused before it is built' '
	python3 "$BINPATCH" delta bin repo/bin 80000 >bomb.mbox &&
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
	python3 "$BINPATCH" literal zeros 268435457 >big.mbox &&
	dry_refused big.mbox \
		"big.mbox: message 1: line 6: binary patch of ${SQ}zeros${SQ} too large (268435457 bytes; at most 268435456 in one patch, see mbox.max-message-size)"
'

test_expect_success 'setup: mbox.max-message-size = 1 MiB' '
	printf "[mbox]\n\tmax-message-size = 1048576\n" >repo/.git/maint.ini
'

test_expect_success 'a delta that grows a file by less than the limit applies, as in git' '
	python3 "$BINPATCH" delta bin repo/bin 8 >grow8.mbox &&
	in_repo git apply --check ../grow8.mbox &&
	in_repo git maint-dry-apply -q ../grow8.mbox
'

test_expect_success 'one that grows it by more is refused' '
	python3 "$BINPATCH" delta bin repo/bin 32 >grow32.mbox &&
	in_repo git apply --check ../grow32.mbox &&
	dry_refused grow32.mbox \
		"binary patch to ${SQ}bin${SQ} too large (2097152 bytes from 65536; at most 1048576 more in one patch, see mbox.max-message-size)"
'

test_expect_success 'ten literals that fit one by one are refused together' '
	python3 "$BINPATCH" literal z 200000 10 >ten.mbox &&
	test $(wc -c <ten.mbox) -lt 20000 &&
	in_repo git apply --check ../ten.mbox &&
	dry_refused ten.mbox "binary patch of ${SQ}z5${SQ} too large (200000 bytes; at most 1048576 in one patch"
'

test_expect_success 'queue applies the same limit' '
	queue_refused ten ten.mbox "binary patch of ${SQ}z5${SQ} too large"
'

test_expect_success 'the reverse blocks are held to the limit too' '
	python3 "$BINPATCH" literal z 600000 >rev.mbox &&
	sed "s/^literal 0\$/literal 2000000/" rev.mbox >rev2.mbox &&
	dry_refused rev2.mbox "rev2.mbox: message 1: line 20: binary patch of ${SQ}z${SQ} too large (2000000 bytes; at most 1048576 in one patch"
'

test_expect_success 'a literal whose header claims more than its data holds is corrupt' '
	sed "s/^literal 600000\$/literal 900000/" rev.mbox >short.mbox &&
	dry_refused short.mbox "short.mbox: message 1: line 6: corrupt binary patch data"
'

test_expect_success 'mbox.max-message-size = 0 lifts the limit' '
	printf "[mbox]\n\tmax-message-size = 0\n" >repo/.git/maint.ini &&
	in_repo git maint-dry-apply -q ../ten.mbox &&
	in_repo git maint-dry-apply -q ../grow32.mbox &&
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

test_done
