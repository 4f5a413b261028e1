# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the mail core tests (t01xx).

# git_overread_fixup <split dir> <out dir>: git 2.39's mailinfo reads past
# the end of a From: line that ends in a comment, with or without a CR
# (kept by mailsplit --keep-cr; valgrind shows the invalid read), and its
# Author line may then carry heap bytes after the comment, which ones
# depending on its environment and on what its config made it allocate
# (with no CR they showed once ~/.gitconfig had one more key). The corpus
# has one such line, ending in "(trailing)": the oracle's Author line is
# cut there, as ours is, in <out dir>/NNNN/info for each such message
# <split dir>/NNNN.
git_overread_fixup () {
	grep -l "^From: .*(trailing)$(printf '\r')*\$" "$1"/[0-9]* >overread.list
	while read -r msg
	do
		sed "1s/^\(Author: .*(trailing)\).*/\1/" "$2/${msg##*/}/info" >"$2/${msg##*/}/info.cut" &&
		mv "$2/${msg##*/}/info.cut" "$2/${msg##*/}/info" || return 1
	done <overread.list
}

# compare_with_git <name> [<mailinfo options>] -- [<mailsplit options>] <mbox>
#
# Splits <mbox> with git mailsplit and runs git mailinfo on every message,
# runs test-mailinfo on the same mailbox, and compares the info (author,
# email, subject, date), the message and the patch of every message: git's
# in git-<name>/NNNN/, laid out as ours in ours-<name>/NNNN/ (less the
# paths, which git does not give), in one diff -r, which also fails on a
# message one side has and the other not.
compare_with_git () {
	name=$1 && shift &&
	mi_opts= &&
	while test "$1" != "--"
	do
		mi_opts="$mi_opts $1" && shift
	done &&
	shift &&
	rm -rf "git-$name" "ours-$name" "split-$name" &&
	mkdir "split-$name" &&
	git mailsplit -o"split-$name" "$@" >"split-$name.count" &&
	read -r count <"split-$name.count" &&
	split_opts= &&
	for o in "$@"
	do
		case "$o" in --mboxrd|--keep-cr) split_opts="$split_opts $o" ;; esac
	done &&
	for mbox in "$@"; do :; done &&
	{ test-mailinfo $mi_opts $split_opts "ours-$name" "$mbox" 2>"ours-$name.err" || :; } &&
	dirs= &&
	i=1 &&
	while test $i -le $count
	do
		n=$((10000 + i)) &&
		dirs="$dirs git-$name/${n#1}" &&
		i=$((i + 1))
	done &&
	mkdir -p "git-$name" "ours-$name" $dirs &&
	for dir in $dirs
	do
		{ git mailinfo $mi_opts "$dir/msg" "$dir/patch" <"split-$name/${dir##*/}" \
			>"$dir/info" 2>/dev/null || :; } || return 1
	done &&
	git_overread_fixup "split-$name" "git-$name" &&
	diff -u -r -x paths "git-$name" "ours-$name"
}

# compare_paths_with_commits <ours-<name>> <repo> <rev-list arguments>...
#
# The mailbox was made by git format-patch from these commits, in order:
# the paths we extract from message k equal the paths commit k changes,
# both sides of a rename, and the source of a copy (git diff-tree with
# $DIFF_TREE_OPTS, default --no-renames, the options format-patch had).
# One git diff-tree --stdin for every commit, and one comparison of the
# lines "<k> <path>" (six processes a commit were most of t0100's).
compare_paths_with_commits () {
	ours=$1 repo=$2 && shift 2 &&
	git -C "$repo" rev-list --reverse "$@" >commits &&
	git -C "$repo" diff-tree --stdin --always -r ${DIFF_TREE_OPTS:---no-renames} --name-status \
		--root -z <commits | tr "\\000" "\\n" >commits.diff-tree &&
	awk -v ours="$ours" "
		BEGIN { printf \"\" >\"expect.paths.all\"; printf \"\" >\"actual.paths.all\" }
		FILENAME == ARGV[1] { k[\$0] = FNR; n = FNR; next }
		\$0 in k { c = k[\$0]; next }
		/^\$/ || /^[A-Z][0-9]*\$/ { next }
		{ print c, \$0 >\"expect.paths.all\" }
		END {
			for (i = 1; i <= n; i++) {
				f = sprintf(\"%s/%04d/paths\", ours, i)
				while ((r = (getline line <f)) > 0)
					print i, line >\"actual.paths.all\"
				if (r < 0) { print \"cannot read \" f; exit 1 }
				close(f)
			}
		}
	" commits commits.diff-tree &&
	sort -u expect.paths.all >expect.paths &&
	sort actual.paths.all >actual.paths &&
	test_cmp expect.paths actual.paths
}
