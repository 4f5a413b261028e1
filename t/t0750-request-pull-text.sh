#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-request-pull: the dry run, the mail'"'"'s text against git request-pull'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

. "$MAINT_TEST_DIR/lib-request-pull.sh"

test_expect_success 'setup: master upstream, usb-next ahead by two authors, a bare origin' '
	make_bare_server_repo origin.git &&
	setup_pull_repo r "$PWD/origin.git"
'

test_expect_success 'the dry run: an mbox on stdout, nothing written' '
	repo_state_of r >before &&
	git -C r maint-request-pull --no-sign --tag usb-6.2-rc4 -F ../msg usb-next >out 2>err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_path_is_missing r/.git/refs/tags/usb-6.2-rc4 &&
	test_path_is_missing r/.git/maint/request-pull &&
	test "$(grep -c "^From " out)" = 1 &&
	grep "^From $(git -C r rev-parse usb-next) " out &&
	grep "^Subject: \[GIT PULL\] USB changes for 6.2-rc4$" out &&
	grep "^To: Linus <linus@example.org>$" out &&
	grep "^Cc: usb list <linux-usb@example.org>$" out &&
	grep "would tag the tip of .usb-next. .* as .usb-6.2-rc4., unsigned" err
'

test_expect_success 'the body is git request-pull'"'"'s output, byte for byte' '
	git -C r tag -a -F ../msg usb-6.2-rc4 usb-next &&
	git -C r push -q origin usb-6.2-rc4 &&
	oracle r usb-6.2-rc4 "$PWD/origin.git" >expect &&
	pull_text out >actual &&
	test_cmp expect actual
'

test_expect_success 'an existing tag of the tip is taken as it is: the same text' '
	git -C r maint-request-pull --tag usb-6.2-rc4 >out2 2>err &&
	pull_text out2 >actual &&
	test_cmp expect actual &&
	! grep "would tag" err
'

test_expect_success 'a tag of that name elsewhere is refused' '
	git -C r tag -a -m "old" usb-old master &&
	test_expect_code 1 git -C r maint-request-pull --tag usb-old >out 2>err &&
	test_must_be_empty out &&
	grep "tag .usb-old. exists and points at .*, not at the tip of .usb-next." err
'

test_expect_success 'a lightweight tag of that name is refused' '
	git -C r tag usb-light usb-next &&
	test_expect_code 1 git -C r maint-request-pull --tag usb-light >out 2>err &&
	grep "tag .usb-light. exists and is not an annotated tag" err
'

test_expect_success 'the work branch stands for its tree'"'"'s public branch' '
	git -C r checkout -q work-next &&
	git -C r maint-request-pull --no-sign --tag usb-6.2-rc4 >out3 &&
	pull_text out3 >actual &&
	test_cmp expect actual
'

test_expect_success 'a merge in the branch, renames, mode changes: the oracle again' '
	(
		cd r &&
		git checkout -q -b topic usb-next &&
		git mv base.t drivers/usb/base.t &&
		git mv drivers/usb/core.c drivers/usb/core-renamed.c &&
		chmod +x drivers/usb/base.t &&
		git add drivers/usb/base.t &&
		test_tick &&
		git commit -q -m "usb: table: rename" &&
		git checkout -q usb-next &&
		queue_commit drivers/usb/gadget/g.c "usb: gadget: new" &&
		test_tick &&
		git merge -q --no-ff -m "Merge branch topic into usb-next" topic &&
		git tag -a -m "USB merge for 6.2" usb-merge usb-next &&
		git push -q origin usb-next usb-merge
	) &&
	oracle r usb-merge "$PWD/origin.git" >expect &&
	grep "rename base.t => drivers/usb/base.t (100%)" expect &&
	git -C r maint-request-pull --tag usb-merge usb-next >out4 &&
	pull_text out4 >actual &&
	test_cmp expect actual
'

test_expect_success 'a .mailmap names the authors as git shortlog does' '
	(
		cd r &&
		echo "Beatrice Hacker <bea@example.org>" >.mailmap &&
		git add .mailmap &&
		test_tick &&
		git commit -q -m "mailmap" &&
		git tag -a -m "USB mailmap" usb-mm usb-next &&
		git push -q origin usb-next usb-mm
	) &&
	oracle r usb-mm "$PWD/origin.git" >expect &&
	grep "^Beatrice Hacker (" expect &&
	git -C r maint-request-pull --tag usb-mm usb-next >out5 &&
	pull_text out5 >actual &&
	test_cmp expect actual
'

test_expect_success 'no tag name, no recipient: clear errors' '
	test_expect_code 128 git -C r maint-request-pull usb-next >out 2>err &&
	grep "no tag name: give --tag <name>, or set tree.usb.tag-format" err &&
	git -C r branch foo-next usb-next &&
	test_expect_code 128 git -C r maint-request-pull --tag x foo-next >out 2>err &&
	grep "nobody to ask: give --to <address>, or set tree.foo.upstream-to" err
'

test_expect_success 'tree.<name>.tag-format: %(version) from the upstream'"'"'s latest tag' '
	git -C r tag -d usb-old &&
	git -C r tag v6.2-rc3 master &&
	git -C r config maint.tree.usb.tag-format "usb-%(version)" &&
	git -C r maint-request-pull --no-sign usb-next >out 2>err &&
	git -C r config --unset maint.tree.usb.tag-format &&
	grep "as .usb-v6.2-rc3., unsigned" err
'

test_expect_success 'usage: -h, conflicting options' '
	test_expect_code 129 git -C r maint-request-pull -h >out &&
	grep "git maint-request-pull \[<options>\] \[<public-branch>\]" out &&
	test_expect_code 129 git -C r maint-request-pull -m a -F b 2>err &&
	test_expect_code 129 git -C r maint-request-pull --continue --tag x 2>err &&
	test_expect_code 129 git -C r maint-request-pull a b 2>err
'

test_done
