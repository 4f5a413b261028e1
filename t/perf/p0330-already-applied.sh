#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0330: "already applied as <commit>" on a long history. A generated
# history of $P0330_COMMITS commits (default 50,000, one line of one of
# 2,000 files each, so no file changes twice in 2,000 commits) and a
# series of 5 patches that are on master ~900 commits back (git
# format-patch of master~904..master~899). In the same run:
#
#   ours     git maint-dry-apply --onto master series.mbox
#            (each patch found applied, its commit found by patch id:
#            ~905 commits diffed, once each)
#   cherry   git cherry master topic, topic = the same 5 patches picked
#            on master~1000 (git computes the patch ids of the 1,000
#            commits of master~1000..master, and the topic's)
#   log      git log --cherry-pick --right-only --oneline master...topic
#
#   sh t/perf/p0330-already-applied.sh          (`make bench BENCH=p0330`)
#
# Prints wall-clock milliseconds (best of $P0330_RUNS, default 3, each)
# and the ratios. Checks first that dry-apply names the commits git
# finds. With $P0330_DEPTH set, queue.applied-depth is set to it.
# The history is built once with git fast-import and kept in
# $MAINT_PERF_CACHE (default t/perf/out/cache).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
: "${MAINT_PERF_CACHE:=$top/t/perf/out/cache}"
dry=$MAINT_BUILD_DIR/bin/git-maint-dry-apply
n=${P0330_COMMITS:-50000}
runs=${P0330_RUNS:-3}
work=$top/t/perf/out/p0330
cache=$MAINT_PERF_CACHE/p0330-$n
rm -rf "$work"
mkdir -p "$work/home" "$MAINT_PERF_CACHE"
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL="committer@example.com"
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL="author@example.com"
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"

# fast-import stream: commit i changes line (i / 2000) % 40 of file i % 2000
gen () {
	python3 - "$1" <<-'PY'
	import sys
	n = int(sys.argv[1])
	files, lines = 2000, 40
	content = [[f"file {f} line {l}\n" for l in range(lines)] for f in range(files)]
	out = sys.stdout.buffer
	for i in range(n):
	    f = i % files
	    if i >= files:
	        l = (i // files) % lines
	        content[f][l] = f"file {f} line {l} changed by commit {i}\n"
	    data = "".join(content[f]).encode()
	    msg = f"file {f}: commit {i}\n".encode()
	    t = 1300000000 + i * 60
	    out.write(b"commit refs/heads/master\n")
	    out.write(f"author A U Thor <author@example.com> {t} +0000\n".encode())
	    out.write(f"committer C O Mitter <committer@example.com> {t} +0000\n".encode())
	    out.write(b"data %d\n%s" % (len(msg), msg))
	    out.write(f"M 100644 inline dir{f % 40}/file{f}.c\n".encode())
	    out.write(b"data %d\n%s\n" % (len(data), data))
	PY
}
if [ ! -d "$cache/.git" ]; then
	rm -rf "$cache.tmp"
	git init -q -b master "$cache.tmp"
	gen "$n" | git -C "$cache.tmp" fast-import --quiet
	git -C "$cache.tmp" repack -q -a -d
	mv "$cache.tmp" "$cache"
fi
git clone -q "$cache" "$work/repo"
cd "$work/repo"
git checkout -q -B master origin/master
test "$(git rev-list --count master)" = "$n"
git format-patch -q --stdout master~904..master~899 >"$work/series.mbox"
git checkout -q -b topic master~1000
git cherry-pick master~904..master~899 >/dev/null
git checkout -q master
test -z "$P0330_DEPTH" || git config maint.queue.applied-depth "$P0330_DEPTH"

now () { date +%s%N; }
best () {	# best of $runs runs of "$@", in ms, into $ms; output to $work/out
	ms=
	for r in $(seq "$runs"); do
		t=$(now)
		"$@" >"$work/out"
		d=$(( ($(now) - t) / 1000000 ))
		if [ -z "$ms" ] || [ "$d" -lt "$ms" ]; then ms=$d; fi
	done
}

# correctness: the commits named are those git's patch ids find
"$dry" --onto master "$work/series.mbox" >"$work/ours.out"
sed -n 's/^already applied as //p' "$work/ours.out" >"$work/ours.ids"
for k in 903 902 901 900 899; do git rev-parse --short=12 "master~$k"; done >"$work/expect.ids"
cmp -s "$work/ours.ids" "$work/expect.ids" || {
	echo "p0330: dry-apply did not name the commits git finds:" >&2
	cat "$work/ours.out" >&2
	exit 1
}
git cherry master topic >"$work/cherry.out"
test "$(grep -c '^- ' "$work/cherry.out")" = 5

best "$dry" -q --onto master "$work/series.mbox"
ours=$ms
best git cherry master topic
cherry=$ms
best git log --cherry-pick --right-only --oneline master...topic
log=$ms
test ! -s "$work/out"

ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b ? a / b : 0) }'; }
echo "history: $n commits; series: 5 patches applied 899-903 commits back"
echo "dry-apply (already applied as, ~905 commits diffed): $ours ms"
echo "git cherry master topic (1,000 + 5 commits):          $cherry ms"
echo "git log --cherry-pick master...topic:                 $log ms"
echo "ours / git cherry: $(ratio "$ours" "$cherry")   ours / git log --cherry-pick: $(ratio "$ours" "$log")"
