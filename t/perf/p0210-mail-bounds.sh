#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0210: what one hostile mail costs the mail parser, at 1x, 10x and 100x
# (the 100x is the size in git-maint(7), LIMITS, Mail), ours and git
# mailinfo on the same message in the same run:
#
#   parser   mailinfo_parse(), what dry-apply and queue run on each
#            message (t/helper/test-mailinfo --list: the whole parse,
#            one line out)
#   scan     mbox-split's selection (headers and the diff's paths only):
#            git maint-mbox-split --list
#   git      git mailinfo <msg> <patch>
#
# Shapes (t/perf/gen-mail-bounds.py; Cc and References from
# gen-review.py, the diff of n files from gen-hostile.py):
#
#   message     a patch adding one file, 1 / 10 / 100 MB of mail
#   base64      a base64 body decoding to one line of 1 / 10 / 100 MB
#   qp          the same line in quoted-printable
#   comments    10 / 100 / 1,024 KiB of nested comments in From
#   headers     1,000 / 10,000 / 100,000 headers
#   folded      a Subject folded over 10 / 100 / 1,000 KB
#   cc          1,000 / 10,000 / 100,000 addresses in Cc
#   references  1,000 / 10,000 / 100,000 message ids in References
#   mime        1,000 / 10,000 / 100,000 MIME parts
#   files       a diff of 1,000 / 10,000 / 100,000 new files
#   commands    whole commands on the 100 MB message and on a patch adding
#               one 100 MB line, in base64: dry-apply, queue and git am,
#               each from the same empty-tree commit (not in the default)
#
#   sh t/perf/p0210-mail-bounds.sh [<shape>...]     (default: all)
#
# Figures per run as t/perf/lib-bounds.sh prints them; a run is stopped
# after P0210_LIMIT seconds (default 60): git mailinfo is quadratic in a
# long encoded line, hours at 100 MB.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
limit=${P0210_LIMIT:-60}
work=$top/t/perf/out/p0210
perf=$top/t/perf
bin=$MAINT_BUILD_DIR/bin

. "$perf/lib-bounds.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME="$work" LC_ALL=C.UTF-8 TZ=UTC
git config --global user.name "Greg Kroah-Hartman"
git config --global user.email gregkh@linuxfoundation.org

# generate <shape> <n>: the message, in $work/in
generate () {
	case $1 in
	cc|references) python3 "$perf/gen-review.py" $1 $2 ;;
	files) python3 "$perf/gen-hostile.py" files $2 ;;
	*) python3 "$perf/gen-mail-bounds.py" $1 $2 ;;
	esac >"$work/in"
}

# measure <shape> <n> <label>: the three on $work/in
measure () {
	generate $1 $2
	rm -rf "$work/parsed"
	bounds_run "$3: parser" "$(wc -c <"$work/in")" \
		"$MAINT_BUILD_DIR/t/helper/test-mailinfo" --list "$work/parsed" "$work/in"
	bounds_run "$3: scan" "" "$bin/git-maint-mbox-split" --list "$work/in"
	bounds_run "$3: git mailinfo" "" \
		sh -c 'exec git mailinfo "$1/msg" "$1/patch" <"$1/in"' - "$work" || :
}

# commands: dry-apply, queue and git am on the 100x message and base64 patch
commands () {
	rm -rf "$work/repo"
	git init -q "$work/repo"
	git -C "$work/repo" commit -q --allow-empty -m base
	for shape in message base64-patch; do
		generate $shape 100
		bounds_run "$shape 100 MB: dry-apply" "" \
			sh -c 'cd "$1" && exec "$2" -q --onto master "$3"' - \
			"$work/repo" "$bin/git-maint-dry-apply" "$work/in" || :
		git -C "$work/repo" checkout -q -B queued master
		bounds_run "$shape 100 MB: queue" "" \
			sh -c 'cd "$1" && exec "$2" -q queued "$3"' - \
			"$work/repo" "$bin/git-maint-queue" "$work/in" || :
		git -C "$work/repo" checkout -q -f master
		git -C "$work/repo" checkout -q -B am master
		bounds_run "$shape 100 MB: git am" "" git -C "$work/repo" am -q "$work/in" || :
		git -C "$work/repo" am --abort 2>/dev/null || :
		git -C "$work/repo" checkout -q -f master
	done
}

test $# -gt 0 || set -- message base64 qp comments headers folded cc references mime files
echo "p0210: wall-clock s, CPU s, peak RSS; the parser's line gives the message's bytes;"
echo "each run stopped after $limit s"
for shape; do
	echo "$shape:"
	case $shape in
	commands) commands; continue ;;
	message|base64|qp) sizes="1 10 100" unit=MB ;;
	comments) sizes="10 100 1024" unit=KiB ;;
	folded) sizes="10 100 1000" unit=KB ;;
	headers|cc|references|mime|files) sizes="1000 10000 100000" unit= ;;
	*) echo "p0210: no shape '$shape'" >&2; exit 1 ;;
	esac
	for n in $sizes; do
		measure $shape $n "$n${unit:+ $unit}"
	done
done
