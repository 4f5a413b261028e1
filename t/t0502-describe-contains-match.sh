#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-describe-contains --match/--exclude use git'"'"'s wildmatch on bytes, not fnmatch'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-t0500-history.sh"
. "$MAINT_TEST_DIR/lib-describe-oracle.sh"

# sharness resets LC_ALL to C; a UTF-8 locale is where fnmatch(3) and
# git's byte-wise wildmatch part ("?" against "é")
LC_ALL=C.UTF-8
LANG=C.UTF-8
export LC_ALL LANG

# compare <option> <pattern>: every commit named as git describe --contains
# does on that commit alone (lib-describe-oracle.sh), both from the
# repository files and through libgit2. git's commit-graph holds every
# commit (setup), so the oracle asks git in one run.
compare () {
	describe_oracle --graph-commits=commits "$1" "$2" <commits >expect &&
	{ git-maint-describe-contains "$1" "$2" --stdin <commits >actual; test $? -le 1; } &&
	test_cmp expect actual &&
	{ GIT_MAINT_TEST_DESCRIBE_PATH=libgit2 \
		git-maint-describe-contains "$1" "$2" --stdin <commits >actual; test $? -le 1; } &&
	test_cmp expect actual
}

test_expect_success 'setup: tags with slashes, upper case, UTF-8 and a non-UTF-8 byte' '
	git init -q &&
	gen_history 80 3 4 | git fast-import --quiet &&
	git tag rel/v1.0 main~40 &&
	git tag -a -m "e acute" "v1.0-é" main~35 &&
	git tag "v1.0-ü" main~30 &&
	git tag V3.0 main~25 &&
	git tag v1.0_b main~20 &&
	git tag "$(printf "bad-\\377")" main~15 &&
	git tag "]x" main~12 &&
	git commit-graph write --reachable &&
	git rev-list --all >commits &&
	test $(wc -l <commits) -ge 80 &&
	{ git-maint-describe-contains --stdin <commits >/dev/null; test $? -le 1; } &&
	test_path_is_file .git/maint/describe-peel
'

# Each pattern is a test of its own; in C.UTF-8, fnmatch(3) would take
# "é" as one character where git takes it as two bytes.
while read -r what pattern
do
	test_expect_success "--match $what: $pattern" "
		compare --match '$pattern'
	"
done <<\EOF_PATTERNS
star *
double-star **
prefix v*
question v1.?
question-on-UTF-8 v1.0-?
two-questions-on-UTF-8 v1.0-??
set-with-UTF-8 v1.0-[é]
two-sets-with-UTF-8 v1.0-[é][é]
question-on-byte-FF bad-?
slash rel/*
subpath */v1.0
range v[0-1].*
negated !-range v[!0-1]*
negated ^-set v[^1]*
class [[:upper:]]*
classes [[:alpha:]][[:digit:]]*
class-not-ASCII v1.0-[[:alpha:]]*
escaped-dot v1\.0*
escaped-letter \v1*
trailing-backslash v1.0\
unterminated-set v1.[0
unknown-class [[:foo:]]*
bracket-first []]x
colon-no-class v1.[[:0]*
EOF_PATTERNS

test_expect_success '--exclude with the same rules' '
	compare --exclude "v1.0-?" &&
	compare --exclude "*" &&
	compare --exclude "[[:upper:]]*"
'

test_done
