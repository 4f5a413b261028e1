# SPDX-License-Identifier: GPL-2.0-only
# Generates a deterministic, linux-like history for the describe-contains
# tests and benchmark, as a git fast-import stream on stdout:
#
#	gen_history <commits> <seed> [<release-every> [<no-tagger-percent> [<skew-per-mille>]]]
#
# A mainline ("main") takes commits, merges of topic branches (forked from
# the tip or from older mainline commits, sometimes merging main back in),
# and octopus merges of several topics (at most a dozen stay open). Every <release-every> mainline
# events (default 40) it is tagged: three -rc tags, then the release.
# Around that: annotated and lightweight tags, tags on merges, two tags on
# one commit, tags without a tagger, tags on topics that are never merged,
# tags made later on old commits, commits with equal dates, and commits
# dated days before their parents (clock skew; default 30 per mille of the
# commits, which git's date cutoff then cannot name past). Tags without a
# tagger (default 5% of tags) have date 0 for git, so they win over every other.
gen_history () {
	awk -v N="$1" -v SEED="$2" -v EVERY="${3:-40}" -v NOTAGGER="${4:-5}" -v SKEW="${5:-30}" '
	function rnd(n) {	# deterministic LCG, 0 <= result < n
		state = (state * 1103515245 + 12345) % 2147483648
		return int(state / 65536) % n
	}
	function emit_commit(parents, np,    i, msg, when) {
		mark++
		if (rnd(1000) < SKEW)
			when = t - 3 * 86400	# clock skew: days before the parent
		else {
			if (rnd(100) >= 5)
				t += 60 + rnd(3600)	# else the same date as before
			when = t
		}
		date[mark] = when
		msg = "commit " mark
		printf "commit refs/heads/work\nmark :%d\n", mark
		printf "author A U Thor <author@example.com> %d +0000\n", when
		printf "committer C O Mitter <committer@example.com> %d +0000\n", when
		printf "data %d\n%s\n", length(msg), msg
		if (np > 0)
			printf "from :%d\n", parents[1]
		else
			printf "from 0000000000000000000000000000000000000000\n"
		for (i = 2; i <= np; i++)
			printf "merge :%d\n", parents[i]
		printf "\n"
		return mark
	}
	function tag(name, target, kind,    msg, when) {
		if (kind == "light") {
			printf "reset refs/tags/%s\nfrom :%d\n\n", name, target
			return
		}
		msg = "tag " name
		when = date[target] + 30
		if (kind == "late")
			when = t + 86400 * 10	# tagged long after, on an old commit
		printf "tag %s\nfrom :%d\n", name, target
		if (kind != "notagger")
			printf "tagger C O Mitter <committer@example.com> %d +0000\n", when
		printf "data %d\n%s\n", length(msg), msg
	}
	function tag_kind(    r) {
		r = rnd(100)
		if (r < 100 - NOTAGGER)
			return r < 65 ? "annotated" : "light"
		return "notagger"
	}
	function main_event(m) {
		mainline[++nmain] = m
		head = m
		events++
		if (events % EVERY == 0) {
			rc++
			if (rc <= 3)
				tag(sprintf("v%d.%d-rc%d", major, minor, rc), head, tag_kind())
			else {
				tag(sprintf("v%d.%d", major, minor), head, tag_kind())
				rc = 0
				minor++
				if (minor == 20) { major++; minor = 0 }
			}
			if (rnd(100) < 8)	# a second tag on the same commit
				tag(sprintf("same-%d", events), head, tag_kind())
		} else if (rnd(1000) < 15) {
			tag(sprintf("misc-%d", events), head, tag_kind())
		}
		if (rnd(1000) < 5 && nmain > 10)
			tag(sprintf("old-%d", events), mainline[1 + rnd(nmain - 1)], "late")
	}
	BEGIN {
		state = SEED; t = 1500000000; major = 1; minor = 0
		p[1] = 0
		main_event(emit_commit(p, 0))
		while (mark < N) {
			r = rnd(100)
			if (ntopics == 0 && r >= 35)
				r = 40
			if (ntopics > 12 && r >= 35)
				r = 80	# a maintainer merges what piles up
			if (r < 35) {
				p[1] = head
				main_event(emit_commit(p, 1))
			} else if (r < 55) {	# new topic, from the tip or an older commit
				base = rnd(3) ? head : mainline[1 + rnd(nmain)]
				p[1] = base
				topic[++ntopics] = emit_commit(p, 1)
			} else if (r < 78) {	# grow a topic
				k = 1 + rnd(ntopics)
				p[1] = topic[k]
				if (rnd(100) < 5) {	# merge main back into the topic
					p[2] = head
					topic[k] = emit_commit(p, 2)
				} else
					topic[k] = emit_commit(p, 1)
				if (rnd(1000) < 20)
					tag(sprintf("topic-%d", mark), topic[k], tag_kind())
			} else if (r < 95 || ntopics < 3) {	# merge one topic
				k = 1 + rnd(ntopics)
				p[1] = head; p[2] = topic[k]
				topic[k] = topic[ntopics--]
				main_event(emit_commit(p, 2))
			} else {	# octopus merge of 3 or 4 topics
				n = 3 + rnd(2)
				if (n > ntopics) n = ntopics
				p[1] = head
				for (i = 1; i <= n; i++) {
					k = 1 + rnd(ntopics)
					p[i + 1] = topic[k]
					topic[k] = topic[ntopics--]
				}
				main_event(emit_commit(p, n + 1))
			}
		}
		printf "reset refs/heads/main\nfrom :%d\n\n", head
		for (i = 1; i <= ntopics && i <= 5; i++)
			printf "reset refs/heads/topic%d\nfrom :%d\n\n", i, topic[i]
	}'
}
