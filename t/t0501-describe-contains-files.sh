#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-describe-contains answers from the repository files alone (no libgit2) only when that gives git'"'"'s answer'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-t0500-history.sh"
. "$MAINT_TEST_DIR/lib-describe-oracle.sh"

# GIT_MAINT_TEST_DESCRIBE_PATH=files makes every fallback to libgit2 fatal,
# so a command that succeeds under it was answered from the files alone;
# =libgit2 skips the files-only path.
files_only () {
	GIT_MAINT_TEST_DESCRIBE_PATH=files "$@"
}

# oracle [--graph-commits=<file>] <describe options>...: git describe
# --contains for every line of commits, as run on that line alone
# (lib-describe-oracle.sh)
oracle () {
	describe_oracle "$@" <commits >expect
}

# compare_files <options>...: the files-only path answers every commit as
# git does. Each runs while git's commit-graph holds every commit (setup,
# and no commit before the last of them), so the oracle asks git in one run.
compare_files () {
	git rev-list --all >commits &&
	oracle --graph-commits=commits "$@" &&
	{ files_only git-maint-describe-contains "$@" --stdin <commits >actual; test $? -le 1; } &&
	test_cmp expect actual &&
	echo "files only: $(wc -l <commits) commits: $*" >>"$SHARNESS_TRASH_DIRECTORY/compared"
}

# warm: one ordinary run fills the peel cache (annotated tags are peeled from it)
warm () {
	git rev-list -n 1 main >one &&
	{ git-maint-describe-contains --stdin <one >/dev/null; test $? -le 1; }
}

# refused <command>...: the files-only path does not answer, the ordinary one does
refused () {
	test_expect_code 128 env GIT_MAINT_TEST_DESCRIBE_PATH=files "$@" 2>err &&
	grep "files-only describer cannot answer" err
}

test_expect_success 'setup: a history with annotated, lightweight, nested and tree tags' '
	git init -q &&
	gen_history 300 7 5 | git fast-import --quiet &&
	git -c advice.nestedTag=false tag -a -m "tag of a tag" nested v1.1 &&
	git tag -a -m "a tree" treetag main^{tree} &&
	git tag heads/old main~3 &&
	git branch old v1.1~2 &&
	git commit-graph write --reachable &&
	test $(git tag | wc -l) -gt 40
'

test_expect_success 'without the peel cache the files-only path does not answer' '
	rm -rf .git/maint &&
	refused git-maint-describe-contains v1.0 &&
	warm &&
	test_path_is_file .git/maint/describe-peel &&
	git describe --contains v1.0 >expect &&
	files_only git-maint-describe-contains v1.0 >actual &&
	test_cmp expect actual
'

test_expect_success 'loose tags (as fast-import left them), files only' '
	test_path_is_missing .git/packed-refs &&
	compare_files
'

test_expect_success 'packed tags, files only' '
	git pack-refs --all &&
	test_path_is_missing .git/refs/tags/v1.0 &&
	compare_files &&
	compare_files --all
'

test_expect_success 'loose tags over packed ones, and new loose tags' '
	git tag -f v1.1 v1.1~3 &&
	git tag -f -a -m moved v1.2 v1.2~2 &&
	git tag late-light main~7 &&
	git tag -a -m late late-annotated main~9 &&
	test_path_is_file .git/refs/tags/v1.1 &&
	refused git-maint-describe-contains main~9 &&
	warm &&
	compare_files &&
	compare_files --match "v*" --exclude "*-rc*"
'

test_expect_success 'packed-refs without its header and peel lines' '
	git pack-refs --all &&
	grep -v "^[#^]" .git/packed-refs >packed &&
	mv packed .git/packed-refs &&
	! grep "^\^" .git/packed-refs &&
	compare_files
'

test_expect_success 'ref names, full and abbreviated ids on the command line, files only' '
	c=$(git rev-parse main~11) &&
	m=$(git rev-list --min-parents=2 -n 1 main~4) &&
	set -- v1.1 tags/v1.1 refs/tags/v1.1 nested old $c \
		$(git rev-parse --short=4 $m) $(git rev-parse --short=7 $c) \
		$(git rev-parse --short=12 $m) $(git rev-parse v1.2) &&
	git describe --contains "$@" >expect &&
	files_only git-maint-describe-contains "$@" >actual &&
	test_cmp expect actual
'

test_expect_success 'HEAD, detached and on a branch, files only' '
	git checkout -q --detach v1.0~2 &&
	git describe --contains >expect &&
	files_only git-maint-describe-contains >actual &&
	test_cmp expect actual &&
	git checkout -q work &&
	git reset -q --hard v1.1~1 &&
	git describe --contains HEAD >expect &&
	files_only git-maint-describe-contains HEAD >actual &&
	test_cmp expect actual
'

test_expect_success 'an ambiguous abbreviation is left to libgit2, which fails as before' '
	git rev-list --all --objects | cut -c1-4 | sort | uniq -d | head -n 1 >prefix &&
	test -s prefix &&
	p=$(cat prefix) &&
	refused git-maint-describe-contains $p &&
	test_expect_code 1 env GIT_MAINT_TEST_DESCRIBE_PATH=libgit2 \
		git-maint-describe-contains $p >expect 2>expect.err &&
	test_expect_code 1 git-maint-describe-contains $p >actual 2>actual.err &&
	test_cmp expect actual &&
	test_cmp expect.err actual.err
'

test_expect_success 'a ref name that two dwim rules match is left to libgit2' '
	refused git-maint-describe-contains heads/old &&
	GIT_MAINT_TEST_DESCRIBE_PATH=libgit2 git-maint-describe-contains heads/old >expect &&
	git-maint-describe-contains heads/old >actual &&
	test_cmp expect actual
'

test_expect_success 'revision syntax is left to libgit2' '
	for spec in v1.1~2 v1.1^2 "v1.1^{commit}" main@{0} :/commit
	do
		refused git-maint-describe-contains "$spec" || return 1
	done &&
	git describe --contains v1.0 v1.1~2 v1.2 nested^0 >expect &&
	git-maint-describe-contains v1.0 v1.1~2 v1.2 nested^0 >actual &&
	test_cmp expect actual
'

test_expect_success 'arguments after one left to libgit2 are answered there, in order' '
	set -- v1.0 v1.1~2 v1.2 nested^0 v1.3 &&
	git describe --contains "$@" >expect &&
	git-maint-describe-contains "$@" >actual &&
	test_cmp expect actual
'

test_expect_success 'the command line is handed over as given: options after commits, -- before them' '
	set -- v1.0 v1.1~2 v1.2 &&
	git describe --contains --match "v1*" --exclude "v1.3*" "$@" >expect &&
	git-maint-describe-contains v1.0 --match "v1*" --no-cache --exclude="v1.3*" -- v1.1~2 v1.2 >actual &&
	test_cmp expect actual
'

test_expect_success 'an option value that looks like -- is handed over as the value it was' '
	git describe --contains --all v1.0 v1.1~2 >expect &&
	git-maint-describe-contains --exclude -- --all v1.0 v1.1~2 >actual &&
	test_cmp expect actual
'

test_expect_success '--stdin: lines from the first one left to libgit2 on are piped there' '
	git rev-list --all >commits &&
	{ head -n 5 commits && echo v1.1~2 && tail -n +6 commits; } >in &&
	cp in commits &&
	oracle &&
	test_expect_code 1 git-maint-describe-contains --stdin <in >actual &&
	test_cmp expect actual
'

test_expect_success '--stdin after the hand-over still answers each line before reading the next' '
	mkfifo in.fifo &&
	{ git-maint-describe-contains --stdin <in.fifo >out.stream & } &&
	exec 9>in.fifo &&
	echo v1.0~1 >&9 &&
	i=0 &&
	while test $i -lt 300 && ! test -s out.stream
	do
		sleep 0.1 && i=$((i + 1))
	done &&
	test -s out.stream &&
	echo v1.1 >&9 &&
	exec 9>&- &&
	wait &&
	git describe --contains v1.0~1 v1.1 >expect &&
	test_cmp expect out.stream
'

test_expect_success 'a commit missing from a partial graph is left to libgit2' '
	rm -f .git/objects/info/commit-graph &&
	git rev-list --all --reverse | head -n 100 >old-commits &&
	git commit-graph write --stdin-commits <old-commits &&
	git rev-list $(cat old-commits) >in-graph &&
	refused git-maint-describe-contains v1.0 &&
	git rev-list --all >commits &&
	oracle --graph-commits=in-graph &&
	{ git-maint-describe-contains --stdin <commits >actual; test $? -le 1; } &&
	test_cmp expect actual &&
	git commit-graph write --reachable
'

test_expect_success 'a commit newer than the graph is left to libgit2' '
	git checkout -q --detach v1.2 &&
	git commit -q --allow-empty -m after-graph &&
	refused git-maint-describe-contains HEAD &&
	c=$(git rev-parse v1.0~1) &&
	git describe --contains $c >expect &&
	files_only git-maint-describe-contains $c >actual &&
	test_cmp expect actual &&
	git checkout -q old
'

test_expect_success 'without a git commit-graph, our graph cache serves the files-only path' '
	rm -f .git/objects/info/commit-graph &&
	rm -f .git/maint/commit-graph &&
	refused git-maint-describe-contains v1.0 &&
	git rev-list --all >commits &&
	{ GIT_MAINT_TEST_GRAPH_CACHE_MIN_READS=0 git-maint-describe-contains --stdin \
		<commits >/dev/null; test $? -le 1; } &&
	test_path_is_file .git/maint/commit-graph &&
	# the cache holds the history of the tags, not of branches alone
	git rev-list --tags >commits &&
	oracle --exclude "*-rc*" &&
	{ files_only git-maint-describe-contains --exclude "*-rc*" --stdin <commits >actual;
	  test $? -le 1; } &&
	test_cmp expect actual &&
	git rev-list --all >commits &&
	oracle &&
	{ git-maint-describe-contains --stdin <commits >actual; test $? -le 1; } &&
	test_cmp expect actual
'

test_expect_success '--release on the files-only path equals the libgit2 path' '
	git commit-graph write --reachable &&
	git rev-list --all >commits &&
	{ GIT_MAINT_TEST_DESCRIBE_PATH=libgit2 git-maint-describe-contains --release --stdin \
		<commits >expect; test $? -le 1; } &&
	{ files_only git-maint-describe-contains --release --stdin <commits >actual; test $? -le 1; } &&
	test_cmp expect actual
'

test_expect_success 'GIT_DIR is read as given' '
	git describe --contains v1.0 >expect &&
	GIT_DIR=.git files_only git-maint-describe-contains v1.0 >actual &&
	test_cmp expect actual
'

test_expect_success 'from a subdirectory: found as git finds it, a ceiling above honoured' '
	mkdir -p sub/dir &&
	git describe --contains v1.0 >expect &&
	(
		cd sub/dir &&
		files_only git-maint-describe-contains v1.0 >../../actual.files &&
		unset GIT_CEILING_DIRECTORIES &&
		files_only git-maint-describe-contains v1.0 >../../actual.unset
	) &&
	test_cmp expect actual.files &&
	test_cmp expect actual.unset
'

test_expect_success 'a ceiling between here and the repository: no repository, as for git' '
	(
		cd sub/dir &&
		GIT_CEILING_DIRECTORIES="$PWD/.." &&
		export GIT_CEILING_DIRECTORIES &&
		test_must_fail git rev-parse --git-dir 2>/dev/null &&
		test_expect_code 128 git-maint-describe-contains v1.0 2>../../err
	) &&
	grep "not a git repository" err
'

test_expect_success 'a linked worktree is left to libgit2' '
	git worktree add -q --detach linked v1.0~1 &&
	(
		cd linked &&
		refused git-maint-describe-contains HEAD &&
		git describe --contains HEAD >expect &&
		git-maint-describe-contains HEAD >actual &&
		test_cmp expect actual
	) &&
	git worktree remove --force linked
'

test_expect_success 'config that changes naming or walking is left to libgit2' '
	git config core.commitGraph false &&
	refused git-maint-describe-contains v1.0 &&
	git config --unset core.commitGraph &&
	echo "[include]" >>.git/config &&
	echo "	path = nothing" >>.git/config &&
	refused git-maint-describe-contains v1.0 &&
	git config --remove-section include &&
	git config --global core.disambiguate commit &&
	refused git-maint-describe-contains v1.0 &&
	git config --global --unset core.disambiguate &&
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.commitGraph GIT_CONFIG_VALUE_0=false \
		refused git-maint-describe-contains v1.0 &&
	files_only git-maint-describe-contains v1.0 >/dev/null
'

test_expect_success 'replace refs, grafts and shallow are left to libgit2' '
	git replace v1.1^0 v1.0^0 &&
	refused git-maint-describe-contains v1.0 &&
	git replace -d v1.1^0 &&
	git rev-parse v1.0 >.git/info/grafts &&
	refused git-maint-describe-contains v1.0 &&
	rm .git/info/grafts &&
	git rev-parse v1.0 >.git/shallow &&
	refused git-maint-describe-contains v1.0 &&
	rm .git/shallow &&
	files_only git-maint-describe-contains v1.0 >/dev/null
'

test_expect_success 'a broken loose ref is left to libgit2' '
	echo garbage >.git/refs/tags/broken &&
	refused git-maint-describe-contains v1.0 &&
	rm .git/refs/tags/broken &&
	files_only git-maint-describe-contains v1.0 >/dev/null
'

test_expect_success '100,000 tags: both paths answer like git, in bounded time' '
	git rev-list --all >commits &&
	awk "{ c[n++] = \$1 } END { for (i = 0; i < 100000; i++) printf \"%s refs/tags/many/t%06d\\n\", c[i % n], i }" \
		commits >many &&
	git pack-refs --all &&
	{ grep -v "^[#^]" .git/packed-refs && cat many; } | LC_ALL=C sort -k2 >packed &&
	mv packed .git/packed-refs &&
	test $(git tag | wc -l) -gt 100000 &&
	set -- $(git rev-parse v1.0~1 v1.2~3 main~7) &&
	git describe --contains "$@" >expect &&
	timeout 60 env GIT_MAINT_TEST_DESCRIBE_PATH=libgit2 git-maint-describe-contains "$@" >actual &&
	test_cmp expect actual &&
	timeout 60 env GIT_MAINT_TEST_DESCRIBE_PATH=files git-maint-describe-contains "$@" >actual &&
	test_cmp expect actual
'

test_expect_success 'how many commits the files-only path answered like git' '
	cat compared &&
	test $(wc -l <compared) -ge 6
'

test_done
