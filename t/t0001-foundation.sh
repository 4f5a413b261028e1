#!/bin/sh
test_description='the build and conventions every command shares'
. ./test-lib.sh

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

test_expect_success 'mbox-split and describe-contains load neither libgit2 nor libcurl nor libsecret' '
	for p in describe-contains mbox-split
	do
		ldd "$MAINT_BUILD_DIR/bin/git-maint-$p" >libs &&
		! grep -e libgit2 -e libcurl -e libsecret -e libglib libs || return 1
	done
'

test_expect_success 'each program links only the libraries of the layers it uses' '
	cat >expect <<-\EOF &&
	describe-contains:
	describe-contains--libgit2: libgit2
	dry-apply: libcrypto libgit2 libinih libz
	mbox-split: libcrypto libinih
	notify: libcrypto libcurl libgit2 libinih libsecret-1 libz
	publish: libcrypto libgit2 libinih libsecret-1 libz
	queue: libcrypto libgit2 libinih libz
	source--fetch: libcrypto libcurl libinih libsecret-1 libz
	EOF
	for p in "$MAINT_BUILD_DIR"/bin/git-maint-*
	do
		printf "%s:" "${p##*/git-maint-}" &&
		readelf -d "$p" >dyn &&
		sed -n "s/.*(NEEDED).*\[\(lib[^.]*\)\..*/\1/p" dyn >needed &&
		grep -x -e libgit2 -e libcurl -e libsecret-1 -e libinih -e libcrypto -e libz needed |
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

test_expect_success 'results are a type: what decides ok / no / try later returns enum maint_result' '
	# a function returning RESULT_NO or RESULT_TEMPFAIL is declared so, never "int"
	for f in "$MAINT_SRC_DIR"/common/*/*.c "$MAINT_SRC_DIR"/cmd/*.c
	do
		awk -v f="${f#$MAINT_SRC_DIR/}" "
			/^(static )?int [a-z_0-9]+\\(/ { fn = \$0; sub(/\\(.*/, \"\", fn); sub(/.* /, \"\", fn) }
			/^}/ { fn = \"\" }
			fn != \"\" && /(return |[^=!<>]= )RESULT_(NO|TEMPFAIL)/ { print f \": \" fn; fn = \"\" }
		" "$f" || return 1
	done >untyped &&
	test_must_be_empty untyped
'

test_expect_success 'results become exit codes, and child exit codes results, in one place each' '
	# usage.c maps both ways; nothing else names exit 75 or reads a child git-maint exit code
	(cd "$MAINT_SRC_DIR" && grep -rn -e "EXIT_TEMPFAIL" -e "== 75" cmd common) >mapped &&
	{ grep -v "^common/base/usage\.[ch]:" mapped >by-hand || :; } &&
	test_must_be_empty by-hand &&
	(cd "$MAINT_SRC_DIR" && grep -rn "WEXITSTATUS" cmd common) >children &&
	# the primitives that return a program'"'"'s own exit code, and sendmail'"'"'s sysexits
	{ grep -v -e "^common/base/run-command\.c:" -e "^common/base/hook\.c:" \
		-e "^common/net/mailer\.c:" -e "result_from_exit_code(WEXITSTATUS" children >by-hand || :; } &&
	test_must_be_empty by-hand
'

test_expect_success 'engines report through the message path: no printf to stdout' '
	# say() for running commentary, the command'"'"'s own output through its buffer
	(cd "$MAINT_SRC_DIR" &&
	 { grep -rn -e "[^a-z_]printf(" -e "[^a-z_]puts(" -e "putchar(" -e "fprintf(stdout" \
		common/engine || :; }) >raw &&
	test_must_be_empty raw
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
