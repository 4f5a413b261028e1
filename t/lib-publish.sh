# SPDX-License-Identifier: GPL-2.0-only
# Shared by the publish tests (t07xx). Source after test-lib.sh and
# lib-git-server.sh (in_repo).
#
#   setup_article_repo <dir>  a repository with the article's branches:
#                             master, usb-next and work-next at "base", HEAD on
#                             work-next, user.* set; nothing else
#   queue_commit <file> <msg> a commit on the current branch
#   notify_stub               puts a git-maint-notify first on PATH that
#                             records its arguments, one run per line, in
#                             $TRASH_DIRECTORY/notify.log, and exits with
#                             $NOTIFY_EXIT (default 0). The real notify's
#                             end-to-end test comes when both are merged.
#   remote_tip <bare-repo> <branch>   the branch's id there, or "none",
#                             read from the ref's file (a loose ref, else
#                             packed-refs) with no process: the tests check a
#                             remote's tip some 130 times a run (a git
#                             rev-parse each); git reads it where the
#                             repository keeps its refs in a reftable

# sharness names it SHARNESS_TRASH_DIRECTORY.
: "${TRASH_DIRECTORY:=$SHARNESS_TRASH_DIRECTORY}"

setup_article_repo () {
	git init -q -b master "$1" &&
	(
		cd "$1" &&
		test_commit base &&
		git branch usb-next &&
		git checkout -q -b work-next
	)
}

queue_commit () {
	case $1 in
	*/*) test -d "${1%/*}" || mkdir -p "${1%/*}" ;;
	esac &&
	echo "$2" >>"$1" &&
	git add "$1" &&
	test_tick &&
	git commit -q -m "$2"
}

notify_stub () {
	mkdir -p "$TRASH_DIRECTORY/stub" &&
	cat >"$TRASH_DIRECTORY/stub/git-maint-notify" <<-EOF &&
	#!/bin/sh
	echo "\$*" >>"$TRASH_DIRECTORY/notify.log"
	exit \${NOTIFY_EXIT:-0}
	EOF
	chmod +x "$TRASH_DIRECTORY/stub/git-maint-notify" &&
	: >"$TRASH_DIRECTORY/notify.log" &&
	PATH="$TRASH_DIRECTORY/stub:$PATH" &&
	export PATH
}

remote_tip () {
	if test -d "$1/reftable"
	then
		git -C "$1" rev-parse -q --verify "refs/heads/$2" || echo none
	elif test -f "$1/refs/heads/$2"
	then
		read -r rt_id <"$1/refs/heads/$2" &&
		echo "$rt_id"
	else
		rt_id=none
		if test -f "$1/packed-refs"
		then
			while read -r rt_line rt_ref
			do
				if test "$rt_ref" = "refs/heads/$2"
				then
					rt_id=$rt_line
					break
				fi
			done <"$1/packed-refs"
		fi
		echo "$rt_id"
	fi
}

# repo_state (test-lib.sh) of the repository in <dir>.
repo_state_of () {
	(cd "$1" && repo_state)
}

