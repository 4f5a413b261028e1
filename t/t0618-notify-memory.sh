#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='notify: memory stays flat as the mails grow tenfold

notify holds one mail at a time; what else it uses is libgit2'"'"'s and
bounded (common/repo/repo.h, REPO_USE_NOTES): 1 MiB of cached objects and
pack windows of 1 MiB, at most 8 MiB of them mapped, whatever the size of
the packs it reads commits and records from. So mailing ten times the
commits, from a repository ten times the size, adds at most those 8 MiB
and 2 MiB for the rest (git-maint(7), LIMITS, Notify). The repositories
are made with fast-import, uncompressed, so their packs are 2.5 and 25 MB:
with every pack mapped whole, as before the bound, the peak grew by about
22 MiB. notify runs without --send: the same mails, as an mbox on standard
output. The bound is on memory, never on time; the sanitizers keep freed
memory in quarantine, so the memory test does not run under them.'

. ./test-lib.sh

# 100 and 1,000 commits of 24 KB messages; the first 100 are the same commits.
# glibc's trim threshold raised for fast-import: without it, fast-import
# gives its heap back and takes it again at nearly every object (most of its
# system time went to brk()).
test_expect_success 'setup: repositories of 100 and 1,000 queued commits' '
	for n in 100 1000
	do
		git init -q r$n &&
		python3 "$MAINT_TEST_DIR/t0618/gen-records.py" $n 24576 |
		MALLOC_TRIM_THRESHOLD_=67108864 git -C r$n -c core.compression=0 \
			fast-import --quiet --depth=0 || return 1
	done &&
	test $(git -C r1000 rev-list --count usb-next..work-next) = 1000 &&
	test $(git -C r100 rev-parse work-next) = $(git -C r1000 rev-parse work-next~900)
'

test_expect_success 'every commit mailed to its author, the first 100 the same mails' '
	(cd r100 && git-maint-notify usb-next..work-next >../out100) &&
	(cd r1000 && git-maint-notify usb-next..work-next >../out1000) &&
	test_seq 1 1000 | sed "s/.*/To: Author & <a&@example.com>/" >expect &&
	grep "^To: " out1000 >actual &&
	test_cmp expect actual &&
	test $(grep -c "^From [0-9a-f]\{40\} " out1000) = 1000 &&
	head -c $(wc -c <out100) out1000 >first &&
	test_cmp out100 first
'

test_expect_success !SANITIZE 'ten times the mails: peak memory grows by less than 10 MiB' '
	(cd r100 && /usr/bin/time -f "%M" -o ../rss100 git-maint-notify usb-next..work-next >../out100) &&
	(cd r1000 && /usr/bin/time -f "%M" -o ../rss1000 git-maint-notify usb-next..work-next >../out1000) &&
	test $(grep -c "^From [0-9a-f]\{40\} " out1000) = 1000 &&
	echo "peak: $(tail -n 1 rss100) KiB for 100 mails, $(tail -n 1 rss1000) KiB for 1,000" &&
	test $(( $(tail -n 1 rss1000) - $(tail -n 1 rss100) )) -lt 10240
'

test_done
