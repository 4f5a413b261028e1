#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0200: git maint-mbox-split against git mailsplit on the ~20,000-message
# mailbox of t/perf/gen-repo.sh --size=full, in the same run:
#
#   select   git maint-mbox-split --touches drivers/usb mbox >/dev/null
#            (and the mailbox on a pipe: cat mbox | ... --touches ...)
#   split    git maint-mbox-split --all-versions --input-order -o <dir> mbox
#   vs       git mailsplit -o<dir> mbox, <dir> in tmpfs (/dev/shm) and on disk,
#            and cat mbox >/dev/null (reading the file at all)
#
# The mailbox looks like a real list (t/perf/gen-corpus.py): message sizes
# like git.git's history as format-patch output (median ~2.9 KB, mean
# ~11.5 KB, 1 in 100 above 290 KB, the largest ~1.8 MB), threaded series
# with git- and b4-style cover letters (interdiffs, range-diffs, "---"
# diffstats), series sent without threading, replies quoting the patch
# or carrying a diff, duplicates, earlier versions and partial rerolls.
#
# Each timing is the best of $P0200_RUNS rounds (default 5; each round runs
# every case once, so drift in the machine hits all alike), with the worst
# round next to it (the spread: the machine is shared), wall clock and
# CPU (user + system, steadier on a shared machine), output directories
# emptied (and, on disk, synced) between runs outside the timing. Peak memory
# is GNU time's %M (KiB, resident: it includes the input buffer)
# for a file argument and for the mailbox on a pipe, next to the largest
# message. Goals: select >= 3x faster than mailsplit into tmpfs and within
# 10x of cat; split no slower than mailsplit to the same kind of
# directory; memory the index plus at most two messages (under 64 MiB).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
split=$MAINT_BUILD_DIR/bin/git-maint-mbox-split
runs=${P0200_RUNS:-5}
corpus=$(sh "$top/t/perf/gen-repo.sh" --size=full)
mbox=$corpus/mbox
work=$top/t/perf/out/p0200
shm=/dev/shm/git-maint-p0200-$$
rm -rf "$work" "$shm"
mkdir -p "$work" "$shm"
trap 'rm -rf "$shm"' EXIT
export LC_ALL=C TZ=UTC GIT_CONFIG_NOSYSTEM=1 HOME="$work"

now () { date +%s%N; }

# once <name> <setup> <command>: one timed run; keeps the best wall-clock
# time in $<name>, the worst in $<name>_max and the best CPU time (user +
# system) in $<name>_cpu, in ms. The cases run in rounds, each case once
# per round, so that a change in the machine (other work, the disk's
# writeback and discards) falls on ours and git's alike. CPU time is the steadier figure on a shared machine.
once () {
	eval "$2"
	t0=$(now)
	eval "/usr/bin/time -f '%U %S' -o '$work/cpu' $3" || { echo "p0200: '$3' failed" >&2; exit 1; }
	t1=$(now)
	ms=$(( (t1 - t0) / 1000000 ))
	cpu=$(tail -n 1 "$work/cpu" | awk '{ printf "%d", ($1 + $2) * 1000 }')
	eval "b=\${$1:-} c=\${${1}_cpu:-} w=\${${1}_max:-}"
	if [ -z "$b" ] || [ "$ms" -lt "$b" ]; then b=$ms; fi
	if [ -z "$w" ] || [ "$ms" -gt "$w" ]; then w=$ms; fi
	if [ -z "$c" ] || [ "$cpu" -lt "$c" ]; then c=$cpu; fi
	eval "$1=$b ${1}_cpu=$c ${1}_max=$w"
}

ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }

nmsg=$(sed -n 's/^messages=//p' "$corpus/stats")
largest=$(sed -n 's/^largest_message=//p' "$corpus/stats")
size=$(wc -c <"$mbox")
echo "mailbox: $nmsg messages, $((size / 1024)) KiB, largest message $((largest / 1024)) KiB," \
	"median $(sed -n 's/^median_message=//p' "$corpus/stats") B," \
	"mean $(sed -n 's/^mean_message=//p' "$corpus/stats") B," \
	"$(sed -n 's/^above_290k_per_1000=//p' "$corpus/stats") per 1000 above 290 KB"

# correctness first: the same files as git mailsplit, the selection a valid mbox
"$split" -q --all-versions --input-order -o "$work/ours" "$mbox"
mkdir "$work/theirs"
git mailsplit -o"$work/theirs" "$mbox" >/dev/null
diff -r "$work/theirs" "$work/ours" >/dev/null || { echo "p0200: -o differs from git mailsplit" >&2; exit 1; }
"$split" --touches drivers/usb "$mbox" >"$work/usb.mbox" 2>"$work/usb.err"
nsel=$(grep -c '^From ' "$work/usb.mbox" || :)
echo "selected by --touches drivers/usb: about $nsel messages;" \
	"$(grep -c . "$work/usb.err" || :) warning lines (incomplete series)"
cat "$mbox" | "$split" --touches drivers/usb >"$work/usb-pipe.mbox" 2>/dev/null
cmp -s "$work/usb.mbox" "$work/usb-pipe.mbox" || { echo "p0200: a pipe selects differently" >&2; exit 1; }
rm -rf "$work/ours" "$work/theirs"
: >"$work/empty"

sel= sel_pipe= cat= ms_shm= ms_disk= o_shm= o_disk= sel_o_shm= empty=
round=0
while [ $round -lt "$runs" ]; do
	once sel ':' '"$split" --touches drivers/usb "$mbox" >/dev/null'
	once cat ':' 'cat "$mbox" >/dev/null'
	once sel_pipe ':' 'sh -c "cat \"\$0\" | \"\$1\" -q --touches drivers/usb >/dev/null" "$mbox" "$split"'
	once ms_shm 'rm -rf "$shm/d"; mkdir "$shm/d"' 'git mailsplit -o"$shm/d" "$mbox" >/dev/null'
	once ms_disk 'rm -rf "$work/d"; mkdir "$work/d"; sync' 'git mailsplit -o"$work/d" "$mbox" >/dev/null'
	once o_shm 'rm -rf "$shm/d"' '"$split" -q --all-versions --input-order -o "$shm/d" "$mbox"'
	once o_disk 'rm -rf "$work/d"; sync' '"$split" -q --all-versions --input-order -o "$work/d" "$mbox"'
	once sel_o_shm 'rm -rf "$shm/d"' '"$split" -q --touches drivers/usb -o "$shm/d" "$mbox"'
	once empty ':' '"$split" -q "$work/empty" >/dev/null || :'
	round=$((round + 1))
done
rm -rf "$work/d" "$shm/d"

/usr/bin/time -f %M -o "$work/mem-file" "$split" --touches drivers/usb "$mbox" >/dev/null
cat "$mbox" | /usr/bin/time -f %M -o "$work/mem-pipe" "$split" --touches drivers/usb >/dev/null
/usr/bin/time -f %M -o "$work/mem-ms" git mailsplit -o"$shm" "$mbox" >/dev/null
/usr/bin/time -f %M -o "$work/mem-empty" "$split" -q "$work/empty" >/dev/null || :
mem_file=$(cat "$work/mem-file") mem_pipe=$(cat "$work/mem-pipe") mem_ms=$(cat "$work/mem-ms")
mem_empty=$(tail -n 1 "$work/mem-empty")

row () { printf '%-58s %8d %8d %8d\n' "$1" "$2" "$3" "$4"; }
printf '%-58s %8s %8s %8s\n' "$runs rounds, in ms" "wall" "worst" "cpu"
row "mbox-split --touches drivers/usb mbox >/dev/null" "$sel" "$sel_max" "$sel_cpu"
row "cat mbox | mbox-split --touches drivers/usb >/dev/null" "$sel_pipe" "$sel_pipe_max" "$sel_pipe_cpu"
row "cat mbox >/dev/null" "$cat" "$cat_max" "$cat_cpu"
row "git mailsplit -o<tmpfs> mbox" "$ms_shm" "$ms_shm_max" "$ms_shm_cpu"
row "git mailsplit -o<disk> mbox" "$ms_disk" "$ms_disk_max" "$ms_disk_cpu"
row "mbox-split --all-versions --input-order -o<tmpfs> mbox" "$o_shm" "$o_shm_max" "$o_shm_cpu"
row "mbox-split --all-versions --input-order -o<disk> mbox" "$o_disk" "$o_disk_max" "$o_disk_cpu"
row "mbox-split --touches drivers/usb -o<tmpfs> mbox" "$sel_o_shm" "$sel_o_shm_max" "$sel_o_shm_cpu"
row "mbox-split on an empty file (start-up)" "$empty" "$empty_max" "$empty_cpu"
echo
echo "ratios (wall; cpu):"
echo "select to stdout vs mailsplit to tmpfs:  $(ratio "$ms_shm" "$sel")x; $(ratio "$ms_shm_cpu" "$sel_cpu")x faster (goal >= 3)"
echo "select to stdout vs mailsplit to disk:   $(ratio "$ms_disk" "$sel")x; $(ratio "$ms_disk_cpu" "$sel_cpu")x faster"
echo "select to stdout vs cat:                 $(ratio "$sel" "$cat")x; $(ratio "$sel_cpu" "$cat_cpu")x slower (goal <= 10)"
echo "select from a pipe vs mailsplit to tmpfs: $(ratio "$ms_shm" "$sel_pipe")x faster"
echo "split all, tmpfs: mailsplit/mbox-split = $(ratio "$ms_shm" "$o_shm"); $(ratio "$ms_shm_cpu" "$o_shm_cpu") (goal >= 1)"
echo "split all, disk:  mailsplit/mbox-split = $(ratio "$ms_disk" "$o_disk"); $(ratio "$ms_disk_cpu" "$o_disk_cpu") (goal >= 1)"
echo "peak memory (KiB): mbox-split file $mem_file, pipe $mem_pipe; git mailsplit $mem_ms;" \
	"largest message $((largest / 1024)), mailbox $((size / 1024))"
echo "peak memory above start-up ($mem_empty KiB): file $((mem_file - mem_empty)), pipe $((mem_pipe - mem_empty)) KiB" \
	"= the index of $nmsg messages ($(( (mem_pipe - mem_empty) * 1024 / nmsg )) bytes each) + at most 2 messages" \
	"(goal: under 65536 KiB)"
