# SPDX-License-Identifier: GPL-2.0-only
# The batches of describe_oracle (t/lib-describe-oracle.sh), from four files:
#	oracle.dag	"<commit> <committer date> <parents>..." oldest first
#	oracle.ids	the commit each input line names, or "<line>^{commit} missing"
#	oracle.in	the input lines
#	<graph>		the commits in git's commit-graph (or /dev/null)
# Writes a line for each run of git: in oracle.batches the input lines git
# may answer in that run, in oracle.batch-lines their line numbers.
FNR == 1 { file++ }
file == 1 {
	order[++ncommits] = $1
	date[$1] = $2
	for (i = 3; i <= NF; i++)
		children[$i] = children[$i] " " $1
	next
}
file == 2 { id[FNR] = NF == 1 ? $1 : ""; if (NF == 1) asked[$1] = 1; next }
file == 3 { line[FNR] = $0; nlines = FNR; next }
file == 4 { in_graph[$1] = 1; next }
END {
	# low[c]: a day after the latest commit that contains c and is dated
	# more than a day before c (-1 if none). A batch whose oldest commit
	# is dated after low[c] cuts c's walk exactly where c alone does.
	for (k = 1; k <= ncommits; k++) {
		c = order[k]
		if (!(c in asked) || (c in in_graph))
			continue
		limit = date[c] - 86400
		latest = -1
		split("", seen)
		top = 0
		stack[++top] = c
		seen[c] = 1
		while (top) {
			x = stack[top--]
			if (date[x] < limit && date[x] > latest)
				latest = date[x]
			n = split(children[x], kids, " ")
			for (j = 1; j <= n; j++)
				if (!(kids[j] in seen)) {
					seen[kids[j]] = 1
					stack[++top] = kids[j]
				}
		}
		low[c] = latest < 0 ? -1 : latest + 86400
	}
	# Oldest first: the oldest commit not in a batch starts one, at its
	# date; every later one whose low is before that date joins it. The
	# commits in the graph are one batch: git cuts their walks by
	# generation, which never cuts a path to a commit asked about.
	nbatch = 0
	for (k = 1; k <= ncommits; k++) {
		c = order[k]
		if (!(c in asked) || (c in batch))
			continue
		nbatch++
		graph = (c in in_graph)
		for (j = k; j <= ncommits; j++) {
			e = order[j]
			if ((e in asked) && !(e in batch) && (e in in_graph) == graph && (graph || low[e] < date[c]))
				batch[e] = nbatch
		}
	}
	nruns = 0
	for (l = 1; l <= nlines; l++) {
		b = (id[l] != "" && (id[l] in batch)) ? batch[id[l]] : "alone-" l
		if (!(b in run))
			run[b] = ++nruns
		args[run[b]] = args[run[b]] " " line[l]
		lines[run[b]] = lines[run[b]] " " l
	}
	printf "" >"oracle.batches"
	printf "" >"oracle.batch-lines"
	for (r = 1; r <= nruns; r++) {
		print substr(args[r], 2) >"oracle.batches"
		print substr(lines[r], 2) >"oracle.batch-lines"
	}
}
