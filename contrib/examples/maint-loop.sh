#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The maintainer's loop of git-maint(7) (WORKFLOW) in one script, composed
# from the git-maint commands as the article's do.sh was composed from git
# and mail tools:
#
#   mbox-split (the mail touching <path>, one mbox per series) ->
#   dry-apply (each series: which work branch takes it whole) ->
#   queue (each series there, checked, signed off, built, its reviews
#   carried) -> publish (each branch that took some: pushed, backed up,
#   the authors told)
#
# usage: maint-loop.sh [-n] <mailbox> <path>...
#   -n   only say which work branch would take each series; change nothing
#
# A mailbox is a list of series (the article's TODO holds a week of them):
# mbox-split --series-dir writes each into a file of its own, 0001-<subject>.mbox,
# 0002-..., in the mailbox's order, and each goes to the first work branch
# that takes it whole, tried in order: $MAINT_LOOP_BRANCHES, by default
# "work-linus work-next" (fixes first, then the next release). A series
# no branch takes is named and left. What queue and publish do for a
# branch (sign-off, check and build commands, remotes, mails) is the [tree]
# configuration of that branch; see contrib/examples/maint.ini. Run it in
# the tree, on the work branch.
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

# Select (the series and the replies that review them), one mbox per
# series; 1 is mbox-split's "nothing selected" (or a message refused,
# the others written).
rc=0
git maint-mbox-split -q --series-dir="$tmp/series" "$@" "$mbox" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
set -- "$tmp"/series/*.mbox
if ! [ -f "$1" ]; then
	echo "maint-loop: no patch in '$mbox' touches $paths" >&2
	exit 1
fi

# Ask every work branch about each series. Porcelain: a "series 1
# <branch> ok|failed ... <subject>" record per branch, in the order of
# --onto; the first "ok" is the series' branch. The plan: a line
# "<file><TAB><branch or none><TAB><subject>" per series, in order.
for s do
	rc=0
	git maint-dry-apply --porcelain $onto "$s" >"$tmp/verdict" 2>"$tmp/errors" || rc=$?
	cat "$tmp/errors" >&2
	[ "$rc" = 1 ] || [ "$rc" = 0 ] || exit "$rc"
	awk -F '\t' -v file="$s" '
		$1 == "series" && subject == "" { subject = $10 }
		$1 == "series" && $4 == "ok" && branch == "" { branch = $3 }
		END { printf "%s\t%s\t%s\n", file, branch == "" ? "none" : branch, subject }
	' "$tmp/verdict"
done >"$tmp/plan"
if ! cut -f 2 "$tmp/plan" | grep -qv '^none$'; then
	echo "maint-loop: the patches apply to none of $branches" >&2
	for s do
		git maint-dry-apply $onto "$s" >&2 || :
	done
	exit 1
fi
cut -f 2- "$tmp/plan"
left=0
n=0
while IFS='	' read -r s branch subject; do
	n=$((n + 1))
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
	while IFS='	' read -r s branch subject; do
		[ "$branch" = "$b" ] || continue
		git maint-queue "$b" "$s" </dev/null
		took=y
	done <"$tmp/plan"
	[ -z "$took" ] || git maint-publish "$b"
done
exit "$left"
