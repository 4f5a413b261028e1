#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='mail from a public-inbox archive: a series by Message-ID, fetched over https from public-inbox-httpd on loopback, the same selection as from a local mbox; the cache; failures'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-archive.sh"

if ! test_have_prereq PUBLIC_INBOX
then
	skip_all='public-inbox is not installed'
	test_done
fi

# mid <mail file>: its Message-ID, without <>
mid () {
	sed -n 's/^[Mm][Ee][Ss][Ss][Aa][Gg][Ee]-[Ii][Dd]: *<\(.*\)>$/\1/p' "$1" | sed -n 1p
}

# archive_config <repo> [<url>]: maint.ini of <repo> names the archive (and trusts its certificate)
archive_config () {
	cat >"$1/.git/maint.ini" <<-EOF
	[archive]
		url = ${2:-$ARCHIVE_URL/git/}
		cainfo = $TRASH_DIRECTORY/tls/cert.pem
	EOF
}

# cache_files <repo>: the files of its archive cache, one per line
cache_files () {
	find "$1/.git/maint/cache" -type f 2>/dev/null | LC_ALL=C sort
}

test_expect_success 'setup: a series v1, a reply, and v2 in the same thread, in public-inbox served over https' '
	git init -q r &&
	(
		cd r &&
		printf "%s\n" one two three four five six >frob.c &&
		git add frob.c &&
		test_tick &&
		git commit -q -m "frob: the start" &&
		git checkout -q -b topic &&
		sed -i s/one/ONE/ frob.c &&
		test_tick &&
		git commit -q -a -m "frob: shout one" &&
		sed -i s/six/SIX/ frob.c &&
		test_tick &&
		git commit -q -a -m "frob: shout six" &&
		git config branch.topic.description "frob: shout" &&
		git format-patch -q --thread=shallow --cover-letter --cover-from-description=subject \
			-o ../v1 main..topic &&
		git checkout -q -b topic2 main &&
		sed -i s/one/One!/ frob.c &&
		test_tick &&
		git commit -q -a -m "frob: shout one, politely" &&
		sed -i s/six/SIX/ frob.c &&
		test_tick &&
		git commit -q -a -m "frob: shout six" &&
		git config branch.topic2.description "frob: shout" &&
		git checkout -q main
	) &&
	V1_COVER=$(mid v1/0000-cover-letter.patch) &&
	V1_P1=$(mid v1/0001-*.patch) &&
	cat >reply.eml <<-EOF &&
	From reply Mon Sep 17 00:00:00 2001
	From: Rev Iewer <reviewer@example.com>
	To: git@example.com
	Subject: Re: [PATCH 1/2] frob: shout one
	Message-ID: <reply1@example.com>
	In-Reply-To: <$V1_P1>
	References: <$V1_COVER> <$V1_P1>
	Date: Fri, 1 Apr 2005 12:00:00 +0000

	> -one
	> +ONE

	Not so loud.
	EOF
	# format-patch names a cover letter by the second and the committer: tell v2 apart
	GIT_COMMITTER_EMAIL=v2@example.com git -C r format-patch -q -v2 --thread=shallow --cover-letter --cover-from-description=subject \
		--in-reply-to="<$V1_COVER>" -o ../v2 main..topic2 &&
	V2_COVER=$(mid v2/v2-0000-cover-letter.patch) &&
	V2_P1=$(mid v2/v2-0001-*.patch) &&
	V2_P2=$(mid v2/v2-0002-*.patch) &&
	cat v1/*.patch reply.eml v2/*.patch >thread.mbox &&
	# the fixtures of later tests, delivered with the thread in one go
	# (a delivery costs half a second): a series that lacks a patch
	(
		cd r &&
		git checkout -q -b three main &&
		for w in two three four
		do
			sed -i s/$w/$w-x/ frob.c &&
			test_tick &&
			git commit -q -a -m "frob: $w" || exit 1
		done &&
		git checkout -q main &&
		GIT_COMMITTER_EMAIL=three@example.com \
		git format-patch -q --thread=shallow --cover-letter -o ../three main..three
	) &&
	rm three/0002-*.patch &&
	cat three/*.patch >three.mbox &&
	# a partial reroll
	(
		cd r &&
		git checkout -q -b pr main &&
		for w in two four six
		do
			sed -i s/$w/$w-y/ frob.c &&
			test_tick &&
			git commit -q -a -m "frob: $w" || exit 1
		done &&
		GIT_COMMITTER_EMAIL=pr@example.com \
		git format-patch -q --thread=shallow --cover-letter -o ../pr main..pr &&
		git checkout -q -b pr2 pr~2 &&
		sed -i s/four/four-y/ frob.c &&
		test_tick &&
		git commit -q -a -m "frob: four, reworded" &&
		GIT_COMMITTER_EMAIL=pr2@example.com \
		git format-patch -q -v2 --thread --in-reply-to="<$(mid ../pr/0002-*.patch)>" -o ../pr2 -1 &&
		git checkout -q main
	) &&
	sed -i "s/^Subject: \[PATCH v2\]/Subject: [PATCH v2 2\/3]/" pr2/*.patch &&
	cat pr/*.patch pr2/*.patch >pr.mbox &&
	# hostile Message-IDs
	HOSTILE_IDS="../../../../../escaped@example.com a/../../b/c@example.com %2e%2e@example.com" &&
	for id in $HOSTILE_IDS
	do
		cat <<-EOF || return 1
		From hostile Mon Sep 17 00:00:00 2001
		From: Eve <eve@example.com>
		To: git@example.com
		Subject: [PATCH] frob: hostile
		Message-ID: <$id>
		Date: Fri, 1 Apr 2005 13:00:00 +0000

		---
		 frob.c | 2 +-
		 1 file changed, 1 insertion(+), 1 deletion(-)

		diff --git a/frob.c b/frob.c
		--- a/frob.c
		+++ b/frob.c
		@@ -1,3 +1,3 @@
		 one
		-two
		+TWO
		 three
		EOF
	done >hostile.mbox &&
	archive_init git -L basic &&
	cat thread.mbox three.mbox pr.mbox hostile.mbox >all.mbox &&
	archive_deliver git all.mbox &&
	start_archive https &&
	archive_config r
'

test_expect_success 'a bare Message-ID and no archive configured: a clear error, exit 128, no guess at a host' '
	git init -q lonely &&
	test_expect_code 128 in_repo lonely git-maint-mbox-split --list "<$V1_COVER>" >out 2>err &&
	echo "fatal: '"'"'<$V1_COVER>'"'"' is a Message-ID, and no archive is configured to fetch it from (git config maint.archive.url <url>)" >expect &&
	test_cmp expect err &&
	test_must_be_empty out &&
	test_path_is_missing lonely/.git/maint
'

test_expect_success 'the v1 cover letter names the series: its newest version, v2, cover letter first' '
	printf "%s\n" "$V2_COVER" "$V2_P1" "$V2_P2" >expect &&
	in_repo r git-maint-mbox-split --format=%m "id:$V1_COVER" >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	cache_files r >files &&
	test_line_count = 1 files &&
	grep -q "/.git/maint/cache/archive/[A-Za-z0-9._@+-]*-[0-9a-f]\{40\}\.mbox$" files
'

# The fetcher loads libcurl when it fetches, not when it starts
# (common/base/dynlib.h).
test_expect_success 'the commands load no network library; their fetcher does, to fetch' '
	for p in mbox-split dry-apply queue describe-contains source--fetch
	do
		ldd "$MAINT_BUILD_DIR/bin/git-maint-$p" >libs &&
		! grep -e libcurl -e libsecret libs || return 1
	done &&
	printf "%s\n" "$V2_COVER" "$V2_P1" "$V2_P2" >expect &&
	LD_DEBUG=files git -C r maint-mbox-split --no-cache --format=%m "<$V1_COVER>" >actual 2>debug &&
	test_cmp expect actual &&
	grep "file=libcurl\.so\.4 .*dynamically loaded" debug
'

test_expect_success 'an installed mbox-split finds its fetcher in libexec, out of PATH' '
	maint_install "$PWD/inst" >out 2>&1 &&
	test -x inst/libexec/git-maint/git-maint-source--fetch &&
	printf "%s\n" "$V2_COVER" "$V2_P1" "$V2_P2" >expect &&
	(cd r && PATH="$TRASH_DIRECTORY/inst/bin:/usr/bin:/bin" &&
	 git-maint-mbox-split --no-cache --format=%m "<$V1_COVER>" >../actual) &&
	test_cmp expect actual
'

test_expect_success '<msgid>, id:<msgid>, id:<<msgid>> and the archive URLs name the same series' '
	printf "%s\n" "$V2_COVER" "$V2_P1" "$V2_P2" >expect &&
	for arg in "<$V1_COVER>" "id:<$V1_COVER>" "$ARCHIVE_URL/git/$V1_COVER/" \
		"$ARCHIVE_URL/git/$V1_COVER/T/#u" "$ARCHIVE_URL/git/$V1_COVER/t.mbox.gz" \
		"$ARCHIVE_URL/git/$V2_P2"
	do
		in_repo r git-maint-mbox-split --format=%m "$arg" >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'on a terminal, a progress meter for the download; none with -q' '
	script -qec "git -C r maint-mbox-split --refresh --format=%m \"<$V1_COVER>\" >/dev/null" typescript >/dev/null &&
	grep "Fetching thread: [0-9.]* \(bytes\|KiB\|MiB\) | [0-9.]* \(bytes\|KiB\|MiB\|GiB\)/s, done\." typescript &&
	script -qec "git -C r maint-mbox-split -q --refresh --format=%m \"<$V1_COVER>\" >/dev/null" typescript >/dev/null &&
	! grep Fetching typescript
'

test_expect_success 'a reply names the series it answers' '
	printf "%s\n" "$V2_COVER" "$V2_P1" "$V2_P2" >expect &&
	in_repo r git-maint-mbox-split --format=%m id:reply1@example.com >actual &&
	test_cmp expect actual
'

test_expect_success 'mbox-split: the same patches from the archive as from the thread as a local mbox' '
	in_repo r git-maint-mbox-split --patches-only --format="%m %s" ../thread.mbox >expect &&
	in_repo r git-maint-mbox-split --patches-only --format="%m %s" "<$V1_COVER>" >actual &&
	test_cmp expect actual &&
	test_line_count = 2 actual
'

test_expect_success 'dry-apply: the same report from the archive as from the thread as a local mbox' '
	in_repo r git-maint-mbox-split ../thread.mbox >selected.mbox &&
	in_repo r git-maint-dry-apply ../thread.mbox >expect 2>/dev/null &&
	in_repo r git-maint-dry-apply "id:$V1_COVER" >actual &&
	test_cmp expect actual &&
	grep "all 2 patches apply" actual
'

test_expect_success 'queue: the same commits from the archive as from the local selection' '
	git clone -q r from-mbox &&
	git clone -q r from-archive &&
	archive_config from-archive &&
	in_repo from-mbox git-maint-queue -q main ../selected.mbox 2>/dev/null &&
	in_repo from-archive git-maint-queue -q main "$ARCHIVE_URL/git/$V2_COVER/" &&
	git -C from-mbox log --format="%T %an <%ae> %ad%n%B" origin/main..main >expect &&
	git -C from-archive log --format="%T %an <%ae> %ad%n%B" origin/main..main >actual &&
	test_cmp expect actual &&
	grep "frob: shout one, politely" actual
'

test_expect_success 'a message read locally and from the archive is one message: the first copy wins' '
	local_copy=$(echo v2/v2-0001-*.patch) &&
	in_repo r git-maint-dry-apply "../$local_copy" "<$V1_COVER>" >out &&
	grep "^Skipping duplicate: \[PATCH v2 1/2\] frob: shout one, politely$" out &&
	grep "all 2 patches apply" out
'

test_expect_success '--series-version=1 takes v1; a version the thread lacks is an error, exit 128' '
	printf "%s\n" "$V1_COVER" "$V1_P1" "$(mid v1/0002-*.patch)" >expect &&
	in_repo r git-maint-mbox-split --series-version=1 --format=%m "<$V2_P1>" >actual &&
	test_cmp expect actual &&
	test_expect_code 128 in_repo r git-maint-mbox-split --series-version=3 --format=%m "<$V2_P1>" >out 2>err &&
	echo "fatal: '"'"'<$V2_P1>'"'"': the thread has no version 3 of the series (the newest is v2)" >expect &&
	test_cmp expect err &&
	test_must_be_empty out
'

test_expect_success 'a series that lacks a patch: taken, and the mail core says once what is missing' '
	in_repo r git-maint-mbox-split --format=%k "<$(mid three/0000-cover-letter.patch)>" >actual 2>err &&
	printf "%s\n" 0 1 3 >expect &&
	test_cmp expect actual &&
	grep "is incomplete: missing 2 of 3$" err &&
	test_line_count = 1 err &&
	test_expect_code 1 in_repo r git-maint-dry-apply "<$(mid three/0000-cover-letter.patch)>" >out 2>err &&
	grep "is incomplete: missing 2 of 3$" err &&
	test_line_count = 1 err
'

test_expect_success 'a partial reroll: v2 of patch 2/3 answering v1 2/3 replaces that patch only, under v1'"'"'s cover' '
	in_repo r git-maint-dry-apply "<$(mid pr/0001-*.patch)>" >out &&
	grep "^Patch" out >actual &&
	cat >expect <<-EOF &&
	Patch 1/3: frob: two
	Patch 2/3: frob: four, reworded
	Patch 3/3: frob: six
	EOF
	test_cmp expect actual &&
	grep "all 3 patches apply" out
'

test_expect_success 'a symbolic link for the cache directory is refused, nothing written through it' '
	mkdir outside &&
	mv r/.git/maint/cache saved-cache &&
	ln -s ../../../outside r/.git/maint/cache &&
	test_expect_code 128 in_repo r git-maint-mbox-split --refresh "<$V1_COVER>" >out 2>err &&
	grep "^fatal: cannot use '"'"'.*/r/.git/maint/cache'"'"' as a cache directory: " err &&
	test_line_count = 1 err &&
	ls outside >listing &&
	test_must_be_empty listing &&
	rm r/.git/maint/cache &&
	mv saved-cache r/.git/maint/cache
'

test_expect_success 'a Message-ID the archive does not have: exit 128 naming it, nothing cached' '
	cache_files r >before &&
	test_expect_code 128 in_repo r git-maint-dry-apply "<nowhere@example.com>" >out 2>err &&
	echo "fatal: the archive has no message '"'"'<nowhere@example.com>'"'"' ($ARCHIVE_URL/git/)" >expect &&
	test_cmp expect err &&
	cache_files r >after &&
	test_cmp before after
'

test_expect_success 'hostile Message-IDs: looked up escaped, cached under safe names, never as paths' '
	for id in $HOSTILE_IDS
	do
		echo "$id" >expect &&
		in_repo r git-maint-mbox-split --format=%m "id:$id" >actual &&
		test_cmp expect actual || return 1
	done &&
	cache_files r >files &&
	! grep -v "^r/.git/maint/cache/archive/[A-Za-z0-9_][A-Za-z0-9._@+-]*-[0-9a-f]\{40\}\.mbox$" files &&
	test_path_is_missing escaped@example.com &&
	test_path_is_missing ../escaped@example.com &&
	test_path_is_missing r/.git/b &&
	test_expect_code 128 in_repo r git-maint-mbox-split "id:.." 2>err &&
	echo "fatal: '"'"'id:..'"'"' is not a Message-ID we can look up" >expect &&
	test_cmp expect err
'

test_expect_success 'TLS: a certificate the client does not trust is refused, exit 128, nothing cached' '
	git clone -q r untrusting &&
	printf "[archive]\n\turl = %s/git/\n" "$ARCHIVE_URL" >untrusting/.git/maint.ini &&
	test_expect_code 128 in_repo untrusting git-maint-mbox-split --list "<$V1_COVER>" >out 2>err &&
	grep "^fatal: cannot fetch '"'"'$ARCHIVE_URL/git/.*/t.mbox.gz'"'"': SSL certificate problem: self-signed certificate" err &&
	test_line_count = 1 err &&
	test_must_be_empty out &&
	test_path_is_missing untrusting/.git/maint
'

test_expect_success 'offline: the archive gone, a rerun reads the cache, silently' '
	in_repo r git-maint-mbox-split --format=%m "id:$V1_COVER" >expect &&
	in_repo r git-maint-dry-apply "id:$V1_COVER" >expect-dry &&
	stop_archive &&
	in_repo r git-maint-mbox-split --format=%m "id:$V1_COVER" >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	in_repo r git-maint-dry-apply "id:$V1_COVER" >actual &&
	test_cmp expect-dry actual
'

test_expect_success 'offline, the cached copy expired: used, with a warning saying so' '
	cat r/.git/maint.ini >saved.ini &&
	printf "\tcache-expire = 0\n" >>r/.git/maint.ini &&
	in_repo r git-maint-mbox-split --format=%m "id:$V1_COVER" >actual 2>err &&
	test_cmp expect actual &&
	grep "^error: cannot fetch .*: Could.*connect" err &&
	grep "^warning: '"'"'id:$V1_COVER'"'"': using the copy of the thread fetched [0-9-]* [0-9:]*$" err &&
	cp saved.ini r/.git/maint.ini
'

test_expect_success 'offline with --refresh: a temporary failure, exit 75, the cache kept' '
	cache_files r >before &&
	test_expect_code 75 in_repo r git-maint-mbox-split --refresh --format=%m "id:$V1_COVER" >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	cache_files r >after &&
	test_cmp before after
'

test_expect_success 'offline, nothing cached: queue exits 75 and nothing changed' '
	git clone -q r fresh &&
	archive_config fresh &&
	(cd fresh && repo_state) >before &&
	test_expect_code 75 in_repo fresh git-maint-queue main "<$V1_COVER>" >out 2>err &&
	grep "^error: cannot fetch '"'"'$ARCHIVE_URL/git/.*/t.mbox.gz'"'"': " err &&
	test_line_count = 1 err &&
	(cd fresh && repo_state) >after &&
	test_cmp before after &&
	test_path_is_missing fresh/.git/maint
'

test_expect_success 'a server that accepts and never answers: timed out, exit 75' '
	start_silent_server &&
	archive_config fresh "https://127.0.0.1:$SILENT_PORT/git/" &&
	printf "\ttimeout = 1\n" >>fresh/.git/maint.ini &&
	(cd fresh && repo_state) >before &&
	test_expect_code 75 in_repo fresh git-maint-dry-apply "<$V1_COVER>" >out 2>err &&
	grep "^error: cannot fetch .*: SSL connection timeout$" err &&
	(cd fresh && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'plain http: accepted with a warning' '
	start_archive &&
	archive_config fresh &&
	printf "%s\n" "$V2_COVER" "$V2_P1" "$V2_P2" >expect &&
	in_repo fresh git-maint-mbox-split --format=%m "<$V1_COVER>" >actual 2>err &&
	test_cmp expect actual &&
	echo "warning: '"'"'$ARCHIVE_URL/git/'"'"' is plain http: anyone on the way can change the patches you get" >expect &&
	test_cmp expect err
'

test_expect_success 'a gzip bomb is refused at the size bound, nothing cached' '
	mkdir -p bomb/git/bomb@example.com &&
	# 64 MB of zeros, gzipped, without compressing 64 MB (half a second):
	# after a full flush every further MB of zeros deflates to the same
	# bytes, so the stream is the first MB, 63 copies of the second, an
	# empty final block and the trailer (CRC-32 and size of the 64 MB)
	python3 -S - >bomb/git/bomb@example.com/t.mbox.gz <<-\EOF &&
	import struct, sys, zlib
	mb = bytes(1 << 20)
	c = zlib.compressobj(9, zlib.DEFLATED, 31)
	first = c.compress(mb) + c.flush(zlib.Z_FULL_FLUSH)
	block = c.compress(mb) + c.flush(zlib.Z_FULL_FLUSH)
	crc = 0
	for _ in range(64):
	    crc = zlib.crc32(mb, crc)
	sys.stdout.buffer.write(first + block * 63 + b"\x03\x00" +
	                        struct.pack("<II", crc, 64 << 20))
	EOF
	start_static_server "$PWD/bomb" &&
	git clone -q r bombed &&
	archive_config bombed "$STATIC_URL/git/" &&
	printf "\tmax-size = 1048576\n" >>bombed/.git/maint.ini &&
	test_expect_code 128 in_repo bombed git-maint-mbox-split "<bomb@example.com>" >out 2>err &&
	grep "^fatal: '"'"'$STATIC_URL/git/bomb@example.com/t.mbox.gz'"'"': the thread is over 1048576 bytes uncompressed (archive.max-size); refused$" err &&
	test_must_be_empty out &&
	cache_files bombed >files &&
	test_must_be_empty files
'

test_expect_success '--no-cache: fetched, read, and nothing written under .git/maint' '
	git clone -q r nocache &&
	archive_config nocache &&
	printf "%s\n" "$V2_COVER" "$V2_P1" "$V2_P2" >expect &&
	in_repo nocache git-maint-mbox-split --no-cache --format=%m "<$V1_COVER>" >actual 2>/dev/null &&
	test_cmp expect actual &&
	test_path_is_missing nocache/.git/maint
'

test_expect_success 'a file named like a Message-ID is read as the file it is' '
	cp v1/0001-*.patch "lonely/<$V1_P1>" &&
	echo "$V1_P1" >expect &&
	in_repo lonely git-maint-mbox-split --format=%m "<$V1_P1>" >actual &&
	test_cmp expect actual &&
	cp v1/0001-*.patch "lonely/id:x@y" &&
	in_repo lonely git-maint-mbox-split --format=%m "id:x@y" >actual &&
	test_cmp expect actual &&
	test_path_is_missing lonely/.git/maint
'

test_done
