#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0420: queue's peak memory against the size of the series it queues
# (issue 24): a list mailbox of one series of <n> patches, each adding a
# new file of 2,000 lines (about 120 KB a mail), and its cover letter;
# `git maint-queue -s` against `git am -s` (on the patches alone: git am
# takes no cover letter), in the same run, on two clones of one
# repository with pinned identities and dates, so that both must make
# the same commits (checked).
#
#   sh t/perf/p0420-queue-memory.sh [<n>...]     (default: 200 2000)
#
# Prints, per size, the mailbox's bytes and wall-clock seconds, CPU
# seconds (user+sys) and peak memory (GNU time %M, KiB) of each. queue's
# memory should not grow with <n> (it did when the series was held in
# memory for the state file: 67 MiB at 200, 309 MiB at 2,000).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
work=$top/t/perf/out/p0420
rm -rf "$work"
mkdir -p "$work/home"

export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL="committer@example.com"
export GIT_COMMITTER_DATE="1345600000 +0200" GIT_AUTHOR_DATE="1345600000 +0200"
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"
unset GIT_MAINT_TEST_CRASH_AT

# gen <n> <cover 0|1>: the series as an mbox on standard output
gen () {
	python3 - "$1" "$2" <<-\PY
	import sys
	n, cover, lines = int(sys.argv[1]), sys.argv[2] == "1", 2000
	w = sys.stdout.write
	head = ("From %s Mon Sep 17 00:00:00 2001\nFrom: A U Thor <author@example.com>\n"
	        "Date: Thu, 7 Apr 2005 15:13:13 -0700\nMessage-ID: <%s@example.com>\n")
	if cover:
	    w(head % ("0" * 40, "cover") + "Subject: [PATCH 0/%d] big series\n\nA big series.\n\n" % n)
	for i in range(1, n + 1):
	    body = "".join("+line %d of file %d: the quick brown fox jumps over the lazy dog\n"
	                   % (j, i) for j in range(lines))
	    w(head % ("1" * 40, "p%d" % i) +
	      "In-Reply-To: <cover@example.com>\nReferences: <cover@example.com>\n"
	      "Subject: [PATCH %d/%d] add f%d\n\nAdd f%d.\n\n"
	      "Signed-off-by: A U Thor <author@example.com>\n---\n f%d.c | %d +\n\n"
	      "diff --git a/big/f%d.c b/big/f%d.c\nnew file mode 100644\n--- /dev/null\n"
	      "+++ b/big/f%d.c\n@@ -0,0 +1,%d @@\n%s-- \n2.39.5\n\n"
	      % (i, n, i, i, i, lines, i, i, i, lines, body))
	PY
}

measure () {
	# measure <name> <dir> <command...>: "wall user sys KiB" into $work/<name>.time
	name=$1 dir=$2
	shift 2
	(cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>&1) || {
		echo "p0420: $name failed:" >&2
		tail -n 20 "$work/$name.out" >&2
		exit 1
	}
}

git init -q "$work/base"
echo base >"$work/base/README"
git -C "$work/base" add README
git -C "$work/base" commit -q -m base

for n in ${*:-200 2000}; do
	gen "$n" 1 >"$work/list.mbox"
	gen "$n" 0 >"$work/patches.mbox"
	for who in am queue; do
		rm -rf "$work/$who"
		git clone -q "$work/base" "$work/$who"
		git -C "$work/$who" checkout -q -b target
	done
	measure am "$work/am" git am -q -s "$work/patches.mbox"
	measure queue "$work/queue" "$MAINT_BUILD_DIR/bin/git-maint-queue" -q -s target "$work/list.mbox"
	if [ "$(git -C "$work/am" rev-parse target)" != "$(git -C "$work/queue" rev-parse target)" ]; then
		echo "p0420: results differ at $n patches" >&2
		exit 1
	fi
	read am_s am_u am_y am_kb <"$work/am.time"
	read q_s q_u q_y q_kb <"$work/queue.time"
	awk -v n="$n" -v b="$(wc -c <"$work/list.mbox")" -v as="$am_s" -v ac="$am_u $am_y" -v ak="$am_kb" \
	    -v qs="$q_s" -v qc="$q_u $q_y" -v qk="$q_kb" 'BEGIN {
		split(ac, a, " "); split(qc, q, " ")
		printf "p0420 %d patches, %d bytes (same commits: yes)\n", n, b
		printf "  git am -s          %8.2f s  %8.2f s cpu  %8d KiB\n", as, a[1] + a[2], ak
		printf "  git maint-queue -s %8.2f s  %8.2f s cpu  %8d KiB\n", qs, q[1] + q[2], qk
	}'
done
rm -rf "$work/am" "$work/queue" "$work/list.mbox" "$work/patches.mbox"
