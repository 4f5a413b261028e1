# SPDX-License-Identifier: GPL-2.0-only
# Shared by the request-pull tests (t075x). Source after test-lib.sh and
# lib-publish.sh.
#
#   setup_pull_repo <dir> <remote-url>
#                         the article's repository with master (the
#                         upstream) one commit ahead of the base and
#                         usb-next ahead of it by two authors, both pushed
#                         to origin (<remote-url>); a [tree "usb"] naming
#                         the public URL git://git.example.org/usb.git,
#                         upstream master, To Linus and Cc the list
#   setup_pull_repos      in the trash directory: origin.git
#                         (make_bare_server_repo) and r (setup_pull_repo r
#                         "$PWD/origin.git"), built once a run (test_cache)
#                         and copied (test_tick as it was: setup_pull_repo
#                         ticks in subshells); and the tag message in
#                         $TRASH_DIRECTORY/msg
#   oracle <dir> <tag> <remote-dir>
#                         git request-pull master <remote-dir> <tag> in
#                         <dir>, the remote's path replaced by the public
#                         URL: what our mail's body must hold
#   pull_text <mbox>      the part of a mail from "The following changes"

PULL_URL=git://git.example.org/usb.git

setup_pull_repo () {
	setup_article_repo "$1" &&
	git -C "$1" remote add origin "$2" &&
	git -C "$1" checkout -q master &&
	in_repo "$1" queue_commit Makefile "upstream: a release" &&
	git -C "$1" checkout -q usb-next &&
	in_repo "$1" queue_commit drivers/usb/core.c "usb: core: fix a leak" &&
	(
		cd "$1" &&
		GIT_AUTHOR_NAME="Bea Hacker" GIT_AUTHOR_EMAIL=bea@example.org &&
		export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL &&
		queue_commit drivers/usb/serial.c "usb: serial: add a device id" &&
		printf "%s\n" 1 2 3 4 5 6 7 8 9 10 >drivers/usb/long.c &&
		git add drivers/usb/long.c &&
		test_tick &&
		git commit -q -m "usb: long: new driver" &&
		git rm -q drivers/usb/long.c &&
		test_tick &&
		git commit -q -m "usb: long: drop it again"
	) &&
	in_repo "$1" queue_commit drivers/usb/core.c "usb: core: a second line" &&
	git -C "$1" push -q origin usb-next master &&
	cat >>"$1/.git/maint.ini" <<-EOF
	[tree "usb"]
	public = usb-next
	work = work-next
	url = $PULL_URL
	upstream = master
	upstream-to = Linus <linus@example.org>
	upstream-cc = usb list <linux-usb@example.org>
	EOF
}

# Some 30 processes (25 of them git) a script, made once a run: the copy's
# origin is the cached one's path, set to ours; its index is refreshed
# (the copy's files have new stat data), as test_setup_cached does.
setup_pull_repos () {
	test_cache "pull-repos-${test_tick:-none}" "$MAINT_TEST_DIR/lib-request-pull.sh" \
		"$MAINT_TEST_DIR/lib-publish.sh" -- pull_repos_build &&
	cp -R "$TEST_CACHE/origin.git" "$TEST_CACHE/r" . &&
	git -C r remote set-url origin "$PWD/origin.git" &&
	git -C r update-index -q --refresh &&
	printf "%s\n" "USB changes for 6.2-rc4" "" \
		"Here are the USB changes for 6.2-rc4: a leak fixed, a new" \
		"device id, and a new driver." >"$TRASH_DIRECTORY/msg"
}
pull_repos_build () {
	make_bare_server_repo origin.git &&
	setup_pull_repo r "$PWD/origin.git"
}

oracle () {
	(cd "$1" && COLUMNS=80 git request-pull master "$3" "$2") >oracle.out &&
	sed "s|$3|$PULL_URL|" oracle.out
}

pull_text () {
	sed -n '/^The following changes since commit/,$p' "$1"
}
