# SPDX-License-Identifier: GPL-2.0-only
# A maintainer's week of mail: a tree with the article's branches and a
# TODO mailbox holding several series, as a list delivers them, for the
# tests of series as units (t0210-t0213). Source lib-threads.sh first.
#
# todo_setup makes, in the current directory, a repository (usb-linus =
# work-linus: base and a fix; usb-next = work-next: base, a rework of
# hub.c and the two patches of series G) and TODO, from real git
# format-patch output, in this order:
#
#   A  "[PATCH 0/3] usb: hub: cleanups"   git-style cover letter, made on
#      usb-next (its context is the rework: it applies to work-next
#      only); a Reviewed-by on 2/3, an Acked-by on the cover letter
#   B  "[PATCH 0/2] USB: serial: ftdi: two fixes"   b4-style cover letter
#      with base-commit: (base); applies to both
#   C  v1 "[PATCH 0/3] usb: gadget: udc rework" with a Reviewed-by on
#      1/3 (unchanged in v2) and a Tested-by on 2/3 (changed in v2); a
#      discussion without a patch (J) in between; then C v2 in a new
#      thread
#   D  v1 "[PATCH 0/4] usb: storage: quirks" and a partial reroll: v2
#      3/4 alone in reply to v1 3/4, with a Reviewed-by on it
#   E  two patches to drivers/usb/host exported without threading
#      (git format-patch --stdout), numbered
#   F  "[PATCH] usb: hub: wrong context": applies to neither branch
#   G  "[PATCH 0/2] usb: misc: led fixes": already on work-next (the
#      commits are there, as git am made them); applies to work-linus
#   H  v1 "[PATCH 0/2] usb: core: quirk table" with a Reviewed-by on
#      1/2, and its v2 in reply to v1's cover letter, unchanged
#   I  a second copy of A 2/3 (the list's copy: same Message-ID, a
#      List-Id added), after the rest
#   K  "[PATCH] ext4: fix a leak": not USB
#
# The commands number the series A 1, B 2, C 3, D 4, E 5, F 6, G 7, H 8,
# K 9. Every mail is kept in todo/ (todo/<series>/ as format-patch wrote
# it, todo/<series>-r<n>.mail the replies); msgid <file> (lib-threads.sh)
# gives its Message-ID.

# todo_series <name> <base> <author> <email> <file> <line> <subject>...:
# one commit per subject on branch tmp/<name> from <base>, by that
# author, the n-th changing line <line> + 5 (n - 1) of <file> (so that
# the patches of a series do not share context).
todo_series () {
	name=$1 base=$2 who=$3 mail=$4 file=$5 line=$6 &&
	shift 6 &&
	git checkout -q -B "tmp/$name" "$base" &&
	for s in "$@"
	do
		todo_edit "$file" $line "$s" &&
		line=$((line + 5)) &&
		test_tick &&
		GIT_AUTHOR_NAME=$who GIT_AUTHOR_EMAIL=$mail \
			git commit -q -m "$s" -m "Why: $s." -m "Signed-off-by: $who <$mail>" || return 1
	done
}

# todo_post <dir> <range> [<format-patch options>...]: the range as mails
# in todo/<dir>/, threaded under a cover letter with its subject set.
todo_post () {
	dir=$1 range=$2 &&
	shift 2 &&
	git format-patch -q --thread=shallow --cover-letter -o "todo/$dir" "$@" "$range" &&
	cover=$(ls todo/$dir/*0000-cover-letter.patch) &&
	sed -i "s/\*\*\* SUBJECT HERE \*\*\*/$(cat todo/$dir.title)/; s/\*\*\* BLURB HERE \*\*\*/The $dir series./" \
		"$cover" &&
	# format-patch makes ids of the commit and the clock: one set per posting
	sed -i -e "s/<cover\.\([0-9]\)/<cover.$dir.\1/g" \
		-e "s/<\([0-9a-f]\{40\}\.[0-9]*\)\.git\./<\1.$dir.git./g" todo/$dir/*.patch
}

# todo_reply <mail file> <from> <n> [<trailer>...]: a reply to it with
# these trailers, quoting a line.
todo_reply () {
	to=$1 from=$2 n=$3 &&
	shift 3 &&
	reply_to "$to" "$from" "Sat, 9 Apr 2005 1$((n % 10)):00:00 +0000" "" "todo$n" &&
	echo "> $(subject_of "$to")" &&
	echo &&
	echo "Looks good." &&
	echo &&
	for t in "$@"
	do
		echo "$t" || return 1
	done &&
	echo
}

# todo_edit <file> <line> <text>: line <line> of <file> gets " (<text>)" and is added.
todo_edit () {
	sed -i "$2s|\$| ($3)|" "$1" &&
	git add "$1"
}

TODO_REV="Rev Iewer <rev@example.net>"
TODO_ACK="Ack Er <ack@example.org>"
TODO_TESS="Tess Ter <tess@example.org>"

todo_setup () {
	test_setup_cached todo "$MAINT_TEST_DIR/lib-todo.sh" "$MAINT_TEST_DIR/lib-threads.sh" -- todo_build
}

todo_build () {
	git init -q -b master &&
	mkdir -p drivers/usb/core drivers/usb/serial drivers/usb/gadget drivers/usb/storage \
		drivers/usb/host drivers/usb/misc fs/ext4 &&
	for f in drivers/usb/core/hub.c drivers/usb/core/quirks.c drivers/usb/serial/ftdi.c \
		drivers/usb/gadget/udc.c drivers/usb/storage/quirks.c drivers/usb/host/ehci.c \
		drivers/usb/misc/led.c fs/ext4/inode.c
	do
		seq 1 30 | sed "s|^|$f line |" >$f || return 1
	done &&
	git add . &&
	test_tick &&
	git commit -q -m "Linux 6.1" &&
	git tag base &&
	git checkout -q -b usb-linus &&
	sed -i "s|^drivers/usb/core/hub.c line 28\$|& (fixed in linus)|" drivers/usb/core/hub.c &&
	test_tick &&
	git commit -q -a -m "USB: hub: a fix for this release" &&
	git checkout -q -b usb-next base &&
	sed -i "s|^drivers/usb/core/hub.c line 5\$|& (reworked in next)|" drivers/usb/core/hub.c &&
	test_tick &&
	git commit -q -a -m "USB: hub: rework for the next release" &&
	mkdir todo &&

	# the series, each on its own branch
	todo_series A usb-next "Hub Author" hub@example.com drivers/usb/core/hub.c 6 \
		"usb: hub: drop a dead branch" "usb: hub: rename a helper" "usb: hub: document the lock" &&
	echo "usb: hub: cleanups" >todo/A.title &&
	todo_series B base "Serial Author" serial@example.com drivers/usb/serial/ftdi.c 5 \
		"USB: serial: ftdi: fix a leak" "USB: serial: ftdi: add an id" &&
	echo "USB: serial: ftdi: two fixes" >todo/B.title &&
	todo_series C1 base "Gadget Author" gadget@example.com drivers/usb/gadget/udc.c 5 \
		"usb: gadget: udc: split probe" "usb: gadget: udc: use devm" "usb: gadget: udc: drop a flag" &&
	echo "usb: gadget: udc rework" >todo/C1.title &&
	git checkout -q -B tmp/C2 tmp/C1~2 &&
	todo_edit drivers/usb/gadget/udc.c 10 "usb: gadget: udc: use devm, done right" &&
	test_tick &&
	GIT_AUTHOR_NAME="Gadget Author" GIT_AUTHOR_EMAIL=gadget@example.com \
		git commit -q -m "usb: gadget: udc: use devm" -m "Why: the devm conversion, done right." &&
	git cherry-pick tmp/C1 >/dev/null &&
	echo "usb: gadget: udc rework" >todo/C2.title &&
	todo_series D1 base "Storage Author" storage@example.com drivers/usb/storage/quirks.c 5 \
		"usb: storage: add quirk one" "usb: storage: add quirk two" "usb: storage: add quirk three" \
		"usb: storage: add quirk four" &&
	echo "usb: storage: quirks" >todo/D1.title &&
	git checkout -q -B tmp/D2 tmp/D1~2 &&
	todo_edit drivers/usb/storage/quirks.c 15 "usb: storage: add quirk three, fixed" &&
	test_tick &&
	GIT_AUTHOR_NAME="Storage Author" GIT_AUTHOR_EMAIL=storage@example.com \
		git commit -q -m "usb: storage: add quirk three" -m "Why: the third quirk, fixed." &&
	todo_series E base "Host Author" host@example.com drivers/usb/host/ehci.c 5 \
		"usb: ehci: fix a race" "usb: ehci: fix another race" &&
	git checkout -q -B tmp/F base &&
	sed -i "s|^drivers/usb/core/hub.c line 28\$|& (F wants it so)|" drivers/usb/core/hub.c &&
	sed -i "s|^drivers/usb/core/hub.c line 5\$|& (F wants it so)|" drivers/usb/core/hub.c &&
	test_tick &&
	GIT_AUTHOR_NAME="Wrong Author" GIT_AUTHOR_EMAIL=wrong@example.com \
		git commit -q -a -m "usb: hub: wrong context" -m "Made on an old tree." &&
	git diff HEAD^ HEAD >/dev/null &&
	todo_series G base "Led Author" led@example.com drivers/usb/misc/led.c 5 \
		"usb: misc: led: fix blink" "usb: misc: led: fix brightness" &&
	echo "usb: misc: led fixes" >todo/G.title &&
	todo_series H base "Core Author" core@example.com drivers/usb/core/quirks.c 5 \
		"usb: core: quirk table: sort it" "usb: core: quirk table: add a device" &&
	echo "usb: core: quirk table" >todo/H1.title &&
	echo "usb: core: quirk table" >todo/H2.title &&
	todo_series K base "Ext Four" ext4@example.com fs/ext4/inode.c 5 "ext4: fix a leak" &&

	# the mails
	todo_post A usb-next..tmp/A &&
	todo_b4_cover B "$(cat todo/B.title)" base tmp/B >todo/B-cover.mail &&
	git format-patch -q --thread=shallow --in-reply-to="$(msgid todo/B-cover.mail)" -o todo/B \
		base..tmp/B &&
	todo_post C1 base..tmp/C1 &&
	todo_post C2 base..tmp/C2 -v2 &&
	todo_post D1 base..tmp/D1 &&
	git format-patch -q --thread=shallow --start-number 3 --subject-prefix="PATCH v2 3/4" --no-numbered \
		--in-reply-to="$(msgid todo/D1/0003-*.patch)" -o todo/D2 tmp/D2~1..tmp/D2 &&
	git format-patch -q --stdout base..tmp/E >todo/E.mbox &&
	git format-patch -q --thread=shallow -o todo/F base..tmp/F &&
	todo_post G base..tmp/G &&
	todo_post H1 base..tmp/H &&
	todo_post H2 base..tmp/H -v2 --in-reply-to="$(msgid todo/H1/0000-cover-letter.patch)" &&
	git format-patch -q --thread=shallow -o todo/K base..tmp/K &&

	# G is on usb-next already, as git am made it from the mails
	git checkout -q usb-next &&
	git am -q todo/G/0001-*.patch todo/G/0002-*.patch &&
	git branch -f work-next usb-next &&
	git branch -f work-linus usb-linus &&
	git checkout -q work-next &&

	# the replies
	todo_reply todo/A/0002-*.patch "$TODO_REV" 1 "Reviewed-by: $TODO_REV" >todo/A-r2.mail &&
	todo_reply todo/A/0000-cover-letter.patch "$TODO_ACK" 2 "Acked-by: $TODO_ACK" >todo/A-r0.mail &&
	todo_reply todo/C1/0001-*.patch "$TODO_REV" 3 "Reviewed-by: $TODO_REV" >todo/C1-r1.mail &&
	todo_reply todo/C1/0002-*.patch "$TODO_TESS" 4 "Tested-by: $TODO_TESS" >todo/C1-r2.mail &&
	todo_reply todo/D2/*.patch "$TODO_REV" 5 "Reviewed-by: $TODO_REV" >todo/D2-r.mail &&
	todo_reply todo/H1/0001-*.patch "$TODO_REV" 6 "Reviewed-by: $TODO_REV" >todo/H1-r1.mail &&
	{
		echo "$FROM_LINE" &&
		echo "From: Ask Er <ask@example.org>" &&
		echo "Date: Sat, 9 Apr 2005 09:00:00 +0000" &&
		echo "Subject: [RFC] usb: where should the udc quirks live?" &&
		echo "Message-ID: <rfc.todo@example.org>" &&
		echo &&
		echo "A question, no patch." &&
		echo
	} >todo/J.mail &&
	reply_to todo/J.mail "$TODO_REV" "Sat, 9 Apr 2005 09:30:00 +0000" "" todoJ >todo/J-r.mail &&
	echo "In the driver." >>todo/J-r.mail &&
	echo >>todo/J-r.mail &&
	sed "s/^Message-I[Dd]: .*/&\nList-Id: <linux-usb.vger.kernel.org>/" todo/A/0002-*.patch >todo/I.mail &&

	{
		cat todo/A/0000-cover-letter.patch todo/A/0001-*.patch todo/A/0002-*.patch &&
		cat todo/A-r2.mail todo/A/0003-*.patch todo/A-r0.mail &&
		cat todo/B-cover.mail todo/B/*.patch &&
		cat todo/C1/*.patch todo/C1-r1.mail todo/C1-r2.mail &&
		cat todo/J.mail todo/J-r.mail &&
		cat todo/C2/*.patch &&
		cat todo/D1/*.patch todo/D2/*.patch todo/D2-r.mail &&
		cat todo/E.mbox &&
		cat todo/F/*.patch &&
		cat todo/G/*.patch &&
		cat todo/H1/*.patch todo/H1-r1.mail todo/H2/*.patch &&
		cat todo/K/*.patch &&
		cat todo/I.mail
	} >TODO
}

# todo_b4_cover <name> <title> <base> <tip>: a cover letter as b4 writes it.
todo_b4_cover () {
	echo "$FROM_LINE" &&
	echo "From: Serial Author <serial@example.com>" &&
	echo "Date: Fri, 8 Apr 2005 08:00:00 +0000" &&
	echo "Subject: [PATCH 0/$(git rev-list --count $3..$4)] $2" &&
	echo "Message-ID: <20050408-$1-v1-0-0123456789ab@example.com>" &&
	echo "MIME-Version: 1.0" &&
	echo "Content-Type: text/plain; charset=\"utf-8\"" &&
	echo &&
	echo "Two fixes, from b4." &&
	echo &&
	echo "---" &&
	git shortlog $3..$4 &&
	git diff --stat $3 $4 &&
	echo "---" &&
	echo "base-commit: $(git rev-parse $3)" &&
	echo "change-id: 20050408-$1-0123456789ab" &&
	echo &&
	echo "Best regards," &&
	echo "-- " &&
	echo "Serial Author <serial@example.com>" &&
	echo
}
