#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='git maint-describe-contains names every commit as git describe --contains does'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-t0500-history.sh"
. "$MAINT_TEST_DIR/lib-describe-oracle.sh"

# compare_all [--graph-commits=<file> | --full-graph] <git describe options>...:
# for every commit of the repository, git describe --contains as run on
# that commit alone (the oracle, "<id> undefined" where git fails; see
# lib-describe-oracle.sh) and ours once with --stdin must be equal.
# --full-graph: git's commit-graph holds every commit (written with
# --reachable, no commit since), so the oracle asks git in one run.
compare_all () {
	graph=
	case "$1" in
	--graph-commits=*)
		graph=$1
		shift
		;;
	--full-graph)
		graph=--graph-commits=commits
		shift
		;;
	esac
	git rev-list --all >commits &&
	describe_oracle $graph "$@" <commits >expect &&
	test_expect_code_or_ok git-maint-describe-contains "$@" --stdin <commits >actual &&
	test_cmp expect actual &&
	echo "compared $(wc -l <commits) commits: $*" >>"$SHARNESS_TRASH_DIRECTORY/compared"
}

# Our --stdin exits 1 when some commit has no name; both 0 and 1 are fine here.
test_expect_code_or_ok () {
	"$@"
	test $? -le 1
}

remove_graphs () {
	rm -rf .git/objects/info/commit-graph .git/objects/info/commit-graphs
}

test_expect_success 'setup: a generated history with many tags and merges' '
	git init -q &&
	gen_history 420 11 5 | git fast-import --quiet &&
	git -c advice.nestedTag=false tag -a -m "tag of a tag" nested v1.1 &&
	git tag -a -m "a tree" treetag main^{tree} &&
	git tag heads/main main~3 &&
	git tag -a -m "two on one" twin-a v1.2-rc1 &&
	git tag twin-b v1.2-rc1 &&
	test $(git rev-list --all | wc -l) = 420 &&
	test $(git tag | wc -l) -gt 50 &&
	test $(git rev-list --all --min-parents=3 | wc -l) -gt 3
'

test_expect_success 'every commit, no commit-graph' '
	remove_graphs &&
	compare_all
'

test_expect_success 'every commit, --all' '
	compare_all --all
'

test_expect_success 'every commit, --match' '
	compare_all --match "v*"
'

test_expect_success 'every commit, several --match and --exclude' '
	compare_all --match "v1.[0-3]*" --match "misc-*" --exclude "*-rc*" &&
	compare_all --exclude "v*" --exclude "same-*"
'

test_expect_success 'every commit, with a commit-graph' '
	git commit-graph write --reachable &&
	compare_all --full-graph &&
	compare_all --full-graph --exclude "*-rc[12]"
'

test_expect_success 'every commit, with generation-v1 commit-graph' '
	remove_graphs &&
	git -c commitGraph.generationVersion=1 commit-graph write --reachable &&
	compare_all --full-graph &&
	compare_all --full-graph --all
'

test_expect_success 'every commit, with a split commit-graph chain of three layers' '
	remove_graphs &&
	git rev-list --all --reverse | head -n 100 | git commit-graph write --stdin-commits --split &&
	git rev-list --all --reverse | head -n 250 |
		git commit-graph write --stdin-commits --split=no-merge &&
	git commit-graph write --reachable --split=no-merge &&
	test_line_count = 3 .git/objects/info/commit-graphs/commit-graph-chain &&
	compare_all --full-graph &&
	compare_all --full-graph --match "v*"
'

test_expect_success 'every commit, with a graph holding only old commits' '
	remove_graphs &&
	git rev-list --all --reverse | head -n 200 >old &&
	git commit-graph write --stdin-commits <old &&
	git rev-list $(cat old) >in-graph &&
	compare_all --graph-commits=in-graph
'

test_expect_success 'core.commitGraph=false is honoured like git' '
	git commit-graph write --reachable &&
	git config core.commitGraph false &&
	compare_all &&
	git config --unset core.commitGraph
'

test_expect_success 'a corrupt commit-graph is ignored with a warning' '
	remove_graphs &&
	compare_all &&
	mv expect expect.nograph &&
	git commit-graph write --reachable &&
	chmod u+w .git/objects/info/commit-graph &&
	printf XXXX | dd of=.git/objects/info/commit-graph bs=1 seek=0 conv=notrunc 2>/dev/null &&
	test_expect_code_or_ok git-maint-describe-contains --stdin <commits >actual 2>err &&
	test_cmp expect.nograph actual &&
	grep "warning: ignoring the commit-graph" err &&
	remove_graphs
'

test_expect_success 'the peel cache follows tags that move or go away' '
	test_path_is_file .git/maint/describe-peel &&
	git tag -f v1.1 v1.1~4 &&
	git tag -d v1.2 &&
	git tag -a -f -m moved v1.3 v1.3~2 &&
	compare_all --match "v1.[0-9]" &&
	grep "^$(git rev-parse v1.3) " .git/maint/describe-peel >entry &&
	grep -q "^$(git rev-parse v1.3) $(git rev-parse v1.3^0) " entry
'

test_expect_success 'a damaged peel cache is ignored and rewritten' '
	echo "# git-maint describe peel cache v1" >.git/maint/describe-peel &&
	echo "garbage line" >>.git/maint/describe-peel &&
	compare_all &&
	! grep -q garbage .git/maint/describe-peel
'

test_expect_success '--no-cache neither reads nor writes the cache' '
	rm -rf .git/maint &&
	git-maint-describe-contains --no-cache v1.0 >actual &&
	git describe --contains v1.0 >expect &&
	test_cmp expect actual &&
	test_path_is_missing .git/maint
'

test_expect_success 'every commit, with our own commit-graph cache and no git graph' '
	remove_graphs &&
	rm -rf .git/maint &&
	git rev-list --all >commits &&
	GIT_MAINT_TEST_GRAPH_CACHE_MIN_READS=0 \
		test_expect_code_or_ok git-maint-describe-contains --stdin <commits >/dev/null &&
	test_path_is_file .git/maint/commit-graph &&
	compare_all --all &&
	compare_all --exclude "*-rc*"
'

test_expect_success 'the commit-graph cache lacks new commits: they are read, names stay right' '
	git checkout -q --detach main &&
	test_commit after-cache-1 &&
	git merge -q --no-ff -m merge-old v1.4~3 &&
	git tag -a -m late-release v9.0 &&
	test_commit after-cache-2 &&
	compare_all &&
	git checkout -q main
'

test_expect_success 'a damaged commit-graph cache is ignored and rewritten' '
	printf "garbage" >.git/maint/commit-graph &&
	compare_all &&
	GIT_MAINT_TEST_GRAPH_CACHE_MIN_READS=0 \
		test_expect_code_or_ok git-maint-describe-contains --stdin <commits >/dev/null &&
	test $(wc -c <.git/maint/commit-graph) -gt 1000 &&
	compare_all --match "v*"
'

test_expect_success 'command-line commit-ishes are answered like git' '
	m=$(git rev-list --min-parents=2 -n 1 v1.4~5) &&
	git describe --contains v1.1 v1.4~20 $m^2 tags/heads/main nested >expect &&
	git-maint-describe-contains v1.1 v1.4~20 $m^2 tags/heads/main nested >actual &&
	test_cmp expect actual
'

test_expect_success 'no argument means HEAD' '
	git checkout -q --detach v1.0~2 &&
	git describe --contains >expect &&
	git-maint-describe-contains >actual &&
	test_cmp expect actual
'

test_expect_success 'a commit no tag contains fails like git (exit 128)' '
	git rev-parse main >tip &&
	git commit-tree -p main -m lonely main^{tree} >lonely &&
	test_expect_code 128 git describe --contains $(cat lonely) 2>expect &&
	test_expect_code 128 git-maint-describe-contains $(cat lonely) 2>actual &&
	test_cmp expect actual
'

test_expect_success 'names before the undescribable commit are printed' '
	test_expect_code 128 git-maint-describe-contains v1.0 $(cat lonely) v1.1 >actual 2>err &&
	git describe --contains v1.0 >expect &&
	test_cmp expect actual
'

test_expect_success '--stdin prints a marker line and exits 1 at the end' '
	{ echo v1.0; cat lonely; echo v1.1; } >in &&
	{ git describe --contains v1.0 && echo "$(cat lonely) undefined" &&
	  git describe --contains v1.1; } >expect &&
	test_expect_code 1 git-maint-describe-contains --stdin <in >actual &&
	test_cmp expect actual
'

test_expect_success '--stdin answers each line before reading the next' '
	mkfifo in.fifo &&
	{ git-maint-describe-contains --stdin <in.fifo >out.stream & } &&
	exec 9>in.fifo &&
	echo v1.0 >&9 &&
	i=0 &&
	while test $i -lt 300 && ! test -s out.stream
	do
		sleep 0.1 && i=$((i + 1))
	done &&
	exec 9>&- &&
	wait &&
	git describe --contains v1.0 >expect &&
	test_cmp expect out.stream
'

test_expect_success 'an unknown revision is an error, exit 1' '
	test_expect_code 1 git-maint-describe-contains no-such-rev 2>err &&
	grep "no-such-rev" err &&
	test_expect_code 1 git-maint-describe-contains 0123456789012345678901234567890123456789 2>err &&
	grep "not a valid revision" err &&
	echo no-such-rev | test_expect_code 1 git-maint-describe-contains --stdin >actual &&
	echo "no-such-rev undefined" >expect &&
	test_cmp expect actual
'

test_expect_success 'hostile revision specs end with exit 1 in bounded time' '
	for spec in "@{" "x@{" "@{-1" ".." "a..b" "v1.0@{" "^" "@{0" ":/no such text" "v1.0^{tree}" "HEAD@{upstream}"
	do
		test_expect_code 1 timeout 20 git-maint-describe-contains "$spec" 2>err ||
		{ echo "spec: $spec"; return 1; }
	done
'

test_expect_success 'a tree is not a commit: exit 1' '
	test_expect_code 1 git-maint-describe-contains main^{tree} 2>err &&
	grep "not a commit" err
'

# The oracle for --release: for each line of commits, the lowest release
# by version order among the tags that contain it, as
#	git tag --contains <c> --sort=version:refname --list "v[0-9]*" |
#		grep -v -e "-rc" | head -n 1
# gives (exact reachability; with a commit-graph ours is exact too, without
# one a commit is not seen past day-long clock skew), or "<c> undefined".
# "Contains" is asked once per release (git rev-list <release>), not once
# per commit (git tag --contains <c>).
release_oracle () {
	git tag --sort=version:refname --list "v[0-9]*" | grep -v -e "-rc" >releases &&
	: >contained &&
	while read release
	do
		git rev-list "$release" | sed "s|\$| $release|" >>contained || return 1
	done <releases &&
	awk 'NR == FNR { if (!($1 in first)) first[$1] = $2; next }
		{ print ($1 in first) ? first[$1] : $1 " undefined" }' contained commits
}

test_expect_success '--release equals the first release tag containing each commit' '
	git commit-graph write --reachable &&
	git rev-list --all >commits &&
	release_oracle >expect &&
	test_expect_code_or_ok git-maint-describe-contains --release --stdin <commits >actual &&
	test_cmp expect actual &&
	remove_graphs
'

test_expect_success '--release with --match and --exclude' '
	git commit-graph write --reachable &&
	c=$(git rev-parse v1.4~3) &&
	git-maint-describe-contains --release --match "v1.[1-9]*" $c >actual &&
	git tag --contains $c --sort=version:refname --list "v1.[1-9]*" |
		grep -v -e -rc | head -n 1 >expect &&
	test_cmp expect actual &&
	git-maint-describe-contains --release --match "v*" --exclude "v1.0" --exclude "v1.1" $c >actual &&
	git tag --contains $c --sort=version:refname --list "v*" |
		grep -v -e "^v1.0$" -e "^v1.1$" | head -n 1 >expect &&
	test_cmp expect actual &&
	remove_graphs
'

test_expect_success 'the command changes nothing in the repository' '
	git clone -q --no-local . state-repo &&
	(
		cd state-repo &&
		git commit-graph write --reachable &&
		repo_state >../before &&
		git rev-list --all >../all &&
		test_expect_code_or_ok git-maint-describe-contains --stdin <../all >/dev/null &&
		test_expect_code_or_ok git-maint-describe-contains --all --stdin <../all >/dev/null &&
		test_expect_code_or_ok git-maint-describe-contains --release --stdin <../all >/dev/null &&
		repo_state >../after
	) &&
	test_cmp before after
'

test_expect_success 'usage: -h exits 129, conflicting options are refused' '
	test_expect_code 129 git-maint-describe-contains -h >out &&
	grep "git maint-describe-contains" out &&
	test_expect_code 129 git-maint-describe-contains --stdin v1.0 2>err &&
	test_expect_code 129 git-maint-describe-contains --release --all v1.0 2>err
'

test_expect_success 'every option is documented' '
	command_options git-maint-describe-contains >opts &&
	test_line_count -gt 4 opts &&
	while read opt
	do
		grep -q -e "^$opt" "$MAINT_SRC_DIR/Documentation/git-maint-describe-contains.adoc" ||
		{ echo "undocumented: $opt"; return 1; }
	done <opts
'

test_expect_success 'how many commits were compared with git' '
	cat compared &&
	test $(wc -l <compared) -ge 14
'

test_done
