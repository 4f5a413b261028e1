#!/bin/sh
test_description='the build and conventions every command shares'
. ./test-lib.sh

test_expect_success 'every config key is documented in git-maint(7)' '
	sed -n "s/^	{ \"\([a-z]*\)\", [01], \"\([a-z0-9-]*\)\".*/\1.\2/p" \
		"$MAINT_SRC_DIR/common/config.c" >keys &&
	test_line_count -gt 20 keys &&
	while read key
	do
		section=${key%%.*} name=${key#*.} &&
		{
			grep -q "^$section\.$name::" "$MAINT_SRC_DIR/Documentation/git-maint.adoc" ||
			grep -q "^$section\.<name>\.$name::" "$MAINT_SRC_DIR/Documentation/git-maint.adoc" ||
			{ echo "undocumented: $key"; false; }
		} || return 1
	done <keys
'

test_expect_success 'the man pages are built' '
	test -s "$MAINT_BUILD_DIR/man/man7/git-maint.7"
'

test_expect_success 'make install puts programs and man pages under prefix' '
	make -s -C "$MAINT_SRC_DIR" install prefix="$PWD/inst" >out 2>&1 &&
	test -f inst/share/man/man7/git-maint.7 &&
	for p in "$MAINT_BUILD_DIR"/bin/git-maint-*
	do
		test -e "$p" || continue
		test -x "inst/bin/${p##*/}" || return 1
	done
'

test_done
