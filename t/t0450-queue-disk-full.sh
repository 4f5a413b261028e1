#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue on a full disk: exit 128 naming the file, branch unchanged, no torn state'
. ./test-lib.sh

# Needs root to mount a small tmpfs (reliability case 23). The mount point is
# outside the trash directory and unmounted by sharness' final cleanup,
# so a failed run leaves nothing that stops the next one.
mnt=$(mktemp -d "${TMPDIR:-/tmp}/maint-t0450.XXXXXX")
if mount -t tmpfs -o size=4m tmpfs "$mnt" 2>/dev/null
then
	test_set_prereq TMPFS
	ln -s "$mnt" small
	cleanup 'umount "$mnt"; rmdir "$mnt"'
else
	rmdir "$mnt"
fi

test_expect_success TMPFS 'setup: a repository on a 4 MiB file system, a 800 KB patch' '
	git init -q big &&
	(
		cd big &&
		echo base >f &&
		git add f &&
		test_tick &&
		git commit -q -m base &&
		head -c 600000 /dev/urandom | base64 >big &&
		git add big &&
		test_tick &&
		git commit -q -m big &&
		git format-patch -q --stdout HEAD~1 >../big.mbox
	) &&
	git clone -q --no-local --no-hardlinks big small/repo &&
	(
		cd small/repo &&
		git reset -q --hard HEAD~1 &&
		git reflog expire --expire=now --all &&
		git gc -q --prune=now
	)
'

test_expect_success TMPFS 'no space: exit 128 with the reason; the branch unchanged or the state resumable' '
	(
		cd small/repo &&
		avail=$(df -k . | awk "NR == 2 { print \$4 }") &&
		head -c $(( (avail - 1000) * 1024 )) /dev/zero >filler &&
		git rev-parse main >"$HOME"/before &&
		test_expect_code 128 git maint-queue -q main "$HOME"/big.mbox 2>"$HOME"/err &&
		grep "No space left on device" "$HOME"/err &&
		git rev-parse main >"$HOME"/after &&
		if test -d .git/maint/queue
		then
			test-queue-lib state-read .git/maint/queue state >"$HOME"/state &&
			grep "^orig $(cat "$HOME"/before)$" "$HOME"/state
		else
			test_cmp "$HOME"/before "$HOME"/after
		fi
	)
'

test_expect_success TMPFS 'with space again, --continue (or a new run) completes it' '
	(
		cd small/repo &&
		rm -f filler &&
		if test -d .git/maint/queue
		then
			git maint-queue -q --continue
		else
			git maint-queue -q main "$HOME"/big.mbox
		fi &&
		git cat-file -e main:big &&
		git status --porcelain --untracked-files=no >"$HOME"/status &&
		test_must_be_empty "$HOME"/status
	)
'

test_done
