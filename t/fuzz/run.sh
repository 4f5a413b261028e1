#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs one libFuzzer target built by `make fuzz-build`:
#
#   sh t/fuzz/run.sh <fuzz build dir> <name> [<libFuzzer options>...]
#
# Fuzzes from the seeds of t/fuzz/corpus/<name>/ and the inputs of
# t/fuzz/regressions/<name>/ (each a crash once found, now fixed; all
# under -max_len) into the work corpus <dir>/corpus/<name>/ (new inputs
# land there, never in the source tree) with the options given (e.g.
# -runs=20000 -seed=1, or -max_total_time=600). libFuzzer runs every
# input of those directories once before it mutates any, in the same
# process (a process of its own for the regressions cost the suite a
# sanitized start-up per target); -runs counts those runs too. An input that
# crashes is kept as <dir>/crashes/<name>/crash-<sha1>; the exit code is
# then non-zero. FUZZ_WORK=<dir> puts corpus/ and crashes/ there instead
# (the tests use their trash directory). The target's own messages (error() on bad input, every
# input) are hidden; libFuzzer's and the sanitizers' are not.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$1/fuzz-$2 name=$2
dir=${FUZZ_WORK:-$1}
shift 2
[ -x "$bin" ] || { echo "run.sh: no fuzz target $bin (make fuzz-build)" >&2; exit 1; }
regr=$top/t/fuzz/regressions/$name
seeds=$top/t/fuzz/corpus/$name
mkdir -p "$dir/corpus/$name" "$dir/crashes/$name"
[ -d "$regr" ] || regr=
exec "$bin" -close_fd_mask=2 -artifact_prefix="$dir/crashes/$name/" \
	-max_len=8192 -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
	"$@" "$dir/corpus/$name" "$seeds" ${regr:+"$regr"}
