#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs the benchmarks: every t/perf/pNNNN-*.sh, or those named
# (`make bench BENCH="p0200 p0400"`, or `sh t/perf/run.sh p0200`).
#
# Each benchmark is a shell script that builds what it needs with
# t/perf/gen-repo.sh (cached under t/perf/out/), times our command and
# git's own tool in the same run, and prints its figures and ratios.
# Adding one: drop a t/perf/pNNNN-<name>.sh next to this file; it gets
# MAINT_BUILD_DIR in the environment and should exit non-zero when it
# cannot measure (a failed or wrong result), not when a goal is missed.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
export MAINT_BUILD_DIR

if [ $# -eq 0 ]; then
	set -- "$top"/t/perf/p[0-9]*.sh
else
	for name; do
		shift
		for f in "$top"/t/perf/"$name"*.sh; do
			[ -f "$f" ] || { echo "run.sh: no benchmark '$name'" >&2; exit 1; }
			set -- "$@" "$f"
		done
	done
fi

failed=
for script; do
	[ -f "$script" ] || continue
	echo "== ${script##*/}"
	sh "$script" || failed="$failed ${script##*/}"
	echo
done
if [ -n "$failed" ]; then
	echo "run.sh: failed:$failed" >&2
	exit 1
fi
