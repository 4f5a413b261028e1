#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-publish: the pre-publish checks (sign-offs, Fixes: tags) and the build, each stopping with nothing changed'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-publish.sh"
. "$MAINT_TEST_DIR/lib-git-server.sh"

SOB_A='Signed-off-by: A U Thor <author@example.com>'
SOB_C='Signed-off-by: C O Mitter <committer@example.com>'

# commit_msg <file> <message>: a commit with that whole message.
commit_msg () {
	echo "$2" >>"$1" &&
	git add "$1" &&
	test_tick &&
	git commit -q -F - <<-EOF
	$2
	EOF
}

test_expect_success 'setup: a tree with both checks on' '
	notify_stub &&
	setup_article_repo r &&
	make_bare_server_repo origin.git &&
	git -C r remote add origin "$PWD/origin.git" &&
	git -C r push -q origin usb-next &&
	printf "[tree \"usb\"]\n\tpublic = usb-next\n\twork = work-next\n\tcheck-signoff = true\n\tcheck-fixes = true\n\tbuild = sh build.sh\n" \
		>r/.git/maint.ini &&
	in_repo r commit_msg a.c "$(printf "usb: a\n\nbody\n\n%s\n%s" "$SOB_A" "$SOB_C")" &&
	git -C r rev-parse HEAD >good
'

test_expect_success 'sign-offs of author and committer present: the plan says the checks passed' '
	in_repo r git-maint-publish -n --build >out &&
	grep "^Checks: signoff, fixes passed$" out &&
	grep "^Build: sh build.sh (not run with --dry-run)$" out
'

# refused <expected error line>...: exit 1, those lines, nothing changed here or there.
refused () {
	repo_state_of r >before &&
	origin_before=$(remote_tip origin.git usb-next) &&
	test_expect_code 1 in_repo r git-maint-publish >out 2>err &&
	printf "%s\n" "$@" >expect &&
	echo "error: the checks failed; nothing was changed" >>expect &&
	echo "hint: mend the commits on 'work-next' (they are not public yet), or turn the check off (tree.usb.check-signoff, tree.usb.check-fixes)" >>expect &&
	test_cmp expect err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test "$(remote_tip origin.git usb-next)" = "$origin_before" &&
	test_must_be_empty notify.log
}

test_expect_success 'no sign-off of the committer: refused, naming the commit' '
	in_repo r commit_msg b.c "$(printf "usb: b\n\n%s" "$SOB_A")" &&
	id=$(git -C r rev-parse --short=7 HEAD) &&
	refused "error: $id ('"'"'usb: b'"'"'): no Signed-off-by: of its committer <committer@example.com>"
'

test_expect_success 'no sign-off at all, in a body that only mentions one: both named' '
	git -C r reset -q --hard HEAD~1 &&
	in_repo r commit_msg b.c "$(printf "usb: b\n\nSigned-off-by: A U Thor <author@example.com> is not a trailer here.\n\nJust text.")" &&
	id=$(git -C r rev-parse --short=7 HEAD) &&
	refused "error: $id ('"'"'usb: b'"'"'): no Signed-off-by: of its author <author@example.com>" \
		"error: $id ('"'"'usb: b'"'"'): no Signed-off-by: of its committer <committer@example.com>"
'

fixes_case () {
	git -C r reset -q --hard "$(cat good)" &&
	in_repo r commit_msg c.c "$(printf "usb: c\n\n%s\n%s\n%s" "$1" "$SOB_A" "$SOB_C")" &&
	id=$(git -C r rev-parse --short=7 HEAD)
}

test_expect_success 'Fixes: with fewer than 12 hex digits: refused' '
	fixes_case "Fixes: $(git -C r rev-parse --short=8 base) (\"base\")" &&
	refused "error: $id ('"'"'usb: c'"'"'): '"'"'Fixes: $(git -C r rev-parse --short=8 base)'"'"' needs 12 to 40 hex digits"
'

test_expect_success 'Fixes: quoting another subject: refused, both subjects named' '
	fixes_case "Fixes: $(git -C r rev-parse --short=12 base) (\"the wrong subject\")" &&
	refused "error: $id ('"'"'usb: c'"'"'): '"'"'Fixes: $(git -C r rev-parse --short=12 base)'"'"' quotes '"'"'the wrong subject'"'"', but that commit is '"'"'base'"'"'"
'

test_expect_success 'Fixes: naming a commit that is not an ancestor, or none: refused' '
	side=$(git -C r commit-tree -m "side" base^{tree}) &&
	fixes_case "Fixes: $(echo $side | cut -c1-12) (\"side\")" &&
	refused "error: $id ('"'"'usb: c'"'"'): '"'"'Fixes: $(echo $side | cut -c1-12)'"'"' names a commit that is not an ancestor of it" &&
	fixes_case "Fixes: 0123456789ab (\"nothing\")" &&
	refused "error: $id ('"'"'usb: c'"'"'): '"'"'Fixes: 0123456789ab'"'"' names no commit here"
'

test_expect_success 'Fixes: without its ("subject"): refused' '
	fixes_case "Fixes: $(git -C r rev-parse --short=12 base)" &&
	refused "error: $id ('"'"'usb: c'"'"'): '"'"'Fixes: $(git -C r rev-parse --short=12 base)'"'"' has no (\"<subject>\")"
'

test_expect_success 'a good Fixes:, and a merge commit (not checked): the build runs, then published' '
	fixes_case "Fixes: $(git -C r rev-parse --short=12 base) (\"base\")" &&
	printf "side2\n\n%s\n%s\n" "$SOB_A" "$SOB_C" >msg &&
	git -C r merge -q --no-ff -m "Merge a side branch" $(git -C r commit-tree -p base -F "$PWD/msg" base^{tree}) &&
	echo "echo built on \$GIT_MAINT_BRANCH >built" >r/build.sh &&
	in_repo r git-maint-publish --build -q &&
	echo "built on work-next" >expect &&
	test_cmp expect r/built &&
	test "$(remote_tip origin.git usb-next)" = "$(git -C r rev-parse work-next)"
'

test_expect_success 'a failing build: exit 1, nothing changed' '
	rm r/built &&
	: >notify.log &&
	in_repo r commit_msg d.c "$(printf "usb: d\n\n%s\n%s" "$SOB_A" "$SOB_C")" &&
	echo "exit 3" >r/build.sh &&
	repo_state_of r >before &&
	test_expect_code 1 in_repo r git-maint-publish --build 2>err &&
	echo "error: the build failed (exit 3); nothing was changed" >expect &&
	test_cmp expect err &&
	repo_state_of r >after &&
	test_cmp before after &&
	test_must_be_empty notify.log
'

test_expect_success '--build with the work branch not checked out: refused' '
	git -C r checkout -q master &&
	test_expect_code 128 in_repo r git-maint-publish --build work-next 2>err &&
	echo "fatal: --build runs in the work tree of '"'"'work-next'"'"'; check it out first" >expect &&
	test_cmp expect err &&
	git -C r checkout -q work-next
'

test_done
