#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='a stopped queue or publish is announced, as git status announces an am

Every program mentions a stopped queue or publish of the repository in
one hint line on stderr as it starts (nothing with -q, nothing outside a
repository); git maint-queue --status says where and why it stopped and
what goes on, as git status does for an am; the prompt helper of
contrib/completion says it in the prompt, as __git_ps1 does.'
. ./test-lib.sh

PROMPT="$MAINT_SRC_DIR/contrib/completion/git-maint-prompt.sh"

test_expect_success 'setup: a queue stopped at its second patch' '
	git init -q r &&
	(
		cd r &&
		echo one >a &&
		echo one >b &&
		git add a b &&
		test_commit base &&
		git tag v1 &&
		git branch work-next &&
		git branch usb-next &&
		echo two >>a &&
		git commit -q -a -m "a: two" &&
		echo two >>b &&
		git commit -q -a -m "b: two" &&
		git format-patch -q --stdout base >../series.mbox &&
		git checkout -q work-next &&
		echo other >b &&
		git commit -q -a -m "b: other" &&
		test_expect_code 1 git-maint-queue -q work-next ../series.mbox 2>/dev/null
	)
'

test_expect_success 'git maint-queue --status: where, why, and what goes on' '
	cat >expect <<-\EOF &&
	A queue on '\''work-next'\'' is stopped at patch 2 of 2: the patch does not apply.
	  [PATCH 2/2] b: two
	  (fix it and run "git maint-queue --continue"; "git maint-queue --show-current" shows its mail)
	  (use "git maint-queue --skip" to drop this patch)
	  (use "git maint-queue --abort" to put the branch back where it was)
	EOF
	(cd r && git-maint-queue --status >../out 2>../err) &&
	test_cmp expect out &&
	test_must_be_empty err
'

announcement="hint: a queue on 'work-next' is stopped at patch 2 of 2 (git maint-queue --status)"

test_expect_success 'every program announces it in one line on stderr' '
	echo "$announcement" >expect &&
	(
		cd r &&
		git-maint-mbox-split ../series.mbox >/dev/null 2>../err.mbox-split &&
		git-maint-dry-apply --onto usb-next ../series.mbox >/dev/null 2>../err.dry-apply &&
		git-maint-describe-contains base >/dev/null 2>../err.describe-contains &&
		git-maint-notify usb-next..usb-next >/dev/null 2>../err.notify
	) &&
	for c in mbox-split dry-apply describe-contains notify
	do
		grep -v "^Skipping\|^warning: no commits" err.$c >announced &&
		test_cmp expect announced || return 1
	done
'

test_expect_success 'publish refuses, saying so itself; queue refuses a second queue itself' '
	git init -q --bare srv.git &&
	git -C r remote add origin ../srv.git &&
	test_expect_code 128 git -C r maint-publish 2>err &&
	grep "^fatal: a queue is stopped; finish it" err &&
	test_line_count = 1 err &&
	(cd r && test_expect_code 128 git-maint-queue usb-next ../series.mbox 2>../err) &&
	! grep "^hint: a queue" err
'

test_expect_success 'with -q, and outside the repository, nothing is announced' '
	(cd r && git-maint-mbox-split -q ../series.mbox >/dev/null 2>../err) &&
	test_must_be_empty err &&
	git-maint-mbox-split series.mbox >/dev/null 2>err &&
	test_must_be_empty err
'

test_expect_success 'the prompt helper says QUEUE 2/2, in bash and in zsh' '
	printf " (QUEUE 2/2)" >expect &&
	(cd r && bash -c ". \"$PROMPT\" && __git_maint_ps1") >actual &&
	test_cmp expect actual &&
	printf "|QUEUE 2/2" >expect &&
	(cd r && bash -c ". \"$PROMPT\" && __git_maint_ps1 \"|%s\"") >actual &&
	test_cmp expect actual &&
	if command -v zsh >/dev/null
	then
		(cd r && zsh -c ". \"$PROMPT\" && __git_maint_ps1 \"|%s\"") >actual &&
		test_cmp expect actual
	fi &&
	(cd r/.git && bash -c ". \"$PROMPT\" && __git_maint_ps1 \"|%s\"") >actual &&
	test_cmp expect actual
'

test_expect_success 'a stopped publish too: announced, in --status and in the prompt' '
	mkdir r/.git/maint/publish &&
	printf "version 1\nwork refs/heads/work-next\npublic refs/heads/usb-next\n" >r/.git/maint/publish/state &&
	(cd r && git-maint-mbox-split ../series.mbox 2>../err >/dev/null) &&
	cat >expect <<-EOF &&
	$announcement
	hint: a publish of '\''usb-next'\'' is stopped (git maint-queue --status)
	EOF
	test_cmp expect err &&
	(cd r && git-maint-queue --status) >out &&
	grep "^A publish of '\''usb-next'\'' is stopped\.\$" out &&
	grep "git maint-publish --continue" out &&
	printf " (QUEUE 2/2|PUBLISH)" >expect &&
	(cd r && bash -c ". \"$PROMPT\" && __git_maint_ps1") >actual &&
	test_cmp expect actual &&
	rm -r r/.git/maint/publish
'

test_expect_success 'a damaged state is named as such, never trusted' '
	cp r/.git/maint/queue/state saved-state &&
	printf "next 1\nlast \033[31m\n" >r/.git/maint/queue/state &&
	(cd r && git-maint-mbox-split ../series.mbox 2>../err >/dev/null) &&
	echo "hint: a queue is stopped (git maint-queue --status)" >expect &&
	test_cmp expect err &&
	printf " (QUEUE)" >expect &&
	(cd r && bash -c ". \"$PROMPT\" && __git_maint_ps1") >actual &&
	test_cmp expect actual &&
	rm r/.git/maint/queue/state &&
	ln -s "$PWD/saved-state" r/.git/maint/queue/state &&
	(cd r && git-maint-mbox-split ../series.mbox 2>../err >/dev/null) &&
	echo "hint: a queue is stopped, its state unreadable (git maint-queue --status)" >expect &&
	test_cmp expect err &&
	rm r/.git/maint/queue/state &&
	cp saved-state r/.git/maint/queue/state
'

test_expect_success 'once the queue is done with, nothing: --status exits 1' '
	(cd r && git-maint-queue --abort >/dev/null) &&
	(cd r && test_expect_code 1 git-maint-queue --status >../out) &&
	echo "No queue and no publish is stopped." >expect &&
	test_cmp expect out &&
	(cd r && git-maint-mbox-split ../series.mbox 2>../err >/dev/null) &&
	test_must_be_empty err &&
	(cd r && bash -c ". \"$PROMPT\" && __git_maint_ps1") >actual &&
	test_must_be_empty actual
'

test_done
