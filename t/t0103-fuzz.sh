#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='the parsers and engines under libFuzzer (bounded runs)

Each target of t/fuzz/ (built by make check or make fuzz-build with
clang -fsanitize=fuzzer,address,undefined under .build/fuzz/) replays
its saved regressions (t/fuzz/regressions/<target>/: inputs that once
crashed it) and runs a short session from its seed corpus with a fixed
seed, through t/fuzz/run.sh. A target aborts on any sanitizer report and
on a broken invariant of its parser (see the comment at the top of each
t/fuzz/fuzz-<target>.c): fuzz-mailinfo, for instance, when the fast
path, the select_scan() of mbox-split and the full parse disagree, or
invalid UTF-8 comes out. Long campaigns: make fuzz FUZZ_TIME=<seconds>.'
. ./test-lib.sh

: "${MAINT_FUZZ_DIR:=$MAINT_SRC_DIR/.build/fuzz}"

for target in $(cd "$MAINT_SRC_DIR/t/fuzz" && ls fuzz-*.c | sed 's/^fuzz-\(.*\)\.c$/\1/')
do
	if test -x "$MAINT_FUZZ_DIR/fuzz-$target"
	then
		test_set_prereq "FUZZ_$target"
	fi

	# !SANITIZE: the targets are always built with ASan and UBSan; the
	# sanitizer pass of the suite (.ci/run) would run the same binaries again.
	# The session: the seeds and the regressions (one run each), then 500
	# inputs of its own.
	test_expect_success "FUZZ_$target,!SANITIZE" "fuzz-$target: the regressions pass, a short session finds nothing" '
		seeds=$(ls "$MAINT_SRC_DIR/t/fuzz/corpus/'"$target"'" "$MAINT_SRC_DIR/t/fuzz/regressions/'"$target"'" 2>/dev/null | grep -c -v -e "^/" -e "^\$" || :) &&
		{
			FUZZ_WORK="$PWD/work" sh "$MAINT_SRC_DIR/t/fuzz/run.sh" "$MAINT_FUZZ_DIR" '"$target"' \
				-runs=$((seeds + 500)) -seed=1 >log 2>&1 ||
			{ tail -n 40 log; false; }
		}
	'
done

test_done
