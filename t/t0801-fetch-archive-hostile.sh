#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='archives without end: bounds in bytes, in time and on the cache (reliability case 54)

A server that sends empty gzip members for ever, drips a thread that
never ends, or sends headers without end is stopped at a bound, with
one line saying which, the documented exit code, and nothing cached or
changed; the cache of threads stays under archive.cache-max-size,
oldest out first.'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-archive.sh"

# hostile_config <repo> <url> [<key = value>...]: maint.ini naming the archive
hostile_config () {
	repo=$1 url=$2 &&
	shift 2 &&
	printf "[archive]\n\turl = %s\n" "$url" >"$repo/.git/maint.ini" &&
	for kv in "$@"
	do
		printf "\t%s\n" "$kv" >>"$repo/.git/maint.ini" || return 1
	done
}

cache_files () {
	find "$1/.git/maint/cache" -type f 2>/dev/null | LC_ALL=C sort
}

# state <repo>: what must not change when a fetch fails
state () {
	git -C "$1" for-each-ref &&
	git -C "$1" status --porcelain &&
	find "$1/.git/maint" -type f 2>/dev/null | LC_ALL=C sort
}

test_expect_success 'setup: a repository' '
	git init -q r &&
	(cd r && test_commit base)
'

test_expect_success 'endless empty gzip members, fast: refused at archive.max-size as sent, exit 128, nothing kept' '
	start_hostile_http empty-members &&
	hostile_config r "$HOSTILE_URL/git/" "max-size = 1048576" &&
	state r >before &&
	test_expect_code 128 in_repo r git-maint-mbox-split "<endless@example.com>" >out 2>err &&
	grep "^fatal: '"'"'$HOSTILE_URL/git/endless@example.com/t.mbox.gz'"'"': the server sent over 1053696 bytes (archive.max-size); refused$" err &&
	test $(grep -c "^fatal:" err) = 1 &&
	test_must_be_empty out &&
	state r >after &&
	test_cmp before after &&
	stop_server "$HOSTILE_PID"
'

test_expect_success 'a password written in the archive'"'"'s URL is never printed: the URL shown without its user-info (50)' '
	start_hostile_http empty-members &&
	secret_url=$(echo "$HOSTILE_URL" | sed "s|^http://|http://maint:url-pw-0xdead@|") &&
	hostile_config r "$secret_url/git/" "max-size = 1048576" &&
	state r >before &&
	test_expect_code 128 in_repo r git-maint-mbox-split "<endless@example.com>" >out 2>err &&
	grep "^warning: .$HOSTILE_URL/git/. is plain http" err &&
	grep "^fatal: .$HOSTILE_URL/git/endless@example.com/t.mbox.gz.: the server sent over" err &&
	test_expect_code 128 in_repo r git-maint-mbox-split "$secret_url/git/nothing-here" >out 2>>err &&
	! grep -F "url-pw-0xdead" out err &&
	state r >after &&
	test_cmp before after &&
	stop_server "$HOSTILE_PID"
'

test_expect_success 'endless empty gzip members, slowly: the stall timeout fires on mail, not bytes, exit 75' '
	start_hostile_http empty-members 0.05 &&
	hostile_config r "$HOSTILE_URL/git/" "timeout = 1" &&
	state r >before &&
	test_expect_code 75 in_repo r git-maint-mbox-split "<endless@example.com>" >out 2>err &&
	grep "^error: cannot fetch '"'"'$HOSTILE_URL/git/endless@example.com/t.mbox.gz'"'"': no mail came out of what the server sent for 1 seconds (archive.timeout)$" err &&
	test $(grep -c "^error:" err) = 1 &&
	test_must_be_empty out &&
	state r >after &&
	test_cmp before after &&
	stop_server "$HOSTILE_PID"
'

test_expect_success 'a thread that drips for ever: archive.max-time ends it, exit 75, nothing kept' '
	start_hostile_http drip &&
	hostile_config r "$HOSTILE_URL/git/" "timeout = 30" "max-time = 2" &&
	state r >before &&
	test_expect_code 75 in_repo r git-maint-mbox-split "<drip@example.com>" >out 2>err &&
	echo "error: cannot fetch '"'"'$HOSTILE_URL/git/drip@example.com/t.mbox.gz'"'"': not done after 2 seconds (archive.max-time); given up" >expect &&
	grep "^error:" err >actual &&
	test_cmp expect actual &&
	test_must_be_empty out &&
	state r >after &&
	test_cmp before after &&
	stop_server "$HOSTILE_PID"
'

for mode in big-header many-headers
do
	test_expect_success "response headers without end ($mode): refused, exit 128 (not a retry)" '
		start_hostile_http '$mode' &&
		hostile_config r "$HOSTILE_URL/git/" &&
		state r >before &&
		test_expect_code 128 in_repo r git-maint-mbox-split "<headers@example.com>" >out 2>err &&
		grep "^fatal: cannot fetch '"'"'$HOSTILE_URL/git/headers@example.com/t.mbox.gz'"'"': the server'"'"'s response headers are over 65536 bytes; refused$" err &&
		test $(grep -c "^fatal:" err) = 1 &&
		test_must_be_empty out &&
		state r >after &&
		test_cmp before after &&
		stop_server "$HOSTILE_PID"
	'
done

test_expect_success 'the cache stays under archive.cache-max-size: the threads fetched longest ago go first' '
	for t in one two three
	do
		mkdir -p static/git/$t@example.com &&
		{
			printf "From %s@example.com Mon Sep 17 00:00:00 2001\n" $t &&
			printf "From: A U Thor <author@example.com>\n" &&
			printf "Message-ID: <%s@example.com>\n" $t &&
			printf "Subject: [PATCH] thread %s\n\n---\n" $t &&
			printf "diff --git a/%s b/%s\nnew file mode 100644\n" $t $t &&
			printf -- "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,4000 @@\n" $t &&
			seq 1 4000 | sed "s/^/+$t: /" &&
			printf -- "-- \n2.1\n\n"
		} | gzip -1 >static/git/$t@example.com/t.mbox.gz || return 1
	done &&
	start_static_server "$PWD/static" &&
	one=$(gzip -dc static/git/one@example.com/t.mbox.gz | wc -c) &&
	hostile_config r "$STATIC_URL/git/" "cache-max-size = $((one * 2 + one / 2))" &&
	in_repo r git-maint-mbox-split --format=%m "<one@example.com>" >out 2>/dev/null &&
	echo one@example.com >expect &&
	test_cmp expect out &&
	cache_files r >files &&
	test_line_count = 1 files &&
	touch -d "2 hours ago" $(cat files) &&
	in_repo r git-maint-mbox-split --format=%m "<two@example.com>" >out 2>/dev/null &&
	touch -d "1 hour ago" $(cache_files r | grep /two@) &&
	in_repo r git-maint-mbox-split --format=%m "<three@example.com>" >out 2>/dev/null &&
	echo three@example.com >expect &&
	test_cmp expect out &&
	cache_files r | sed "s,.*/,,; s,-.*,," >names &&
	printf "%s\n" three@example.com two@example.com >expect &&
	test_cmp expect names &&
	in_repo r git-maint-mbox-split --format=%m "<one@example.com>" >out 2>/dev/null &&
	cache_files r | sed "s,.*/,,; s,-.*,," >names &&
	printf "%s\n" one@example.com three@example.com >expect &&
	test_cmp expect names
'

test_done
