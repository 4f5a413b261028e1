#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='dry-apply oracle tests: generated series against git apply, git am and GNU patch'

. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-apply.sh"

GEN="$MAINT_TEST_DIR/t0301/gen-series.py"

# oracle_am <base> <patch>...: the tree git am gives, or "failed at <n>".
oracle_am () {
	base=$1 &&
	shift &&
	git checkout -q --detach "$base" &&
	if git am -q "$@" >/dev/null 2>&1
	then
		git rev-parse HEAD^{tree}
	else
		n=$(cat .git/rebase-apply/next) &&
		git am --abort &&
		echo "failed at $n"
	fi
}

# ours_cumulative <base> <patch>...: the same answer from the engine.
ours_cumulative () {
	base=$1 &&
	shift &&
	test-apply --write-tree "$base" "$@" >ours.out
	failed=$(awk -F'\t' '$1 == "patch" && $3 == "failed" { print $2; exit }' ours.out)
	if test -n "$failed"
	then
		echo "failed at $failed"
	else
		sed -n "s/^tree //p" ours.out
	fi
}

for seed in 1 2 3
do
	test_expect_success "setup: generated series $seed" '
		git init -q series$seed &&
		(
			cd series$seed &&
			python3 -S "$GEN" '$seed' 25 40 &&
			git branch tip &&
			git format-patch -q -M -C --find-copies-harder -o ../patches$seed base..tip &&
			git format-patch -q -M -C --find-copies-harder --stdout base..tip >../series$seed.mbox
		)
	'

	test_expect_success "series $seed: cumulative tree equals git am" '
		(
			cd series$seed &&
			oracle_am base ../patches'$seed'/*.patch >../expect &&
			ours_cumulative base ../patches'$seed'/*.patch >../actual
		) &&
		test_cmp expect actual
	'

	test_expect_success "series $seed: dry-apply agrees, on the mbox" '
		(
			cd series$seed &&
			git-maint-dry-apply -q --onto base ../series'$seed'.mbox >../actual
		) &&
		echo "base: all 40 patches apply" >expect &&
		test_cmp expect actual
	'

	test_expect_success "series $seed: each patch alone equals git apply (verdict and tree)" '
		(
			cd series$seed &&
			# each patch on an index of base of its own: one read-tree,
			# and one tee makes a copy for each patch
			GIT_INDEX_FILE=.git/oracle-index git read-tree base &&
			indexes= &&
			for p in ../patches'$seed'/*.patch
			do
				indexes="$indexes .git/oracle-index.${p##*/}"
			done &&
			tee $indexes <.git/oracle-index >/dev/null &&
			for p in ../patches'$seed'/*.patch
			do
				if GIT_INDEX_FILE=.git/oracle-index.${p##*/} git apply --cached "$p" 2>/dev/null
				then
					echo "${p##*/} ok $(GIT_INDEX_FILE=.git/oracle-index.${p##*/} git write-tree)"
				else
					echo "${p##*/} failed"
				fi || return 1
			done >../expect &&
			# one run per patch, in one process
			test_might_fail test-apply --each=1 --write-tree base ../patches'$seed'/*.patch >out &&
			awk -F"\t" "
				\$1 == \"run\" { n = split(\$3, part, \"/\"); name = part[n] }
				\$1 == \"patch\" { verdict = \$3 }
				/^tree / { print name, verdict (verdict == \"ok\" ? \" \" substr(\$0, 6) : \"\") }
			" out >../actual
		) &&
		test_cmp expect actual &&
		grep -q failed actual &&
		grep -q " ok " actual
	'

	# Three lines inserted at the top of every text file: every hunk
	# needs an offset (git am finds it too).
	test_expect_success "series $seed: on a shifted base, offsets agree with git am" '
		(
			cd series$seed &&
			git checkout -q -b shifted base &&
			python3 -S "$GEN" shift $(git ls-files "*.c") &&
			test_tick &&
			git commit -q -a -m shifted &&
			oracle_am shifted ../patches'$seed'/*.patch >../expect &&
			ours_cumulative shifted ../patches'$seed'/*.patch >../actual &&
			grep -q "	ok	[0-9]*	3	0" ours.out
		) &&
		test_cmp expect actual
	'
done

test_expect_success 'mutated patches give a verdict, never a crash' '
	python3 -S "$MAINT_TEST_DIR/t0301/mutate.py" 7 150 mutated patches1/*.patch &&
	(
		cd series1 &&
		# each patch applied twice, in a run of its own; the runs in one
		# process (mutated.out names the run a crash stopped at)
		pairs=$(for p in ../mutated/*.patch; do echo "$p $p"; done) &&
		{ test-apply -3 --fuzz=2 --each=2 base $pairs >../mutated.out 2>&1; echo $? >../rc; }
	) &&
	test $(cat rc) -le 1 &&
	test $(grep -c "^run	" mutated.out) = 150 &&
	test $(grep -c "^patch	2	" mutated.out) = 150
'

test_expect_success 'setup: a file and a patch that needs offsets and fuzz' '
	git init -q fuzz &&
	(
		cd fuzz &&
		test_seq 1 60 | sed "s/^/line /" >f &&
		git add f &&
		test_tick &&
		git commit -q -m base &&
		git tag base &&
		sed -e "s/^line 10\$/line 10 changed/" -e "s/^line 30\$/line 30 changed/" \
		    -e "s/^line 50\$/line 50 changed/" f >f.new &&
		mv f.new f &&
		git diff >../fuzz.diff &&
		git checkout -q f &&
		# Shifted by 2, and the outermost context line of hunk 2 differs
		# (fuzz 1), hunk 3 two lines at one end (fuzz 2).
		{ echo top1 && echo top2 && sed -e "s/^line 27\$/line 27 edited/" \
			-e "s/^line 53\$/line 53 edited/" -e "s/^line 52\$/line 52 edited/" f; } >f.new &&
		mv f.new f &&
		test_tick &&
		git commit -q -a -m drifted &&
		git tag drifted
	)
'

for fuzz in 0 1 2 3
do
	test_expect_success "--fuzz=$fuzz agrees with GNU patch -F$fuzz" '
		(
			cd fuzz &&
			cp f f.gnu &&
			{ patch -F'$fuzz' --dry-run f.gnu <../fuzz.diff >../gnu.out; true; } &&
			rm f.gnu &&
			{ test-apply --fuzz='$fuzz' drifted ../fuzz.diff >../ours.out; true; }
		) &&
		grep "^Hunk" gnu.out | sed "s/ -- .*//" >expect &&
		# our porcelain records, spelled the way GNU patch reports them
		awk -F"\t" "\$1 == \"hunk\" {
			if (\$5 == \"failed\") printf \"Hunk #%d FAILED at %d.\n\", \$4, \$6
			else if (\$7 != 0 || \$8 != 0) {
				printf \"Hunk #%d succeeded at %d\", \$4, \$6
				if (\$8 != 0) printf \" with fuzz %d\", \$8
				if (\$7 != 0) printf \" (offset %d line%s)\", \$7, (\$7 == 1 || \$7 == -1) ? \"\" : \"s\"
				printf \".\n\"
			}
		}" ours.out >actual &&
		test_cmp expect actual
	'
done

# A patch whose first hunk adds lines, on files moved up, down, or
# changed where a hunk goes: line numbers as GNU patch prints them.
test_expect_success 'setup: variants of a file for one two-hunk patch' '
	git init -q lines &&
	(
		cd lines &&
		i=1 && while test $i -le 40; do echo $i; i=$((i + 1)); done >a &&
		git add a &&
		test_tick &&
		git commit -q -m base &&
		git tag base &&
		sed -e "s/^10\$/10x\n10y\n10z/" -e "s/^30\$/30x/" a >a.new &&
		mv a.new a &&
		git diff >../lines.diff &&
		git checkout -q a &&
		mk () {
			git checkout -q -b "$1" base &&
			eval "$2" &&
			test_tick &&
			git commit -q -a -m "$1"
		} &&
		mk down5 "{ printf \"n1\nn2\nn3\nn4\nn5\n\"; cat a; } >a.new && mv a.new a" &&
		mk up3 "sed -i 1,3d a" &&
		mk fail2 "sed -i \"s/^31\\\$/31q/\" a" &&
		mk fail12 "sed -i -e \"s/^31\\\$/31q/\" -e \"s/^10\\\$/10q/\" a" &&
		mk down20fail2 "{ i=1; while test \$i -le 20; do echo x\$i; i=\$((i + 1)); done; sed \"s/^31\\\$/31q/\" a; } >a.new && mv a.new a"
	)
'

for variant in down5 up3 fail2 fail12 down20fail2
do
	test_expect_success "hunk lines on $variant equal GNU patch --dry-run -F0" '
		(
			cd lines &&
			git checkout -q '$variant' &&
			{ patch -F0 --dry-run -p1 <../lines.diff >../gnu.out; true; } &&
			{ git-maint-dry-apply ../lines.diff >../ours.out; true; }
		) &&
		patch_lines gnu.out >expect &&
		patch_lines ours.out >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'setup: a hunk at line 1, a -U0 hunk, a file with a line prepended' '
	git init -q anchors &&
	(
		cd anchors &&
		i=1 && while test $i -le 20; do echo $i; i=$((i + 1)); done >f &&
		git add f &&
		test_tick &&
		git commit -q -m base &&
		git tag base &&
		sed "s/^4\$/4x/" f >f.new &&
		{ git diff --no-index f f.new || :; } | sed "s,b/f.new,b/f," >../at1.diff &&
		{ git diff --no-index -U0 f f.new || :; } | sed "s,b/f.new,b/f," >../u0.diff &&
		rm f.new &&
		{ echo top && cat f; } >f.new &&
		mv f.new f &&
		test_tick &&
		git commit -q -a -m top &&
		git tag top
	) &&
	grep "^@@ -1,7 +1,7 @@" at1.diff &&
	grep "^@@ -4 +4 @@" u0.diff
'

for d in at1 u0
do
	test_expect_success "$d: without fuzz the verdict is git apply's" '
		(
			cd anchors &&
			if git apply --check ../'$d'.diff 2>/dev/null
			then
				echo ok
			else
				echo failed
			fi >../expect &&
			if test-apply top ../'$d'.diff >/dev/null
			then
				echo ok
			else
				echo failed
			fi >../actual
		) &&
		test_cmp expect actual
	'

	test_expect_success "$d: with --fuzz=1 the lines are GNU patch -F1 lines" '
		(
			cd anchors &&
			cp f f.gnu &&
			{ patch -F1 --dry-run f.gnu <../'$d'.diff >../gnu.out; true; } &&
			rm f.gnu &&
			{ git-maint-dry-apply --fuzz=1 --onto top ../'$d'.diff >../ours.out; true; }
		) &&
		grep "^Hunk" gnu.out >expect &&
		grep "^Hunk" ours.out >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'dry-apply --fuzz prints GNU patch lines for a mail' '
	(
		cd fuzz &&
		git checkout -q base &&
		sed -e "s/^line 10\$/line 10 changed/" -e "s/^line 30\$/line 30 changed/" \
		    -e "s/^line 50\$/line 50 changed/" f >f.new &&
		mv f.new f &&
		test_tick &&
		git commit -q -a -m "change three lines" &&
		git format-patch -q --stdout -1 >../fuzz.mbox &&
		git checkout -q drifted &&
		cp f f.gnu &&
		patch -F2 --dry-run f.gnu <../fuzz.mbox >../gnu.out &&
		rm f.gnu &&
		git-maint-dry-apply --fuzz=2 ../fuzz.mbox >../ours.out
	) &&
	grep "^Hunk" gnu.out >expect &&
	grep "^Hunk" ours.out >actual &&
	test_cmp expect actual
'

test_done
