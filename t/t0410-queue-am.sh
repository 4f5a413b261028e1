#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-queue makes the commits git am -s makes'
. ./test-lib.sh

SQ="'"

# commit_as <author name> <author email> <message file>: commits what is staged.
commit_as () {
	test_tick &&
	GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" git commit -q -F "$3"
}

# same_as_am <branch> <mbox> [<git am options>...]: queue <mbox> on a new
# branch <branch> from base, git am the same mbox on am-<branch>, and
# compare the commit ids (equal ids: same trees, parents, authors, dates,
# committers and messages, byte for byte).
same_as_am () {
	b=$1 mbox=$2 &&
	shift 2 &&
	git checkout -q -B "am-$b" base &&
	git am -q "$@" "$mbox" &&
	git checkout -q --detach base &&
	git branch -f "$b" base &&
	git-maint-queue -q "$@" "$b" "$mbox" >out &&
	git rev-parse "am-$b" >expect &&
	git rev-parse "$b" >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: a tree and a generated series' '
	git init -q &&
	mkdir -p drivers/usb/core include/linux &&
	for i in 1 2 3 4 5 6 7 8
	do
		seq 1 40 | sed "s/^/line $i./" >drivers/usb/core/f$i.c || return 1
	done &&
	printf "#define X 1\n" >include/linux/usb.h &&
	printf "#!/bin/sh\necho hi\n" >drivers/usb/run.sh &&
	git add drivers include &&
	test_tick &&
	git commit -q -m base &&
	git tag base &&
	git checkout -q -b gen &&

	sed -i "s/line 1.5$/line 1.5 changed/" drivers/usb/core/f1.c &&
	git add -u &&
	printf "usb: core: change f1\n\nA plain body.\n" >m &&
	commit_as "A U Thor" author@example.com m &&

	echo "new file" >drivers/usb/core/new.c &&
	git add drivers include &&
	printf "usb: add new.c\n\nBody.\n\nSigned-off-by: C O Mitter <committer@example.com>\n" >m &&
	commit_as "Jöhn Dœ" john@example.org m &&

	git rm -q drivers/usb/core/f8.c &&
	printf "usb: remove f8\n\nSigned-off-by: C O Mitter <committer@example.com>\nReviewed-by: R <r@example.com>\n" >m &&
	commit_as "Ærøskøbing Ünïcode" ae@example.dk m &&

	git mv drivers/usb/core/f7.c drivers/usb/core/f7-renamed.c &&
	printf "usb: rename f7\n\nFixes: 123456789abc (\"x\")\n\nCc: stable@vger.kernel.org\nSigned-off-by: Other <o@example.com>\n" >m &&
	commit_as "Ma Ling" ml@example.cn m &&

	chmod +x drivers/usb/core/f6.c &&
	sed -i "s/line 6.40$/line 6.40 last/" drivers/usb/core/f6.c &&
	git add -u &&
	printf "usb: mode and content\n\nprose\nmore prose\nAcked-by: Y <y@example.com>\n" >m &&
	commit_as "Greg K-H" greg@example.com m &&

	sed -i "s/line 2.1$/line 2.1 first/; s/line 2.39$/line 2.39 near end/" drivers/usb/core/f2.c &&
	sed -i "s/X 1/X 2/" include/linux/usb.h &&
	git add -u &&
	printf "usb: two files, two hunks\n\nReported-by: Some Body\n  <some@example.com>\n" >m &&
	commit_as "O'\''Brien, Pat" pat@example.ie m &&

	git format-patch -q -M --stdout base >series.mbox &&
	git checkout -q --detach base
'

test_expect_success 'without -s: the same commits as git am' '
	same_as_am plain series.mbox
'

test_expect_success 'with -s: the same commits as git am -s' '
	same_as_am signed series.mbox -s
'

test_expect_success 'the branch got one reflog entry naming the series' '
	git reflog show signed >reflog &&
	head -n 1 reflog >first &&
	grep "maint-queue: 6 patches, last: usb: two files, two hunks" first &&
	test_line_count = 2 reflog
'

test_expect_success 'it says which branch it queued on' '
	git branch -f said base &&
	git-maint-queue said series.mbox >out &&
	grep "^Queueing 6 patches on .said.$" out &&
	grep "^Applying: usb: rename f7$" out &&
	grep "^Queued on .said.: " out
'

test_expect_success 'CRLF mails give the same commits as git am -s' '
	sed "s/\$/\r/" series.mbox >crlf.mbox &&
	same_as_am crlf crlf.mbox -s
'

test_expect_success 'from standard input' '
	git branch -f stdin base &&
	git-maint-queue -q -s stdin - <series.mbox &&
	test "$(git rev-parse stdin)" = "$(git rev-parse am-signed)"
'

test_expect_success 'a cover letter is skipped' '
	git format-patch -q -M --cover-letter -o cover base..gen &&
	sed -i "s/\*\*\* SUBJECT HERE \*\*\*/the series/" cover/0000-cover-letter.patch &&
	cat cover/*.patch >cover.mbox &&
	git branch -f cov base &&
	git-maint-queue -s cov cover.mbox >out &&
	grep "Skipping cover letter" out &&
	test "$(git rev-parse cov)" = "$(git rev-parse am-signed)"
'

test_expect_success 'on the checked-out branch: index and work tree follow, ORIG_HEAD set' '
	git checkout -q -B co base &&
	git-maint-queue -q -s co series.mbox &&
	test "$(git rev-parse co)" = "$(git rev-parse am-signed)" &&
	git status --porcelain --untracked-files=no >status &&
	test_must_be_empty status &&
	test_path_is_file drivers/usb/core/f7-renamed.c &&
	test_path_is_missing drivers/usb/core/f8.c &&
	test -x drivers/usb/core/f6.c &&
	test "$(git rev-parse ORIG_HEAD)" = "$(git rev-parse base)" &&
	git reflog show HEAD | head -n 1 | grep "maint-queue: 6 patches"
'

test_expect_success 'local changes in a path the series changes: refused, nothing moves' '
	git checkout -q -B dirty base &&
	echo local >>drivers/usb/core/f1.c &&
	test_expect_code 128 git-maint-queue -q dirty series.mbox 2>err &&
	grep "local changes .* overwritten" err &&
	grep "drivers/usb/core/f1.c" err &&
	test "$(git rev-parse dirty)" = "$(git rev-parse base)" &&
	test_path_is_missing .git/maint/queue &&
	git checkout -q drivers/usb/core/f1.c
'

test_expect_success 'local changes elsewhere do not stop it' '
	git checkout -q -B dirty2 base &&
	echo local >>drivers/usb/core/f5.c &&
	git-maint-queue -q dirty2 series.mbox &&
	git diff --name-only >changed &&
	echo drivers/usb/core/f5.c >expect &&
	test_cmp expect changed &&
	git checkout -q drivers/usb/core/f5.c
'

test_expect_success '-3 falls back to a three-way merge like git am -3' '
	git checkout -q -b moved base &&
	sed -i "s/line 1.2$/line 1.2 moved on/" drivers/usb/core/f1.c &&
	git commit -q -a -m "moved on" &&
	git checkout -q --detach &&
	printf "%s\n" "From: A U Thor <author@example.com>" "Subject: [PATCH] three way" "Date: Thu, 7 Apr 2005 15:13:13 -0700" "" "x" "---" >3way.mbox &&
	git diff base gen~5 -- drivers/usb/core/f1.c >>3way.mbox &&
	sed -i "1i From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001" 3way.mbox &&
	git branch -f q3 moved &&
	test_expect_code 1 git-maint-queue -q q3 3way.mbox 2>err &&
	git-maint-queue --abort &&
	git-maint-queue -q -3 q3 3way.mbox &&
	git checkout -q -B am3 moved &&
	git am -q -3 3way.mbox &&
	git checkout -q --detach &&
	test "$(git rev-parse q3^{tree})" = "$(git rev-parse am3^{tree})" &&
	test "$(git rev-parse q3)" = "$(git rev-parse am3)"
'

test_expect_success 'notes record the mail of each commit' '
	git format-patch -q -M --thread --to=list@example.org --cc="Rev Iewer <rev@example.com>" \
		--stdout base..gen >threaded.mbox &&
	sed -i "/^To: /a List-Id: <linux-usb.vger.kernel.org>" threaded.mbox &&
	git branch -f noted base &&
	git-maint-queue -q noted threaded.mbox &&
	git notes --ref=maint show noted >note &&
	first=$(sed -n "s/^Message-Id: //Ip" threaded.mbox | head -n 1) &&
	last=$(sed -n "s/^Message-Id: //Ip" threaded.mbox | tail -n 1) &&
	date=$(sed -n "s/^Date: //p" threaded.mbox | tail -n 1) &&
	{
		echo "Message-ID: $last" &&
		echo "From: O${SQ}Brien, Pat <pat@example.ie>" &&
		echo "Date: $date" &&
		echo "Subject: [PATCH 6/6] usb: two files, two hunks" &&
		echo "To: list@example.org" &&
		echo "Cc: Rev Iewer <rev@example.com>" &&
		echo "In-Reply-To: $first" &&
		echo "List-Id: <linux-usb.vger.kernel.org>" &&
		echo "Series: v1 6/6"
	} >expect &&
	test_cmp expect note &&
	for c in $(git rev-list base..noted)
	do
		git notes --ref=maint show $c >/dev/null || return 1
	done &&
	git diff --name-only refs/notes/maint^ refs/notes/maint >one-notes-commit &&
	test_line_count = 6 one-notes-commit
'

test_expect_success 'a Link: trailer from the configured mask' '
	cat >.git/maint.ini <<-\EOF &&
	[queue]
		link = https://lore.kernel.org/r/%s
		signoff = true
	EOF
	git branch -f linked base &&
	git-maint-queue -q linked threaded.mbox &&
	id=$(sed -n "s/^Message-Id: <\(.*\)>/\1/Ip" threaded.mbox | tail -n 1) &&
	git log -1 --format=%B linked >msg &&
	tail -n 3 msg >actual &&
	cat >expect <<-EOF &&
	Link: https://lore.kernel.org/r/$id
	Signed-off-by: C O Mitter <committer@example.com>

	EOF
	test_cmp expect actual &&
	rm .git/maint.ini
'

test_expect_success 'work branch naming: <tree>-next goes to work-next' '
	git branch -f work-next base &&
	git branch -f usb-next base &&
	git-maint-queue usb-next series.mbox >out &&
	grep "queued on its work branch .work-next." out &&
	test "$(git rev-parse usb-next)" = "$(git rev-parse base)" &&
	test "$(git rev-parse work-next)" = "$(git rev-parse plain)"
'

test_expect_success 'work branch naming: the configured tree wins (keys indented as in git config)' '
	git branch -f my-work base &&
	printf "[tree \"usb\"]\n\tpublic = usb-next\n\twork = my-work\n  signoff = yes\n" >.git/maint.ini &&
	git-maint-queue usb-next series.mbox >out &&
	grep "work branch .my-work." out &&
	test "$(git rev-parse my-work)" = "$(git rev-parse am-signed)" &&
	rm .git/maint.ini
'

test_expect_success 'no such branch' '
	test_expect_code 128 git-maint-queue nope series.mbox 2>err &&
	grep "nope" err &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'no patches' '
	git branch -f empty base &&
	: >empty.mbox &&
	test_expect_code 1 git-maint-queue empty empty.mbox 2>err &&
	grep "no patches found" err &&
	test_path_is_missing .git/maint/queue
'

test_expect_success 'a series longer than one object flush: same as git am, notes and objects all there' '
	# commit i appends "line i" to f3.c and writes i to long-(i % 7).c:
	# the 70 commits made by one git fast-import (the shell writes the
	# stream), not by 70 git commit
	f3=$(git cat-file blob base:drivers/usb/core/f3.c) &&
	i=0 &&
	while test $i -lt 70
	do
		i=$((i + 1)) &&
		f3="$f3${LF}line $i" &&
		test_tick &&
		printf "commit refs/heads/long\nauthor %s <%s> %s\ncommitter %s <%s> %s\ndata <<EOM\nlong %d\nEOM\n" \
			"$GIT_AUTHOR_NAME" "$GIT_AUTHOR_EMAIL" "$GIT_AUTHOR_DATE" \
			"$GIT_COMMITTER_NAME" "$GIT_COMMITTER_EMAIL" "$GIT_COMMITTER_DATE" $i &&
		{ test $i -gt 1 || echo "from refs/tags/base^0"; } &&
		printf "M 100644 inline drivers/usb/core/f3.c\ndata <<EOM\n%s\nEOM\n" "$f3" &&
		printf "M 100644 inline drivers/usb/long-%d.c\ndata <<EOM\n%d\nEOM\n" $((i % 7)) $i || return 1
	done >long.fi &&
	git fast-import --quiet --force <long.fi &&
	git format-patch -q --thread --stdout base..long >long.mbox &&
	git checkout -q --detach base &&
	packs_before=$(ls .git/objects/pack/ | grep -c "\.pack$") &&
	GIT_MAINT_TEST_FLUSH_PATCHES=16 &&
	export GIT_MAINT_TEST_FLUSH_PATCHES &&
	same_as_am q-long long.mbox -s &&
	unset GIT_MAINT_TEST_FLUSH_PATCHES &&
	packs_after=$(ls .git/objects/pack/ | grep -c "\.pack$") &&
	test $((packs_after - packs_before)) -ge 5 &&
	# every commit has its note (one git notes list, not a git notes
	# show a commit; git fsck then reads every note)
	git rev-list base..q-long >commits &&
	git notes --ref=maint list >notes &&
	awk "FILENAME == ARGV[1] { noted[\$2] = 1; next } !(\$1 in noted) { print \"no note: \" \$1 }" \
		notes commits >unnoted &&
	test_must_be_empty unnoted &&
	git fsck --no-dangling >fsck 2>&1 &&
	test_must_be_empty fsck
'

test_expect_success 'local changes checked the same way when a series changes many paths' '
	git checkout -q -B wide base &&
	mkdir -p wide &&
	for i in $(seq 1 70)
	do
		echo "$i" >wide/w$i || return 1
	done &&
	git add wide &&
	test_tick &&
	git commit -q -m "seventy files" &&
	git format-patch -q --stdout base..wide >wide.mbox &&
	git checkout -q -B wide1 base &&
	mkdir -p wide && echo mine >wide/w35 &&
	test_expect_code 128 git-maint-queue -q wide1 wide.mbox 2>err &&
	grep "wide/w35" err &&
	rm -r wide &&
	echo local >>drivers/usb/core/f5.c &&
	git-maint-queue -q wide1 wide.mbox &&
	test_path_is_file wide/w70 &&
	git diff --name-only >changed &&
	echo drivers/usb/core/f5.c >expect &&
	test_cmp expect changed &&
	git checkout -q drivers/usb/core/f5.c &&
	git checkout -q --detach base
'

test_expect_success 'trailer.<token>.key and trailer.separators decide the trailer block, as for git am -s' '
	git checkout -q -B trl base &&
	echo "trl 1" >>include/linux/usb.h &&
	git add -u &&
	printf "usb: configured token\n\nBody.\n\nAcked-by: X <x@example.com>\nnot a trailer\nnor this\n" >m &&
	commit_as "A U Thor" author@example.com m &&
	echo "trl 2" >>include/linux/usb.h &&
	git add -u &&
	printf "usb: separators\n\nBody.\n\nBug #123\n" >m &&
	commit_as "A U Thor" author@example.com m &&
	git format-patch -q --stdout base >trailers.mbox &&
	git checkout -q --detach base &&
	same_as_am trl-plain trailers.mbox -s &&
	git log -2 --format=%B trl-plain >without &&
	git config trailer.ack.key Acked-by &&
	git config trailer.separators ":#" &&
	same_as_am trl-conf trailers.mbox -s &&
	git log -2 --format=%B trl-conf >with &&
	git config --unset trailer.ack.key &&
	git config --unset trailer.separators &&
	! test_cmp without with >/dev/null
'

test_expect_success 'every option is documented' '
	command_options git-maint-queue >opts &&
	test_line_count -gt 5 opts &&
	while read o
	do
		grep -q -e "^$o" "$MAINT_SRC_DIR/Documentation/git-maint-queue.adoc" ||
		{ echo "undocumented: $o"; return 1; }
	done <opts
'

test_done
