#!/bin/sh
test_description='the mail core under libFuzzer (bounded run)

Builds t/fuzz/fuzz-mailinfo.c with clang -fsanitize=fuzzer,address,undefined,
replays the saved regressions in t/fuzz/regressions/, then runs a short
fuzzing session seeded with generated mails. The target aborts when the
fast path, the select_scan() of mbox-split and the full parse disagree, or
invalid UTF-8 comes out.'
. ./test-lib.sh

src=$MAINT_SRC_DIR

printf "#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n" >probe.c &&
clang -fsanitize=fuzzer probe.c -o probe 2>/dev/null &&
test_set_prereq LIBFUZZER

# Building the target costs ~10 s of CPU, most of this script. The build
# is kept in the build directory under a key of everything it is made
# from (this script, which holds the command line; clang's and the
# libraries' versions and flags; the target and every file under common/)
# and made again when any of them changes.
fuzz_key () {
	{
		cat "$MAINT_TEST_DIR/$this_test.$SHARNESS_TEST_EXTENSION" \
			"$src/t/fuzz/fuzz-mailinfo.c" &&
		clang --version &&
		pkg-config --modversion libgit2 inih &&
		pkg-config --cflags libgit2 &&
		pkg-config --cflags --libs inih &&
		find "$src/common" -type f -name "*.[ch]" | LC_ALL=C sort | xargs cat
	} | sha1sum | cut -d" " -f1
}

test_expect_success LIBFUZZER 'build the fuzz target' '
	kept="$MAINT_BUILD_DIR/t/fuzz/fuzz-mailinfo-$(fuzz_key)" &&
	if ! test -x "$kept"
	then
		clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -I"$src/common" \
			"$src/t/fuzz/fuzz-mailinfo.c" \
			"$src/common/source.c" "$src/common/mail.c" "$src/common/mailinfo.c" \
			"$src/common/select-scan.c" \
			"$src/common/strbuf.c" "$src/common/strvec.c" "$src/common/wrapper.c" \
			"$src/common/usage.c" "$src/common/utf8.c" "$src/common/config.c" \
			$(pkg-config --cflags libgit2) $(pkg-config --cflags --libs inih) \
			-o fuzz-mailinfo &&
		mkdir -p "$MAINT_BUILD_DIR/t/fuzz" &&
		rm -f "$MAINT_BUILD_DIR"/t/fuzz/fuzz-mailinfo-* &&
		cp fuzz-mailinfo "$kept.$$" &&
		mv "$kept.$$" "$kept"
	fi &&
	cp "$kept" fuzz-mailinfo
'

test_expect_success LIBFUZZER 'the saved regressions pass' '
	{
		./fuzz-mailinfo "$src"/t/fuzz/regressions/* >log 2>&1 ||
		{ tail -40 log; false; }
	}
'

test_expect_success LIBFUZZER 'a short fuzzing session finds nothing' '
	mkdir corpus &&
	sep="From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001" &&
	printf "\000%s\nFrom: =?UTF-8?q?J=C3=B6rg?= <j@x.org>\nSubject: [PATCH v2 1/2] a\n\nm\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n" "$sep" >corpus/plain &&
	printf "\001%s\nFrom: A <a@x.org>\nSubject: b\nContent-Type: multipart/mixed; boundary=B\n\n--B\nContent-Transfer-Encoding: base64\n\nbQotLS0KZGlmZiAtLWdpdCBhL2YgYi9mCg==\n--B--\n" "$sep" >corpus/mime &&
	printf "\020%s\nFrom: A <a@x.org>\nSubject: c\nContent-Transfer-Encoding: quoted-printable\n\nx=3D\n-- >8 --\nFrom: B <b@x.org>\n\n---\n--- a/g\n+++ b/g\n" "$sep" >corpus/qp &&
	{
		./fuzz-mailinfo -runs=3000 -max_len=4096 -seed=1 corpus >log 2>&1 ||
		{ tail -40 log; false; }
	}
'

test_done
