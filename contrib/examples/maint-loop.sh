#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The maintainer's loop of git-maint(7) (WORKFLOW) in one script, composed
# from the git-maint commands in a pipeline, as the article's do.sh was
# composed from git and mail tools:
#
#   mbox-split (the patches touching <path>) | tee s1 | dry-apply (which
#   work branch takes them all) -> queue (there, checked, signed off,
#   built) -> publish (pushed, backed up, the authors told)
#
# usage: maint-loop.sh [-n] <mailbox> <path>...
#   -n   only say which work branch would take the patches; change nothing
#
# The work branches are tried in order: $MAINT_LOOP_BRANCHES, by default
# "work-linus work-next" (fixes first, then the next release). What queue
# and publish do for a branch (sign-off, check and build commands, remotes,
# mails) is the [tree] configuration of that branch; see
# contrib/examples/maint.ini. Run it in the tree, on the work branch.
#
# Exit status: 0 published (or, with -n, a branch takes them); 1 nothing
# touches <path>, or no branch takes the patches, or a step said no (its
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
onto=
for b in ${MAINT_LOOP_BRANCHES:-work-linus work-next}; do
	onto="$onto --onto $b"
done

# Select, keep a copy for the queue, and ask every work branch at once.
# Porcelain: "target <branch> ok ..." for each branch the whole series
# applies to. A pipeline's status is its last command's: mbox-split's is
# kept in a file; dry-apply's complaint about an empty input is ours to
# make, below.
rc=0
{ git maint-mbox-split --patches-only "$@" "$mbox" && echo 0 >"$tmp/split" || echo $? >"$tmp/split"; } |
	tee "$tmp/s1" |
	git maint-dry-apply --porcelain $onto >"$tmp/verdict" 2>"$tmp/errors" || rc=$?
split=$(cat "$tmp/split")
[ "$split" = 0 ] || [ "$split" = 1 ] || exit "$split"
if ! [ -s "$tmp/s1" ]; then
	echo "maint-loop: no patch in '$mbox' touches $paths" >&2
	exit 1
fi
cat "$tmp/errors" >&2
branch=$(awk -F '\t' '$1 == "target" && $3 == "ok" { print $2; exit }' "$tmp/verdict")
if [ -z "$branch" ]; then
	[ "$rc" = 1 ] || [ "$rc" = 0 ] || exit "$rc"
	echo "maint-loop: the patches apply to none of ${MAINT_LOOP_BRANCHES:-work-linus work-next}" >&2
	git maint-dry-apply $onto "$tmp/s1" >&2 || :
	exit 1
fi
if [ -n "$dry_run" ]; then
	echo "$branch"
	exit 0
fi

git maint-queue "$branch" "$tmp/s1"
git maint-publish "$branch"
