#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='the manual pages and the programs agree: every option a command lists in -h is documented under OPTIONS of its page, every option documented there is one the command takes, and every page has the sections a maintainer looks for'

. ./test-lib.sh

DOC="$MAINT_SRC_DIR/Documentation"

# usage_options <cmd>: the options git-maint-<cmd> -h lists, one per line,
# sorted: "-s" and "--signoff" for "-s, --[no-]signoff", "--no-signoff"
# as well; the argument and the help text dropped. The usage is made from
# the program's option table (parse-options), so it is what the program
# takes (hidden options aside, which are not for users).
usage_options () {
	test_expect_code 129 "git-maint-$1" -h >usage &&
	sed -n "s/^    \(-.*\)/\1/p" usage |
	sed "s/  .*//" |
	tr "," "\n" |
	sed -e "s/^ *//" -e "s/\[\?[ =].*//" |
	sed -e "s/^--\[no-\]\(.*\)/--\1\n--no-\1/" |
	sort -u
}

# doc_options <cmd>: the options documented under OPTIONS (its subsections
# included) of Documentation/git-maint-<cmd>.adoc: the terms of the
# definition lists ("--fuzz=<n>::", "-p <n>::"), one name per line, sorted;
# "--[no-]x::" names both.
doc_options () {
	sed -n "/^== OPTIONS\$/,/^== /p" "$DOC/git-maint-$1.adoc" |
	sed -n "s/^\(-[^:]*\)::\$/\1/p" |
	tr "," "\n" |
	sed -e "s/^ *//" -e "s/\[\?[ =].*//" |
	sed -e "s/^--\[no-\]\(.*\)/--\1\n--no-\1/" |
	sort -u
}

COMMANDS=
for d in "$DOC"/git-maint-*.adoc
do
	c=${d##*/git-maint-}
	COMMANDS="$COMMANDS ${c%.adoc}"
done

test_expect_success 'a page for each command, a command for each page' '
	for c in $COMMANDS; do echo "git-maint-$c"; done >expect &&
	(cd "$MAINT_BUILD_DIR/bin" && ls git-maint-*) | grep -v -e "--" >actual &&
	test_cmp expect actual
'

for cmd in $COMMANDS
do
	test_expect_success "git-maint-$cmd: every option -h lists is documented" '
		usage_options $cmd >listed &&
		doc_options $cmd >documented &&
		test -s listed &&
		# --no-<x> of a boolean option needs no entry of its own
		comm -23 listed documented >missing &&
		sed "/^--no-/d" missing >undocumented &&
		test_must_be_empty undocumented &&
		# ...but when only --no-<x> is documented, --<x> is not
		sed -n "s/^--no-/--/p" missing | comm -12 - listed | comm -23 - documented >undocumented &&
		test_must_be_empty undocumented
	'

	test_expect_success "git-maint-$cmd: every option documented is one it takes" '
		usage_options $cmd >listed &&
		doc_options $cmd >documented &&
		test -s documented &&
		comm -13 listed documented >unknown &&
		test_must_be_empty unknown
	'

	test_expect_success "git-maint-$cmd: every option in the SYNOPSIS is one it takes" '
		usage_options $cmd >listed &&
		sed -n "/^== SYNOPSIS\$/,/^== /p" "$DOC/git-maint-$cmd.adoc" |
		grep -o -e "[[ (|]--*\(\[no-\]\)\{0,1\}[a-z0-9][a-z0-9-]*" |
		sed -e "s/^.//" -e "s/^--\[no-\]\(.*\)/--\1\n--no-\1/" |
		sort -u >synopsis &&
		test -s synopsis &&
		comm -13 listed synopsis >unknown &&
		test_must_be_empty unknown
	'

	test_expect_success "git-maint-$cmd: the page has SYNOPSIS, OPTIONS, CONFIGURATION, EXIT STATUS, EXAMPLES" '
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS CONFIGURATION "EXIT STATUS" EXAMPLES "SEE ALSO"
		do
			echo "== $s"
		done >expect &&
		grep -e "^== NAME\$" -e "^== SYNOPSIS\$" -e "^== DESCRIPTION\$" -e "^== OPTIONS\$" \
			-e "^== CONFIGURATION\$" -e "^== EXIT STATUS\$" -e "^== EXAMPLES\$" -e "^== SEE ALSO\$" \
			"$DOC/git-maint-$cmd.adoc" >actual &&
		test_cmp expect actual
	'

	test_expect_success "git-maint-$cmd: every exit code the page lists is one of the suite's (0, 1, 75, 128, 129)" '
		sed -n "/^== EXIT STATUS\$/,/^== /p" "$DOC/git-maint-$cmd.adoc" |
		sed -n "s/^\([0-9][0-9]*\)::.*/\1/p" >codes &&
		test -s codes &&
		sed -e "/^0\$/d" -e "/^1\$/d" -e "/^75\$/d" -e "/^128\$/d" -e "/^129\$/d" codes >odd &&
		test_must_be_empty odd
	'
done

# man(1) formats for the terminal; a warning from troff or tbl (a line it
# cannot break, a table wider than the screen) is printed above the page.
if command -v man >/dev/null && command -v groff >/dev/null
then
	test_set_prereq MAN
fi

test_expect_success MAN 'every page reads in 80 columns without a formatter warning' '
	ls "$MAINT_BUILD_DIR"/man/man1/git-maint-*.1 "$MAINT_BUILD_DIR"/man/man7/git-maint.7 >pages &&
	test_line_count = $(($(echo $COMMANDS | wc -w) + 1)) pages &&
	while read page
	do
		MANWIDTH=80 man -l "$page" >page.txt 2>err &&
		test_must_be_empty err &&
		grep "^NAME\$" page.txt || return 1
	done <pages
'

test_expect_success 'git-maint(7): -h of every command is its usage, on stdout, exit 129' '
	for cmd in $COMMANDS
	do
		test_expect_code 129 "git-maint-$cmd" -h >out 2>err &&
		test_must_be_empty err &&
		head -n 1 out >first &&
		grep "^usage: git maint-$cmd " first || return 1
	done
'

test_done
