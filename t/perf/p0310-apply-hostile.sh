#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0310: patches that are large on purpose (reliability cases 38, 40), ours
# and git's tools in the same run, wall-clock seconds and peak memory:
#
#   files     one patch creating <n> files in one directory
#   hunks     one patch of <n> hunks against one file (4n lines), all apply
#   failing   the same, every hunk failing
#   delta     a 500-byte binary delta announcing <copies> x 64 KiB
#   literals  ten 'literal 100000000' blocks (1.25 MB of mail)
#
# for  dry-apply   git maint-dry-apply -q
#      queue       git maint-queue on a fresh clone (commit and work tree)
#      check       git apply --check
#      am          git am on a fresh clone
#
#   sh t/perf/p0310-apply-hostile.sh [<n>]   (default 100000; `make bench`)
#
# The work tree lives in $P0310_DIR (default t/perf/out/p0310): file
# creation on a file system that just deleted as many files is slow for
# every program alike (ext4's inode allocator), a tmpfs is steadier.
# Checks that queue commits the tree git am commits where both apply.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
bin=$MAINT_BUILD_DIR/bin
n=${1:-100000}
work=${P0310_DIR:-$top/t/perf/out/p0310}
gen="python3 $top/t/perf/gen-hostile.py"
binpatch="python3 $top/t/t0304/binpatch.py"
rm -rf "$work"
mkdir -p "$work/home"
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL="committer@example.com"
export GIT_COMMITTER_DATE="1345600000 +0200" GIT_AUTHOR_DATE="1345600000 +0200"
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL="author@example.com"
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"
git config --global init.defaultBranch main

# measure <label> <command>...: "<label> <seconds> s <peak MiB> MiB exit <code>"
measure () {
	label=$1
	shift
	/usr/bin/time -f "%e %M %x" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || :
	# (a non-zero exit adds a line "Command exited with ..." first)
	tail -n 1 "$work/time" >"$work/time.last"
	read -r secs kib rc <"$work/time.last"
	printf "  %-10s %8s s %7d MiB   exit %s\n" "$label" "$secs" $((kib / 1024)) "$rc"
}

# base <dir>: a repository with the 4n-line file 'big' and a 64 KiB 'bin'
base () {
	git init -q "$1"
	(
		cd "$1"
		$gen bigfile "$n" >big
		python3 -c "import sys; sys.stdout.buffer.write(bytes((i * 7 + i // 251) % 256 for i in range(65536)))" >bin
		git add big bin
		git commit -q -m base
	)
}

# run_case <name> <mbox>: the four tools, queue and am on fresh clones.
run_case () {
	echo "== $1 ($(wc -c <"$2") bytes of mail)"
	(cd "$work/repo" && measure dry-apply "$bin/git-maint-dry-apply" -q "$2")
	(cd "$work/repo" && measure check git apply --check "$2")
	rm -rf "$work/q" "$work/a"
	git clone -q "$work/repo" "$work/q"
	git clone -q "$work/repo" "$work/a"
	(cd "$work/q" && measure queue "$bin/git-maint-queue" -q main "$2")
	(cd "$work/a" && measure am git am -q "$2")
	q=$(git -C "$work/q" rev-parse HEAD^{tree})
	a=$(git -C "$work/a" rev-parse HEAD^{tree})
	if git -C "$work/a" rev-parse -q --verify ORIG_HEAD >/dev/null && [ "$q" != "$a" ] &&
	   [ "$(git -C "$work/a" rev-list --count HEAD)" != 1 ]; then
		echo "p0310: queue and git am committed different trees for $1" >&2
		exit 1
	fi
	rm -rf "$work/q" "$work/a"
}

base "$work/repo"
$gen files "$n" >"$work/files.mbox"
$gen hunks "$n" ok >"$work/hunks.mbox"
$gen hunks "$n" fail >"$work/failing.mbox"
echo "p0310: n = $n"
run_case files "$work/files.mbox"
run_case hunks "$work/hunks.mbox"
run_case failing "$work/failing.mbox"

echo "== binary patches (dry-apply, git apply --check)"
$binpatch delta bin "$work/repo/bin" 80000 >"$work/delta5g.mbox"
$binpatch delta bin "$work/repo/bin" 16000 >"$work/delta1g.mbox"
$binpatch literal zeros 100000000 10 >"$work/literals.mbox"
for m in delta5g delta1g literals; do
	echo "  $m ($(wc -c <"$work/$m.mbox") bytes of mail)"
	(cd "$work/repo" && measure "  dry-apply" "$bin/git-maint-dry-apply" -q "$work/$m.mbox")
	[ "$m" = delta5g ] && [ -z "$P0310_GIT_5G" ] && {
		echo "    check      (not run: git apply would build 5 GB; set P0310_GIT_5G=1)"
		continue
	}
	(cd "$work/repo" && measure "  check" git apply --check "$work/$m.mbox")
done
