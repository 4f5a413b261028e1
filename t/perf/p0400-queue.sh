#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0400: queue a 2,000-patch series onto a checked-out branch of the
# kernel-like corpus (t/perf/gen-repo.sh --size=full, 4,000 files):
# `git maint-queue -s` against `git am -s`, measured in the same run, on
# two clones of the same repository, with the same pinned identities and
# dates (so both must give the same commit ids, which is checked).
#
#   sh t/perf/p0400-queue.sh [<patches>]      (default 2000; `make bench`)
#
# Prints wall-clock and CPU seconds and peak memory (GNU time %e, %U+%S,
# %M in KiB) of each and the ratios (on a shared machine the CPU time is
# the steadier measure). The goal: queue >= 10x faster than git am, peak memory no
# higher.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
n=${1:-2000}
corpus=$(sh "$top/t/perf/gen-repo.sh" --size=full --series="$n")
work=$top/t/perf/out/p0400
rm -rf "$work"
mkdir -p "$work/home"

export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export GIT_COMMITTER_NAME="Greg Kroah-Hartman" GIT_COMMITTER_EMAIL="gregkh@linuxfoundation.org"
export GIT_COMMITTER_DATE="1345600000 +0200"
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"
unset GIT_MAINT_TEST_CRASH_AT

for who in am queue; do
	git clone -q "$corpus/repo" "$work/$who"
	git -C "$work/$who" checkout -q -b target origin/master
done

measure () {
	# measure <name> <dir> <command...>: "wall user sys KiB" into $work/<name>.time
	name=$1 dir=$2
	shift 2
	(cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>&1) || {
		echo "p0400: $name failed:" >&2
		tail -n 20 "$work/$name.out" >&2
		exit 1
	}
}

measure am "$work/am" git am -q -s "$corpus/series.mbox"
measure queue "$work/queue" "$MAINT_BUILD_DIR/bin/git-maint-queue" -q -s target "$corpus/series.mbox"

am_c=$(git -C "$work/am" rev-parse target)
q_c=$(git -C "$work/queue" rev-parse target)
if [ "$am_c" != "$q_c" ]; then
	echo "p0400: results differ: git am $am_c, queue $q_c" >&2
	exit 1
fi
if [ -n "$(git -C "$work/queue" status --porcelain --untracked-files=no)" ]; then
	echo "p0400: queue left the work tree different from the branch" >&2
	exit 1
fi

read am_s am_u am_y am_kb <"$work/am.time"
read q_s q_u q_y q_kb <"$work/queue.time"
awk -v n="$n" -v as="$am_s" -v ac="$am_u $am_y" -v ak="$am_kb" \
    -v qs="$q_s" -v qc="$q_u $q_y" -v qk="$q_kb" 'BEGIN {
	split(ac, a, " "); split(qc, q, " ")
	acpu = a[1] + a[2]; qcpu = q[1] + q[2]
	printf "p0400 queue %d patches (same commits: yes)\n", n
	printf "                     wall       cpu (user+sys)  peak memory\n"
	printf "  git am -s          %8.2f s  %8.2f s      %8d KiB\n", as, acpu, ak
	printf "  git maint-queue -s %8.2f s  %8.2f s      %8d KiB\n", qs, qcpu, qk
	printf "  wall: %.1fx faster; cpu: %.1fx less; memory: %.2fx of git am\n",
		(qs > 0 ? as / qs : 0), (qcpu > 0 ? acpu / qcpu : 0), (ak > 0 ? qk / ak : 0)
}'
rm -rf "$work/am" "$work/queue"
