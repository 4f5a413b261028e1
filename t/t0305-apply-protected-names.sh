#!/bin/sh

test_description='dry-apply and queue refuse what git fsck flags at protected names (RELIABILITY 41)

Symbolic links at .gitmodules, .gitattributes, .gitignore, .mailmap and
every name NTFS or HFS+ takes for them, and anything but a file at
.gitmodules and .gitattributes. git is the oracle: git am refuses such a
patch, or git fsck flags what it commits.'

. ./test-lib.sh

SQ="'"
ZWNJ=$(printf "\342\200\214")
ZWJ=$(printf "\342\200\215")
BOM=$(printf "\357\273\277")

# link_mail <name> <mbox>: a format-patch mail adding a symbolic link
# <name> (made in gen/ with git's plumbing, as git add refuses some).
link_mail () {
	(
		cd gen &&
		blob=$(printf target | git hash-object -w --stdin) &&
		tree=$({ git ls-tree base && printf "120000 blob %s\t%s\n" "$blob" "$1"; } | git mktree) &&
		commit=$(git commit-tree -p base -m "add a link" "$tree") &&
		git format-patch -q --stdout base.."$commit"
	) >"$2"
}

# dir_mail <dir> <mbox>: a mail adding the file <dir>/x.
dir_mail () {
	(
		cd gen &&
		blob=$(echo x | git hash-object -w --stdin) &&
		sub=$(printf "100644 blob %s\tx\n" "$blob" | git mktree) &&
		tree=$({ git ls-tree base && printf "040000 tree %s\t%s\n" "$sub" "$1"; } | git mktree) &&
		commit=$(git commit-tree -p base -m "add a file in a directory" "$tree") &&
		git format-patch -q --stdout base.."$commit"
	) >"$2"
}

# file_mail <path> <content file> <mbox>: a mail adding <path> (<name> or
# <dir>/<name>) with the content.
file_mail () {
	(
		cd gen &&
		blob=$(git hash-object -w "../$2") &&
		entry=$(printf "100644 blob %s\t%s" "$blob" "${1##*/}") &&
		case "$1" in
		*/*) entry=$(printf "040000 tree %s\t%s" "$(echo "$entry" | git mktree)" "${1%/*}") ;;
		esac &&
		tree=$({ git ls-tree base && echo "$entry"; } | git mktree) &&
		commit=$(git commit-tree -p base -m "add $1" "$tree") &&
		git format-patch -q --stdout base.."$commit"
	) >"$3"
}

# git_flags <mbox>: in a fresh copy of repo/, git am refuses the mail or
# git fsck flags what it commits.
git_flags () {
	rm -rf oracle &&
	git clone -q repo oracle &&
	(
		cd oracle &&
		if git am -q "../$1" >/dev/null 2>&1
		then
			git fsck --no-progress --no-dangling >../fsck.out 2>&1
			grep -E "^(error|warning) in [a-z]+ [0-9a-f]+: (gitmodules|gitattributes|gitignore|mailmap)[A-Z]" ../fsck.out
		else
			echo "git am refuses"
		fi
	)
}

# git_clean <mbox>: git am applies the mail and git fsck says nothing.
git_clean () {
	rm -rf oracle &&
	git clone -q repo oracle &&
	(
		cd oracle &&
		git am -q "../$1" &&
		git fsck --no-progress --no-dangling >../fsck.out 2>&1 &&
		test_must_be_empty ../fsck.out
	)
}

# refused <mbox> <line>: dry-apply and queue say no (exit 1), the line
# in their report; nothing in the repository changes.
refused () {
	(cd repo && repo_state) >state.before &&
	(cd repo && test_expect_code 1 git maint-dry-apply ../"$1") >out &&
	grep -F "$2" out &&
	(
		cd repo &&
		test_expect_code 1 git maint-queue -q main ../"$1" 2>../err &&
		git maint-queue --abort >/dev/null
	) &&
	grep -F "$2" err &&
	(cd repo && repo_state && git fsck --no-progress --no-dangling 2>&1) | grep -v ORIG_HEAD >state.after &&
	grep -v ORIG_HEAD state.before >state.expect &&
	test_cmp state.expect state.after
}

# applied <mbox>: queue applies the mail; git fsck is content.
applied () {
	(
		cd repo &&
		git checkout -q -B try main &&
		git maint-queue -q try ../"$1" &&
		git fsck --no-progress --no-dangling >../fsck.out 2>&1 &&
		git checkout -q main
	) &&
	test_must_be_empty fsck.out
}

test_expect_success 'setup' '
	git init -q repo &&
	(cd repo && test_commit base README && git branch -M main) &&
	git clone -q repo gen &&
	git -C gen tag -f base origin/main
'

n=0
for name in .gitmodules .GITMODULES GITMOD~1 gitmod~4 gi7eba~1 gi7eb~12 g~123456 \
	.gitmodules. ".gitmodules " ".gitmodules . ." ".gitmodules::\$DATA" .gitmodules:x \
	".git${ZWNJ}modules" "${BOM}.gitmodules" ".gitmodules${ZWJ}" \
	.gitattributes GITATT~1 gi7d29~1 ".gitattributes." \
	.gitignore GITIGN~2 gi250a~1 ".gitignore ::\$DATA" \
	.mailmap MAILMA~3 maba30~1 ".mail${ZWJ}map"
do
	n=$((n + 1))
	test_expect_success "a symbolic link at '$name' is refused (git refuses or fsck flags it)" '
		link_mail "$name" link$n.mbox &&
		git_flags link$n.mbox &&
		refused link$n.mbox "may not be a symbolic link"
	'
done

n=0
for name in GITMOD~5 gitmodules .gitmodulesx .gitmodules.x gi7eba~0 .gitmodule g~12345 \
	".gitmodules${ZWNJ}x" .gitignored mailmap
do
	n=$((n + 1))
	test_expect_success "a symbolic link at '$name' applies, as in git (fsck content)" '
		link_mail "$name" ok$n.mbox &&
		git_clean ok$n.mbox &&
		applied ok$n.mbox
	'
done

test_expect_success 'a directory at .gitmodules is refused (fsck: gitmodulesBlob)' '
	dir_mail .gitmodules dir1.mbox &&
	git_flags dir1.mbox &&
	refused dir1.mbox "${SQ}.gitmodules/x${SQ}: ${SQ}.gitmodules${SQ} may only be a file"
'

test_expect_success 'a directory at an NTFS name of .gitattributes is refused (fsck: gitattributesBlob)' '
	dir_mail GITATT~1 dir2.mbox &&
	git_flags dir2.mbox &&
	refused dir2.mbox "${SQ}GITATT~1/x${SQ}: ${SQ}GITATT~1${SQ} may only be a file"
'

test_expect_success 'a directory at .gitignore applies (fsck content)' '
	dir_mail .gitignore dir3.mbox &&
	git_clean dir3.mbox &&
	applied dir3.mbox
'

test_expect_success 'a submodule at .gitmodules is refused' '
	(
		cd gen &&
		tree=$({ git ls-tree base &&
			 printf "160000 commit %s\t.gitmodules\n" $(git rev-parse base); } | git mktree) &&
		commit=$(git commit-tree -p base -m "a submodule at .gitmodules" "$tree") &&
		git format-patch -q --stdout base.."$commit"
	) >gitlink.mbox &&
	git_flags gitlink.mbox &&
	refused gitlink.mbox "${SQ}.gitmodules${SQ} may only be a file"
'

test_expect_success 'a regular .gitmodules and .mailmap apply' '
	(
		cd gen &&
		git checkout -q -B files base &&
		printf "[submodule \"x\"]\n\tpath = x\n\turl = https://example.com/x\n" >.gitmodules &&
		echo "A U Thor <author@example.com>" >.mailmap &&
		git add .gitmodules .mailmap &&
		git commit -q -m files &&
		git format-patch -q --stdout base..files
	) >files.mbox &&
	git_clean files.mbox &&
	applied files.mbox
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
	EOF
'

n=0
while read -r content
do
	n=$((n + 1))
	test_expect_success ".gitmodules that git fsck refuses is refused ($n: $content)" '
		printf "%b\n" "$content" >gm$n &&
		file_mail .gitmodules gm$n gm$n.mbox &&
		git_flags gm$n.mbox &&
		refused gm$n.mbox "${SQ}.gitmodules${SQ} would not pass git fsck (gitmodules"
	'
done <bad-gitmodules

n=0
while read -r content
do
	n=$((n + 1))
	test_expect_success ".gitmodules that git fsck takes applies ($n: $content)" '
		printf "%b\n" "$content" >ok-gm$n &&
		file_mail .gitmodules ok-gm$n ok-gm$n.mbox &&
		git_clean ok-gm$n.mbox &&
		applied ok-gm$n.mbox
	'
done <good-gitmodules

test_expect_success 'a .gitmodules look-alike is checked the same way' '
	file_mail sub/GITMOD~1 gm1 gm-look.mbox &&
	git_flags gm-look.mbox &&
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
	(cd repo && test_expect_code 1 git maint-dry-apply ../rename.mbox) >out &&
	grep "^Patch 1/2: an innocent file" out &&
	grep "${SQ}.gitmodules${SQ} would not pass git fsck (gitmodulesUpdate" out &&
	grep "main: 1 of 2 patches apply; patch 2 is the first that does not" out
'

test_expect_success '.gitattributes with a line of 2048 bytes is refused, 2047 applies (as fsck)' '
	awk "BEGIN { for (i = 0; i < 2042; i++) printf \"a\"; print \" text\" }" >ga-ok &&
	awk "BEGIN { for (i = 0; i < 2043; i++) printf \"a\"; print \" text\" }" >ga-bad &&
	test $(head -n 1 ga-ok | wc -c) = 2048 &&
	file_mail .gitattributes ga-ok ga-ok.mbox &&
	file_mail .gitattributes ga-bad ga-bad.mbox &&
	git_clean ga-ok.mbox &&
	applied ga-ok.mbox &&
	git_flags ga-bad.mbox &&
	refused ga-bad.mbox "${SQ}.gitattributes${SQ} would not pass git fsck (gitattributesLineLength"
'

test_done
