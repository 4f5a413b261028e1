#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0320: review data of hostile shapes at 1x, 10x and 100x (issue 24,
# reliability case 55), ours and git's (or b4's) tools on the same input in the
# same run; the figures of git-maint(7), LIMITS, "Review data":
#
#   trailers    one reply giving a patch n distinct trailers:
#               mbox-split --show-trailers; git interpret-trailers --parse
#   replies     n replies, one Reviewed-by each: mbox-split --show-trailers
#   cc          a patch mail Cc'ing n people: notify's dry run (the thank-you
#               built from the record); git mailinfo on the mail
#   references  n ids in References: mbox-split --list; git mailinfo
#   range-diff  a series of n patches, v1 and v2: dry-apply --range-diff;
#               git range-diff on the same changes as commits
#
#   sh t/perf/p0320-review-bounds.sh [<kind>...]     (default: all)
#
# Prints wall-clock seconds, CPU seconds and peak resident memory per run
# (t/perf/lib-bounds.sh). A run is stopped after P0320_LIMIT seconds
# (default 120) and shown as "> <limit> s": quadratic shapes at 100x take
# that long.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
limit=${P0320_LIMIT:-120}
work=$top/t/perf/out/p0320
gen="python3 $top/t/perf/gen-review.py"
bin=$MAINT_BUILD_DIR/bin

. "$top/t/perf/lib-bounds.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME="$work" LC_ALL=C.UTF-8 TZ=UTC
git config --global user.name "Greg Kroah-Hartman"
git config --global user.email gregkh@linuxfoundation.org

git init -q "$work/repo"
cd "$work/repo"
git commit -q --allow-empty -m base

trailers () {
	for n in 1000 10000 100000; do
		$gen trailers $n >"$work/in"
		bounds_run "mbox-split --show-trailers" $n \
			"$bin/git-maint-mbox-split" --show-trailers "$work/in"
		bounds_run "git interpret-trailers --parse" $n git interpret-trailers --parse "$work/in"
	done
}

replies () {
	for n in 1000 10000 100000; do
		$gen replies $n >"$work/in"
		bounds_run "mbox-split --show-trailers" $n \
			"$bin/git-maint-mbox-split" --show-trailers "$work/in"
	done
}

cc () {
	for n in 1000 10000 100000; do
		rm -rf "$work/notify"
		git init -q "$work/notify"
		$gen fast-import $n | git -C "$work/notify" fast-import --quiet
		bounds_run "notify (dry run)" $n sh -c 'cd "$1" && exec "$2" usb-next..work-next' - \
			"$work/notify" "$bin/git-maint-notify"
		$gen cc $n >"$work/in"
		bounds_run "git mailinfo" $n sh -c 'exec git mailinfo "$1/msg" "$1/patch" <"$1/in"' - "$work"
	done
}

references () {
	for n in 10000 100000 1000000; do
		$gen references $n >"$work/in"
		bounds_run "mbox-split --list" $n "$bin/git-maint-mbox-split" --list "$work/in"
		bounds_run "git mailinfo" $n sh -c 'exec git mailinfo "$1/msg" "$1/patch" <"$1/in"' - "$work"
	done
}

range_diff () {
	# 1,000 a version is the most dry-apply compares (RANGE_DIFF_MAX_PAIRS)
	for n in 10 100 1000; do
		$gen rangediff $n >"$work/in"
		bounds_run "dry-apply --range-diff" $n "$bin/git-maint-dry-apply" --range-diff "$work/in"
		rm -rf "$work/rd"
		git init -q "$work/rd"
		$gen rangediff-repo $n | git -C "$work/rd" fast-import --quiet
		bounds_run "git range-diff" $n git -C "$work/rd" range-diff --no-color base..v1 base..v2
	done
}

test $# -gt 0 || set -- trailers replies cc references range-diff
echo "p0320: wall-clock s, CPU s, peak RSS; each run stopped after $limit s"
for kind; do
	echo "$kind:"
	case $kind in
	range-diff) range_diff ;;
	trailers|replies|cc|references) $kind ;;
	*) echo "p0320: no kind '$kind'" >&2; exit 1 ;;
	esac
done
