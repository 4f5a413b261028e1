#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue on what lists deliver: the commits of git am -s on the patches alone'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-threads.sh"

SQ="'"

# same_as_am <branch> <patches> <mailbox>...: git am -s the patches alone
# on am-<branch>, git maint-queue -s the mailboxes on <branch>, both from
# base: the same commit ids (same trees, authors, dates, messages). With
# --no-trailers: what the replies' trailers add is t0415's.
same_as_am () {
	b=$1 patches=$2 &&
	shift 2 &&
	git checkout -q -B "am-$b" base &&
	git am -q -s "$patches" &&
	git checkout -q --detach base &&
	git branch -f "$b" base &&
	git-maint-queue -s --no-trailers "$b" "$@" >out &&
	git rev-parse "am-$b" >expect &&
	git rev-parse "$b" >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: real-shaped threads from git format-patch' '
	threads_setup
'

test_expect_success 'a thread with a cover letter and replies: the commits of git am -s on the patches' '
	same_as_am thread v1-patches.mbox thread.mbox &&
	cat >expect <<-EOF &&
	Skipping cover letter: [PATCH 0/4] topic: four changes
	Skipping reply: Re: [PATCH 0/4] topic: four changes
	Skipping reply: Re: [PATCH 2/4] topic: change b
	Skipping reply: Re: [PATCH 3/4] topic: change c
	Skipping reply: topic: change d
	Queueing 4 patches on ${SQ}thread${SQ} (1 cover letter and 4 replies skipped)
	Applying: topic: change a
	Applying: topic: change b
	Applying: topic: change c
	Applying: topic: change d
	EOF
	sed "\$d" out >actual &&
	test_cmp expect actual
'

test_expect_success 'a b4-style cover letter' '
	same_as_am b4 v1-patches.mbox b4.mbox &&
	grep "^Queueing 4 patches on .b4. (1 cover letter skipped)\$" out
'

test_expect_success 'v2 whose cover letter carries an interdiff and a range-diff' '
	same_as_am v2 v2-patches.mbox git-v2/*
'

test_expect_success 'v1 and v2 in one mailbox as mbox-split writes it: v2' '
	git-maint-mbox-split git-v1/* git-v2/* >both.mbox &&
	same_as_am both v2-patches.mbox both.mbox
'

test_expect_success 'duplicates across two mailboxes: every patch once' '
	same_as_am dup v1-patches.mbox list.mbox thread.mbox &&
	grep "^Queueing 4 patches on .dup. (1 cover letter, 4 replies and 9 duplicates skipped)\$" out
'

test_expect_success 'a series sent without threading' '
	same_as_am plain v1-patches.mbox plain.mbox
'

test_expect_success 'a partial reroll: v1 1, 2, 4 and v2 3, in order' '
	same_as_am reroll reroll-patches.mbox reroll.mbox &&
	grep "^Skipping superseded patch: \[PATCH 3/4\] topic: change c\$" out
'

# read_alike <name> <mailbox>...: dry-apply and queue step over the same
# mail, say so in the same words and take the same patches in the same order.
read_alike () {
	name=$1 &&
	shift &&
	git-maint-dry-apply --onto base "$@" >dry.out &&
	sed -n -e "/^Skipping /p" -e "s/^Patch [0-9]*\/[0-9]*: /Applying: /p" \
		-e "s/^Checking \([0-9]* patch.*\) against base/Read \1/p" dry.out >expect &&
	git branch -f "alike-$name" base &&
	git-maint-queue "alike-$name" "$@" >queue.out &&
	sed -n -e "/^Skipping /p" -e "/^Applying: /p" \
		-e "s/^Queueing \([0-9]* patch.*\) on .alike-$name./Read \1/p" queue.out >actual &&
	test_cmp expect actual
}

test_expect_success 'dry-apply and queue read a series alike: what is skipped, what is taken, in order' '
	read_alike thread thread.mbox &&
	read_alike dup list.mbox thread.mbox &&
	read_alike reroll reroll.mbox &&
	grep "^Skipping superseded patch: " actual
'

test_expect_success 'the whole-thread output of mbox-split goes in as it is' '
	git-maint-mbox-split --touches c.c list.mbox thread.mbox >s &&
	same_as_am split v1-patches.mbox s
'

test_expect_success 'a reply carrying a diff is never committed under its author' '
	git log --format=%an base..thread >authors &&
	! grep -e "Rev Iewer" -e "Other Person" authors &&
	git diff base thread -- c.c d.c >diff &&
	! grep -e "suggested by the reviewer" -e "from a bystander" diff
'

test_expect_success 'a mailbox of only a cover letter and replies: no patches found, nothing changed' '
	awk "/^From 0000/{n++} n==1 || n==2" replies.mbox >only-replies.mbox &&
	cat git-v1/0000-cover-letter.patch only-replies.mbox >no-patch.mbox &&
	git branch -f none base &&
	: >out && : >err && : >after &&
	repo_state >before &&
	test_expect_code 1 git-maint-queue -q none no-patch.mbox >out 2>err &&
	echo "error: no patches found" >expect &&
	test_cmp expect err &&
	repo_state >after &&
	test_cmp before after &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'a step refused for local changes claims no patch: no "Applying:"' '
	git checkout -q -B dirty base &&
	echo local >>c.c &&
	: >out && : >err && : >after &&
	repo_state | grep -v "objects/pack/" >before &&
	test_expect_code 128 git-maint-queue dirty thread.mbox >out 2>err &&
	! grep "^Applying:" out &&
	grep "^fatal: your local changes" err &&
	repo_state | grep -v "objects/pack/" >after &&
	test_cmp before after &&
	test "$(git rev-parse dirty)" = "$(git rev-parse base)" &&
	git checkout -q c.c &&
	git checkout -q --detach base
'

test_done
