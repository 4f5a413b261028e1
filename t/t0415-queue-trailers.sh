#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue carries the trailers of the replies: the commits git am and git interpret-trailers make'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-reviews.sh"

SQ="'"
SOB="Signed-off-by: C O Mitter <committer@example.com>"

# oracle <branch> <v> <patches>: on <branch> from base, the commits git am
# makes of <patches>, each message given lib-reviews' expected trailers
# for reviews-<v>.mbox by git interpret-trailers (addIfDifferent, at the
# end), then our sign-off as git am -s adds it (addIfDifferentNeighbor):
# same trees, authors and dates, made with git commit-tree. (git am makes
# a line of commits on base: the k-th is base..c's count; the author's
# name, address and raw date are read from the commit's author line.)
oracle () {
	git checkout -q -B "am-$1" base &&
	git am -q "$3" &&
	tip=$(git rev-parse base) &&
	k=0 &&
	for c in $(git rev-list --reverse base.."am-$1")
	do
		k=$((k + 1)) &&
		expected_trailers "$2" $k >trailers-$k &&
		args= &&
		while read -r t
		do
			args="$args --trailer=\"$t\"" || return 1
		done <trailers-$k &&
		git cat-file commit "$c" >commit &&
		sed "1,/^\$/d" commit >msg &&
		author= &&
		while read -r key value && test -n "$key"
		do
			if test "$key" = author
			then
				author=$value
			fi
		done <commit &&
		test -n "$author" &&
		eval "git interpret-trailers --no-divider --if-exists addIfDifferent --where end $args" <msg >msg2 &&
		git interpret-trailers --no-divider --if-exists addIfDifferentNeighbor --where end \
			--trailer="$SOB" <msg2 >msg3 &&
		author_email=${author#*<} &&
		tip=$(GIT_AUTHOR_NAME="${author%% <*}" \
		      GIT_AUTHOR_EMAIL="${author_email%%>*}" \
		      GIT_AUTHOR_DATE="${author##*> }" \
		      git commit-tree "$c^{tree}" -p "$tip" -F msg3) || return 1
	done &&
	git checkout -q --detach base &&
	git update-ref "refs/heads/oracle-$1" "$tip"
}

# queue_on <branch> <options and mailbox>...: git maint-queue -s from base.
queue_on () {
	b=$1 &&
	shift &&
	git branch -f "$b" base &&
	git-maint-queue -s "$b" "$@" >out 2>err
}

test_expect_success 'setup: review threads (lib-reviews.sh)' '
	reviews_setup
'

test_expect_success 'v1 and its replies: the commits carry exactly the trailers git interpret-trailers adds' '
	oracle v1 1 v1-patches.mbox &&
	queue_on v1 reviews.mbox &&
	git rev-parse oracle-v1 >expect &&
	git rev-parse v1 >actual &&
	test_cmp expect actual
'

test_expect_success 'the trailers of a commit: its own, the replies'"${SQ}"' in mailbox order, our Signed-off-by last' '
	git log -1 --format=%B v1~2 | git interpret-trailers --parse >actual &&
	cat >expect <<-EOF &&
	Reviewed-by: $REV
	Acked-by: $ACK
	$SOB
	EOF
	test_cmp expect actual
'

test_expect_success 'the run says what it carried and what not' '
	grep "^Trailers from replies: 8 carried, 1 flagged, 0 not carried\$" out &&
	grep "^hint: ${SQ}git maint-queue --show-trailers${SQ} lists them, and why\$" err
'

test_expect_success 'v2 where patch 3 changed: v1'"${SQ}"'s reviews carried to the unchanged patches only' '
	oracle v2 2 v2-patches.mbox &&
	queue_on v2 reviews-v2.mbox &&
	git rev-parse oracle-v2 >expect &&
	git rev-parse v2 >actual &&
	test_cmp expect actual &&
	grep "^Trailers from replies: 7 carried, 1 flagged, 2 not carried\$" out
'

test_expect_success 'a partial reroll of patch 3: the same' '
	last_of_reroll >reroll3.patch &&
	cat "$v1p1" "$v1p2" reroll3.patch "$v1p4" >reroll-patches.mbox &&
	oracle reroll reroll reroll-patches.mbox &&
	queue_on reroll reviews-reroll.mbox &&
	git rev-parse oracle-reroll >expect &&
	git rev-parse reroll >actual &&
	test_cmp expect actual
'

test_expect_success '--show-trailers: each commit'"${SQ}"'s trailers and what is not carried, nothing applied' '
	git branch -f preview base &&
	touch after out err actual &&
	repo_state >before &&
	git-maint-queue -s --show-trailers preview reviews-v2.mbox >actual 2>err &&
	repo_state >after &&
	test_cmp before after &&
	test_must_be_empty err &&
	cat >expect <<-EOF &&
	Patch 1/4: topic: change a
	    Reviewed-by: $REV
	    Acked-by: $ACK
	    $SOB
	    = Reviewed-by: rev iewer <REV@example.net> ($REV, on v1 1/4, given twice)
	Patch 2/4: topic: change b
	    Reviewed-by: $REV
	    Acked-by: $ACK
	    $SOB
	Patch 3/4: topic: change c
	    Reviewed-by: $REV
	    $SOB
	    - Tested-by: $TESS ($TESS, on v1 3/4, which changed in v2)
	    - Acked-by: $ACK ($ACK, on the v1 cover letter, for v1 3/4, which changed in v2)
	Patch 4/4: topic: change d
	    Acked-by: $THIRD
	    Acked-by: $ACK
	    $SOB
	    ! Reviewed-by: Big Boss <boss@example.org> ($THIRD, on v1 4/4, not the sender${SQ}s address)
	EOF
	test_cmp expect actual
'

test_expect_success '--show-trailers shows the trailer blocks queue writes' '
	git-maint-queue -s --show-trailers v2 reviews-v2.mbox >preview &&
	for k in 1 2 3 4
	do
		sed -n "/^Patch $k\//,/^Patch/p" preview |
		sed -n "s/^    \([A-Za-z]\)/\1/p" >expect &&
		git log -1 --format=%B v2~$((4 - k)) | git interpret-trailers --parse >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success '--no-trailers: the commits of git am -s' '
	git checkout -q -B am-none base &&
	git am -q -s v2-patches.mbox &&
	git checkout -q --detach base &&
	queue_on none --no-trailers reviews-v2.mbox &&
	git rev-parse am-none >expect &&
	git rev-parse none >actual &&
	test_cmp expect actual &&
	! grep "^Trailers from replies" out &&
	test_must_be_empty err
'

test_expect_success '--trailers=<kinds>: only those kinds' '
	queue_on some --trailers=tested-by,ACKED-BY reviews.mbox &&
	for k in 1 2 3 4
	do
		git log -1 --format=%B some~$((4 - k)) | git interpret-trailers --parse |
		grep -v "^Signed-off-by: " >actual &&
		expected_trailers 1 $k | grep -e "^Tested-by: " -e "^Acked-by: " >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success '--sloppy-trailers carries the flagged one too, where it was given' '
	queue_on sloppy --sloppy-trailers reviews.mbox &&
	git log -1 --format=%B sloppy | git interpret-trailers --parse >actual &&
	cat >expect <<-EOF &&
	Reviewed-by: Big Boss <boss@example.org>
	Acked-by: $THIRD
	Acked-by: $ACK
	$SOB
	EOF
	test_cmp expect actual
'

test_expect_success 'queue.trailers is the default, the option wins' '
	mkdir -p .config/git-maint &&
	printf "[queue]\n\ttrailers = none\n" >.config/git-maint/config &&
	test_when_finished "rm -f .config/git-maint/config" &&
	queue_on cfg-none reviews.mbox &&
	git log --format=%B base..cfg-none | git interpret-trailers --parse | sort -u >actual &&
	echo "$SOB" >expect &&
	test_cmp expect actual &&
	queue_on cfg-all --trailers=all reviews.mbox &&
	git rev-parse oracle-v1 >expect &&
	git rev-parse cfg-all >actual &&
	test_cmp expect actual
'

test_expect_success 'a queue stopped at a patch keeps the trailers: --continue and the rest carry them' '
	git checkout -q -B stop base &&
	sed -i "s/^c line 1\$/c line 1 changed here/" c.c &&
	git commit -q -a -m "c changed here" &&
	test_expect_code 1 git-maint-queue -s stop reviews.mbox >out 2>err &&
	git checkout -q base -- c.c &&
	git apply --index .git/maint/queue/patch &&
	git-maint-queue --continue >out 2>err &&
	for k in 3 4
	do
		git log -1 --format=%B stop~$((4 - k)) | git interpret-trailers --parse >actual &&
		{ expected_trailers 1 $k && echo "$SOB"; } >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'a bad --trailers is a usage error: nothing changes' '
	git checkout -q --detach base &&
	git branch -f bad base &&
	touch after out err actual &&
	repo_state >before &&
	test_expect_code 129 git-maint-queue --trailers="reviewed by" bad reviews.mbox >out 2>err &&
	repo_state >after &&
	test_cmp before after &&
	test_must_be_empty out &&
	head -n 1 err >actual &&
	echo "error: bad trailer kind ${SQ}reviewed by${SQ} in ${SQ}reviewed by${SQ} (all, none, or tokens such as ${SQ}reviewed-by,acked-by${SQ})" >expect &&
	test_cmp expect actual
'

test_expect_success 'damaged trailers in the queue state: refused, nothing moves' '
	git branch -f damaged base &&
	git checkout -q -B dmg base &&
	sed -i "s/^d line 1\$/d line 1 changed here/" d.c &&
	git commit -q -a -m "d changed here" &&
	test_expect_code 1 git-maint-queue -s dmg reviews.mbox >out 2>err &&
	# well-formed as a state file (footer: length and blob id), naming patch 9 of 4
	printf "9 Reviewed-by: X <x@example.org>\n" >payload &&
	{
		cat payload &&
		printf "#maint-state %d %s\n" $(wc -c <payload) $(git hash-object payload)
	} >.git/maint/queue/trailers &&
	touch after out err actual &&
	repo_state >before &&
	test_expect_code 128 git-maint-queue --skip >out 2>err &&
	repo_state >after &&
	test_cmp before after &&
	grep "^error: queue state: the trailers are damaged\$" err &&
	git-maint-queue --abort >/dev/null
'

test_done
