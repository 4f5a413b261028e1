# SPDX-License-Identifier: GPL-2.0-only
# git describe --contains as the oracle, for many commits in a few runs of git.
#
#	describe_oracle [--graph-commits=<file>] [<git describe options>...] <in >out
#
# writes, for each line of <in> (a commit name without spaces), what
#
#	git describe --contains <options> <line> 2>/dev/null || echo "<line> undefined"
#
# prints: the name, or "<line> undefined". Run once per line that costs
# ~10 ms a line (~4 s for 400 commits), and the describe tests asked about
# every commit some 60 times. Here git answers a batch of lines in one run,
# batches chosen so each answer is the one the lone run gives:
#
# git describe --contains runs git name-rev, which walks from every tag
# (or ref) to name each commit, and does not walk past a commit older than
# a cutoff: with no commit-graph, one day before the oldest commit asked
# about; with a commit-graph (generation numbers), below the lowest
# generation asked about, which never cuts a path to a commit asked about.
# So the cutoff is the only way one commit asked about changes the answer
# for another, and then only through the date of the oldest. A batch is
# safe for commit c when no commit that contains c is dated between the
# batch's cutoff and c's own (one day before c): none of c's walk is cut
# in one and not in the other. The batches are the fewest such (greedy,
# oldest first; 11 runs for t0500's 420 commits, not 420).
#
# git takes the generation cutoff as soon as one commit asked about is in
# a commit-graph: a commit outside a partial graph, asked about in the
# same run, would then be walked without the date cutoff it has alone.
# --graph-commits=<file> lists the commits in git's graph (a partial one,
# or every commit when the graph was written with --reachable after the
# last commit and git reads it): they never share a batch with the
# others, and share one among themselves (a generation cutoff never cuts
# a path to a commit asked about), so a whole graph takes one run of git.
#
# The batches depend only on the history, the lines and the graph: they
# are made once for each of those (oracle.memo/, keyed by their checksum;
# a script asks about the same history many times). When the lines are
# the graph's file itself (every commit, by id: the tests' common case),
# that one batch is all there is, and git is asked at once, without the
# history read for the batches.
#
# Lines that are not commits are asked about alone. Each batch runs with
# --always, so a commit with no name prints its abbreviated id instead of
# stopping the run: that answer is "<line> undefined".
#
# MAINT_TEST_ORACLE_EACH=1 also runs git once per line, as the tests did
# before, and fails if any answer differs: run the describe tests with it
# when git changes how name-rev cuts its walk.
describe_oracle () {
	oracle_graph=/dev/null
	case "$1" in
	--graph-commits=*)
		oracle_graph=${1#--graph-commits=}
		shift
		;;
	esac
	cat >oracle.in &&
	if test "$oracle_graph" != /dev/null && cmp -s oracle.in "$oracle_graph"
	then
		describe_oracle_graph_ "$@"
		return
	fi &&
	sed 's/$/^{commit}/' oracle.in |
		git cat-file --batch-check="%(objectname)" >oracle.ids 2>/dev/null &&
	git rev-list --no-commit-header --format="%H %ct %P" --all \
		$(grep -v " " oracle.ids) >oracle.dag.unsorted &&
	sort -s -k2,2n oracle.dag.unsorted >oracle.dag &&
	oracle_key=$(cksum oracle.dag oracle.ids oracle.in "$oracle_graph" | cksum) &&
	oracle_memo=oracle.memo/${oracle_key% *}-${oracle_key#* } &&
	if ! test -f "$oracle_memo.batch-lines"
	then
		awk -f "$MAINT_TEST_DIR/lib-describe-oracle.awk" \
			oracle.dag oracle.ids oracle.in "$oracle_graph" &&
		mkdir -p oracle.memo &&
		mv oracle.batches "$oracle_memo.batches" &&
		mv oracle.batch-lines "$oracle_memo.batch-lines"
	fi &&
	# each run's answers after a line "--" (no name is "--"); the lines
	# are words (no blank), not patterns
	set -f &&
	while read -r oracle_args
	do
		echo -- &&
		{ git describe --contains --always "$@" $oracle_args 2>/dev/null || :; } || break
	done <"$oracle_memo.batches" >oracle.names &&
	set +f &&
	describe_oracle_check_ oracle.ids "$oracle_memo.batch-lines" "$@"
}

# describe_oracle_graph_ <git describe options>...: describe_oracle when
# oracle.in is the graph's file: every line a commit id, one run of git
describe_oracle_graph_ () {
	oracle_args= &&
	while read -r oracle_line
	do
		oracle_args="$oracle_args $oracle_line"
	done <oracle.in &&
	set -f &&
	{
		echo -- &&
		{ git describe --contains --always "$@" $oracle_args 2>/dev/null || :; }
	} >oracle.names &&
	set +f &&
	describe_oracle_check_ /dev/null /dev/null "$@"
}

# describe_oracle_check_ <ids> <batch-lines> <git describe options>...:
# the answers (describe_oracle_answers_), checked against git run once
# a line when MAINT_TEST_ORACLE_EACH is set
describe_oracle_check_ () {
	if test -z "$MAINT_TEST_ORACLE_EACH"
	then
		describe_oracle_answers_ "$1" "$2"
	else
		describe_oracle_answers_ "$1" "$2" >oracle.out &&
		shift 2 &&
		while read -r line
		do
			git describe --contains "$@" "$line" 2>/dev/null || echo "$line undefined"
		done <oracle.in >oracle.each &&
		test_cmp oracle.each oracle.out &&
		cat oracle.out
	fi
}

# describe_oracle_answers_ <ids> <batch-lines>: each line's answer, from
# the runs' answers in oracle.names; <ids> holds the commit each line
# names (or anything else when it names none), <batch-lines> the line
# numbers of each run; both /dev/null: one run, every line in order,
# each line a commit id
describe_oracle_answers_ () {
	case $2 in
	/dev/null) oracle_in_order=1 ;;
	*) oracle_in_order= ;;
	esac &&
	awk -v in_order="$oracle_in_order" '
	FILENAME == ARGV[1] { line[FNR] = $0; nlines = FNR; next }
	FILENAME == ARGV[2] { id[FNR] = NF == 1 ? $1 : ""; next }
	FILENAME == ARGV[3] { n = split($0, nums, " "); for (k = 1; k <= n; k++) at[FNR, k] = nums[k]; next }
	$0 == "--" { run++; k = 0; next }
	{ k++; name[in_order ? k : at[run, k]] = $0 }
	END {
		for (l = 1; l <= nlines; l++) {
			if (in_order)
				id[l] = line[l]
			a = (l in name) ? name[l] : ""
			# no answer (git failed), or --always gave an abbreviated id
			if (a == "" || (a ~ /^[0-9a-f]+$/ && index(id[l], a) == 1))
				a = line[l] " undefined"
			print a
		}
	}' oracle.in "$1" "$2" oracle.names
}
