#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='dry-apply and queue refuse what git fsck flags at protected names (reliability case 41)

Symbolic links at .gitmodules, .gitattributes, .gitignore, .mailmap and
every name NTFS or HFS+ takes for them, and anything but a file at
.gitmodules and .gitattributes. git is the oracle: git fsck flags the
tree (or the blob) of such a patch (one git fsck over every case; the
.gitmodules symbolic links git am refuses to apply are flagged as well),
and git am applies, and git fsck takes, the ones that pass.'

. ./test-lib.sh

SQ="'"
ZWNJ=$(printf "\342\200\214")
ZWJ=$(printf "\342\200\215")
BOM=$(printf "\357\273\277")

# The cases are commits on base in gen/, made by one git fast-import (git
# add refuses some of the names) and mailed by one git format-patch: each
# case <c> is the branch <c> in gen/ and the mail <c>.mbox.

# fi_commit <case> <message>: the head of a fast-import commit <case>
# whose parent is base; the entries (M lines) follow.
fi_commit () {
	printf "commit refs/heads/%s\nauthor %s <%s> %s\ncommitter %s <%s> %s\ndata %d\n%s\nfrom refs/tags/base\n" \
		"$1" "$GIT_AUTHOR_NAME" "$GIT_AUTHOR_EMAIL" "$GIT_AUTHOR_DATE" \
		"$GIT_COMMITTER_NAME" "$GIT_COMMITTER_EMAIL" "$GIT_COMMITTER_DATE" \
		$((${#2} + 1)) "$2"
}

# link_case <case> <name>: adds a symbolic link <name>.
link_case () {
	fi_commit "$1" "add a link" &&
	printf "M 120000 inline %s\ndata 6\ntarget\n" "$2"
}

# dir_case <case> <dir>: adds the file <dir>/x (holding "<dir>", so that
# no two cases share a tree).
dir_case () {
	fi_commit "$1" "add a file in a directory" &&
	printf "M 100644 inline %s/x\ndata %d\n%s\n" "$2" $((${#2} + 1)) "$2"
}

# file_cases <list>: for each line "<case> <path> <content file>" of
# <list>, a case adding <path> (<name> or <dir>/<name>) with the content.
file_cases () {
	cut -d" " -f3 "$1" | git -C gen hash-object -w --stdin-paths >blob-ids &&
	paste -d" " "$1" blob-ids |
	while read -r name path file blob
	do
		fi_commit "$name" "add $path" &&
		printf "M 100644 %s %s\n" "$blob" "$path" || return 1
	done
}

# The oracle, from one git fsck of gen/ (which holds base and the cases):
# "<case> flagged" when fsck flags an object at a protected name
# (gitmodules*, gitattributes*, gitignore*, mailmap*) that only <case>
# brings, "<case> clean" when fsck says nothing about any object it
# brings, "<case> unsure" otherwise.
fsck_oracle () {
	git -C gen for-each-ref --format="%(objectname) %(refname:short) %(tree)" refs/heads/ >case-commits &&
	git -C gen log --raw -r -t --no-abbrev --no-renames --format="C %H %T" ^base --branches >case-objects &&
	test_must_fail quick_fsck -C gen >gen-fsck 2>&1 &&
	awk '
	FILENAME == ARGV[1] { name[$1] = $2; next }
	FILENAME == ARGV[2] && /^C / { c = name[$2]; brings[c, $3] = 1; cases[c] = 1; next }
	FILENAME == ARGV[2] && /^:/ { brings[c, $4] = 1; next }
	FILENAME == ARGV[3] {
		if ($0 ~ /^(error|warning) in [a-z]+ [0-9a-f]+: (gitmodules|gitattributes|gitignore|mailmap)[A-Z]/)
			flagged[substr($4, 1, length($4) - 1)] = 1
		said[substr($4, 1, length($4) - 1)] = 1
	}
	END {
		for (k in brings) { split(k, p, SUBSEP); owners[p[2]]++ }
		for (c in cases) {
			verdict = "clean"
			for (k in brings) {
				split(k, p, SUBSEP)
				if (p[1] != c || !(p[2] in said)) continue
				if (p[2] in flagged && owners[p[2]] == 1) { verdict = "flagged"; break }
				verdict = "unsure"
			}
			print c, verdict
		}
	}' case-commits case-objects gen-fsck >verdicts
}

# git fsck, less its commit-graph and multi-pack-index checks (processes
# of their own; these repositories have neither file).
quick_fsck () {
	git -c core.commitGraph=false -c core.multiPackIndex=false "$@" fsck --no-progress --no-dangling
}

# has_line <file> <line>: <file> has the line <line> (grep -x, without
# a process: the verdicts are looked up some 80 times).
has_line () {
	while IFS= read -r has_l || test -n "$has_l"
	do
		test "$has_l" = "$2" && return 0
	done <"$1"
	return 1
}

# has_text <file> <text>: a line of <file> holds <text> (grep -F, without
# a process; the reports are a few lines).
has_text () {
	while IFS= read -r has_l || test -n "$has_l"
	do
		case $has_l in
		*"$2"*) return 0 ;;
		esac
	done <"$1"
	echo "no line with '$2' in $1:" &&
	cat "$1" &&
	return 1
}

# git_flags <case>: git fsck flags what the case commits.
git_flags () {
	has_line verdicts "$1 flagged"
}

# git_clean <case>: git am applies the mail, and git fsck says nothing
# about what it commits: the tree of the case in gen/ (verdicts; its id
# from case-commits), or, when git am commits another (it drops the CRs
# of a CRLF file), oracle/ where git am applied this mail and the ones
# before it.
git_clean () {
	has_line verdicts "$1 clean" &&
	git -C oracle checkout -q --detach main &&
	git -C oracle am -q "../$1.mbox" &&
	am_tree=$(git -C oracle rev-parse HEAD^{tree}) &&
	gen_tree= &&
	while read -r gen_commit gen_case gen_case_tree
	do
		if test "$gen_case" = "$1"
		then
			gen_tree=$gen_case_tree
		fi
	done <case-commits &&
	test -n "$gen_tree" &&
	if test "$am_tree" != "$gen_tree"
	then
		quick_fsck -C oracle >fsck.out 2>&1 &&
		test_must_be_empty fsck.out
	fi
}

# refused <mbox> <line>: dry-apply and queue say no (exit 1), the line
# in their report; nothing in the repository changes, so git fsck still
# says nothing of it. (The state of repo/ is kept from the last refused
# case that passed; applied() drops it, as does a failure. git fsck runs
# when the state is taken: a case that leaves every file as it was
# leaves what fsck reads as it was.)
refused () {
	{
		test -f state.kept ||
		{
			(cd repo && repo_state ORIG_HEAD) >state.kept &&
			quick_fsck -C repo >fsck.out 2>&1 &&
			test_must_be_empty fsck.out
		}
	} &&
	(cd repo && test_expect_code 1 git-maint-dry-apply ../"$1") >out &&
	has_text out "$2" &&
	(
		cd repo &&
		test_expect_code 1 git-maint-queue -q main ../"$1" 2>../err &&
		git-maint-queue --abort >/dev/null
	) &&
	has_text err "$2" &&
	(cd repo && repo_state ORIG_HEAD) >state.after &&
	test_cmp state.kept state.after ||
	{ rm -f state.kept && return 1; }
}

# applied <mbox>: queue applies the mail; git fsck is content.
applied () {
	rm -f state.kept &&
	(
		cd repo &&
		git checkout -q -B try main &&
		git-maint-queue -q try ../"$1" &&
		quick_fsck >../fsck.out 2>&1 &&
		git checkout -q main
	) &&
	test_must_be_empty fsck.out
}

test_expect_success 'setup' '
	git init -q repo &&
	(cd repo && test_commit base README && git branch -M main) &&
	cp -R repo gen &&
	cp -R repo oracle
'

test_expect_success 'setup: the names' '
	printf "%s\n" .gitmodules .GITMODULES GITMOD~1 gitmod~4 gi7eba~1 gi7eb~12 g~123456 \
		.gitmodules. ".gitmodules " ".gitmodules . ." ".gitmodules::\$DATA" .gitmodules:x \
		".git${ZWNJ}modules" "${BOM}.gitmodules" ".gitmodules${ZWJ}" \
		.gitattributes GITATT~1 gi7d29~1 ".gitattributes." \
		.gitignore GITIGN~2 gi250a~1 ".gitignore ::\$DATA" \
		.mailmap MAILMA~3 maba30~1 ".mail${ZWJ}map" >bad-links &&
	printf "%s\n" GITMOD~5 gitmodules .gitmodulesx .gitmodules.x gi7eba~0 .gitmodule g~12345 \
		".gitmodules${ZWNJ}x" .gitignored mailmap >ok-links
'

# One .gitmodules per line, written with printf %b (\n, \t, \\, \0nnn).
test_expect_success 'setup: .gitmodules contents git fsck refuses, and some it takes' '
	cat >bad-gitmodules <<-\EOF &&
	[submodule "x"]\n\tpath = x\n\turl = -oProxyCommand=evil
	[submodule "x"]\n\turl = ./%0aevil
	[submodule "x"]\n\turl = git://example.com:1234/repo%0a.git
	[submodule "x"]\n\turl = ../../:example.com/x
	[submodule "x"]\n\turl = ..\\/example.com/x
	[submodule "x"]\n\turl = https::///example.com
	[submodule "x"]\n\turl = http://%0aexample.com/
	[submodule "x"]\n\turl = https://user%0aname@example.com/x
	[submodule "x"]\n\turl = https://example.com/repo%0a.git
	[submodule "x"]\n\tpath = -x
	[submodule "x"]\n\tupdate = !rm -rf /
	[submodule "x"]\n\tupdate = "!sh"
	[submodule "../../x"]\n\tpath = x
	[submodule "a\\\\..\\\\b"]\n\tpath = x
	[submodule ".."]\n\tpath = x
	[submodule ""]\n\tpath = x
	[SubModule.x/../..]\n\tpath = x
	[submodule "x"\n\tpath = x
	[submodule "x"]\n\turl = "a\\q"
	[submodule "x"]\n\turl = "open
	[submodule "x"]\n\tpath = x\n@ = y
	\0357\0273\0277[submodule "x"]\n\tpath = x
	[submodule\0013"x"]\n\tpath = x
	[submodule "x"]\n\tpath = -x\\
	EOF
	cat >good-gitmodules <<-\EOF
	[submodule "x"]\n\tpath = x\n\turl = https://example.com/x.git
	[submodule "x"]\n\turl = ../x.git\n\tupdate = rebase
	[submodule "x"]\n\turl = ./a/../b.git
	[submodule "x"]\n\turl = git@example.com:x.git
	[submodule "x"]\n\turl = https://example.com/repo%0b.git
	[submodule "x"]\n\turl = unknown://x%0ay
	[submodule "x"] ; comment\n\tpath = "a b" # comment\n\turl = "https://e.com/\\\\x" \\\n  continued
	[submodule "x"]\r\n\tpath = x\r\n
	[submodule "x"]\n\turl = " -x"
	[submodule "a..b"]\n\tpath = x\n[other "y"]\n\tpath = -x
	[submodule]\n\turl = -x
	[submodule.x]\n\tpath = x\n\tflag
	path = -x\n[ "x"]\n\tpath = -x\n[.y]\n\tpath = -y
	EOF
'

test_expect_success 'setup: every case, its mail, and what git fsck says of it' '
	n=0 &&
	while read -r content
	do
		n=$((n + 1)) &&
		printf "%b\n" "$content" >gm$n &&
		echo "gm$n .gitmodules ../gm$n" || return 1
	done <bad-gitmodules >file-cases &&
	n=0 &&
	while read -r content
	do
		n=$((n + 1)) &&
		printf "%b\n" "$content" >ok-gm$n &&
		echo "ok-gm$n .gitmodules ../ok-gm$n" || return 1
	done <good-gitmodules >>file-cases &&
	{ cat gm1 && echo "# a look-alike"; } >gm-look &&
	printf "[submodule \"x\"]\n\tpath = x\n\turl = https://example.com/x\n" >files-gitmodules &&
	echo "A U Thor <author@example.com>" >files-mailmap &&
	awk "BEGIN { for (i = 0; i < 2042; i++) printf \"a\"; print \" text\" }" >ga-ok &&
	awk "BEGIN { for (i = 0; i < 2043; i++) printf \"a\"; print \" text\" }" >ga-bad &&
	cat >>file-cases <<-\EOF &&
	gm-look sub/GITMOD~1 ../gm-look
	ga-ok .gitattributes ../ga-ok
	ga-bad .gitattributes ../ga-bad
	EOF
	{
		n=0 &&
		while IFS= read -r name
		do
			n=$((n + 1)) &&
			link_case link$n "$name" || return 1
		done <bad-links &&
		n=0 &&
		while IFS= read -r name
		do
			n=$((n + 1)) &&
			link_case ok$n "$name" || return 1
		done <ok-links &&
		dir_case dir1 .gitmodules &&
		dir_case dir2 GITATT~1 &&
		dir_case dir3 .gitignore &&
		fi_commit gitlink "a submodule at .gitmodules" &&
		echo "M 160000 $(git -C gen rev-parse base) .gitmodules" &&
		file_cases file-cases &&
		fi_commit files files &&
		echo "M 100644 $(git -C gen hash-object -w ../files-gitmodules) .gitmodules" &&
		echo "M 100644 $(git -C gen hash-object -w ../files-mailmap) .mailmap"
	} >cases.fi &&
	git -C gen fast-import --quiet <cases.fi &&
	git -C gen format-patch -N --stdout ^base --branches >all.mbox &&
	fsck_oracle &&
	awk "
	FILENAME == ARGV[1] { name[\$1] = \$2; next }
	/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001\$/ { if (out) close(out); out = name[\$2] \".mbox\" }
	{ print > out }
	" case-commits all.mbox
'

n=0
while IFS= read -r name
do
	n=$((n + 1))
	test_expect_success "a symbolic link at '$name' is refused (git fsck flags it)" '
		git_flags link$n &&
		refused link$n.mbox "may not be a symbolic link"
	'
done <bad-links

n=0
while IFS= read -r name
do
	n=$((n + 1))
	test_expect_success "a symbolic link at '$name' applies, as in git (fsck content)" '
		git_clean ok$n &&
		applied ok$n.mbox
	'
done <ok-links

test_expect_success 'a directory at .gitmodules is refused (fsck: gitmodulesBlob)' '
	git_flags dir1 &&
	refused dir1.mbox "${SQ}.gitmodules/x${SQ}: ${SQ}.gitmodules${SQ} may only be a file"
'

test_expect_success 'a directory at an NTFS name of .gitattributes is refused (fsck: gitattributesBlob)' '
	git_flags dir2 &&
	refused dir2.mbox "${SQ}GITATT~1/x${SQ}: ${SQ}GITATT~1${SQ} may only be a file"
'

test_expect_success 'a directory at .gitignore applies (fsck content)' '
	git_clean dir3 &&
	applied dir3.mbox
'

test_expect_success 'a submodule at .gitmodules is refused' '
	git_flags gitlink &&
	refused gitlink.mbox "${SQ}.gitmodules${SQ} may only be a file"
'

test_expect_success 'a regular .gitmodules and .mailmap apply' '
	git_clean files &&
	applied files.mbox
'

n=0
while IFS= read -r content
do
	n=$((n + 1))
	test_expect_success ".gitmodules that git fsck refuses is refused ($n: $content)" '
		git_flags gm$n &&
		refused gm$n.mbox "${SQ}.gitmodules${SQ} would not pass git fsck (gitmodules"
	'
done <bad-gitmodules

n=0
while IFS= read -r content
do
	n=$((n + 1))
	test_expect_success ".gitmodules that git fsck takes applies ($n: $content)" '
		git_clean ok-gm$n &&
		applied ok-gm$n.mbox
	'
done <good-gitmodules

test_expect_success 'a .gitmodules look-alike is checked the same way' '
	git_flags gm-look &&
	refused gm-look.mbox "${SQ}sub/GITMOD~1${SQ} would not pass git fsck (gitmodulesUrl"
'

test_expect_success 'a rename onto .gitmodules is checked too (the content comes along)' '
	(
		cd gen &&
		git checkout -q -B ren base &&
		printf "[submodule \"x\"]\n\tupdate = !evil\n" >not-yet &&
		git add not-yet &&
		git commit -q -m "an innocent file" &&
		git mv not-yet .gitmodules &&
		git commit -q -m "rename it" &&
		git format-patch -q --stdout base..ren
	) >rename.mbox &&
	(cd repo && test_expect_code 1 git-maint-dry-apply ../rename.mbox) >out &&
	grep "^Patch 1/2: an innocent file" out &&
	grep "${SQ}.gitmodules${SQ} would not pass git fsck (gitmodulesUpdate" out &&
	grep "main: 1 of 2 patches apply; patch 2/2 is the first that does not" out
'

test_expect_success '.gitattributes with a line of 2048 bytes is refused, 2047 applies (as fsck)' '
	test $(head -n 1 ga-ok | wc -c) = 2048 &&
	test $(head -n 1 ga-bad | wc -c) = 2049 &&
	git_clean ga-ok &&
	applied ga-ok.mbox &&
	git_flags ga-bad &&
	refused ga-bad.mbox "${SQ}.gitattributes${SQ} would not pass git fsck (gitattributesLineLength"
'

test_done
