# SPDX-License-Identifier: GPL-2.0-only
# Sourced by every t/tNNNN-*.sh: pins the environment, puts the built
# programs first on PATH, then loads Debian's sharness.
#
# Chain-lint (as in git's test-lib): every test that ran is run once more
# as "<return 117> && <body>". When every command is &&-chained, nothing
# after the first runs and the result is 117; a command after a broken
# link runs, changes the result, and the script fails with
#	error: bug in the test script: broken && chain in test <n> '<name>' of <file>
# (a failure there would be ignored and the test could pass anyway).
# The bodies are linted together, in one subshell, when the tests are
# done (git, too, lints a whole script at once): a subshell a test cost a
# fork each, 2.5 ms of CPU on the suite's machines.
# Turn it off with GIT_TEST_CHAIN_LINT=0 in the environment (make check
# passes it on) or --no-chain-lint on a test script's command line.
#
# The environment is pinned so no test reads the real ~/.gitconfig,
# keyring, clock or locale: HOME is the trash directory (sharness),
# GIT_CONFIG_NOSYSTEM, fixed author/committer identity and dates, LC_ALL=C.UTF-8.

SHARNESS_TEST_EXTENSION=sh
export SHARNESS_TEST_EXTENSION

# The directories without a process (each fork or exec here is paid by
# every script): cd to the source tree and back.
unset CDPATH
case $0 in
*/*) MAINT_TEST_DIR=${0%/*} ;;
*) MAINT_TEST_DIR=. ;;
esac
maint_cwd=$PWD
cd "$MAINT_TEST_DIR/.." || exit 1
MAINT_SRC_DIR=$PWD
cd "$maint_cwd" || exit 1
unset maint_cwd
MAINT_TEST_DIR="$MAINT_SRC_DIR/t"
: "${MAINT_BUILD_DIR:=$MAINT_SRC_DIR/.build}"
# (sharness's own defaults for these cost three processes)
: "${SHARNESS_TEST_DIRECTORY:=$PWD}" "${SHARNESS_TEST_SRCDIR:=$MAINT_TEST_DIR}"
export SHARNESS_TEST_DIRECTORY SHARNESS_TEST_SRCDIR
export MAINT_BUILD_DIR MAINT_SRC_DIR MAINT_TEST_DIR
PATH="$MAINT_BUILD_DIR/bin:$MAINT_BUILD_DIR/t/helper:$PATH"
# python3 through a version manager's shim (pyenv's is a bash script)
# costs half a second of CPU and 39 processes a call: make check resolves
# it once, to a directory holding a link to the interpreter the shim
# runs, which comes first (background jobs and "#!/usr/bin/env python3"
# see it too, as they would not a shell function).
if test -n "$MAINT_TEST_PYTHON_DIR"
then
	PATH="$MAINT_TEST_PYTHON_DIR:$PATH"
fi
MANPATH="$MAINT_BUILD_DIR/man:"
export PATH MANPATH
# the shell that runs a script again (lib-keyring.sh): sharness takes the
# login shell ($SHELL), bash for many, slower than sh to fork and to run
: "${SHELL_PATH:=/bin/sh}"
export SHELL_PATH

# (GIT_SSL_CAINFO, GIT_SSL_CAPATH: what https trusts is the test's to say)
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CEILING_DIRECTORIES \
	XDG_CONFIG_HOME GIT_MAINT_TEST_CRASH_AT EMAIL MAIL GIT_SSL_CAINFO GIT_SSL_CAPATH
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
# D-Bus session) must pass them on (--root, -v, -i, ...). --root=<dir> is
# taken here, not by sharness, which forks an expr for it.
maint_test_args=
maint_sharness_args=
for maint_test_arg
do
	maint_test_quoted=$maint_test_arg
	case $maint_test_arg in
	*\'*) maint_test_quoted=$(printf '%s' "$maint_test_arg" | sed "s/'/'\\\\''/g") ;;
	esac
	maint_test_args="$maint_test_args '$maint_test_quoted'"
	case $maint_test_arg in
	--root=*) root=${maint_test_arg#--root=} ;;
	*) maint_sharness_args="$maint_sharness_args '$maint_test_quoted'" ;;
	esac
done
unset maint_test_quoted
unset maint_test_arg
eval "set -- $maint_sharness_args"

. /usr/share/sharness/sharness.sh

# sharness has parsed the options (--chain-lint, --no-chain-lint). Its own
# check runs after the body and reports to stdout, which prove does not
# show; ours below runs before the body and names the test on stderr.
maint_chain_lint=$chain_lint
chain_lint=

# git's name for it, used by the test libraries (lib-keyring.sh, lib-smtp.sh)
TRASH_DIRECTORY=$SHARNESS_TRASH_DIRECTORY
export TRASH_DIRECTORY

# The run's cache of generated fixtures (certificates, keys, corpora),
# made once for every script of a make check (which sets
# MAINT_TEST_CACHE, a directory of that run's own, and removes it at the
# end), or once for a script run by hand.
: "${MAINT_TEST_CACHE:=$TRASH_DIRECTORY/.cache}"
export MAINT_TEST_CACHE

# test_cache <name> <file>... -- <command>...: sets TEST_CACHE to the
# cache's entry <name>, which <command> made, run in that new directory,
# the first time a script of the run asked for it (under a lock: the
# others wait for it). The entry's name ends with a checksum of <file>...
# (the generator, its data): a generator changed during a run makes a new
# entry. Tests only read an entry: they copy from it what they use
# (a certificate's key goes to a server that runs as another user as a
# copy of its own).
test_cache () {
	TEST_CACHE=$1 &&
	shift &&
	test_cache_sum=$(
		while test "$1" != --
		do
			cat "$1" && shift || exit 1
		done | cksum
	) &&
	while test $# -gt 1 && test "$1" != --
	do
		shift
	done &&
	shift &&
	TEST_CACHE="$MAINT_TEST_CACHE/$TEST_CACHE-${test_cache_sum%% *}" &&
	test -d "$TEST_CACHE" && return 0
	mkdir -p "$MAINT_TEST_CACHE" &&
	(
		flock 9 &&
		if ! test -d "$TEST_CACHE"
		then
			rm -rf "$TEST_CACHE.new" &&
			mkdir "$TEST_CACHE.new" &&
			(cd "$TEST_CACHE.new" && "$@") &&
			mv "$TEST_CACHE.new" "$TEST_CACHE"
		fi
	) 9>"$TEST_CACHE.lock"
}

# test_setup_cached <name> <file>... -- <function>: runs <function>, a
# setup that builds its fixture (a repository, mails) in the current
# directory from nothing, or copies what it built there for an earlier
# script of the run (test_cache <name>, keyed as well by test_tick, which
# the setup's commits read and advance: it is left as <function> leaves
# it). Only from nothing: the directory must be empty, or hold only the
# tests' ~/.gitconfig (the trash directory, or a directory given a copy
# of it: the setup's `git add .` takes it along; a script that makes its
# fixture in a directory of its own copies ~/.gitconfig there first to
# share the copy the scripts that make it in the trash directory made,
# one build a run, not two). Otherwise, or when the cache is in the trash
# directory (a script run by hand), <function> runs here. The setup's
# shell variables are not set by a copy: callers read only its files.
# One cp and one git update-index (the index's stat data is of the
# files the copy replaced), for the 30-150 processes of such a setup.
test_setup_cached () {
	tsc_name=$1 &&
	shift &&
	tsc_files= &&
	while test "$1" != --
	do
		tsc_files="$tsc_files $1" &&
		shift
	done &&
	shift &&
	tsc_entries=$(printf "%s/" * .[!.]* ..?*) &&
	case $tsc_entries:$PWD in
	"*/.[!.]*/..?*/:"*)
		tsc_kind=empty ;;
	"*/.gitconfig/..?*/:$HOME")
		tsc_kind=home ;;
	"*/.gitconfig/..?*/:"*)
		# a directory of its own given a copy of ~/.gitconfig: the
		# same start, the same fixture as the trash directory's
		if cmp -s .gitconfig "$HOME/.gitconfig"
		then
			tsc_kind=home
		else
			tsc_kind=
		fi ;;
	*)
		tsc_kind= ;;
	esac &&
	case $MAINT_TEST_CACHE/ in
	"$TRASH_DIRECTORY"/*)
		tsc_kind= ;;
	esac &&
	if test -z "$tsc_kind"
	then
		"$@"
		return
	fi &&
	test_cache "$tsc_name-$tsc_kind-${test_tick:-none}" $tsc_files -- \
		test_setup_cached_build_ "$tsc_kind" "$@" &&
	cp -R "$TEST_CACHE/." . &&
	read -r tsc_tick <"$TEST_CACHE.tick" &&
	case $tsc_tick in
	none)
		unset test_tick ;;
	*)
		test_tick=$((tsc_tick - 60)) &&
		test_tick ;;
	esac &&
	git update-index -q --refresh
}
test_setup_cached_build_ () {
	if test "$1" = home
	then
		cp "$HOME/.gitconfig" .
	fi &&
	shift &&
	"$@" &&
	echo "${test_tick:-none}" >"${PWD%.new}.tick"
}

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
GIT_CEILING_DIRECTORIES=${PWD%/*}
export GIT_CEILING_DIRECTORIES

# sharness sets HOME to the trash directory; give git an identity there
# too, for libgit2 (which reads user.* from config, not the environment),
# written as git config --global writes it. git commit, am, merge and
# fetch start a "git maintenance run --auto" each, which finds nothing
# to do in repositories this small: off (a process each). So is the
# "git gc --auto" of git receive-pack, at every push to a repository of
# the tests (t0701's publishes: 36 of them, 9 ms of CPU each).
printf '[user]\n\tname = %s\n\temail = %s\n[init]\n\tdefaultBranch = main\n[maintenance]\n\tauto = false\n[receive]\n\tautogc = false\n' \
	"$GIT_COMMITTER_NAME" "$GIT_COMMITTER_EMAIL" >"$HOME/.gitconfig"

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
	case $file in
	*/*) mkdir -p "${file%/*}" ;;
	esac &&
	printf '%s\n' "${3:-$1}" >"$file" &&
	git add -- "$file" &&
	test_tick &&
	git commit -q -m "$1" &&
	git tag "$1"
}

# repo_state [<name>...]: snapshot of everything a read-only command must
# leave alone: a checksum of every file under .git but our own .git/maint
# and files called <name> (refs, packed-refs, reflogs, HEAD, the index,
# objects) and the work tree's status. (The refs, HEAD and the index as
# git lists them add nothing the files do not show, for three more gits a
# snapshot.) The shell lists the files, in the order of its globs (the
# same for the same files), and one sha1sum reads them: two processes a
# snapshot, not four (find, sha1sum, sort, git), 24 ms of CPU, not 41.
repo_state () {
	repo_state_except=" $* " &&
	repo_state_files= &&
	repo_state_files_ .git &&
	{
		(
			set -f &&
			IFS=$LF &&
			set -- $repo_state_files &&
			exec sha1sum -- "$@"
		) &&
		git status --porcelain=v1 --ignored
	} 2>&1
}
# repo_state_files_ <dir>: adds the regular files under <dir> (not
# symbolic links, as find -type f) to repo_state_files, one a line.
repo_state_files_ () {
	local f
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*
	do
		case $repo_state_except in
		*" ${f##*/} "*) continue ;;
		esac
		if test -L "$f"
		then
			continue
		elif test -d "$f"
		then
			test "$f" = .git/maint || repo_state_files_ "$f" || return 1
		elif test -f "$f"
		then
			repo_state_files=$repo_state_files$f$LF
		fi
	done
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

# test_chain_lint_ <name> <body>: keeps the test for chain_lint_all_.
test_chain_lint_ () {
	test "$maint_chain_lint" = t || return 0
	maint_lint_count=$((maint_lint_count + 1))
	eval "maint_lint_name_$maint_lint_count=\$1 maint_lint_body_$maint_lint_count=\$2" \
		"maint_lint_test_$maint_lint_count=\$test_count"
}
maint_lint_count=0

# chain_lint_all_: see the top of this file. In one subshell, each body
# runs after a function that returns 117, so nothing in it runs unless a
# link is broken; the assignment on a line of its own also catches a
# here-document whose end marker is missing (it swallows the line). The
# subshell says which body it lints before it does (a broken one may
# exit), and "ok" after the last.
maint_lint_117 () {
	return 117
}
chain_lint_all_ () {
	test "$maint_lint_count" -gt 0 || return 0
	maint_lint_out=$(
		test_prereq=
		maint_lint_i=0
		while test $maint_lint_i -lt $maint_lint_count
		do
			maint_lint_i=$((maint_lint_i + 1))
			echo "$maint_lint_i"
			eval "maint_lint_body=\$maint_lint_body_$maint_lint_i"
			maint_lint_rc=
			test_eval_ "maint_lint_117 && $maint_lint_body${LF}${LF}maint_lint_rc=\$?" 3>/dev/null
			test "$maint_lint_rc" = 117 || exit 1
		done
		echo ok
	)
	maint_lint_i=${maint_lint_out##*$LF}
	test "$maint_lint_i" = ok && return 0
	eval "maint_lint_name=\$maint_lint_name_$maint_lint_i maint_lint_body=\$maint_lint_body_$maint_lint_i" \
		"maint_lint_test=\$maint_lint_test_$maint_lint_i"
	printf >&2 "error: bug in the test script: %s in test %s '%s' of %s\n%s\n" \
		"broken && chain" "$maint_lint_test" "$maint_lint_name" "$this_test.$SHARNESS_TEST_EXTENSION" \
		"(or a here-document without its end marker), in:$maint_lint_body"
	EXIT_OK=t
	exit 1
}

# sharness's die, run when the script exits before test_done: a body that
# exits (or does not parse) most often has a broken chain, which the
# chain-lint names (the body that ran last is kept before it runs).
die () {
	code=$?
	test -n "$EXIT_OK" && exit $code
	chain_lint_all_
	echo >&5 "FATAL: Unexpected exit with code $code"
	exit 1
}

# sharness's test_done, with the chain-lint first.
test_done () {
	EXIT_OK=t
	chain_lint_all_
	if test -z "$HARNESS_ACTIVE"
	then
		mkdir -p "$SHARNESS_TEST_DIRECTORY/test-results" &&
		printf 'total %s\nsuccess %s\nfixed %s\nbroken %s\nfailed %s\n\n' \
			"$test_count" "$test_success" "$test_fixed" "$test_broken" "$test_failure" \
			>>"$SHARNESS_TEST_DIRECTORY/test-results/$this_test.$$.counts"
	fi
	test "$test_fixed" = 0 ||
		say_color error "# $test_fixed known breakage(s) vanished; please update test(s)"
	test "$test_broken" = 0 || say_color warn "# still have $test_broken known breakage(s)"
	test_remaining=$((test_count - test_broken - test_fixed))
	if test "$test_remaining" = "$test_count"
	then
		msg="$test_count test(s)"
	else
		msg="remaining $test_remaining test(s)"
	fi
	if test "$test_failure" != 0
	then
		say_color error "# failed $test_failure among $msg"
		say "1..$test_count"
		exit 1
	fi
	if test -n "$skip_all" && test "$test_count" -gt 0
	then
		error "Can't use skip_all after running some tests"
	fi
	test -z "$skip_all" || skip_all=" # SKIP $skip_all"
	test "$test_remaining" = 0 || say_color pass "# passed all $msg"
	say "1..$test_count$skip_all"
	test_eval_ "$final_cleanup"
	# (kept with --debug, as sharness keeps it)
	if test -d "$remove_trash"
	then
		cd "$remove_trash/.." &&
		rm -rf "$remove_trash"
	fi
	exit 0
}

# sharness's test_when_finished and cleanup, without the subshell that
# gives the cleanup the test's result (a fork for every test that has a
# cleanup): a function returns it.
maint_return () {
	return "$1"
}
test_when_finished () {
	test_cleanup="{ $*
		} && maint_return \"\$eval_ret\"; eval_ret=\$?; $test_cleanup"
}
cleanup () {
	final_cleanup="{ $*
		} && maint_return \"\$eval_ret\"; eval_ret=\$?; $final_cleanup"
}

# sharness's test_expect_success and test_expect_failure, with the body
# kept for the chain-lint.
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
