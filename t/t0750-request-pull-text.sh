#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-request-pull: the dry run, the mail'"'"'s text against git request-pull'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

. "$MAINT_TEST_DIR/lib-request-pull.sh"

test_expect_success 'setup: master upstream, usb-next ahead by two authors, a bare origin' '
	setup_pull_repos
'

test_expect_success 'the dry run: an mbox on stdout, nothing written' '
	repo_state_of r >before &&
	in_repo r git-maint-request-pull --no-sign --tag usb-6.2-rc4 -F ../msg usb-next >out 2>err &&
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
	in_repo r git-maint-request-pull --tag usb-6.2-rc4 >out2 2>err &&
	pull_text out2 >actual &&
	test_cmp expect actual &&
	! grep "would tag" err
'

test_expect_success 'a tag of that name elsewhere is refused' '
	git -C r tag -a -m "old" usb-old master &&
	test_expect_code 1 in_repo r git-maint-request-pull --tag usb-old >out 2>err &&
	test_must_be_empty out &&
	grep "tag .usb-old. exists and points at .*, not at the tip of .usb-next." err
'

test_expect_success 'a lightweight tag of that name is refused' '
	git -C r tag usb-light usb-next &&
	test_expect_code 1 in_repo r git-maint-request-pull --tag usb-light >out 2>err &&
	grep "tag .usb-light. exists and is not an annotated tag" err
'

test_expect_success 'the work branch stands for its tree'"'"'s public branch' '
	git -C r checkout -q work-next &&
	in_repo r git-maint-request-pull --no-sign --tag usb-6.2-rc4 >out3 &&
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
	in_repo r git-maint-request-pull --tag usb-merge usb-next >out4 &&
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
	in_repo r git-maint-request-pull --tag usb-mm usb-next >out5 &&
	pull_text out5 >actual &&
	test_cmp expect actual
'

# lines <tag> <from> <to> [<word> <first> <last>]: "<tag> line N of the
# file" for N in from..to, with <word> in place of "line" for first..last
lines () {
	awk -v t="$1" -v a="$2" -v b="$3" -v w="${4-line}" -v f="${5-0}" -v l="${6-0}" \
		'BEGIN { for (i = a; i <= b; i++) print t, (i >= f && i <= l ? w : "line"), i, "of the file" }'
}

test_expect_success 'inexact renames: git'"'"'s pairs and percentages, byte for byte' '
	(
		cd r &&
		git checkout -q master &&
		mkdir -p drivers/usb/old drivers/usb/misc &&
		lines half 1 100 >drivers/usb/half.c &&
		lines under 1 100 >drivers/usb/under.c &&
		lines sixty 1 20 >drivers/usb/sixty.c &&
		lines ninety 1 20 >drivers/usb/ninety.c &&
		lines ninety-nine 1 200 >drivers/usb/ninety-nine.c &&
		lines moved 1 30 >drivers/usb/old/moved.c &&
		lines cand 1 20 WAS 5 5 >drivers/usb/cand-a.c &&
		lines cand 1 20 WAS 1 8 >drivers/usb/cand-b.c &&
		lines copied 1 20 >drivers/usb/copied.c &&
		lines dos 1 20 | sed "s/\$/$(printf "\\r")/" >drivers/usb/dos.c &&
		lines typed 1 10 >drivers/usb/typed.c &&
		git add drivers/usb &&
		test_tick &&
		git commit -q -m "usb: files to rename" &&
		git push -q origin master &&
		git checkout -q usb-next &&
		test_tick &&
		git merge -q -m "Merge master into usb-next" master &&
		git rm -q -r drivers/usb/half.c drivers/usb/under.c drivers/usb/sixty.c \
			drivers/usb/ninety.c drivers/usb/ninety-nine.c drivers/usb/old \
			drivers/usb/cand-a.c drivers/usb/cand-b.c drivers/usb/copied.c drivers/usb/dos.c &&
		lines half 1 100 LINE 1 49 >drivers/usb/misc/half-renamed.c &&
		lines under 1 100 LINE 1 51 >drivers/usb/misc/under-renamed.c &&
		lines sixty 1 20 changed 1 8 >drivers/usb/misc/sixty-renamed.c &&
		lines ninety 1 20 changed 1 2 >drivers/usb/misc/ninety-renamed.c &&
		lines ninety-nine 1 200 changed 7 7 >drivers/usb/misc/ninety-nine-renamed.c &&
		mkdir drivers/usb/new &&
		lines moved 1 30 changed 10 12 >drivers/usb/new/moved.c &&
		lines cand 1 20 >drivers/usb/misc/one-of-two.c &&
		lines copied 1 20 changed 3 3 >drivers/usb/misc/copy-1.c &&
		lines copied 1 20 changed 3 4 >drivers/usb/misc/copy-2.c &&
		lines dos 1 20 >drivers/usb/misc/unix.c &&
		rm drivers/usb/typed.c &&
		ln -s core.c drivers/usb/typed.c &&
		git add -A drivers/usb &&
		test_tick &&
		git commit -q -m "usb: move the files about" &&
		git tag -a -m "USB renames" usb-renames usb-next &&
		git push -q origin usb-next usb-renames
	) &&
	oracle r usb-renames "$PWD/origin.git" >expect &&
	grep "rename drivers/usb/{half.c => misc/half-renamed.c} (51%)" expect &&
	grep "delete mode 100644 drivers/usb/under.c" expect &&
	grep "rename drivers/usb/{sixty.c => misc/sixty-renamed.c} (58%)" expect &&
	grep "rename drivers/usb/{ninety.c => misc/ninety-renamed.c} (89%)" expect &&
	grep "rename drivers/usb/{ninety-nine.c => misc/ninety-nine-renamed.c} (99%)" expect &&
	grep "rename drivers/usb/{old => new}/moved.c (" expect &&
	grep "rename drivers/usb/{cand-a.c => misc/one-of-two.c} (" expect &&
	grep "rename drivers/usb/{copied.c => misc/copy-1.c} (" expect &&
	grep "create mode 100644 drivers/usb/misc/copy-2.c" expect &&
	grep "rename drivers/usb/{dos.c => misc/unix.c} (95%)" expect &&
	grep "mode change 100644 => 120000 drivers/usb/typed.c" expect &&
	in_repo r git-maint-request-pull --tag usb-renames usb-next >out6 &&
	pull_text out6 >actual &&
	test_cmp expect actual
'

test_expect_success 'diff.renameLimit passed: no inexact renames, as git, and its warning' '
	git -C r config diff.renameLimit 1 &&
	oracle r usb-renames "$PWD/origin.git" >expect 2>oracle.err &&
	grep "create mode 100644 drivers/usb/misc/sixty-renamed.c" expect &&
	git -C r diff -M --stat --summary master...usb-renames >/dev/null 2>diff.err &&
	in_repo r git-maint-request-pull --tag usb-renames usb-next >out7 2>err &&
	git -C r config --unset diff.renameLimit &&
	pull_text out7 >actual &&
	test_cmp expect actual &&
	grep "rename detection was skipped" diff.err &&
	grep "^warning: .*rename" diff.err >want &&
	grep "^warning: .*rename" err >got &&
	test_cmp want got
'

test_expect_success 'diff.renameLimit as git reads it: 1k is 1024, a bad value is an error' '
	git -C r config diff.renameLimit 1k &&
	in_repo r git-maint-request-pull --tag usb-renames usb-next >out8 2>err &&
	pull_text out8 >actual &&
	oracle r usb-renames "$PWD/origin.git" >expect &&
	test_cmp expect actual &&
	git -C r config diff.renameLimit 1x &&
	test_must_fail git -C r diff -M --stat master usb-renames 2>diff.err &&
	test_expect_code 128 in_repo r git-maint-request-pull --tag usb-renames usb-next >out9 2>err &&
	git -C r config --unset diff.renameLimit &&
	grep "bad numeric config value .1x. for .diff.renamelimit." diff.err &&
	grep "bad numeric config value .1x. for .diff.renameLimit." err
'

test_expect_success 'non-ASCII names: quoted by default, as they are with core.quotePath false, as git' '
	(
		cd r &&
		git checkout -q usb-next &&
		mkdir -p "drivers/usb/très-long-répertoire-de-pilotes/sous-répertoire" &&
		lines café 1 5 >drivers/usb/café.c &&
		lines cjk 1 3 >"drivers/usb/日本語.c" &&
		lines long 1 4 >"drivers/usb/très-long-répertoire-de-pilotes/sous-répertoire/un-fichier-assez-long-aussi.c" &&
		git mv drivers/usb/misc/ninety-renamed.c "drivers/usb/misc/quatre-vingt-dix-é.c" &&
		git add drivers/usb &&
		test_tick &&
		git commit -q -m "usb: names in UTF-8" &&
		git tag -a -m "USB names" usb-names usb-next &&
		git push -q origin usb-next usb-names
	) &&
	oracle r usb-names "$PWD/origin.git" >expect &&
	grep -F "\"drivers/usb/caf\\303\\251.c\"" expect &&
	git -C r maint-request-pull --tag usb-names usb-next >out10 &&
	pull_text out10 >actual &&
	test_cmp expect actual &&
	git -C r config core.quotePath false &&
	oracle r usb-names "$PWD/origin.git" >expect &&
	git -C r maint-request-pull --tag usb-names usb-next >out11 &&
	git -C r config --unset core.quotePath &&
	grep "^ drivers/usb/café.c  *|  *5 ++\$" expect &&
	grep "^ \.\.\./" expect &&
	pull_text out11 >actual &&
	test_cmp expect actual
'

# git diff-tree --stdin: git diff -M --stat --summary <from> <commit> for
# every pair in one git (the same diffcore and output), each diff after
# a line with the commit's id, none for an empty diff; split here into
# "== <from> <commit>" sections, in the order test-diffstat runs
diffstat_oracle () {
	while read -r c p rest
	do
		test -z "$p" || echo "$c $p"
	done <commits | git -C r diff-tree --stdin -M --stat --summary >parent.diffs &&
	master=$(git -C r rev-parse master) &&
	while read -r c rest
	do
		echo "$c $master"
	done <commits | git -C r diff-tree --stdin -M --stat --summary >master.diffs &&
	awk '
		FILENAME == "parent.diffs" || FILENAME == "master.diffs" {
			if (length($0) == 40 && $0 ~ /^[0-9a-f]+$/) { id = FILENAME " " $0; next }
			diff[id] = diff[id] $0 "\n"; next
		}
		{
			if ($2 != "") printf "== %s^ %s\n%s", $1, $1, diff["parent.diffs " $1]
			printf "== master %s\n%s", $1, diff["master.diffs " $1]
		}' parent.diffs master.diffs commits
}

test_expect_success 'the diffstat alone, every commit against its parent and the base: git diff -M'"'"'s' '
	git -C r rev-list --parents usb-renames >commits &&
	test_line_count -gt 10 commits &&
	diffstat_oracle >expect &&
	while read -r c p rest
	do
		for from in ${p:+$c^} master
		do
			echo "== $from $c" &&
			(cd r && test-diffstat $from $c) || return 1
		done
	done <commits >actual &&
	test_cmp expect actual
'

test_expect_success 'no tag name, no recipient: clear errors' '
	test_expect_code 128 in_repo r git-maint-request-pull usb-next >out 2>err &&
	grep "no tag name: give --tag <name>, or set tree.usb.tag-format" err &&
	git -C r branch foo-next usb-next &&
	test_expect_code 128 in_repo r git-maint-request-pull --tag x foo-next >out 2>err &&
	grep "nobody to ask: give --to <address>, or set tree.foo.upstream-to" err
'

test_expect_success 'tree.<name>.tag-format: %(version) from the upstream'"'"'s latest tag' '
	git -C r tag -d usb-old &&
	git -C r tag v6.2-rc3 master &&
	git -C r config maint.tree.usb.tag-format "usb-%(version)" &&
	in_repo r git-maint-request-pull --no-sign usb-next >out 2>err &&
	git -C r config --unset maint.tree.usb.tag-format &&
	grep "as .usb-v6.2-rc3., unsigned" err
'

test_expect_success 'usage: -h, conflicting options' '
	test_expect_code 129 git -C r maint-request-pull -h >out &&
	grep "git maint-request-pull \[<options>\] \[<public-branch>\]" out &&
	test_expect_code 129 in_repo r git-maint-request-pull -m a -F b 2>err &&
	test_expect_code 129 in_repo r git-maint-request-pull --continue --tag x 2>err &&
	test_expect_code 129 in_repo r git-maint-request-pull a b 2>err
'

test_done
