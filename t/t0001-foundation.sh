#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='the build and conventions every command shares'
. ./test-lib.sh

git -C "$MAINT_SRC_DIR" rev-parse --git-dir >/dev/null 2>&1 && test_set_prereq GITCHECKOUT

test_expect_success 'every config key is documented in git-maint(7)' '
	sed -n "s/^	{ \"\([a-z]*\)\", [01], \"\([a-z0-9-]*\)\".*/\1.\2/p" \
		"$MAINT_SRC_DIR/common/base/config.c" >keys &&
	test_line_count -gt 20 keys &&
	# one awk for every key: the entries "<key>::" of the page, then
	# each key as <section>.<name>:: or <section>.<name>.<key name>::
	awk "
		FILENAME == ARGV[1] { if ((i = index(\$0, \"::\")) > 1) entry[substr(\$0, 1, i - 1)] = 1; next }
		{
			dot = index(\$0, \".\")
			if (!(\$0 in entry) && !(substr(\$0, 1, dot) \"<name>\" substr(\$0, dot) in entry))
				print \"undocumented: \" \$0
		}
	" "$MAINT_SRC_DIR/Documentation/git-maint.adoc" keys >undocumented &&
	test_must_be_empty undocumented
'

# Source files: what git tracks that is code (C, shell, python, awk, the
# Makefile, anything run through #!), not the fuzz inputs. The SPDX line
# is in the first three lines (after #! and zsh's #compdef/#description).
test_expect_success GITCHECKOUT 'every source file carries the SPDX line of COPYING (GPL-2.0-only)' '
	grep -q "Version 2, June 1991" "$MAINT_SRC_DIR/COPYING" &&
	git -C "$MAINT_SRC_DIR" ls-files -- ":!:t/fuzz/corpus/" ":!:t/fuzz/regressions/" >tracked &&
	# one awk reads the first lines of every file (a process or two a
	# file were some 800 processes)
	awk -v src="$MAINT_SRC_DIR/" "
		/[.](c|h|sh|py|bash|zsh|awk)\$/ || \$0 == \"Makefile\" { print; next }
		(getline first <(src \$0)) > 0 && substr(first, 1, 2) == \"#!\" { print }
		{ close(src \$0) }
	" tracked >sources &&
	test_line_count -gt 250 sources &&
	awk -v src="$MAINT_SRC_DIR/" "{
		found = 0
		for (i = 0; i < 3 && (getline line <(src \$0)) > 0; i++)
			if (line ~ /SPDX-License-Identifier: GPL-2.0-only/)
				found = 1
		close(src \$0)
		if (!found) print
	}" sources >lacking &&
	test_must_be_empty lacking
'

# What the code cites is in the repository: the data flow and the
# reliability cases of Documentation/technical/, each case by a number
# that reliability.txt has; never a document the clone does not hold.
test_expect_success GITCHECKOUT 'every design note the code cites is in Documentation/technical/' '
	{ git -C "$MAINT_SRC_DIR" grep -n -e "RELIABILIT[Y]" -e "DESIGN[.]md" || :; } >absent &&
	test_must_be_empty absent &&
	sed -n "s/^\([0-9][0-9]*\)\. .*/\1/p" "$MAINT_SRC_DIR/Documentation/technical/reliability.txt" |
	sort -u >cases &&
	test_line_count -gt 50 cases &&
	git -C "$MAINT_SRC_DIR" grep -h -o -i -E "reliability cases? [0-9]+((-|, | and )[0-9]+)*" >cited &&
	test_line_count -gt 20 cited &&
	tr -c "0-9\n" " " <cited | tr " " "\n" | sed "/^$/d" | sort -u >numbers &&
	comm -23 numbers cases >unknown &&
	test_must_be_empty unknown
'

test_expect_success 'mbox-split and describe-contains load neither libgit2 nor libcurl nor libsecret' '
	for p in describe-contains mbox-split
	do
		ldd "$MAINT_BUILD_DIR/bin/git-maint-$p" >libs &&
		! grep -e libgit2 -e libcurl -e libsecret -e libglib libs || return 1
	done
'

# The programs that read patches check their signatures (attestation,
# common/mail/attest.h). libcurl, libsecret, libopendkim with the
# resolver, and OpenSSL's libcrypto are linked by none: the code that uses
# them loads them when it first does (the next tests).
test_expect_success 'each program links only the libraries of the layers it uses' '
	cat >expect <<-\EOF &&
	describe-contains:
	describe-contains--libgit2: libgit2
	dry-apply: libgit2 libinih libz
	mbox-split: libinih
	notify: libgit2 libinih libz
	publish: libgit2 libinih libz
	queue: libgit2 libinih libz
	request-pull: libgit2 libinih libz
	source--fetch: libinih libz
	EOF
	# one readelf for every program ("File: <program>", then its
	# section); of its NEEDED libraries, those named here, sorted
	readelf -d "$MAINT_BUILD_DIR"/bin/git-maint-* >dyn &&
	cat >needed.awk <<-\EOF &&
	function done_() {
		if (name == "") return
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && lib[j - 1] > lib[j]; j--) {
				t = lib[j]; lib[j] = lib[j - 1]; lib[j - 1] = t
			}
		line = name ":"
		for (i = 1; i <= n; i++) line = line " " lib[i]
		print line
	}
	/^File: / { done_(); name = $2; sub(/.*\/git-maint-/, "", name); n = 0; next }
	/\(NEEDED\)/ {
		l = $0; sub(/.*\[/, "", l); sub(/\..*/, "", l)
		if (l ~ /^(libgit2|libcurl|libsecret-1|libinih|libcrypto|libz|libopendkim|libresolv)$/)
			lib[++n] = l
	}
	END { done_() }
	EOF
	awk -f needed.awk dyn >actual &&
	test_cmp expect actual
'

# common/base/dynlib.h: libcurl (curl-lib.c) and libsecret with GLib
# (secret.c) are taken with dlopen() when a mail is sent, an archive or
# IMAP folder read, a password looked up, libopendkim and the resolver
# (attest-dkim.c) when a DKIM signature is checked, libcrypto
# (attest-patatt.c) when a developer signature is; a run that does none of
# that (-h, a dry run, unsigned mail) never maps them nor the ~30
# libraries under them. The signatures are malformed, so that no key is
# asked for (from DNS).
test_expect_success 'setup: a mail with a DKIM signature, one with a developer signature, one with none' '
	cat >plain.mbox <<-\EOF &&
	From 1 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.org>
	Subject: [PATCH] one
	Message-ID: <1@example.org>

	body
	EOF
	{
		sed -n "1,/^Message-ID/p" plain.mbox &&
		echo "DKIM-Signature: not a signature" &&
		sed "1,/^Message-ID/d" plain.mbox
	} >signed.mbox &&
	grep "^DKIM-Signature: " signed.mbox &&
	sed "s/^DKIM-Signature: .*/X-Developer-Signature: not a signature/" signed.mbox >dev-signed.mbox &&
	grep "^X-Developer-Signature: " dev-signed.mbox
'

test_expect_success 'libcurl, libsecret, libopendkim, libcrypto are loaded when used, linked by nothing' '
	# (one readelf for every program: "File: <program>", then its section)
	readelf -d "$MAINT_BUILD_DIR"/bin/git-maint-* "$MAINT_BUILD_DIR"/t/helper/test-secret >dyn &&
	! grep -e libcurl -e libsecret -e libglib -e libgobject -e libopendkim -e libresolv \
		-e libcrypto dyn &&
	# (one nm: "<address> <type> <symbol>" defined, "<type> <symbol>" undefined)
	nm -g "$MAINT_BUILD_DIR"/libmaint-*.a >syms &&
	awk "NF == 3 { print \$3 }" syms | sort -u >ours &&
	awk "NF == 2 { print \$2 }" syms | sort -u >undefined &&
	comm -23 undefined ours >theirs &&
	grep -x -e malloc -e git_libgit2_init theirs &&
	! grep -E "^(curl|secret|g|dkim|ns|EVP)_" theirs &&
	for p in notify publish request-pull
	do
		test_expect_code 129 env LD_DEBUG=files "$MAINT_BUILD_DIR/bin/git-maint-$p" -h >out 2>debug &&
		grep "file=libc\.so" debug &&
		! grep -e "file=libcurl" -e "file=libsecret" -e "file=libglib" debug || return 1
	done &&
	env LD_DEBUG=files "$MAINT_BUILD_DIR/bin/git-maint-mbox-split" --list --format="%G? %s" \
		plain.mbox >out 2>debug &&
	echo "N [PATCH] one" >expect &&
	test_cmp expect out &&
	grep "file=libc\.so" debug &&
	! grep -e "file=libopendkim" -e "file=libresolv" -e "file=libcrypto" debug &&
	env LD_DEBUG=files "$MAINT_BUILD_DIR/bin/git-maint-mbox-split" --list --format="%G? %s" \
		signed.mbox >out 2>debug &&
	echo "B [PATCH] one" >expect &&
	test_cmp expect out &&
	grep "file=libopendkim\.so\.11" debug &&
	grep "file=libresolv\.so\.2" debug &&
	env LD_DEBUG=files "$MAINT_BUILD_DIR/bin/git-maint-mbox-split" --list --format="%G? %s" \
		dev-signed.mbox >out 2>debug &&
	echo "B [PATCH] one" >expect &&
	test_cmp expect out &&
	grep "file=libcrypto\.so\.3" debug &&
	! grep -e "file=libopendkim" debug
'

test_expect_success 'a library that cannot be loaded is an error naming it' '
	mkdir fakelib &&
	echo "not a library" >fakelib/libcurl.so.4 &&
	echo "not a library" >fakelib/libsecret-1.so.0 &&
	test_expect_code 128 env LD_LIBRARY_PATH="$PWD/fakelib" \
		"$MAINT_BUILD_DIR/bin/git-maint-source--fetch" --no-cache --output-fd=1 -- \
		https://127.0.0.1:1/x >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: cannot load libcurl.so.4, libcurl (SMTP, HTTP and IMAP): .*fakelib/libcurl.so.4" err &&
	test_expect_code 128 env LD_LIBRARY_PATH="$PWD/fakelib" \
		"$MAINT_BUILD_DIR/t/helper/test-secret" lookup smtp mail.example.com 0 >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: cannot load libsecret-1.so.0, libsecret (the Secret Service): .*fakelib/libsecret-1.so.0" err &&
	echo "not a library" >fakelib/libopendkim.so.11 &&
	test_expect_code 128 env LD_LIBRARY_PATH="$PWD/fakelib" \
		"$MAINT_BUILD_DIR/bin/git-maint-mbox-split" --list --format="%G? %s" signed.mbox >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: cannot load libopendkim.so.11, libopendkim (DKIM signatures): .*fakelib/libopendkim.so.11" err &&
	echo "not a library" >fakelib/libcrypto.so.3 &&
	test_expect_code 128 env LD_LIBRARY_PATH="$PWD/fakelib" \
		"$MAINT_BUILD_DIR/bin/git-maint-mbox-split" --list --format="%G? %s" dev-signed.mbox >out 2>err &&
	test_must_be_empty out &&
	grep "^fatal: cannot load libcrypto.so.3, OpenSSL.s libcrypto (ed25519 signatures): .*fakelib/libcrypto.so.3" err
'

test_expect_success 'no layer of common/ calls a layer above it' '
	# each layer and those it may use, as the Makefile has them
	sed -n "s/^\([a-z]*\)_USES = *\(.*\)/\1 \2/p" "$MAINT_SRC_DIR/Makefile" >uses &&
	test_line_count = 6 uses &&
	# one nm for every archive: "libmaint-<layer>.a:<member>:<address> <type>
	# <symbol>" for what it defines, no address for what it uses
	archives=$(sed "s/ .*//; s/.*/libmaint-&.a/" uses) &&
	(cd "$MAINT_BUILD_DIR" && nm -g -A $archives) >syms &&
	cat >layers.awk <<-\EOF &&
	FILENAME == "uses" { ok[$1] = " " $0 " "; next }
	{ l = $1; sub(/^libmaint-/, "", l); sub(/\.a:.*/, "", l) }
	$1 ~ /:$/ { used[l, $3] = 1; next }
	{ defined[$3] = defined[$3] " " l }
	END {
		for (k in used) {
			split(k, lu, SUBSEP)
			n = split(defined[lu[2]], by, " ")
			for (i = 1; i <= n; i++)
				if (index(ok[lu[1]], " " by[i] " ") == 0)
					print lu[1] " calls " lu[2] " of " by[i]
		}
	}
	EOF
	awk -f layers.awk uses syms >up &&
	test_must_be_empty up
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
	# (one awk for every file)
	(
		cd "$MAINT_SRC_DIR" &&
		awk "
			FNR == 1 { fn = \"\" }
			/^(static )?int [a-z_0-9]+\\(/ { fn = \$0; sub(/\\(.*/, \"\", fn); sub(/.* /, \"\", fn) }
			/^}/ { fn = \"\" }
			fn != \"\" && /(return |[^=!<>]= )RESULT_(NO|TEMPFAIL)/ { print FILENAME \": \" fn; fn = \"\" }
		" common/*/*.c cmd/*.c
	) >untyped &&
	test_must_be_empty untyped
'

# An engine answers with a result (enum maint_result) and its command
# maps it to the exit code (usage.h): no engine object refers to a
# function that ends the program (the libc's, ours, or the parser's).
test_expect_success 'engines never exit: their commands map the result to the exit code' '
	nm -u "$MAINT_BUILD_DIR/libmaint-engine.a" >syms &&
	awk "NF == 2 { print \$2 }" syms | sort -u >undefined &&
	{ grep -x -e exit -e _exit -e _Exit -e quick_exit -e die -e die_errno -e die_code \
		-e write_or_die -e repo_open_or_die -e usage_with_options -e usage_msg_opt \
		undefined >exits || :; } &&
	test_must_be_empty exits
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

test_expect_success 'one libgit2 set-up, one git config read, one repository discovery' '
	# git_libgit2_opts() in repo.c only
	(cd "$MAINT_SRC_DIR" && grep -rln --include="*.c" "git_libgit2_opts" cmd common) >opts &&
	echo common/repo/repo.c >expect &&
	test_cmp expect opts &&
	# git config through libgit2 in the loader only (and the one program without the loader)
	(cd "$MAINT_SRC_DIR" &&
	 grep -rln --include="*.c" -e "git_repository_config" -e "git_config_get_" -e "git_config_open" \
		cmd common) |
	sort >readers &&
	printf "%s\n" common/describe/commit-store-odb.c common/repo/config-git.c >expect &&
	test_cmp expect readers &&
	# a repository is opened where gitdir_discover() says, or where the
	# configuration names one (repo.c), or the open one again by its
	# path, for a second thread (prefetch.c)
	(cd "$MAINT_SRC_DIR" && grep -rln --include="*.c" "git_repository_open" cmd common) |
	sort >opens &&
	printf "%s\n" common/engine/prefetch.c common/repo/repo.c >expect &&
	test_cmp expect opens &&
	# refs are written by refstep.c only
	(cd "$MAINT_SRC_DIR" &&
	 grep -rln --include="*.c" -e "git_reference_create" -e "git_reference_set_target" \
		-e "git_reference_delete" \
		-e "git_remote_update_tips" -e "git_reference_symbolic_create" cmd common) >writers &&
	echo common/repo/refstep.c >expect &&
	test_cmp expect writers
'

test_expect_success 'engines report through the message path: no printf to stdout' '
	# say() for running commentary, the command'"'"'s own output through its buffer
	(cd "$MAINT_SRC_DIR" &&
	 { grep -rn -e "[^a-z_]printf(" -e "[^a-z_]puts(" -e "putchar(" -e "fprintf(stdout" \
		common/engine || :; }) >raw &&
	test_must_be_empty raw
'

# Where the repository is: every program asks gitdir_discover()
# (common/base/gitdir.h), libgit2 or not, so they all agree with git.
# sees_repo <found|none>: what each program says from the current directory.
sees_repo () {
	if test "$1" = found
	then
		test_expect_code 128 git maint-queue --show-current 2>err &&
		grep "^fatal: no queue in progress" err &&
		test_expect_code 1 git maint-dry-apply /dev/null 2>err &&
		grep "^error: no patches found" err &&
		git maint-notify "$DISCOVER_TIP~1..$DISCOVER_TIP" >/dev/null &&
		test_expect_code 128 git maint-publish --abort 2>err &&
		grep "^fatal: no publish in progress" err &&
		echo v1 >expect &&
		git maint-describe-contains "$DISCOVER_ONE" >actual &&
		test_cmp expect actual &&
		GIT_MAINT_TEST_DESCRIBE_PATH=libgit2 git maint-describe-contains "$DISCOVER_ONE" >actual &&
		test_cmp expect actual
	else
		for cmd in "maint-queue --show-current" "maint-dry-apply /dev/null" \
			"maint-notify $DISCOVER_TIP~1..$DISCOVER_TIP" "maint-publish --abort" \
			"maint-describe-contains $DISCOVER_ONE"
		do
			test_expect_code 128 git $cmd 2>err &&
			grep "^fatal: not a git repository" err || return 1
		done
	fi
}

test_expect_success 'setup: a repository to look for' '
	git init -q disc &&
	git -C disc commit -q --allow-empty -m one &&
	git -C disc tag v1 &&
	git -C disc commit -q --allow-empty -m two &&
	mkdir -p disc/sub/dir
'
DISCOVER_ONE=$(git -C disc rev-parse HEAD~1 2>/dev/null)
DISCOVER_TIP=$(git -C disc rev-parse HEAD 2>/dev/null)

test_expect_success 'every program finds the repository from a subdirectory, as git' '
	(cd disc/sub/dir && git rev-parse --git-dir && sees_repo found)
'

test_expect_success 'a ceiling between here and the repository: no program finds it, as git' '
	(
		cd disc/sub/dir &&
		GIT_CEILING_DIRECTORIES="$PWD/.." &&
		export GIT_CEILING_DIRECTORIES &&
		test_must_fail git rev-parse --git-dir 2>/dev/null &&
		sees_repo none
	)
'

test_expect_success 'GIT_DIR naming no repository: every program says so' '
	(cd disc && GIT_DIR="$PWD/sub" && export GIT_DIR && sees_repo none)
'

# A file system boundary between a repository and a directory in it: a
# tmpfs mounted in a copy of disc (as root). Both are outside the trash
# directory and unmounted by sharness' final cleanup, so a failed run
# leaves nothing that stops the next one.
fs=$(mktemp -d "${TMPDIR:-/tmp}/maint-t0001.XXXXXX")
if test "$(id -u)" = 0 && cp -R disc "$fs/disc" && mkdir "$fs/disc/mnt" &&
   mount -t tmpfs tmpfs "$fs/disc/mnt" 2>/dev/null
then
	test_set_prereq MOUNT
	cleanup 'umount "$fs/disc/mnt"; rm -rf "$fs"'
else
	rm -rf "$fs"
fi

test_expect_success MOUNT 'across a file system boundary only with GIT_DISCOVERY_ACROSS_FILESYSTEM, for every program as for git' '
	printf "[bogus]\n\tkey = 1\n" >"$fs/disc/.git/maint.ini" &&
	(
		cd "$fs/disc/mnt" &&
		test_must_fail git rev-parse --git-dir 2>/dev/null &&
		test_expect_code 1 git maint-mbox-split /dev/null 2>err &&
		! grep "maint.ini" err &&
		rm ../.git/maint.ini &&
		sees_repo none
	) &&
	printf "[bogus]\n\tkey = 1\n" >"$fs/disc/.git/maint.ini" &&
	(
		cd "$fs/disc/mnt" &&
		GIT_DISCOVERY_ACROSS_FILESYSTEM=1 &&
		export GIT_DISCOVERY_ACROSS_FILESYSTEM &&
		git rev-parse --git-dir &&
		test_expect_code 128 git maint-mbox-split /dev/null 2>err &&
		grep "maint.ini" err &&
		rm ../.git/maint.ini &&
		sees_repo found
	)
'

test_expect_success 'GIT_DIR and GIT_WORK_TREE: queue changes the work tree git am changes' '
	git init -q wt-src &&
	echo one >wt-src/f &&
	git -C wt-src add f &&
	git -C wt-src commit -q -m base &&
	git -C wt-src branch -M work &&
	echo two >wt-src/f &&
	git -C wt-src commit -q -a -m "f: two" &&
	git -C wt-src format-patch -q --stdout HEAD~1 >wt.mbox &&
	git -C wt-src reset -q --hard HEAD~1 &&
	for who in am queue
	do
		cp -R wt-src $who-repo &&
		mkdir $who-tree &&
		cp wt-src/f $who-tree/f || return 1
	done &&
	GIT_DIR="$PWD/am-repo/.git" GIT_WORK_TREE="$PWD/am-tree" git am -q "$PWD/wt.mbox" &&
	GIT_DIR="$PWD/queue-repo/.git" GIT_WORK_TREE="$PWD/queue-tree" \
		git maint-queue -q work "$PWD/wt.mbox" &&
	test_cmp am-tree/f queue-tree/f &&
	test_cmp am-repo/f queue-repo/f &&
	echo two >expect &&
	test_cmp expect queue-tree/f &&
	echo one >expect &&
	test_cmp expect queue-repo/f
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

# (make uninstall: last, on the tree make install put in inst above)
test_expect_success 'make uninstall removes every file make install put there' '
	find inst ! -type d >installed &&
	test_line_count -gt 20 installed &&
	maint_make uninstall prefix="$PWD/inst" >out 2>&1 &&
	find inst ! -type d >left &&
	test_must_be_empty left &&
	test_path_is_missing inst/libexec/git-maint &&
	test_path_is_missing inst/share/git-maint
'

test_done
