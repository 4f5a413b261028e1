# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the notify and publish-mail tests.

# notify_commits <dir> <n> [<record>]: a new repository <dir> where
# work-next holds <n> empty commits by "Author <i>" <author<i>@example.org>
# ("usb: patch <i>") on top of usb-next, one commit "base". With <record>,
# a shell function, "<record> <i>" prints commit i's record, which goes
# into refs/notes/maint as queue writes it.
notify_commits () {
	git init -q "$1" &&
	(
		cd "$1" &&
		test_commit base &&
		git branch usb-next &&
		git checkout -q -b work-next &&
		i=1 &&
		while test $i -le "$2"
		do
			test_tick &&
			GIT_AUTHOR_NAME="Author $i" GIT_AUTHOR_EMAIL=author$i@example.org \
				git commit -q --allow-empty -m "usb: patch $i" &&
			if test -n "$3"
			then
				"$3" $i >../note &&
				git notes --ref=maint add -F ../note HEAD
			fi &&
			i=$((i + 1)) || return 1
		done
	)
}
