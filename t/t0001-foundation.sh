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

test_expect_success 'libcurl and libsecret are loaded only by the programs that need them' '
	for p in describe-contains mbox-split dry-apply queue
	do
		ldd "$MAINT_BUILD_DIR/bin/git-maint-$p" >libs &&
		! grep -e libcurl -e libsecret -e libglib libs || return 1
	done &&
	ldd "$MAINT_BUILD_DIR/bin/git-maint-notify" >libs &&
	grep libcurl libs &&
	grep libsecret libs &&
	ldd "$MAINT_BUILD_DIR/bin/git-maint-publish" >libs &&
	grep libsecret libs
'

test_expect_success 'the man pages are built' '
	test -s "$MAINT_BUILD_DIR/man/man7/git-maint.7"
'

test_expect_success 'make install puts programs and man pages under prefix' '
	maint_install "$PWD/inst" >out 2>&1 &&
	test -f inst/share/man/man7/git-maint.7 &&
	for p in "$MAINT_BUILD_DIR"/bin/git-maint-*
	do
		test -e "$p" || continue
		case "${p##*/}" in
		*--*) test -x "inst/libexec/git-maint/${p##*/}" &&
			test_path_is_missing "inst/bin/${p##*/}" || return 1 ;;
		*) test -x "inst/bin/${p##*/}" || return 1 ;;
		esac
	done
'

test_expect_success 'an installed describe-contains finds its libgit2 part out of PATH' '
	git init -q inst-repo &&
	git -C inst-repo commit -q --allow-empty -m one &&
	git -C inst-repo tag v1 &&
	git -C inst-repo commit -q --allow-empty -m two &&
	# HEAD~1 needs revision syntax: answered by the libgit2 part
	(cd inst-repo && PATH="$PWD/../inst/bin:/usr/bin:/bin" &&
	 git maint-describe-contains HEAD~1 >../actual) &&
	git -C inst-repo describe --contains HEAD~1 >expect &&
	test_cmp expect actual
'

test_done
