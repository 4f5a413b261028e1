# SPDX-License-Identifier: GPL-2.0-only
# Real-shaped mail threads for the tests of mbox-split, dry-apply and
# queue on what lists deliver (t0205-t0209, t0411-t0419).
#
# threads_setup makes a repository with a base and two versions of a
# four-patch topic (v2 changes patch 3 only), then writes, from real
# git format-patch output:
#
#   git-v1/       v1 with a git-style cover letter (subject and blurb
#                 filled in), shallow-threaded
#   git-v2/       v2 with --interdiff and --range-diff against v1 in its
#                 cover letter (diff text inside a cover letter)
#   b4.mbox       v1 with a b4-style cover letter ("---" before its
#                 shortlog and diffstat, base-commit: and change-id:)
#   replies.mbox  replies to v1: one quoting patch 2's diff with "> ",
#                 one carrying a reviewer's suggested diff for patch 3
#                 (after a scissors line), one answering patch 4
#                 without "Re:" and with a diff, one answering the cover
#   thread.mbox   git-v1 (cover and patches) and replies.mbox, replies
#                 after what they answer, the way a list archive holds it
#   list.mbox     thread.mbox as a list delivers it: a List-Id header
#                 added (the same Message-IDs: duplicates of thread.mbox)
#   plain.mbox    v1 without threading or cover: format-patch --stdout
#   reroll.mbox   git-v1 and the v2 of patch 3 alone, sent as
#                 "[PATCH v2 3/4]" in reply to v1's patch 3
#   v1-patches.mbox, v2-patches.mbox, reroll-patches.mbox
#                 the patches alone, in order: what git am -s is given
#
# Message-IDs are those git format-patch made; read them back with
# msgid <file>.

# msgid <mail file>: its (first) Message-ID without <>.
msgid () {
	sed -n "/^Message-I[Dd]: <\(.*\)>\$/{s//\1/p;q;}" "$1"
}

# subject_of <mail file>: its (first) Subject value.
subject_of () {
	sed -n "/^Subject: /{s///p;q;}" "$1"
}

FROM_LINE="From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"

# reply_to <mail file> <from> <date> [--no-re]: the headers of a reply to it.
reply_to () {
	subject=$(subject_of "$1") &&
	# its Message-ID, and the same with every byte but a-z0-9 an x, in
	# one sed (as tr -c "a-z0-9\n" x would make it)
	id=$(LC_ALL=C sed -n "/^Message-I[Dd]: <\(.*\)>\$/{s//\1/p;s/[^a-z0-9]/x/gp;q;}" "$1") &&
	xid=${id#*"$LF"} &&
	id=${id%"$LF"*} &&
	echo "$FROM_LINE" &&
	echo "From: $2" &&
	echo "Date: $3" &&
	if test "$4" = --no-re
	then
		echo "Subject: $subject" | sed "s/^Subject: \[[^]]*\] /Subject: /"
	else
		echo "Subject: Re: $subject"
	fi &&
	echo "Message-ID: <reply.$xid.$5@example.net>" &&
	echo "In-Reply-To: <$id>" &&
	echo "References: <$id>" &&
	echo
}

# quote_patch <mail file>: its body quoted with "> ", as a reply quotes it.
quote_patch () {
	sed "1,/^\$/d" "$1" | sed "s/^/> /; s/^> \$/>/"
}

# threads_setup: the fixture above, built once a run (test_setup_cached).
threads_setup () {
	test_setup_cached threads "$MAINT_TEST_DIR/lib-threads.sh" -- threads_build
}

threads_build () {
	git init -q &&
	for f in a b c d
	do
		seq 1 30 | sed "s/^/$f line /" >$f.c || return 1
	done &&
	git add . &&
	test_tick &&
	git commit -q -m base &&
	git tag base &&

	git checkout -q -b v1 &&
	i=1 &&
	for f in a b c d
	do
		sed -i "s/^$f line 1\$/$f line 1 changed by v1/" $f.c &&
		git add $f.c &&
		test_tick &&
		git commit -q -m "topic: change $f" -m "Patch $i of the topic." &&
		i=$((i + 1)) || return 1
	done &&
	git checkout -q -b v2 base &&
	for f in a b c d
	do
		if test $f = c
		then
			sed -i "s/^c line 2\$/c line 2 changed by v2/" c.c
		else
			sed -i "s/^$f line 1\$/$f line 1 changed by v1/" $f.c
		fi &&
		git add $f.c &&
		test_tick &&
		git commit -q -m "topic: change $f" -m "Patch of the topic, v2." || return 1
	done &&
	git checkout -q --detach base &&

	git format-patch -q --thread=shallow --cover-letter -o git-v1 base..v1 &&
	sed -i "s/\*\*\* SUBJECT HERE \*\*\*/topic: four changes/; s/\*\*\* BLURB HERE \*\*\*/The cover letter of the topic./" \
		git-v1/0000-cover-letter.patch &&
	git format-patch -q -v2 --thread=shallow --cover-letter --interdiff=v1 --range-diff=v1 \
		-o git-v2 base..v2 &&
	sed -i "s/\*\*\* SUBJECT HERE \*\*\*/topic: four changes/; s/\*\*\* BLURB HERE \*\*\*/v2 changes patch 3./" \
		git-v2/v2-0000-cover-letter.patch &&
	# both covers were made in the same second: format-patch gave them one id
	sed -i "s/<cover\./<cover.v2./g" git-v2/*.patch &&
	grep -q "^Interdiff against v1:" git-v2/v2-0000-cover-letter.patch &&
	grep -q "^Range-diff against v1:" git-v2/v2-0000-cover-letter.patch &&
	grep -q "^diff --git" git-v2/v2-0000-cover-letter.patch &&

	cat git-v1/0001-*.patch git-v1/0002-*.patch git-v1/0003-*.patch git-v1/0004-*.patch >v1-patches.mbox &&
	cat git-v2/v2-0001-*.patch git-v2/v2-0002-*.patch git-v2/v2-0003-*.patch git-v2/v2-0004-*.patch \
		>v2-patches.mbox &&

	b4_cover >b4-cover.mail &&
	git format-patch -q --thread=shallow --in-reply-to="$(msgid b4-cover.mail)" -o b4 base..v1 &&
	sed -i "s/\.git\.committer@/.b4.committer@/" b4/*.patch &&
	cat b4-cover.mail b4/*.patch >b4.mbox &&

	make_replies >replies.mbox &&
	{
		cat git-v1/0000-cover-letter.patch &&
		sed -n "/^From 0000/,\$p" replies.mbox | awk "/^From 0000/{n++} n==4" &&
		cat git-v1/0001-*.patch git-v1/0002-*.patch &&
		sed -n "/^From 0000/,\$p" replies.mbox | awk "/^From 0000/{n++} n==1" &&
		cat git-v1/0003-*.patch &&
		sed -n "/^From 0000/,\$p" replies.mbox | awk "/^From 0000/{n++} n==2" &&
		cat git-v1/0004-*.patch &&
		sed -n "/^From 0000/,\$p" replies.mbox | awk "/^From 0000/{n++} n==3"
	} >thread.mbox &&
	sed "s/^Message-I[Dd]: .*/&\nList-Id: <linux-usb.vger.kernel.org>/" thread.mbox >list.mbox &&

	git format-patch -q --stdout base..v1 >plain.mbox &&

	{
		cat git-v1/*.patch &&
		sed "s/^Subject: \[PATCH v2 3\/4\]/Subject: [PATCH v2 3\/4]/" git-v2/v2-0003-*.patch |
		sed "/^In-Reply-To: /d; /^References: /d" |
		sed "s/^Message-I[Dd]: .*/&\nIn-Reply-To: <$(msgid git-v1/0003-*.patch)>\nReferences: <$(msgid git-v1/0000-cover-letter.patch)> <$(msgid git-v1/0003-*.patch)>/"
	} >reroll.mbox &&
	cat git-v1/0001-*.patch git-v1/0002-*.patch git-v2/v2-0003-*.patch git-v1/0004-*.patch \
		>reroll-patches.mbox
}

# A cover letter as b4 writes it.
b4_cover () {
	echo "$FROM_LINE" &&
	echo "From: A U Thor <author@example.com>" &&
	echo "Date: Thu, 7 Apr 2005 15:13:13 -0700" &&
	echo "Subject: [PATCH 0/4] topic: four changes" &&
	echo "Message-ID: <20050407-topic-v1-0-abcdef012345@example.com>" &&
	echo "MIME-Version: 1.0" &&
	echo "Content-Type: text/plain; charset=\"utf-8\"" &&
	echo "Content-Transfer-Encoding: 7bit" &&
	echo &&
	echo "The cover letter of the topic, from b4." &&
	echo &&
	echo "---" &&
	git shortlog base..v1 | sed "s/^      /      /" &&
	git diff --stat base v1 &&
	echo "---" &&
	echo "base-commit: $(git rev-parse base)" &&
	echo "change-id: 20050407-topic-0123456789ab" &&
	echo &&
	echo "Best regards," &&
	echo "-- " &&
	echo "A U Thor <author@example.com>" &&
	echo
}

# The replies of replies.mbox, in this order: quoting patch 2's diff,
# carrying a suggested diff for patch 3, answering patch 4 without "Re:"
# but with a diff, answering the cover letter.
make_replies () {
	reply_to git-v1/0002-*.patch "Rev Iewer <rev@example.net>" "Fri, 8 Apr 2005 10:00:00 +0000" "" 1 &&
	echo "On Thu, A U Thor wrote:" &&
	quote_patch git-v1/0002-*.patch &&
	echo &&
	echo "Reviewed-by: Rev Iewer <rev@example.net>" &&
	echo &&

	reply_to git-v1/0003-*.patch "Rev Iewer <rev@example.net>" "Fri, 8 Apr 2005 10:05:00 +0000" "" 2 &&
	echo "How about this instead?" &&
	echo &&
	echo "-- >8 --" &&
	echo "Subject: topic: change c differently" &&
	echo &&
	echo "---" &&
	sed -i "s/^c line 3\$/c line 3 suggested by the reviewer/" c.c &&
	git diff c.c &&
	git checkout -q c.c &&
	echo &&

	reply_to git-v1/0004-*.patch "Other Person <other@example.org>" "Fri, 8 Apr 2005 10:10:00 +0000" --no-re 3 &&
	echo "Same here, for d:" &&
	echo "---" &&
	sed -i "s/^d line 4\$/d line 4 from a bystander/" d.c &&
	git diff d.c &&
	git checkout -q d.c &&
	echo &&

	reply_to git-v1/0000-cover-letter.patch "Rev Iewer <rev@example.net>" "Fri, 8 Apr 2005 11:00:00 +0000" "" 4 &&
	echo "> The cover letter of the topic." &&
	echo &&
	echo "Acked-by: Rev Iewer <rev@example.net>" &&
	echo
}

# subjects <mbox>: the Subject lines of a mailbox, one per message.
subjects () {
	grep "^Subject: " "$1" | sed "s/^Subject: //"
}
