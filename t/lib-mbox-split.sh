# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the mbox-split tests (t02xx).

# msg <id> <parent id or -> <subject> [<path>...]
#
# Prints one mbox message with Message-ID <id@example.com>, replying to
# <parent@example.com> unless parent is "-", from $AUTHOR (default
# "A U Thor <author@example.com>") dated $DATE, carrying a git diff that
# changes one line of each <path> (no diff without paths).
msg () {
	id=$1 parent=$2 subject=$3 &&
	shift 3 &&
	echo "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001" &&
	echo "From: ${AUTHOR:-A U Thor <author@example.com>}" &&
	echo "Date: ${DATE:-Fri, 17 Aug 2012 10:00:00 +0000}" &&
	echo "Subject: $subject" &&
	echo "Message-ID: <$id@example.com>" &&
	if test "$parent" != -
	then
		echo "In-Reply-To: <$parent@example.com>" &&
		echo "References: <$parent@example.com>"
	fi &&
	echo &&
	echo "The body of $id." &&
	if test $# -gt 0
	then
		echo "---" &&
		for p in "$@"
		do
			printf "diff --git a/%s b/%s\n" "$p" "$p" &&
			printf "index 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n" "$p" "$p" &&
			printf "@@ -1 +1 @@\n-old\n+new\n" || return 1
		done
	fi &&
	echo
}

# small_corpus <file>: the mailbox of t/perf/gen-repo.sh --size=small (a
# few hundred messages), made once a run (test_cache), as <file>.
small_corpus () {
	test_cache corpus-small "$MAINT_SRC_DIR"/t/perf/gen-repo.sh "$MAINT_SRC_DIR"/t/perf/*.py -- \
		sh "$MAINT_SRC_DIR/t/perf/gen-repo.sh" --size=small --out=corpus >/dev/null &&
	cp "$TEST_CACHE/corpus/mbox" "$1"
}

# ids <file>: the Message-IDs listed by --format=%m, as a file "ids" (sorted as given)
selected () {
	git-maint-mbox-split --format=%m "$@" >ids.raw
	rc=$?
	sed "s/@example.com\$//" <ids.raw >selected
	return $rc
}
