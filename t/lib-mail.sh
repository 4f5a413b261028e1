# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the mail core tests (t01xx).

# git_overread_fixup <message> <info>: git 2.39's mailinfo reads past
# the end of a From: line that ends in a comment and a CR (kept by
# mailsplit --keep-cr; valgrind shows the invalid read), and its Author
# line may then carry heap bytes after the comment, which ones depending
# on the paths in its environment. The corpus has one such line, ending
# in "(trailing)": the oracle's Author line is cut there, as ours is.
git_overread_fixup () {
	if grep -q "^From: .*(trailing)$(printf '\r')\$" "$1"
	then
		sed "1s/^\(Author: .*(trailing)\).*/\1/" "$2" >"$2.cut" &&
		mv "$2.cut" "$2"
	fi
}

# compare_with_git <name> [<mailinfo options>] -- [<mailsplit options>] <mbox>
#
# Splits <mbox> with git mailsplit and runs git mailinfo on every message,
# runs test-mailinfo on the same mailbox, and compares the info (author,
# email, subject, date), the message and the patch of every message.
compare_with_git () {
	name=$1 && shift &&
	mi_opts= &&
	while test "$1" != "--"
	do
		mi_opts="$mi_opts $1" && shift
	done &&
	shift &&
	rm -rf "git-$name" "ours-$name" &&
	mkdir "git-$name" &&
	git mailsplit -o"git-$name" "$@" >"git-$name/count" &&
	count=$(cat "git-$name/count") &&
	split_opts= &&
	for o in "$@"
	do
		case "$o" in --mboxrd|--keep-cr) split_opts="$split_opts $o" ;; esac
	done &&
	for mbox in "$@"; do :; done &&
	{ test-mailinfo $mi_opts $split_opts "ours-$name" "$mbox" 2>"ours-$name.err" || :; } &&
	i=1 &&
	while test $i -le $count
	do
		n=$(printf %04d $i) &&
		{ git mailinfo $mi_opts "git-$name/$n.msg" "git-$name/$n.patch" \
			<"git-$name/$n" >"git-$name/$n.info" 2>/dev/null || :; } &&
		git_overread_fixup "git-$name/$n" "git-$name/$n.info" &&
		test_cmp "git-$name/$n.info" "ours-$name/$n/info" &&
		test_cmp "git-$name/$n.msg" "ours-$name/$n/msg" &&
		test_cmp "git-$name/$n.patch" "ours-$name/$n/patch" &&
		i=$((i + 1)) || return 1
	done &&
	test_path_is_missing "ours-$name/$(printf %04d $i)"
}

# compare_paths_with_commits <ours-<name>> <repo> <rev-list arguments>...
#
# The mailbox was made by git format-patch from these commits, in order:
# the paths we extract from message k equal the paths commit k changes,
# both sides of a rename, and the source of a copy (git diff-tree with
# $DIFF_TREE_OPTS, default --no-renames, the options format-patch had).
compare_paths_with_commits () {
	ours=$1 repo=$2 && shift 2 &&
	git -C "$repo" rev-list --reverse "$@" >commits &&
	k=0 &&
	while read c
	do
		k=$((k + 1)) &&
		git -C "$repo" diff-tree -r ${DIFF_TREE_OPTS:---no-renames} --name-status --root -z "$c" |
			tr "\\000" "\\n" | sed "/^\$/d; /^[A-Z][0-9]*\$/d; 1{/^[0-9a-f]\{40\}\$/d}" |
			sort -u >expect.paths &&
		sort "$ours/$(printf %04d $k)/paths" >actual.paths &&
		test_cmp expect.paths actual.paths || return 1
	done <commits
}
