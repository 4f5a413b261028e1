#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='object ids: git'"'"'s, computed with collision detection

The ids of the objects queue writes come from libgit2'"'"'s SHA-1 (sha1dc),
as git'"'"'s do (objwrite_hash(), common/repo/objwrite.h). t/t0002/ holds a real SHA-1 collision,
the first 320 bytes of the SHAttered PDFs. No published collision is
aligned to git'"'"'s object header ("blob <size>\0" is hashed before the
content), so git takes the two files as two blobs with different ids,
and so must we; t/unit/test-objwrite.c tests that content libgit2
refuses to hash is refused with its error.'
. ./test-lib.sh

vectors=$MAINT_SRC_DIR/t/t0002

test_expect_success 'the two files differ and have the same SHA-1' '
	test_must_fail cmp -s "$vectors/shattered-1.bin" "$vectors/shattered-2.bin" &&
	sha1sum <"$vectors/shattered-1.bin" >expect &&
	sha1sum <"$vectors/shattered-2.bin" >actual &&
	test_cmp expect actual
'

test_expect_success 'the libgit2 queue loads hashes with sha1dc' '
	ldd "$MAINT_BUILD_DIR/bin/git-maint-queue" >libs &&
	sed -n "s/.*libgit2[^ ]* => \([^ ]*\) .*/\1/p" libs >lib &&
	test_line_count = 1 lib &&
	grep -a -q "SHA1 collision attack detected" "$(cat lib)"
'

test_expect_success 'setup: a series adding both files, and one changing a text file' '
	git init -q &&
	printf "a\nb\n" >text &&
	git add text &&
	test_tick &&
	git commit -q -m base &&
	git tag base &&
	cp "$vectors/shattered-1.bin" one.pdf &&
	git add one.pdf &&
	test_tick &&
	git commit -q -m "add one.pdf" &&
	cp "$vectors/shattered-2.bin" two.pdf &&
	printf "a\nc\n" >text &&
	git add two.pdf text &&
	test_tick &&
	git commit -q -m "add two.pdf, change text" &&
	git format-patch -q --binary --stdout base >series.mbox
'

test_expect_success 'queue writes the blobs with the ids git gives them' '
	git checkout -q -b q base &&
	git-maint-queue -q q series.mbox &&
	git hash-object "$vectors/shattered-1.bin" "$vectors/shattered-2.bin" >expect &&
	git rev-parse q:one.pdf q:two.pdf >actual &&
	test_cmp expect actual
'

test_expect_success 'queue makes the commits git am makes' '
	git checkout -q -b am base &&
	git am -q series.mbox &&
	git rev-parse am >expect &&
	git rev-parse q >actual &&
	test_cmp expect actual &&
	git fsck --strict --no-dangling >fsck 2>&1 &&
	test_must_be_empty fsck
'

test_done
