#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='the build and conventions every command shares'
. ./test-lib.sh

git -C "$MAINT_SRC_DIR" rev-parse --git-dir >/dev/null 2>&1 && test_set_prereq GITCHECKOUT

test_expect_success 'every config key is documented in git-maint(7)' '
	sed -n "s/^	{ \"\([a-z]*\)\", [01], \"\([a-z0-9-]*\)\".*/\1.\2/p" \
		"$MAINT_SRC_DIR/common/base/config.c" >keys &&
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

# Source files: what git tracks that is code (C, shell, python, awk, the
# Makefile, anything run through #!), not the fuzz inputs. The SPDX line
# is in the first three lines (after #! and zsh's #compdef/#description).
test_expect_success GITCHECKOUT 'every source file carries the SPDX line of COPYING (GPL-2.0-only)' '
	grep -q "Version 2, June 1991" "$MAINT_SRC_DIR/COPYING" &&
	git -C "$MAINT_SRC_DIR" ls-files -- ":!:t/fuzz/corpus/" ":!:t/fuzz/regressions/" >tracked &&
	while read f
	do
		case $f in
		*.c|*.h|*.sh|*.py|*.bash|*.zsh|*.awk|Makefile) ;;
		*) test "$(head -c2 "$MAINT_SRC_DIR/$f")" = "#!" || continue ;;
		esac &&
		echo "$f" || return 1
	done <tracked >sources &&
	test_line_count -gt 250 sources &&
	while read f
	do
		head -3 "$MAINT_SRC_DIR/$f" | grep -q "SPDX-License-Identifier: GPL-2.0-only" ||
		echo "$f"
	done <sources >lacking &&
	test_must_be_empty lacking
'

test_expect_success 'mbox-split and describe-contains load neither libgit2 nor libcurl nor libsecret' '
	for p in describe-contains mbox-split
	do
		ldd "$MAINT_BUILD_DIR/bin/git-maint-$p" >libs &&
		! grep -e libgit2 -e libcurl -e libsecret -e libglib libs || return 1
	done
'

# The programs that read patches check their signatures (attestation,
# common/mail/attest.h): libopendkim and the resolver come with the mail
# layer's readers; notify and publish link them through queue's engine,
# which they ask whether a queue is in progress.
test_expect_success 'each program links only the libraries of the layers it uses' '
	cat >expect <<-\EOF &&
	describe-contains:
	describe-contains--libgit2: libgit2
	dry-apply: libcrypto libgit2 libinih libopendkim libresolv libz
	mbox-split: libcrypto libinih libopendkim libresolv
	notify: libcrypto libcurl libgit2 libinih libopendkim libresolv libsecret-1 libz
	publish: libcrypto libgit2 libinih libopendkim libresolv libsecret-1 libz
	queue: libcrypto libgit2 libinih libopendkim libresolv libz
	source--fetch: libcrypto libcurl libinih libsecret-1 libz
	EOF
	for p in "$MAINT_BUILD_DIR"/bin/git-maint-*
	do
		printf "%s:" "${p##*/git-maint-}" &&
		readelf -d "$p" >dyn &&
		sed -n "s/.*(NEEDED).*\[\(lib[^.]*\)\..*/\1/p" dyn >needed &&
		grep -x -e libgit2 -e libcurl -e libsecret-1 -e libinih -e libcrypto -e libz \
			-e libopendkim -e libresolv needed |
		sort | sed "s/^/ /" | tr -d "\n" &&
		echo || return 1
	done >actual &&
	test_cmp expect actual
'

test_expect_success 'no layer of common/ calls a layer above it' '
	# each layer and those it may use, as the Makefile has them
	sed -n "s/^\([a-z]*\)_USES = *\(.*\)/\1 \2/p" "$MAINT_SRC_DIR/Makefile" >uses &&
	test_line_count = 6 uses &&
	while read layer used
	do
		nm -g --defined-only "$MAINT_BUILD_DIR/libmaint-$layer.a" >syms &&
		awk -v l=$layer "NF == 3 { print \$3, l }" syms || return 1
	done <uses | sort >defined &&
	while read layer used
	do
		nm -u "$MAINT_BUILD_DIR/libmaint-$layer.a" >syms &&
		awk "NF == 2 { print \$2 }" syms | sort -u >undefined &&
		join undefined defined >calls &&
		awk -v ok=" $layer $used " "index(ok, \" \" \$2 \" \") == 0" calls >up &&
		test_must_be_empty up || return 1
	done <uses
'

test_expect_success 'every command has its engine in common/engine/ and links it' '
	for c in "$MAINT_SRC_DIR"/cmd/*.c
	do
		name=${c##*/} && name=${name%.c} &&
		case $name in *--*) continue ;; esac &&
		test -f "$MAINT_SRC_DIR/common/engine/$name.h" &&
		test -f "$MAINT_SRC_DIR/common/engine/$name.c" &&
		grep -q "^$name"_LAYERS" = engine " "$MAINT_SRC_DIR/Makefile" || {
			echo "$name: no engine in common/engine/" &&
			return 1
		}
	done
'

test_expect_success 'the engine floor: every layer but engine is used by it, none uses it' '
	sed -n "s/^engine_USES = *//p" "$MAINT_SRC_DIR/Makefile" >engine-uses &&
	echo "describe repo net mail base" >expect &&
	test_cmp expect engine-uses &&
	! grep "^[a-z]*_USES = .*engine" "$MAINT_SRC_DIR/Makefile"
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

test_expect_success 'make uninstall removes every file make install put there' '
	maint_install "$PWD/inst-u" >out 2>&1 &&
	find inst-u ! -type d >installed &&
	test_line_count -gt 20 installed &&
	maint_make uninstall prefix="$PWD/inst-u" >out 2>&1 &&
	find inst-u ! -type d >left &&
	test_must_be_empty left &&
	test_path_is_missing inst-u/libexec/git-maint &&
	test_path_is_missing inst-u/share/git-maint
'

test_expect_success 'every compile of the build is given CPPFLAGS' '
	maint_make -n -B V=1 CPPFLAGS=-DMAINT_CPPFLAGS_GIVEN programs >commands &&
	grep " -c -o " commands >compiles &&
	test_line_count -gt 50 compiles &&
	! grep -v -e "-DMAINT_CPPFLAGS_GIVEN" compiles
'

test_expect_success 'every program prints the one version for --version, as git --version' '
	version=$(cat "$MAINT_SRC_DIR/VERSION") &&
	for p in "$MAINT_BUILD_DIR"/bin/git-maint-*
	do
		"$p" --version >out &&
		sed -n "s/^${p##*/} version $version\( (\([0-9a-f]\{7,\}\)\(-dirty\)\{0,1\})\)\{0,1\}\$/[\2]/p" out >commit &&
		test_line_count = 1 commit || { echo "${p##*/}: $(cat out)"; return 1; }
	done &&
	git maint-queue --version >out &&
	grep "^git-maint-queue version $version" out
'

test_expect_success GITCHECKOUT 'the version names the commit the programs were built from' '
	git-maint-queue --version >out &&
	commit=$(sed -n "s/.* (\([0-9a-f]*\).*)\$/\1/p" out) &&
	test -n "$commit" &&
	git -C "$MAINT_SRC_DIR" cat-file -e "$commit^{commit}"
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
