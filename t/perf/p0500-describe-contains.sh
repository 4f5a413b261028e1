#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0500: git maint-describe-contains against git describe --contains on a
# generated linux-like history (50,000 commits, topic merges, octopus
# merges, ~1,600 tags; t/lib-t0500-history.sh, built once with git
# fast-import and kept under t/perf/out/p0500/), measured in the same run,
# without and with a commit-graph:
#
#   single: 10 commits spread over the history, one process per commit,
#           the list run 3 times (30 processes)
#   batch:  100 commits spread over the history in one process (--stdin),
#           against git describe --contains once per commit and against
#           git name-rev --tags --annotate-stdin (git's one-process batch)
#
#   sh t/perf/p0500-describe-contains.sh [<commits>]   (default 50000; `make bench`)
#
# Every answer of ours is checked against git's first. Prints wall-clock
# milliseconds (and CPU milliseconds, user+sys of all processes) per
# commit and the ratios git/ours. Goals: single >= 10x without a graph and
# >= 5x with one; batch >= 3x without a graph and >= 1x with one.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
n=${1:-50000}
seed=42
work=$top/t/perf/out/p0500
repo=$work/repo-$n-$seed
ours=$MAINT_BUILD_DIR/bin/git-maint-describe-contains

export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
unset GIT_DIR GIT_WORK_TREE GIT_CEILING_DIRECTORIES
mkdir -p "$work/home"
test -x "$ours" || { echo "p0500: build first (make)" >&2; exit 1; }

if ! test -f "$repo/.git/p0500-done"; then
	echo "generating $n commits (once)..."
	rm -rf "$repo"
	git init -q "$repo"
	. "$top/t/lib-t0500-history.sh"
	start=$(date +%s)
	# release every 40 mainline events; all annotated tags have a tagger;
	# 2 commits in 1000 dated days before their parent
	gen_history "$n" "$seed" 40 0 2 | git -C "$repo" fast-import --quiet
	git -C "$repo" pack-refs --all
	git -C "$repo" repack -a -d -q
	touch "$repo/.git/p0500-done"
	echo "generated in $(( $(date +%s) - start )) s"
fi
cd "$repo"
commits=$(git rev-list --all | wc -l)
tags=$(git tag | wc -l)
merges=$(git rev-list --all --min-parents=2 | wc -l)
echo "repository: $commits commits, $merges merges, $tags tags"

# 100 commits spread evenly over the history, and 10 of them for single queries
git rev-list --all | awk -v step=$((commits / 100)) 'NR % step == 1' | head -n 100 >"$work/batch"
awk 'NR % 10 == 5' "$work/batch" >"$work/single"
cat "$work/single" "$work/single" "$work/single" >"$work/single3"

now_ms () {
	echo $(( $(date +%s%N) / 1000000 ))
}

# run <name> <command>: wall (microseconds, from date) and CPU ms (from
# time, 10 ms steps) of a shell command into $work/<name>.t
run () {
	start=$(date +%s%N)
	/usr/bin/time -f "%e %U %S" -o "$work/$1.cpu" sh -c "$2" >"$work/$1.out" 2>"$work/$1.err" || {
		echo "p0500: $1 failed" >&2
		tail -n 5 "$work/$1.err" >&2
		exit 1
	}
	end=$(date +%s%N)
	awk -v us=$(( (end - start) / 1000 )) '{ printf "%.3f %d\n", us / 1000, ($2 + $3) * 1000 }' \
		"$work/$1.cpu" >"$work/$1.t"
}

git_loop='while read c; do git describe --contains $c 2>/dev/null || echo "$c undefined"; done'
ours_loop="while read c; do '$ours' \$c 2>/dev/null || echo \"\$c undefined\"; done"
ours_cold_loop="while read c; do '$ours' --no-cache \$c 2>/dev/null || echo \"\$c undefined\"; done"

report () {
	# report <label> <per> <git-name> <ours-name>
	read gw gc <"$work/$3.t"
	read ow oc <"$work/$4.t"
	awk -v l="$1" -v per="$2" -v gw="$gw" -v gc="$gc" -v ow="$ow" -v oc="$oc" 'BEGIN {
		printf "%-44s git %8.2f ms  ours %7.2f ms  ratio %6.1fx   (cpu: git %7.1f ms, ours %6.1f ms, %6.1fx)\n",
			l, gw / per, ow / per, gw / (ow ? ow : 1), gc / per, oc / per, gc / (oc ? oc : 1)
	}'
}

# our caches start empty; the first (warm-up) run without a graph fills them
rm -rf .git/maint
for mode in nograph graph; do
	rm -rf .git/objects/info/commit-graph .git/objects/info/commit-graphs
	if test $mode = graph; then
		git commit-graph write --reachable 2>/dev/null
	fi
	echo "-- $mode"

	# warm up (page cache), check equality on the batch (this first run of
	# ours fills its caches; its time is shown as "first run")
	run warm-git "head -n 3 '$work/batch' | $git_loop"
	run check-git "$git_loop <'$work/batch'"
	run check-ours "'$ours' --stdin <'$work/batch' || test \$? = 1"
	read fw fc <"$work/check-ours.t"
	echo "first run of ours over the batch ($mode, fills caches): $fw ms wall, $fc ms cpu"
	if ! cmp -s "$work/check-git.out" "$work/check-ours.out"; then
		echo "p0500: answers differ from git ($mode):" >&2
		diff "$work/check-git.out" "$work/check-ours.out" | head >&2
		exit 1
	fi
	echo "checked: $(wc -l <"$work/batch") answers equal to git describe --contains"

	run single-git "$git_loop <'$work/single3'"
	run single-ours "$ours_loop <'$work/single3'"
	cmp -s "$work/single-git.out" "$work/single-ours.out" || { echo "p0500: single differs" >&2; exit 1; }
	report "single ($mode, per commit, 30 processes)" 30 single-git single-ours
	run single-ours-cold "$ours_cold_loop <'$work/single3'"
	report "single ($mode, --no-cache)" 30 single-git single-ours-cold

	run batch-git-loop "$git_loop <'$work/batch'"
	run batch-git-namerev "git name-rev --tags --name-only --annotate-stdin <'$work/batch'"
	run batch-ours "'$ours' --stdin <'$work/batch' || test \$? = 1"
	run batch-ours-nocache "'$ours' --no-cache --stdin <'$work/batch' || test \$? = 1"
	report "batch ($mode, per commit) vs git loop" 100 batch-git-loop batch-ours
	report "batch ($mode, per commit) vs git name-rev" 100 batch-git-namerev batch-ours
	report "batch ($mode, --no-cache) vs git name-rev" 100 batch-git-namerev batch-ours-nocache
done
rm -rf .git/objects/info/commit-graph .git/objects/info/commit-graphs
