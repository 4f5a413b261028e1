# Sourced by every t/tNNNN-*.sh: pins the environment, puts the built
# programs first on PATH, then loads Debian's sharness.
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
export TZ GIT_CONFIG_NOSYSTEM GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE \
	GIT_MERGE_AUTOEDIT PAGER

. /usr/share/sharness/sharness.sh

# git's name for it, used by the test libraries (lib-keyring.sh, lib-smtp.sh)
TRASH_DIRECTORY=$SHARNESS_TRASH_DIRECTORY
export TRASH_DIRECTORY

# After sharness, which sets LC_ALL=C: a maintainer runs in UTF-8, and so
# do the tests (iconv, wildmatch and setlocale() behave differently in C).
LC_ALL=C.UTF-8
LANG=C.UTF-8
export LC_ALL LANG

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
