#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0300: check a 2,000-patch series (t/perf/gen-repo.sh --size=full
# --series=<n>, a 4,000-file kernel-like tree) against its base branch,
# three ways, in the same run:
#
#   ours    git maint-dry-apply --onto master series.mbox   (cumulative, in memory)
#   am      git am series.mbox on a scratch branch          (cumulative, the only
#                                                            way git checks a series)
#   check   git mailsplit, then git apply --check per patch (each patch against the
#                                                            work tree only; split
#                                                            not timed)
#
#   sh t/perf/p0300-dry-apply.sh [<patches>]      (default 2000; `make bench`)
#
# Prints wall-clock seconds (ours: best of $P0300_RUNS, default 3; git's
# tools once each) and the ratios. Checks first that dry-apply says the
# whole series applies, that git am agrees (same tree as the corpus's
# "series" branch), and that dry-apply changed nothing in the repository.
# Goals: >= 30x faster than git am, >= 6x faster than the check loop.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
dry=$MAINT_BUILD_DIR/bin/git-maint-dry-apply
n=${1:-2000}
runs=${P0300_RUNS:-3}
corpus=$(sh "$top/t/perf/gen-repo.sh" --size=full --series="$n")
work=$top/t/perf/out/p0300
rm -rf "$work"
mkdir -p "$work/home"
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL="committer@example.com"
export GIT_COMMITTER_DATE="1345600000 +0200"
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"

git clone -q "$corpus/repo" "$work/repo"
cd "$work/repo"
git checkout -q -B master origin/master
mbox=$corpus/series.mbox

now () { date +%s%N; }
ms_since () { echo $(( ($(now) - $1) / 1000000 )); }

# Correctness and the no-change property first.
state () {
	git for-each-ref --format='%(refname) %(objectname)'
	find .git -type f | LC_ALL=C sort | xargs sha1sum
	git count-objects -v
	git status --porcelain=v1
}
state >"$work/state.before"
"$dry" -q --onto master "$mbox" >"$work/ours.out" || {
	echo "p0300: dry-apply says the series does not apply:" >&2
	cat "$work/ours.out" >&2
	exit 1
}
echo "master: all $n patches apply" | cmp -s - "$work/ours.out" || {
	echo "p0300: unexpected dry-apply output" >&2
	exit 1
}
state >"$work/state.after"
cmp -s "$work/state.before" "$work/state.after" || {
	echo "p0300: dry-apply changed the repository" >&2
	exit 1
}

# ours: best of $runs
best=
i=0
while [ $i -lt "$runs" ]; do
	t0=$(now)
	"$dry" -q --onto master "$mbox" >/dev/null
	t=$(ms_since "$t0")
	if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	i=$((i + 1))
done
ours=$best

# git am into a scratch branch
git checkout -q -b scratch master
t0=$(now)
git am -q "$mbox" >"$work/am.out" 2>&1 || {
	echo "p0300: git am failed:" >&2
	tail -n 20 "$work/am.out" >&2
	exit 1
}
am=$(ms_since "$t0")
[ "$(git rev-parse scratch^{tree})" = "$(git rev-parse origin/series^{tree})" ] || {
	echo "p0300: git am gave another tree than the corpus's series branch" >&2
	exit 1
}
git checkout -q master
git branch -q -D scratch

# git apply --check, one patch at a time (against master's work tree)
mkdir "$work/split"
git mailsplit -o"$work/split" "$mbox" >/dev/null
t0=$(now)
ok=0
bad=0
for p in "$work/split"/*; do
	if git apply --check "$p" 2>/dev/null; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
done
check=$(ms_since "$t0")

awk -v n="$n" -v runs="$runs" -v ours="$ours" -v am="$am" -v check="$check" -v ok="$ok" -v bad="$bad" 'BEGIN {
	printf "p0300 dry-apply: %d patches on a 4,000-file tree (all apply: yes; repository unchanged: yes)\n", n
	printf "  %-44s %8.2f s\n", "git maint-dry-apply --onto master (best of " runs ")", ours / 1000
	printf "  %-44s %8.2f s   %6.1fx faster (goal 30x)\n", "git am into a scratch branch", am / 1000, (ours > 0 ? am / ours : 0)
	printf "  %-44s %8.2f s   %6.1fx faster (goal 6x)\n", "git apply --check per patch", check / 1000, (ours > 0 ? check / ours : 0)
	printf "  (the check loop tests each patch against master alone: %d pass, %d fail)\n", ok, bad
}'
cd "$top"
rm -rf "$work/repo" "$work/split"
