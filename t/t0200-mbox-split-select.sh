#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-mbox-split: selecting by path, author, subject and date'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-mbox-split.sh"

test_expect_success 'setup: patches touching various paths' '
	{
		msg p1 - "[PATCH] usb: core fix" drivers/usb/core/hub.c &&
		msg p2 - "[PATCH] usbip: fix" drivers/usbip/stub.c &&
		msg p3 - "[PATCH] net: usb driver fix" drivers/net/usb/r8152.c &&
		msg p4 - "[PATCH] a file named like the prefix" drivers/usb &&
		msg p5 - "[PATCH] dts" arch/arm64/boot/dts/foo.dts &&
		msg p6 - "[PATCH] two files" fs/ext4/inode.c include/linux/usb/ch9.h &&
		msg n1 - "a mail without a patch mentioning drivers/usb/core/hub.c"
	} >mbox
'

test_expect_success '--touches selects by path prefix at a / boundary' '
	selected --touches drivers/usb mbox &&
	printf "p1\np4\n" >expect &&
	test_cmp expect selected
'

test_expect_success '--touches with a trailing slash matches only below the directory' '
	selected --touches drivers/usb/ mbox &&
	echo p1 >expect &&
	test_cmp expect selected
'

test_expect_success '--touches is repeatable: any path may match' '
	selected --touches drivers/usbip --touches include/linux/usb mbox &&
	printf "p2\np6\n" >expect &&
	test_cmp expect selected
'

test_expect_success '--touches with a glob matches the path' '
	selected --touches "*.dts" mbox &&
	echo p5 >expect &&
	test_cmp expect selected
'

test_expect_success '--touches with a glob matches a leading directory' '
	selected --touches "drivers/*/core" mbox &&
	echo p1 >expect &&
	test_cmp expect selected
'

test_expect_success '--touches with a leading ./ is the same path' '
	selected --touches ./drivers/net mbox &&
	echo p3 >expect &&
	test_cmp expect selected
'

test_expect_success 'nothing selected: exit 1 and no output' '
	test_expect_code 1 git-maint-mbox-split --touches sound mbox >out &&
	test_must_be_empty out
'

test_expect_success 'no selector selects every message' '
	selected mbox &&
	test_line_count = 7 selected
'

rename_mail () {
	cat <<-EOF
	From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.com>
	Subject: [PATCH] move $1 to $2
	Message-ID: <$3@example.com>

	Move it.
	---
	diff --git a/$1 b/$2
	similarity index 90%
	rename from $1
	rename to $2
	index 1111111..2222222 100644
	--- a/$1
	+++ b/$2
	@@ -1 +1 @@
	-old
	+new

	EOF
}

test_expect_success 'setup: renames, quoted names, mode-only diffs' '
	{
		rename_mail drivers/usb/misc/old.c drivers/misc/new.c r-out &&
		rename_mail drivers/misc/old.c drivers/usb/misc/new.c r-in &&
		cat <<-\EOF &&
		From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001
		From: A U Thor <author@example.com>
		Subject: [PATCH] quoted
		Message-ID: <quoted@example.com>

		---
		diff --git "a/drivers/usb/\303\244.c" "b/drivers/usb/\303\244.c"
		index 1111111..2222222 100644
		--- "a/drivers/usb/\303\244.c"
		+++ "b/drivers/usb/\303\244.c"
		@@ -1 +1 @@
		-old
		+new

		From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001
		From: A U Thor <author@example.com>
		Subject: [PATCH] mode only
		Message-ID: <mode@example.com>

		---
		diff --git a/scripts/usb-tool.sh b/scripts/usb-tool.sh
		old mode 100644
		new mode 100755

		EOF
		cat <<-\EOF
		From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001
		From: A U Thor <author@example.com>
		Subject: [PATCH] spaces
		Message-ID: <spaces@example.com>

		---
		diff --git a/Documentation/usb/my notes.txt b/Documentation/usb/my notes.txt
		index 1111111..2222222 100644
		--- a/Documentation/usb/my notes.txt
		+++ b/Documentation/usb/my notes.txt
		@@ -1 +1 @@
		-old
		+new

		EOF
	} >renames
'

test_expect_success '--touches matches the old name of a rename' '
	selected --touches drivers/usb/misc renames &&
	printf "r-out\nr-in\n" >expect &&
	test_cmp expect selected
'

test_expect_success '--touches matches the new name of a rename' '
	selected --touches drivers/misc/new.c renames &&
	echo r-out >expect &&
	test_cmp expect selected
'

test_expect_success '--touches decodes C-quoted names' '
	selected --touches "drivers/usb/ä.c" renames &&
	echo quoted >expect &&
	test_cmp expect selected
'

test_expect_success '--touches sees a mode-only diff (no ---/+++ lines)' '
	selected --touches scripts renames &&
	echo mode >expect &&
	test_cmp expect selected
'

test_expect_success '--touches matches a path with spaces' '
	selected --touches "Documentation/usb/my notes.txt" renames &&
	echo spaces >expect &&
	test_cmp expect selected
'

test_expect_success 'setup: authors, subjects, dates' '
	{
		AUTHOR="Lan Tianyu <tianyu.lan@intel.com>" DATE="Fri, 17 Aug 2012 10:00:00 +0800" \
			msg a1 - "[PATCH] usb: endpoint" drivers/usb/core/endpoint.c &&
		AUTHOR="=?UTF-8?q?J=C3=B6rg_M=C3=BCller?= <jm@example.com>" DATE="Sat, 18 Aug 2012 10:00:00 +0000" \
			msg a2 - "[PATCH] usb: quirks" drivers/usb/core/quirks.c &&
		AUTHOR="Alan Stern <stern@rowland.harvard.edu>" DATE="Mon, 20 Aug 2012 23:59:00 -0400" \
			msg a3 - "[PATCH] net: fix" drivers/net/x.c
	} >people
'

test_expect_success '--author matches name or email' '
	selected --author "Lan" people &&
	echo a1 >expect &&
	test_cmp expect selected &&
	selected --author "rowland\.harvard" people &&
	echo a3 >expect &&
	test_cmp expect selected
'

test_expect_success '--author matches the decoded name' '
	selected --author "Jörg Müller" people &&
	echo a2 >expect &&
	test_cmp expect selected
'

test_expect_success '--author is case-sensitive unless -i' '
	test_expect_code 1 git-maint-mbox-split --author "lan tianyu" people >out &&
	selected -i --author "lan tianyu" people &&
	echo a1 >expect &&
	test_cmp expect selected
'

test_expect_success '--subject matches the subject with its prefix' '
	selected --subject "^\[PATCH\] usb:" people &&
	printf "a1\na2\n" >expect &&
	test_cmp expect selected
'

test_expect_success 'selectors combine: all must match' '
	selected --subject "usb:" --touches drivers/usb/core/quirks.c people &&
	echo a2 >expect &&
	test_cmp expect selected
'

test_expect_success '--since and --until compare dates across zones' '
	selected --since "2012-08-17 02:00" people &&
	printf "a1\na2\na3\n" >expect &&
	test_cmp expect selected &&
	selected --since "2012-08-17 02:01" --until "2012-08-21" people &&
	printf "a2\n" >expect &&
	test_cmp expect selected &&
	selected --since "Tue, 21 Aug 2012 03:59:00 +0000" people &&
	echo a3 >expect &&
	test_cmp expect selected &&
	selected --until @1345197600 people &&
	echo a1 >expect &&
	test_cmp expect selected
'

test_expect_success 'a bad date, regex or format is a usage error' '
	test_expect_code 129 git-maint-mbox-split --since "next tuesday" people 2>err &&
	grep "cannot parse date" err &&
	test_expect_code 129 git-maint-mbox-split --author "(" people 2>err &&
	grep "invalid regular expression" err &&
	test_expect_code 129 git-maint-mbox-split --format "%q" people 2>err &&
	grep "unknown placeholder" err
'

test_expect_success 'conflicting output options are usage errors' '
	test_expect_code 129 git-maint-mbox-split --list -o dir people &&
	test_path_is_missing dir &&
	test_expect_code 129 git-maint-mbox-split --mboxrd --list people &&
	test_expect_code 129 git-maint-mbox-split --mboxrd -o dir people
'

# The oracle: git mailsplit + git mailinfo on the generated corpus; a
# message touches drivers/usb when its patch has a diff --git line naming it.
# git mailinfo (a process a message: git has no batch mode) runs on each
# message whose patch could hold such a line; a message that names no
# drivers/usb anywhere, has no transfer encoding but 7bit/8bit/binary and
# no charset but UTF-8/US-ASCII has a patch made of its own lines, as
# they are: none names drivers/usb (about one message in eight needs it).
# Any doubt (an encoding or charset on a folded line) counts as a need.
mailinfo_needed='
	FNR == 1 { if (f != "" && need) print f; f = FILENAME; need = 0 }
	/drivers\/usb/ { need = 1 }
	{ l = tolower($0) }
	l ~ /^content-transfer-encoding:/ {
		v = l; sub(/^content-transfer-encoding:[ \t]*/, "", v); sub(/[ \t\r]*$/, "", v)
		if (v != "7bit" && v != "8bit" && v != "binary") need = 1
	}
	l ~ /charset=/ && l !~ /charset="?(utf-8|us-ascii)("|;|[ \t\r]*$)/ { need = 1 }
	END { if (f != "" && need) print f }
'
test_expect_success 'on a generated corpus: same messages as git mailsplit + mailinfo + grep' '
	small_corpus corpus.mbox &&
	mkdir split &&
	git mailsplit -osplit corpus.mbox >count &&
	test $(cat count) -gt 300 &&
	awk "$mailinfo_needed" split/* >needed &&
	while read -r f
	do
		git mailinfo -k "$f.msg" "$f.patch" <"$f" >/dev/null 2>&1 || return 1
	done <needed &&
	# the first Message-ID of each message whose patch touches drivers/usb
	grep -l -E "^diff --git (a/drivers/usb/.* b/|a/.* b/drivers/usb/)" split/*.patch |
		sed "s/\.patch\$//" |
		xargs awk "FNR == 1 { found = 0 }
			!found && /^[Mm]essage-[Ii][Dd]: *<.*>/ {
				sub(/^[Mm]essage-[Ii][Dd]: *</, \"\"); sub(/>[^>]*\$/, \"\"); print; found = 1
			}" >all &&
	# the list copy of a message is a duplicate: the first copy wins
	awk "!seen[\$0]++" all >expect &&
	test $(wc -l <all) -gt $(wc -l <expect) &&
	test_line_count -gt 20 expect &&
	git-maint-mbox-split --touches drivers/usb --no-threads --all-versions --input-order \
		--format=%m corpus.mbox >actual &&
	test_cmp expect actual
'

test_expect_success 'the fast path (mbox output) selects what the full parser (listing) selects' '
	for pat in drivers/usb "drivers/*" fs include/linux net
	do
		git-maint-mbox-split --no-threads --all-versions --input-order --touches "$pat" \
			corpus.mbox >out &&
		sed -n "s/^[Mm]essage-[Ii][Dd]: *<\(.*\)>.*/\1/p" out >fast &&
		git-maint-mbox-split --no-threads --all-versions --input-order --touches "$pat" \
			--format=%m corpus.mbox >full &&
		test_cmp full fast || return 1
	done
'

# The header block ends at the first line that is no header; one starting
# with a CR is the message's first line, as git mailinfo reads it, not a
# CRLF blank line followed by a diff.
test_expect_success 'a line starting with CR after the headers is message text, not the diff' '
	{
		echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001" &&
		echo "From: A U Thor <author@example.com>" &&
		echo "Subject: [PATCH] cr" &&
		printf "\rdiff --git a/cr.c b/cr.c\nnew file mode 100644\nindex 0000000..e69de29\n"
	} >cr-mbox &&
	sed 1d cr-mbox >cr-mail &&
	git mailinfo cr-msg cr-patch <cr-mail >/dev/null &&
	test_must_be_empty cr-patch &&
	test_expect_code 1 git-maint-mbox-split --touches cr.c cr-mbox >out &&
	test_must_be_empty out &&
	test_expect_code 1 git-maint-mbox-split --touches cr.c --format=%s cr-mbox >out &&
	test_must_be_empty out
'

test_expect_success 'every option is documented in the manual' '
	command_options git-maint-mbox-split >options &&
	test_line_count -gt 15 options &&
	while read opt
	do
		grep -e "^$opt\(\[\?[ =]<.*>\]\?\)\?::\$" "$MAINT_SRC_DIR/Documentation/git-maint-mbox-split.adoc" >/dev/null ||
		{ echo "undocumented: $opt"; return 1; }
	done <options
'

test_expect_success '-h prints usage and exits 129' '
	test_expect_code 129 git-maint-mbox-split -h >out &&
	grep "git maint-mbox-split \[<options>\]" out
'

test_done
