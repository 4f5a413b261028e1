#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0010: what each program costs before it does any work, and on the tiny
# jobs the test suite is made of, against git's own tool for the nearest
# job, in the same run. Most of the suite's processes are such runs, so
# their start-up (exec, mapping and relocating the shared libraries,
# libgit2's set-up) is most of what the suite spends in our programs.
#
#   ours                                    git
#   git-maint-<program> -h, every program   git <nearest command> -h
#   mbox-split -o <dir> (a 3-message mbox)  git mailsplit -o<dir>
#   dry-apply (a one-line patch)            git apply --check
#   describe-contains <a commit id>         git describe --contains (with a
#                                           commit-graph: answered from the files)
#   describe-contains HEAD~1                git describe --contains (a revision
#                                           expression: handed to its libgit2 part)
#   notify -n <commit> (nothing to send)    git format-patch -1 --stdout (git
#                                           send-email is Perl: no fair floor)
#
#   sh t/perf/p0010-startup.sh             (`make bench BENCH=p0010`)
#   P0010_BEFORE=<build dir> sh t/perf/p0010-startup.sh
#
# The programs are run directly (.build/bin/git-maint-<program>), not
# through `git maint-<program>`, which adds a git process to both sides.
# Each figure is the CPU time (user + system) of one run, averaged over
# $P0010_RUNS runs in a row (default 20) by t/perf/cpu-runs.c, the best of
# $P0010_ROUNDS rounds (default 5; each round runs every case, so a busy
# moment of a shared machine falls on ours and git's alike); ratio is ours
# over git's. With P0010_BEFORE, the same programs of another build
# (e.g. main's, copied aside) run in the same rounds: its figure and ratio
# come first, then this build's.
#
# Checks first that each small run does its job: the same files as git
# mailsplit, the patch applies, the same name as git describe --contains.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
bin=$MAINT_BUILD_DIR/bin
runner=$MAINT_BUILD_DIR/t/perf/cpu-runs
before=${P0010_BEFORE:+$P0010_BEFORE/bin}
runs=${P0010_RUNS:-20}
rounds=${P0010_ROUNDS:-5}
work=$top/t/perf/out/p0010
[ -x "$runner" ] || { echo "p0010: $runner is not built (make all)" >&2; exit 1; }
[ -z "$before" ] || [ -d "$before" ] || { echo "p0010: no programs in '$before'" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/home"
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL="author@example.com"
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL="committer@example.com"
export GIT_AUTHOR_DATE="1345600000 +0200" GIT_COMMITTER_DATE="1345600000 +0200"

# A repository of four commits and two tags; "topic" is one commit (one
# line) ahead of master.
git init -q -b master "$work/repo"
cd "$work/repo"
for i in 1 2 3; do
	echo "line $i" >>file
	git add file
	git commit -q -m "commit $i"
	[ $i = 3 ] || git tag -a -m "v$i.0" "v$i.0"
done
git checkout -q -b topic
echo "line 4" >>file
git commit -q -a -m "one line more"
git checkout -q master
git commit-graph write --reachable
id=$(git rev-parse HEAD~1)
git format-patch --stdout -1 topic >../one.patch
git format-patch --stdout -3 topic >../three.mbox
mkdir ../ours ../git

# The small runs do their jobs.
"$bin/git-maint-mbox-split" -o ../ours ../three.mbox >/dev/null
git mailsplit -o../git ../three.mbox >/dev/null
diff -r ../ours ../git >/dev/null || { echo "p0010: mbox-split and git mailsplit differ" >&2; exit 1; }
"$bin/git-maint-dry-apply" -q ../one.patch >/dev/null ||
	{ echo "p0010: dry-apply says the patch does not apply" >&2; exit 1; }
git apply --check ../one.patch
for rev in "$id" HEAD~1; do
	[ "$("$bin/git-maint-describe-contains" "$rev")" = "$(git describe --contains "$rev")" ] ||
		{ echo "p0010: describe-contains and git describe --contains differ" >&2; exit 1; }
done

# One case a line: <name>|<our exit code>|<our command>|<git's exit code>|<git's command>;
# "@" is the directory of the programs measured; "--empty <dir>" empties
# <dir> before each run (cpu-runs). The commands run in the repository;
# their arguments hold no blanks.
cases=$work/cases
for p in mbox-split:mailsplit dry-apply:apply queue:am notify:format-patch publish:push \
	request-pull:request-pull describe-contains:describe source--fetch:fetch; do
	echo "${p%%:*} -h|129|@/git-maint-${p%%:*} -h|129|git ${p#*:} -h"
done >"$cases"
cat >>"$cases" <<-\EOF
	mbox-split, 3 mails|0|--empty ../ours @/git-maint-mbox-split -o ../ours ../three.mbox|0|--empty ../git git mailsplit -o../git ../three.mbox
	dry-apply, a 1-line patch|0|@/git-maint-dry-apply -q ../one.patch|0|git apply --check ../one.patch
	describe-contains HEAD~1|0|@/git-maint-describe-contains HEAD~1|0|git describe --contains HEAD~1
	notify -n, nothing to send|0|@/git-maint-notify -n HEAD~1..HEAD|0|git format-patch -1 --stdout
	EOF
echo "describe-contains <id>|0|@/git-maint-describe-contains $id|0|git describe --contains $id" >>"$cases"

# measure <key> <exit code> <programs' directory> <command>: the best
# per-run CPU time so far, in best_<key> (microseconds)
measure () {
	key=$1 code=$2 dir=$3
	set -f
	# shellcheck disable=SC2086 # the command's words
	set -- $4
	set +f
	empty=
	if [ "$1" = --empty ]; then empty=$2; shift 2; fi
	case $1 in @*) first=$dir${1#@}; shift; set -- "$first" "$@" ;; esac
	us=$("$runner" ${empty:+--empty "$empty"} "$runs" "$code" "$@") || { echo "p0010: '$*' failed" >&2; exit 1; }
	us=${us%% *}
	eval "old=\${best_$key:-}"
	if [ -z "$old" ] || [ "$us" -lt "$old" ]; then eval "best_$key=$us"; fi
}

r=0
while [ $r -lt "$rounds" ]; do
	n=0
	while IFS='|' read -r name ocode ours gcode git; do
		n=$((n + 1))
		measure "git$n" "$gcode" "" "$git"
		measure "ours$n" "$ocode" "$bin" "$ours"
		[ -z "$before" ] || measure "before$n" "$ocode" "$before" "$ours"
	done <"$cases"
	r=$((r + 1))
done

echo "p0010 start-up: CPU ms per run (user + system), best of $rounds rounds of $runs runs; ratio = ours / git's"
if [ -n "$before" ]; then
	printf '  %-28s %8s %8s %6s %8s %6s\n' case git before ratio after ratio
else
	printf '  %-28s %8s %8s %6s\n' case git ours ratio
fi
n=0
while IFS='|' read -r name ocode ours gcode git; do
	n=$((n + 1))
	eval "g=\$best_git$n o=\$best_ours$n b=\${best_before$n:-}"
	awk -v name="$name" -v g="$g" -v o="$o" -v b="$b" 'BEGIN {
		if (b != "")
			printf "  %-28s %8.2f %8.2f %5.1fx %8.2f %5.1fx\n", name, g / 1000, b / 1000, b / g, o / 1000, o / g
		else
			printf "  %-28s %8.2f %8.2f %5.1fx\n", name, g / 1000, o / 1000, o / g
	}'
done <"$cases"
cd "$top"
rm -rf "$work"
