#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-request-pull: the tag message from a template (tree, release, shortlog) or the editor, the greeting from a template'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"
. "$MAINT_TEST_DIR/lib-smtp.sh"
. "$MAINT_TEST_DIR/lib-request-pull.sh"

cleanup stop_smtp_server

# The tag message a mail (or an mbox) carries: between git request-pull's dashed lines.
tag_message_of () {
	sed -n "/^-\{64\}\$/,/^-\{64\}\$/p" "$1" | sed -e 1d -e \$d
}

# The greeting a mail carries: its body up to git request-pull's text.
greeting_of () {
	sed -e "1,/^\$/d" -e "/^The following changes since commit/,\$d" "$1"
}

# An editor is a shell command, as in git: a path with a space (the trash
# directory's) is quoted.
# The editor: records what it was given in edit-seen (and how often), then
# writes the message in $TRASH_DIRECTORY/edit-reply, if there is one.
test_expect_success 'setup: a release tag on the upstream, a bare origin, the SMTP server, an editor' '
	setup_pull_repos &&
	git -C r tag v6.2-rc3 master &&
	start_smtp_server &&
	(cd r && smtp_config && git config sendemail.smtpPass "$SMTP_PASSWORD") &&
	cat >editor.sh <<-EOF &&
	#!/bin/sh
	cat "\$1" >"$PWD/edit-seen" &&
	echo "\$1" >>"$PWD/edit-calls" &&
	if test -f "$PWD/edit-reply"; then cat "$PWD/edit-reply" >"\$1"; fi
	EOF
	chmod +x editor.sh &&
	git -C r shortlog master..usb-next >shortlog &&
	grep "^Bea Hacker (3):\$" shortlog
'

test_expect_success 'the default tag message: the tree, the upstream'"'"'s release, the shortlog' '
	in_repo r git-maint-request-pull --no-sign --tag usb-t1 >out 2>err &&
	grep "^Subject: \[GIT PULL\] usb updates for usb-t1\$" out &&
	{
		printf "usb updates for usb-t1\n\nChanges on top of v6.2-rc3:\n\n" &&
		sed "\$d" shortlog &&
		echo
	} >expect &&
	tag_message_of out >actual &&
	test_cmp expect actual
'

# Runs a command in r with no tag on the upstream, the tags put back after.
without_release () {
	git -C r for-each-ref --merged master --format="%(refname) %(objectname)" refs/tags >saved-tags &&
	while read ref oid; do git -C r update-ref -d "$ref" || return 1; done <saved-tags &&
	"$@"
	ret=$?
	while read ref oid; do git -C r update-ref "$ref" "$oid" || return 1; done <saved-tags &&
	return $ret
}

test_expect_success 'an upstream without a release: the line naming it is left out' '
	without_release git -C r maint-request-pull --no-sign --tag usb-t1 >out 2>err &&
	{
		printf "usb updates for usb-t1\n\n" &&
		sed "\$d" shortlog &&
		echo
	} >expect &&
	tag_message_of out >actual &&
	test_cmp expect actual
'

test_expect_success 'tree.<name>.tag-template: a file with every placeholder, comments stripped' '
	cat >tag-template <<-\EOF &&
	%(tree): %(branch) as %(tag), for %(upstream) after %(version)
	# a comment, left out as git tag leaves it out
	100% of it, %%(tree) literally

	%(shortlog)
	EOF
	git -C r config maint.tree.usb.tag-template "$PWD/tag-template" &&
	in_repo r git-maint-request-pull --no-sign --tag usb-t2 >out 2>err &&
	git -C r config --unset maint.tree.usb.tag-template &&
	grep "^Subject: \[GIT PULL\] usb: usb-next as usb-t2, for master after v6.2-rc3\$" out &&
	{
		echo "usb: usb-next as usb-t2, for master after v6.2-rc3" &&
		echo "100% of it, %(tree) literally" &&
		echo &&
		sed "\$d" shortlog &&
		echo
	} >expect &&
	tag_message_of out >actual &&
	test_cmp expect actual
'

test_expect_success 'a tag template with an unknown placeholder, or missing: the file and line, exit 128' '
	printf "USB\n\n%%(nope)\n" >bad-template &&
	git -C r config maint.tree.usb.tag-template "$PWD/bad-template" &&
	test_expect_code 128 in_repo r git-maint-request-pull --no-sign --tag usb-t3 >out 2>err &&
	test_must_be_empty out &&
	grep "bad-template:3: unknown placeholder .%(nope)." err &&
	git -C r config maint.tree.usb.tag-template "$PWD/no-such-template" &&
	test_expect_code 128 in_repo r git-maint-request-pull --no-sign --tag usb-t3 >out 2>err &&
	git -C r config --unset maint.tree.usb.tag-template &&
	grep "cannot read the template .*no-such-template. (tree.usb.tag-template, git config .maint.tree.usb.tag-template.)" err
'

test_expect_success 'tree.<name>.tag-format in the same syntax: an unknown placeholder, %(version) without a release' '
	git -C r config maint.tree.usb.tag-format "usb-%(bogus)" &&
	test_expect_code 128 in_repo r git-maint-request-pull --no-sign >out 2>err &&
	grep "tree.usb.tag-format:1: unknown placeholder .%(bogus)." err &&
	git -C r config maint.tree.usb.tag-format "usb-%(version)" &&
	test_expect_code 128 without_release git -C r maint-request-pull --no-sign >out 2>err &&
	grep "tree.usb.tag-format: %(version): no tag on the upstream .master." err &&
	in_repo r git-maint-request-pull --no-sign >out 2>err &&
	git -C r config --unset maint.tree.usb.tag-format &&
	grep "as .usb-v6.2-rc3., unsigned" err
'

test_expect_success '--edit: the template in TAG_EDITMSG with git'"'"'s comment lines; comments stripped' '
	printf "USB edited\n# a comment of mine\n\nThe body.\n" >edit-reply &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r maint-request-pull --no-sign --tag usb-e1 --edit >out 2>err &&
	test "$(cat edit-calls)" = "$PWD/r/.git/TAG_EDITMSG" &&
	{
		printf "usb updates for usb-e1\n\nChanges on top of v6.2-rc3:\n\n" &&
		sed "\$d" shortlog &&
		echo &&
		echo "#" &&
		echo "# Write a message for tag:" &&
		echo "#   usb-e1" &&
		echo "# Lines starting with '"'#'"' will be ignored." &&
		echo "# The tag is of '"'usb-next'"'; its first line follows \"[GIT PULL] \" in the" &&
		echo "# mail to Linus <linus@example.org>. An empty message stops here."
	} >expect &&
	test_cmp expect edit-seen &&
	grep "^Subject: \[GIT PULL\] USB edited\$" out &&
	printf "USB edited\n\nThe body.\n\n" >expect &&
	tag_message_of out >actual &&
	test_cmp expect actual &&
	test_path_is_missing r/.git/TAG_EDITMSG
'

test_expect_success '--edit with -m: the message given is what the editor starts from' '
	rm -f edit-reply edit-calls &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r maint-request-pull --no-sign --tag usb-e2 -m "USB given" -e >out 2>err &&
	test_line_count = 1 edit-calls &&
	test "$(head -n 1 edit-seen)" = "USB given" &&
	grep "^Subject: \[GIT PULL\] USB given\$" out
'

test_expect_success 'the editor as git chooses it: GIT_EDITOR, then core.editor, then VISUAL, then EDITOR' '
	rm -f edit-calls &&
	printf "#!/bin/sh\necho other >>\"%s/edit-calls\"\n" "$PWD" >other.sh &&
	chmod +x other.sh &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r -c core.editor="\"$PWD/other.sh\"" maint-request-pull --no-sign --tag usb-e3 -m x -e >out &&
	test "$(cat edit-calls)" = "$PWD/r/.git/TAG_EDITMSG" &&
	rm edit-calls &&
	(
		unset GIT_EDITOR &&
		TERM=vt100 VISUAL="\"$PWD/editor.sh\"" EDITOR="\"$PWD/editor.sh\"" &&
		export TERM VISUAL EDITOR &&
		git -C r -c core.editor="\"$PWD/other.sh\"" maint-request-pull --no-sign --tag usb-e3 -m x -e >out &&
		test "$(cat edit-calls)" = other &&
		rm edit-calls &&
		EDITOR="\"$PWD/other.sh\"" git -C r maint-request-pull --no-sign --tag usb-e3 -m x -e >out &&
		test "$(cat edit-calls)" = "$PWD/r/.git/TAG_EDITMSG" &&
		rm edit-calls &&
		TERM=dumb EDITOR="\"$PWD/other.sh\"" git -C r maint-request-pull --no-sign --tag usb-e3 -m x -e >out &&
		test "$(cat edit-calls)" = other &&
		rm edit-calls &&
		unset EDITOR &&
		test_expect_code 128 env TERM=dumb git -C r maint-request-pull --no-sign --tag usb-e3 -m x -e >out 2>err &&
		grep "terminal is dumb, but EDITOR unset" err
	)
'

test_expect_success 'an editor that fails, or an empty message: exit 128, nothing tagged, pushed or sent' '
	rm -f r/.git/TAG_EDITMSG &&
	repo_state_of r >before &&
	GIT_EDITOR=false test_expect_code 128 in_repo r git-maint-request-pull --no-sign --tag usb-e4 -e --send >out 2>err &&
	grep "there was a problem with the editor .false." err &&
	grep "the tag message has been left in .*TAG_EDITMSG.; nothing was tagged" err &&
	test_path_is_file r/.git/TAG_EDITMSG &&
	printf "# only a comment\n\n" >edit-reply &&
	GIT_EDITOR="\"$PWD/editor.sh\"" test_expect_code 128 in_repo r git-maint-request-pull --no-sign --tag usb-e4 -e --send >out 2>err &&
	grep "no tag message; nothing was tagged, pushed or mailed" err &&
	test_path_is_missing r/.git/TAG_EDITMSG &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_fail git -C r rev-parse -q --verify refs/tags/usb-e4 &&
	test_must_fail git -C origin.git rev-parse -q --verify refs/tags/usb-e4 &&
	test_path_is_missing r/.git/maint/request-pull &&
	test "$(smtp_count)" = 0
'

test_expect_success 'core.commentChar: the editor'"'"'s comment lines and the cleanup use it, as git tag' '
	printf "USB semi\n# a hash line stays\n; a comment of mine\n\nThe body.\n" >edit-reply &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r -c core.commentChar=";" maint-request-pull --no-sign \
		--tag usb-c1 --edit >out 2>err &&
	grep "^;" edit-seen | head -n 4 >ours &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r -c core.commentChar=";" tag -a usb-c1-git usb-next &&
	grep "^;" edit-seen | sed "s/usb-c1-git/usb-c1/" >theirs &&
	grep "^; Lines starting with .;. will be ignored.\$" theirs &&
	test_cmp theirs ours &&
	! grep "^#" edit-seen &&
	git -C r cat-file tag usb-c1-git | sed "1,/^\$/d" >expect &&
	echo >>expect &&
	tag_message_of out >actual &&
	test_cmp expect actual &&
	grep "^# a hash line stays\$" actual &&
	git -C r tag -d usb-c1-git &&
	test_expect_code 128 git -C r -c core.commentChar=ab maint-request-pull --no-sign --tag usb-c2 -m x \
		>out 2>err &&
	grep "core.commentChar should only be one character" err
'

test_expect_success '--cleanup=strip, whitespace, verbatim: the message as git tag --cleanup leaves it' '
	msg="$(printf "  USB clean  \n# a hash line\n\n \nThe body.  ")" &&
	for mode in strip whitespace verbatim
	do
		git -C r tag -a --cleanup=$mode -m "$msg" usb-cl-git usb-next &&
		git -C r push -q origin usb-cl-git &&
		oracle r usb-cl-git "$PWD/origin.git" | sed "s/usb-cl-git/usb-cl-$mode/" >expect &&
		git -C r maint-request-pull --no-sign --tag usb-cl-$mode --cleanup=$mode -m "$msg" >out &&
		pull_text out >actual &&
		test_cmp expect actual &&
		git -C r tag -d usb-cl-git &&
		git -C r push -q origin :refs/tags/usb-cl-git || return 1
	done &&
	grep "^# a hash line\$" actual &&
	test_expect_code 128 git -C r maint-request-pull --no-sign --tag usb-cl -m x --cleanup=scissors 2>err &&
	grep "invalid cleanup mode .scissors." err
'

test_expect_success '--cleanup=verbatim with the editor: git'"'"'s "will be kept" lines, the comments kept' '
	rm -f edit-reply &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r maint-request-pull --no-sign --tag usb-c3 --cleanup=verbatim \
		--edit >out 2>err &&
	grep "^#" edit-seen | head -n 4 >ours &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r tag -a --cleanup=verbatim usb-c3-git usb-next &&
	grep "^#" edit-seen | sed "s/usb-c3-git/usb-c3/" >theirs &&
	grep "will be kept; you may remove them yourself if you want to.\$" theirs &&
	test_cmp theirs ours &&
	git -C r tag -d usb-c3-git &&
	tag_message_of out >actual &&
	grep "^# Write a message for tag:\$" actual
'

test_expect_success 'not on a terminal, --send runs no editor: the template is the message' '
	rm -f edit-calls &&
	GIT_EDITOR="\"$PWD/editor.sh\"" git -C r maint-request-pull --no-sign --tag usb-s1 --send >out 2>err &&
	test_path_is_missing edit-calls &&
	test "$(smtp_count)" = 1 &&
	test "$(smtp_header 1 Subject)" = "[GIT PULL] usb updates for usb-s1" &&
	test "$(git -C origin.git rev-parse refs/tags/usb-s1)" = "$(git -C r rev-parse usb-s1)"
'

test_expect_success 'on a terminal, --send hands the message to the editor first (--no-edit: not)' '
	in_repo r queue_commit drivers/usb/t.c "usb: t" &&
	git -C r push -q origin usb-next &&
	printf "USB from the terminal\n" >edit-reply &&
	rm -f edit-calls &&
	(
		cd r &&
		GIT_EDITOR="\"$TRASH_DIRECTORY/editor.sh\"" TERM=vt100 \
		/usr/bin/python3 -S "$MAINT_TEST_DIR/lib/pty-run.py" -- \
			git-maint-request-pull --no-sign --tag usb-s2 --send
	) >pty.out &&
	test_line_count = 1 edit-calls &&
	test "$(smtp_header 2 Subject)" = "[GIT PULL] USB from the terminal" &&
	in_repo r queue_commit drivers/usb/u.c "usb: u" &&
	git -C r push -q origin usb-next &&
	(
		cd r &&
		GIT_EDITOR="\"$TRASH_DIRECTORY/editor.sh\"" TERM=vt100 \
		/usr/bin/python3 -S "$MAINT_TEST_DIR/lib/pty-run.py" -- \
			git-maint-request-pull --no-sign --tag usb-s3 --send --no-edit
	) >pty.out &&
	test_line_count = 1 edit-calls &&
	test "$(smtp_header 3 Subject)" = "[GIT PULL] usb updates for usb-s3"
'

test_expect_success 'the default greeting' '
	in_repo r git-maint-request-pull --no-sign --tag usb-s3 >out &&
	printf "Hi,\n\nplease pull the usb changes below.\n\nThanks,\nC O Mitter\n\n" >expect &&
	greeting_of out >actual &&
	test_cmp expect actual
'

test_expect_success 'tree.<name>.greeting: a file with placeholders, trailing blank lines dropped' '
	cat >greeting <<-\EOF &&
	Hello %(to-name),

	please pull %(tag) (%(subject)) of %(branch), the %(tree) tree,
	into %(upstream), after %(version).

	%(me)


	EOF
	git -C r config maint.tree.usb.greeting "$PWD/greeting" &&
	in_repo r git-maint-request-pull --no-sign --tag usb-s3 >out &&
	{
		echo "Hello Linus," &&
		echo &&
		echo "please pull usb-s3 (usb updates for usb-s3) of usb-next, the usb tree," &&
		echo "into master, after v6.2-rc3." &&
		echo &&
		echo "C O Mitter" &&
		echo
	} >expect &&
	greeting_of out >actual &&
	test_cmp expect actual &&
	pull_text out >text &&
	git -C r config --unset maint.tree.usb.greeting &&
	in_repo r git-maint-request-pull --no-sign --tag usb-s3 >out2 &&
	pull_text out2 >text2 &&
	test_cmp text2 text
'

test_expect_success 'an empty greeting: the body starts with git request-pull'"'"'s text; a bad one: file and line' '
	: >greeting &&
	git -C r config maint.tree.usb.greeting "$PWD/greeting" &&
	in_repo r git-maint-request-pull --no-sign --tag usb-s3 >out &&
	sed -e "1,/^\$/d" out | head -n 1 >actual &&
	echo "The following changes since commit $(git -C r merge-base master usb-s3):" >expect &&
	test_cmp expect actual &&
	printf "Hi\n%%(shortlog)\n" >greeting &&
	test_expect_code 128 in_repo r git-maint-request-pull --no-sign --tag usb-s3 >out 2>err &&
	git -C r config --unset maint.tree.usb.greeting &&
	grep "greeting:2: unknown placeholder .%(shortlog)." err
'

test_expect_success 'usage: --continue and --abort take no --edit' '
	test_expect_code 129 in_repo r git-maint-request-pull --continue --edit 2>err &&
	grep "take no other arguments" err &&
	test_expect_code 129 in_repo r git-maint-request-pull --abort --no-edit 2>err
'

test_done
