#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The maintainer's loop of git-maint(7) (WORKFLOW) in one script, composed
# from the git-maint commands in a pipeline, as the article's do.sh was
# composed from git and mail tools:
#
#   mbox-split (the mail touching <path>) | tee s1 | dry-apply (which
#   work branch takes each series whole) -> queue (each series there,
#   checked, signed off, built, its reviews carried) -> publish (each
#   branch that took some: pushed, backed up, the authors told)
#
# usage: maint-loop.sh [-n] <mailbox> <path>...
#   -n   only say which work branch would take each series; change nothing
#
# A mailbox is a list of series (the article's TODO holds a week of them):
# each goes to the first work branch that takes it whole, tried in order:
# $MAINT_LOOP_BRANCHES, by default "work-linus work-next" (fixes first,
# then the next release). A series no branch takes is named and left. What
# queue and publish do for a branch (sign-off, check and build commands,
# remotes, mails) is the [tree] configuration of that branch; see
# contrib/examples/maint.ini. Run it in the tree, on the work branch.
#
# Output: one line per series, "<branch><TAB><subject>" ("none" for a
# series no branch takes); with -n that is all.
#
# Exit status: 0 every series queued and published (or, with -n, every one
# has a branch); 1 nothing touches <path>, or some series applies to no
# branch (the others are queued and published), or a step said no (its
# message says which); otherwise the failing command's status.
set -e

usage () {
	echo "usage: maint-loop.sh [-n] <mailbox> <path>..." >&2
	exit 129
}

dry_run=
if [ "$1" = -n ]; then
	dry_run=y
	shift
fi
[ $# -ge 2 ] || usage
mbox=$1
shift
paths=$*
# the paths, each after a --touches (set -- keeps names with blanks whole)
for p do
	set -- "$@" --touches "$p"
	shift
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/maint-loop.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
branches=${MAINT_LOOP_BRANCHES:-work-linus work-next}
onto=
for b in $branches; do
	onto="$onto --onto $b"
done

# Select (the series and the replies that review them), keep a copy for
# the queue, and ask every work branch at once. Porcelain: a "series <n>
# <branch> ok|failed ..." record per series and branch. A pipeline's
# status is its last command's: mbox-split's is kept in a file;
# dry-apply's complaint about an empty input is ours to make, below.
rc=0
{ git maint-mbox-split "$@" "$mbox" && echo 0 >"$tmp/split" || echo $? >"$tmp/split"; } |
	tee "$tmp/s1" |
	git maint-dry-apply --porcelain $onto >"$tmp/verdict" 2>"$tmp/errors" || rc=$?
split=$(cat "$tmp/split")
[ "$split" = 0 ] || [ "$split" = 1 ] || exit "$split"
if ! [ -s "$tmp/s1" ]; then
	echo "maint-loop: no patch in '$mbox' touches $paths" >&2
	exit 1
fi
cat "$tmp/errors" >&2
[ "$rc" = 1 ] || [ "$rc" = 0 ] || exit "$rc"

# "<n><TAB><branch or none><TAB><subject>": the first branch, in order,
# that takes series <n> whole (the records come branch by branch, in the
# order of --onto)
awk -F '\t' '
	$1 == "series" && !($2 in subject) { order[++n] = $2; subject[$2] = $10 }
	$1 == "series" && $4 == "ok" && !($2 in branch) { branch[$2] = $3 }
	END {
		for (i = 1; i <= n; i++)
			printf "%s\t%s\t%s\n", order[i], (order[i] in branch) ? branch[order[i]] : "none",
				subject[order[i]]
	}' "$tmp/verdict" >"$tmp/plan"
if ! cut -f 2 "$tmp/plan" | grep -qv '^none$'; then
	echo "maint-loop: the patches apply to none of $branches" >&2
	git maint-dry-apply $onto "$tmp/s1" >&2 || :
	exit 1
fi
cut -f 2- "$tmp/plan"
left=0
while IFS='	' read -r n branch subject; do
	if [ "$branch" = none ]; then
		echo "maint-loop: series $n applies to none of $branches: $subject" >&2
		left=1
	fi
done <"$tmp/plan"
[ -z "$dry_run" ] || exit "$left"

# Queue each series on its branch, in the mailbox's order, then publish
# every branch that took one, once. A series that no longer applies once
# an earlier one is queued stops the loop there: queue keeps its state for
# --continue, --skip or --abort.
for b in $branches; do
	took=
	while IFS='	' read -r n branch subject; do
		[ "$branch" = "$b" ] || continue
		git maint-queue --series "$n" "$b" "$tmp/s1" </dev/null
		took=y
	done <"$tmp/plan"
	[ -z "$took" ] || git maint-publish "$b"
done
exit "$left"
