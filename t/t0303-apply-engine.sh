#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='apply engine: 3-way, binary, traditional diffs, series state, changes and trees for queue'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-apply.sh"

lines () { i=$1; while test $i -le $2; do echo "$3 $i"; i=$((i + 1)); done; }

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		lines 1 30 line >f &&
		lines 1 5 other >g &&
		printf "\000\001\002binary\n" >b.bin &&
		mkdir d &&
		echo in-d >d/x &&
		git add . &&
		test_tick &&
		git commit -q -m base &&
		git tag base &&
		# a patch made on a branch where line 13 of f changed
		git checkout -q -b side &&
		sed -i "s/^line 13\$/line 13 side/" f &&
		test_tick &&
		git commit -q -a -m side &&
		sed -i "s/^line 16\$/line 16 patched/" f &&
		test_tick &&
		git commit -q -a -m "patch line 16" &&
		git format-patch -q --stdout -1 >../three-way.mbox &&
		git checkout -q main
	)
'

test_expect_success 'a hunk whose context changed fails without -3' '
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --onto base ../three-way.mbox >../actual
	) &&
	grep "^Hunk #1 FAILED at 13.\$" actual
'

test_expect_success 'with -3 it merges when the pre-image blob is known, like git am -3' '
	(
		cd repo &&
		git-maint-dry-apply -3 --onto base ../three-way.mbox >../actual &&
		mkdir .git/tw && git mailsplit -o.git/tw ../three-way.mbox >/dev/null &&
		test-apply -3 --write-tree base .git/tw/0001 >../out &&
		git checkout -q -b am3 base &&
		git am -3 -q ../three-way.mbox &&
		git rev-parse HEAD^{tree} >../expect &&
		git checkout -q main
	) &&
	grep "^Hunk #1 merged at 13 (3-way).\$" actual &&
	grep "^base: the patch applies" actual &&
	sed -n "s/^tree //p" out >actual &&
	test_cmp expect actual
'

test_expect_success '-3 cannot help when the pre-image blob is unknown' '
	sed "s/^index [0-9a-f]*\.\./index 1111111../" three-way.mbox >unknown.mbox &&
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply -3 --onto base ../unknown.mbox >../actual
	) &&
	grep "FAILED" actual
'

test_expect_success 'binary patches: literal and delta, checked against the pre-image' '
	(
		cd repo &&
		git checkout -q -b bin base &&
		printf "\000\001\002binary, longer now\n" >b.bin &&
		test_tick &&
		git commit -q -a -m "change b.bin" &&
		printf "\003new\000" >new.bin &&
		git add new.bin &&
		test_tick &&
		git commit -q -m "add new.bin" &&
		git format-patch -q --stdout base..bin >../bin.mbox &&
		git checkout -q -b bin-other base &&
		printf "\000\001\002binary, another\n" >b.bin &&
		printf "\003other\000" >new.bin &&
		git add b.bin new.bin &&
		test_tick &&
		git commit -q -m "other binaries" &&
		git checkout -q main &&
		git-maint-dry-apply -q --onto base ../bin.mbox >../actual &&
		test_expect_code 1 git-maint-dry-apply --onto bin-other ../bin.mbox >../actual2 &&
		git-maint-dry-apply -q --onto bin ../bin.mbox >../actual3
	) &&
	echo "base: all 2 patches apply" >expect &&
	test_cmp expect actual &&
	grep "does not apply to .b.bin." actual2 &&
	grep "new.bin. already exists" actual2 &&
	echo "bin: all 2 patches are already applied" >expect &&
	test_cmp expect actual3
'

test_expect_success 'binary patch result equals git am' '
	(
		cd repo &&

		mkdir .git/bin && git mailsplit -o.git/bin ../bin.mbox >/dev/null &&
		test-apply --write-tree base .git/bin/0001 .git/bin/0002 >../out &&
		sed -n "s/^tree //p" ../out >../actual &&
		git rev-parse bin^{tree} >../expect
	) &&
	test_cmp expect actual
'

test_expect_success 'a traditional diff -up with -p0 and -p1' '
	(
		cd repo &&
		git show base:f >f.orig &&
		sed "s/^line 3\$/line 3 trad/" f.orig >f.new &&
		{ diff -up f.orig f.new || :; } | sed "s/^+++ f.new/+++ f/" >../p0.diff &&
		rm f.orig f.new &&
		git-maint-dry-apply -q -p0 --onto base ../p0.diff >../actual &&
		test_expect_code 1 git-maint-dry-apply --onto base ../p0.diff >../actual1
	) &&
	echo "base: the patch applies" >expect &&
	test_cmp expect actual &&
	grep "cannot strip 1 leading component" actual1
'

test_expect_success 'a quilt patch (Index: header, a/ and b/ dirs)' '
	cat >quilt.diff <<-\EOF &&
	Index: linux/g
	===================================================================
	--- linux.orig/g
	+++ linux/g
	@@ -1,3 +1,3 @@
	 other 1
	-other 2
	+other 2 quilt
	 other 3
	EOF
	(
		cd repo &&
		git-maint-dry-apply -q --onto base ../quilt.diff >../actual
	) &&
	echo "base: the patch applies" >expect &&
	test_cmp expect actual
'

# A series written by hand: rename, then edit under the new name, delete
# and re-create, replace a directory by a file.
test_expect_success 'setup: a series that moves things around' '
	cat >s1.diff <<-\EOF &&
	diff --git a/g b/h
	similarity index 100%
	rename from g
	rename to h
	EOF
	cat >s2.diff <<-\EOF &&
	diff --git a/h b/h
	--- a/h
	+++ b/h
	@@ -1,2 +1,2 @@
	-other 1
	+other 1 in h
	 other 2
	EOF
	cat >s3.diff <<-\EOF &&
	diff --git a/d/x b/d/x
	deleted file mode 100644
	--- a/d/x
	+++ /dev/null
	@@ -1 +0,0 @@
	-in-d
	diff --git a/d b/d
	new file mode 100755
	--- /dev/null
	+++ b/d
	@@ -0,0 +1 @@
	+d is a file now
	EOF
	cat >s4.diff <<-\EOF
	diff --git a/g b/g
	new file mode 100644
	--- /dev/null
	+++ b/g
	@@ -0,0 +1 @@
	+g again
	EOF
'

test_expect_success 'the engine follows the series (patch N sees 1..N-1)' '
	(
		cd repo &&
		test-apply --changes base ../s1.diff ../s2.diff ../s3.diff ../s4.diff >../out
	) &&
	grep -c "^patch	.	ok\$" out >count &&
	echo 4 >expect &&
	test_cmp expect count &&
	grep -v "^patch\|^file\|^hunk" out >actual &&
	cat >expect <<-\EOF &&
	M 100755 d
	D 000000 d/x
	M 100644 g
	M 100644 h
	EOF
	test_cmp expect actual
'

test_expect_success 'the trees written per patch equal git apply --index, patch by patch' '
	(
		cd repo &&
		git checkout -q -b moved base &&
		for p in s1 s2 s3 s4
		do
			git apply --index ../$p.diff &&
			test_tick &&
			git commit -q -m $p || return 1
		done &&
		git checkout -q main &&
		test-apply --write-tree base ../s1.diff ../s2.diff ../s3.diff ../s4.diff >../out &&
		sed -n "s/^tree //p" ../out >../actual &&
		git rev-parse moved^{tree} >../expect
	) &&
	test_cmp expect actual
'

# git t4130: a patch that swaps two files by renaming each to the other.
test_expect_success 'criss-cross renames in one patch give git apply'"'"'s tree' '
	cat >swap.diff <<-\EOF &&
	diff --git a/f b/g
	similarity index 100%
	rename from f
	rename to g
	diff --git a/g b/f
	similarity index 100%
	rename from g
	rename to f
	EOF
	(
		cd repo &&
		git checkout -q -b swapped base &&
		git apply --index ../swap.diff &&
		test_tick &&
		git commit -q -m swap &&
		git checkout -q main &&
		test-apply --write-tree base ../swap.diff >../out &&
		sed -n "s/^tree //p" ../out >../actual &&
		git rev-parse swapped^{tree} >../expect
	) &&
	test_cmp expect actual
'

test_expect_success 'a failed patch leaves the state as before it (atomic)' '
	cat >bad.diff <<-\EOF &&
	diff --git a/f b/f
	--- a/f
	+++ b/f
	@@ -1,2 +1,2 @@
	-line 1
	+line 1 changed
	 line 2
	diff --git a/h b/h
	--- a/h
	+++ b/h
	@@ -1 +1 @@
	-no such line
	+x
	EOF
	(
		cd repo &&
		test_expect_code 1 test-apply --changes base ../s1.diff ../bad.diff >../out
	) &&
	grep "^patch	2	failed" out &&
	grep -v "^patch\|^file\|^hunk" out >actual &&
	printf "D 000000 g\nM 100644 h\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'creating over an existing file or a directory is refused' '
	cat >exists.diff <<-\EOF &&
	diff --git a/f b/f
	new file mode 100644
	--- /dev/null
	+++ b/f
	@@ -0,0 +1 @@
	+new
	EOF
	sed "s,a/f b/f,a/d b/d,; s,+++ b/f,+++ b/d," exists.diff >dir.diff &&
	(
		cd repo &&
		test_expect_code 1 test-apply base ../exists.diff >../out1 &&
		test_expect_code 1 test-apply base ../dir.diff >../out2
	) &&
	grep "already exists" out1 &&
	grep "already exists as a directory" out2
'

test_expect_success 'a deletion must match the whole file' '
	cat >del.diff <<-\EOF &&
	diff --git a/g b/g
	deleted file mode 100644
	--- a/g
	+++ /dev/null
	@@ -1,2 +0,0 @@
	-other 1
	-other 2
	EOF
	(
		cd repo &&
		test_expect_code 1 test-apply base ../del.diff >../out
	) &&
	grep "failed" out
'

test_expect_success 'a mailbox with CRLF line ends applies (CRs are dropped, as git mailsplit does)' '
	sed "s/\$/\r/" bin.mbox >crlf.mbox &&
	(
		cd repo &&
		git-maint-dry-apply -q --onto base ../crlf.mbox >../actual
	) &&
	echo "base: all 2 patches apply" >expect &&
	test_cmp expect actual
'

test_expect_success 'a corrupt binary patch is a failed patch (exit 1), not a crash' '
	awk "/^literal/ && !done { print; getline; print \"zcmV;^04)FM;V>Im0~Xwl)I)f\" substr(\$0, 27); done = 1; next } { print }" \
		bin.mbox >badbin.mbox &&
	! cmp -s bin.mbox badbin.mbox &&
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --onto base ../badbin.mbox >../actual
	) &&
	grep "corrupt binary patch" actual
'

test_expect_success 'a binary patch whose result has the wrong id is refused' '
	sed "0,/^index \([0-9a-f]*\)\.\.[0-9a-f]*/s//index \1..1111111111111111111111111111111111111111/" \
		bin.mbox >wrongid.mbox &&
	(
		cd repo &&
		test_expect_code 1 git-maint-dry-apply --onto base ../wrongid.mbox >../actual
	) &&
	grep "creates incorrect result" actual
'

test_done
