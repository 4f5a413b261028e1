# SPDX-License-Identifier: GPL-2.0-only
# Sourced by every t/tNNNN-*.sh: pins the environment, puts the built
# programs first on PATH, then loads Debian's sharness.
#
# Chain-lint (as in git's test-lib): before its body runs, every test is
# run once as "(exit 117) && <body>". When every command is &&-chained,
# nothing after "(exit 117)" runs and the result is 117; a command after a
# broken link runs, changes the result, and the script stops with
#	error: bug in the test script: broken && chain in test <n> '<name>' of <file>
# (a failure there would be ignored and the test could pass anyway).
# Turn it off with GIT_TEST_CHAIN_LINT=0 in the environment (make check
# passes it on) or --no-chain-lint on a test script's command line.
#
# The environment is pinned so no test reads the real ~/.gitconfig,
# keyring, clock or locale: HOME is the trash directory (sharness),
# GIT_CONFIG_NOSYSTEM, fixed author/committer identity and dates, LC_ALL=C.UTF-8.

SHARNESS_TEST_EXTENSION=sh
export SHARNESS_TEST_EXTENSION

: "${MAINT_BUILD_DIR:=$(cd "$(dirname "$0")/.." && pwd)/.build}"
MAINT_SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
MAINT_TEST_DIR="$MAINT_SRC_DIR/t"
export MAINT_BUILD_DIR MAINT_SRC_DIR MAINT_TEST_DIR
PATH="$MAINT_BUILD_DIR/bin:$MAINT_BUILD_DIR/t/helper:$PATH"
MANPATH="$MAINT_BUILD_DIR/man:"
export PATH MANPATH

unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CEILING_DIRECTORIES \
	XDG_CONFIG_HOME GIT_MAINT_TEST_CRASH_AT EMAIL MAIL
TZ=UTC
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL='author@example.com'
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL='committer@example.com'
GIT_AUTHOR_DATE='1112354055 +0200'
GIT_COMMITTER_DATE='1112354055 +0200'
GIT_MERGE_AUTOEDIT=no
PAGER=cat
# no test waits on the terminal it was started from: git (and git-maint
# through git) never prompts there; a test of the prompt runs its command
# on a pty of its own (lib/pty-run.py) with this unset
GIT_TERMINAL_PROMPT=0
export TZ GIT_CONFIG_NOSYSTEM GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE \
	GIT_MERGE_AUTOEDIT PAGER GIT_TERMINAL_PROMPT

# chain-lint is on unless GIT_TEST_CHAIN_LINT=0 or --no-chain-lint (see below).
chain_lint=t
test "${GIT_TEST_CHAIN_LINT:-1}" = 0 && chain_lint=

# The script's arguments, quoted for eval: sharness consumes "$@", and a
# library that runs the script again (lib-keyring.sh, under its own
# D-Bus session) must pass them on (--root, -v, -i, ...).
maint_test_args=
for maint_test_arg
do
	maint_test_args="$maint_test_args '$(printf '%s' "$maint_test_arg" | sed "s/'/'\\\\''/g")'"
done
unset maint_test_arg

. /usr/share/sharness/sharness.sh

# sharness has parsed the options (--chain-lint, --no-chain-lint). Its own
# check runs after the body and reports to stdout, which prove does not
# show; ours below runs before the body and names the test on stderr.
maint_chain_lint=$chain_lint
chain_lint=

# git's name for it, used by the test libraries (lib-keyring.sh, lib-smtp.sh)
TRASH_DIRECTORY=$SHARNESS_TRASH_DIRECTORY
export TRASH_DIRECTORY

# After sharness, which sets LC_ALL=C: a maintainer runs in UTF-8, and so
# do the tests (iconv, wildmatch and setlocale() behave differently in C).
LC_ALL=C.UTF-8
LANG=C.UTF-8
export LC_ALL LANG

# make check SANITIZE=<list> runs the programs under those sanitizers: a
# test that cannot run there (an LD_PRELOAD shim, timing) needs !SANITIZE,
# with the reason in a comment.
if test -n "$MAINT_SANITIZE"
then
	test_set_prereq SANITIZE
fi

# No test may reach the repository the suite lives in: a git command run
# before "git init" must fail, not act on the enclosing repository. git
# and libgit2 stop looking for a .git at the trash directory's parent.
GIT_CEILING_DIRECTORIES=$(dirname "$PWD")
export GIT_CEILING_DIRECTORIES

# sharness sets HOME to the trash directory; give git an identity there
# too, for libgit2 (which reads user.* from config, not the environment).
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"
git config --global init.defaultBranch main

# git_spy <dir>: <dir>/git (put <dir> first on PATH) runs git after
# appending its arguments to <dir>/argv.log and its environment to
# <dir>/env.log: what a test greps for a secret that must not be there.
# <dir> is absolute.
git_spy () {
	mkdir -p "$1" &&
	cat >"$1/git" <<-EOF &&
	#!/bin/sh
	printf "%s\n" "\$*" >>"$1/argv.log"
	env >>"$1/env.log"
	exec /usr/bin/git "\$@"
	EOF
	chmod +x "$1/git"
}

# test_tick: advance the pinned dates by one minute, as git's test-lib does.
test_tick () {
	if test -z "${test_tick+set}"
	then
		test_tick=1112911993
	else
		test_tick=$((test_tick + 60))
	fi
	GIT_COMMITTER_DATE="$test_tick -0700"
	GIT_AUTHOR_DATE="$test_tick -0700"
	export GIT_COMMITTER_DATE GIT_AUTHOR_DATE
}

# test_commit <message> [<file> [<contents>]]
test_commit () {
	file=${2:-"$1.t"}
	mkdir -p "$(dirname "$file")" &&
	printf '%s\n' "${3:-$1}" >"$file" &&
	git add -- "$file" &&
	test_tick &&
	git commit -q -m "$1" &&
	git tag "$1"
}

# Snapshot of everything a read-only command must leave alone:
# refs, reflogs, index, HEAD, objects and work tree contents.
repo_state () {
	{
		git for-each-ref --format='%(refname) %(objectname)' &&
		git symbolic-ref -q HEAD || git rev-parse HEAD
		find .git -path .git/maint -prune -o -type f -print | LC_ALL=C sort |
			xargs sha1sum &&
		git ls-files -s &&
		git status --porcelain=v1 --ignored
	} 2>&1
}

# The options a command's table lists (via --git-completion-helper).
command_options () {
	"$1" --git-completion-helper | tr ' ' '\n' | sed -n 's/^\(--[^=]*\)=*$/\1/p'
}

# test_seq [<first>] <last>: the numbers first (default 1) to last, one
# a line, as git's test-lib has it. Replaces sharness's, which wants both
# and forks expr for every number.
test_seq () {
	case $# in
	1) set 1 "$1" ;;
	2) ;;
	*) echo "bug in the test script: test_seq needs 1 or 2 arguments" >&2; return 1 ;;
	esac
	test_seq_i=$1
	while test "$test_seq_i" -le "$2"
	do
		echo "$test_seq_i"
		test_seq_i=$((test_seq_i + 1))
	done
}

# test_line_count <op> <n> <file>: as in git's test-lib.
test_line_count () {
	if test $# != 3
	then
		echo "bug in the test script: test_line_count needs 3 arguments" >&2
		return 1
	fi
	if ! test $(wc -l <"$3") "$1" "$2"
	then
		echo "test_line_count: line count for $3 !$1 $2"
		cat "$3"
		return 1
	fi
}

# test_path_is_missing <path>
test_path_is_missing () {
	if test -e "$1" || test -L "$1"
	then
		echo "path exists but should not: $1"
		return 1
	fi
}

# test_path_is_file <path>
test_path_is_file () {
	if ! test -f "$1"
	then
		echo "file $1 does not exist"
		return 1
	fi
}

# test_chain_lint_ <name> <body>: see the top of this file. The body runs
# in a subshell with every command after "(exit 117)" skipped, unless a
# link is broken; the "echo" on a line of its own also catches a
# here-document whose end marker is missing (it swallows the echo).
test_chain_lint_ () {
	test "$maint_chain_lint" = t || return 0
	if test "OK-117" != "$(test_eval_ "(exit 117) && $2${LF}${LF}echo OK-\$?" 3>&1)"
	then
		printf >&2 "error: bug in the test script: %s in test %s '%s' of %s\n%s\n" \
			"broken && chain" "$test_count" "$1" "$this_test.$SHARNESS_TEST_EXTENSION" \
			"(or a here-document without its end marker), in:$2"
		EXIT_OK=t
		exit 1
	fi
}

# sharness's test_expect_success and test_expect_failure, with the
# chain-lint before the body.
test_expect_success () {
	test "$#" = 3 && { test_prereq=$1; shift; } || test_prereq=
	test "$#" = 2 || error "bug in the test script: not 2 or 3 parameters to test_expect_success"
	export test_prereq
	if ! test_skip_ "$@"
	then
		say >&3 "expecting success: $2"
		test_chain_lint_ "$1" "$2"
		if test_run_ "$2"
		then
			test_ok_ "$1"
		else
			test_failure_ "$@"
		fi
	fi
	echo >&3 ""
}

test_expect_failure () {
	test "$#" = 3 && { test_prereq=$1; shift; } || test_prereq=
	test "$#" = 2 || error "bug in the test script: not 2 or 3 parameters to test_expect_failure"
	export test_prereq
	if ! test_skip_ "$@"
	then
		say >&3 "checking known breakage: $2"
		test_chain_lint_ "$1" "$2"
		if test_run_ "$2" expecting_failure
		then
			test_known_broken_ok_ "$1"
		else
			test_known_broken_failure_ "$1"
		fi
	fi
	echo >&3 ""
}

# maint_make <args>: make in the source tree for the build under test
# (with its SANITIZE), one at a time: prove runs test files in parallel,
# and two makes in one source tree race on what they rebuild. The make
# that runs the tests (make -j2 check) passes its jobserver in MAKEFLAGS,
# whose pipe this make does not inherit: it must start afresh.
maint_make () {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL flock "$MAINT_BUILD_DIR/install.lock" \
		make -s -C "$MAINT_SRC_DIR" SANITIZE="$MAINT_SANITIZE" "$@"
}

# maint_install <prefix>: make install of the build under test into prefix.
maint_install () {
	maint_make install prefix="$1"
}
