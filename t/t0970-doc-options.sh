#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='the manual pages and the programs agree: every option a command lists in -h is documented under OPTIONS of its page, every option documented there is one the command takes, and every page has the sections a maintainer looks for'

. ./test-lib.sh

DOC="$MAINT_SRC_DIR/Documentation"

# OPTION_NAMES: an awk function, names(<text>): the option names in
# "-s, --[no-]signoff" or "--fuzz=<n>", one per line: "-s" and
# "--signoff", "--no-signoff" as well; the argument dropped.
OPTION_NAMES='
function names(text,    n, f, i, o) {
	n = split(text, f, ",")
	for (i = 1; i <= n; i++) {
		o = f[i]
		sub(/^ */, "", o)
		sub(/\[?[ =].*/, "", o)
		if (o ~ /^--\[no-\]/) {
			print "--" substr(o, 8)
			print "--no-" substr(o, 8)
		} else
			print o
	}
}'

# usage_options <cmd>: the options git-maint-<cmd> -h lists, one per line,
# sorted, in listed.<cmd> (names as OPTION_NAMES gives them; the help
# text dropped). The usage is made from the program's option table
# (parse-options), so it is what the program takes (hidden options aside,
# which are not for users). Made on the first call: three tests read it.
usage_options () {
	test -f "listed.$1" ||
	{
		test_expect_code 129 "git-maint-$1" -h >"usage.$1" &&
		awk "$OPTION_NAMES"'
		/^    -/ { sub(/^    /, ""); sub(/  .*/, ""); names($0) }' "usage.$1" |
		sort -u >"listed.$1"
	}
}

# doc_options <cmd>: the options documented under OPTIONS (its subsections
# included) of Documentation/git-maint-<cmd>.adoc, in documented.<cmd>:
# the terms of the definition lists ("--fuzz=<n>::", "-p <n>::"), one name
# per line, sorted; "--[no-]x::" names both. Made on the first call.
doc_options () {
	test -f "documented.$1" ||
	awk "$OPTION_NAMES"'
	/^== OPTIONS$/ { on = 1; next }
	on && /^== / { on = 0 }
	on && /^-[^:]*::$/ { sub(/::$/, ""); names($0) }' "$DOC/git-maint-$1.adoc" |
	sort -u >"documented.$1"
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
		usage_options $cmd &&
		doc_options $cmd &&
		test -s listed.$cmd &&
		# --no-<x> of a boolean option needs no entry of its own
		comm -23 listed.$cmd documented.$cmd >missing &&
		sed "/^--no-/d" missing >undocumented &&
		test_must_be_empty undocumented &&
		# ...but when only --no-<x> is documented, --<x> is not
		sed -n "s/^--no-/--/p" missing | comm -12 - listed.$cmd | comm -23 - documented.$cmd >undocumented &&
		test_must_be_empty undocumented
	'

	test_expect_success "git-maint-$cmd: every option documented is one it takes" '
		usage_options $cmd &&
		doc_options $cmd &&
		test -s documented.$cmd &&
		comm -13 listed.$cmd documented.$cmd >unknown &&
		test_must_be_empty unknown
	'

	test_expect_success "git-maint-$cmd: every option in the SYNOPSIS is one it takes" '
		usage_options $cmd &&
		sed -n "/^== SYNOPSIS\$/,/^== /p" "$DOC/git-maint-$cmd.adoc" |
		grep -o -e "[[ (|]--*\(\[no-\]\)\{0,1\}[a-z0-9][a-z0-9-]*" |
		sed -e "s/^.//" -e "s/^--\[no-\]\(.*\)/--\1\n--no-\1/" |
		sort -u >synopsis &&
		test -s synopsis &&
		comm -13 listed.$cmd synopsis >unknown &&
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
		IFS= read -r first <out &&
		case "$first" in
		"usage: git maint-$cmd "*) ;;
		*) echo "first line: $first"; return 1 ;;
		esac || return 1
	done
'

test_done
