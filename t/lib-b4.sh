# SPDX-License-Identifier: GPL-2.0-only
# b4 am as the oracle of the trailers queue carries (t0211, t0212).
#
#   b4_trailers <mbox> <msgid>  the trailer block b4 am gives each patch of
#                               the series of <msgid> in <mbox>, patch after
#                               patch ("Patch <k>" first)
#   our_trailers <branch> <n>   the same of the last <n> commits of <branch>,
#                               oldest first
#
# Sets the prerequisite B4 when b4 is installed.

command -v b4 >/dev/null && test_set_prereq B4

b4_trailers () {
	rm -rf b4out &&
	mkdir -p b4out/split &&
	HOME=$PWD b4 -q --offline-mode am -t -m "$1" -o b4out "$2" >/dev/null 2>&1 &&
	git mailsplit -ob4out/split b4out/*.mbx >/dev/null &&
	k=0 &&
	for m in b4out/split/*
	do
		k=$((k + 1)) &&
		echo "Patch $k" &&
		git mailinfo b4out/msg b4out/patch <"$m" >b4out/info &&
		{
			sed -n "s/^Subject: //p" b4out/info && echo && cat b4out/msg
		} | git interpret-trailers --parse || return 1
	done
}

our_trailers () {
	k=0 &&
	for c in $(git rev-list --reverse -n "$2" "$1")
	do
		k=$((k + 1)) &&
		echo "Patch $k" &&
		git log -1 --format=%B "$c" | git interpret-trailers --parse || return 1
	done
}
