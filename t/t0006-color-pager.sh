#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
test_description='colour and the pager, as git has them

The dry-apply report (FAILED lines red), its range-diff and the
mbox-split listing are coloured on a terminal and never into a pipe
(color.ui, color.maint-<cmd>, color.maint-<cmd>.<slot>, --color[=<when>]),
and paged on a terminal (GIT_PAGER, core.pager, PAGER, pager.maint-<cmd>,
LESS=FRX), as git colours and pages. The terminal is a real
pseudo-terminal (t/lib/pty-run.py); the pager a script that records
what it was given.'
. ./test-lib.sh
. "$MAINT_TEST_DIR/lib-threads.sh"
. "$MAINT_TEST_DIR/lib-reviews.sh"

# on_pty <command>...: the command on a terminal (a vt100, not sharness's
# dumb one, unless TERM is given); what it showed there on stdout (python
# without the site module: pty-run.py needs the standard library only).
on_pty () {
	TERM=${PTY_TERM:-vt100} /usr/bin/python3 -S "$MAINT_TEST_DIR/lib/pty-run.py" -- "$@"
}

ESC=$(printf "\033")
RED="${ESC}[31m"
GREEN="${ESC}[32m"
BOLD="${ESC}[1m"
YELLOW="${ESC}[33m"
RESET="${ESC}[m"
# the pager, as git runs it: a shell command (the trash directory's name has a space)
RECORD_PAGER="\"$HOME/record-pager\""

test_expect_success 'setup: a pager that records, a patch that applies to base and fails on work-next' '
	cat >record-pager <<-\EOF &&
	#!/bin/sh
	cat >"$HOME/paged"
	echo "LESS=$LESS LV=$LV" >"$HOME/pager-env"
	EOF
	chmod +x record-pager &&
	git init -q r &&
	(
		cd r &&
		printf "one\ntwo\nthree\n" >f &&
		git add f &&
		test_commit base &&
		git branch usb-next &&
		git checkout -q -b work-next &&
		printf "one\nTWO\nthree\n" >f &&
		git commit -q -a -m "work: change two" &&
		git checkout -q usb-next &&
		printf "one\ntwo\n3\n" >f &&
		git commit -q -a -m "usb: change three" &&
		git format-patch -q -1 --stdout >../change.mbox &&
		git checkout -q --detach base
	)
'

test_expect_success 'into a pipe: no colour, no pager' '
	(cd r && GIT_PAGER="$RECORD_PAGER" \
		git maint-dry-apply --onto work-next --onto base ../change.mbox >../plain) &&
	! grep "$ESC" plain &&
	grep "^Hunk #1 FAILED at 1\.\$" plain &&
	test_path_is_missing paged
'

test_expect_success 'on a terminal: FAILED lines red, the applying target green, each patch bold' '
	(cd r && GIT_PAGER=cat on_pty git maint-dry-apply --onto work-next --onto base ../change.mbox) >tty &&
	grep -xF "${RED}Hunk #1 FAILED at 1.${RESET}" tty &&
	grep -xF "${RED}1 out of 1 hunk FAILED${RESET}" tty &&
	grep -xF "${RED}work-next: the patch does not apply${RESET}" tty &&
	grep -xF "${GREEN}base: the patch applies${RESET}" tty &&
	grep -xF "${BOLD}Patch 1/1: usb: change three${RESET}" tty &&
	grep "^checking file f\$" tty &&
	sed "s/${ESC}\[[0-9;]*m//g" tty >uncoloured &&
	test_cmp plain uncoloured
'

test_expect_success 'several series: each heading bold, the verdicts green or red' '
	(
		cd r &&
		git checkout -q -b other base &&
		echo g >g &&
		git add g &&
		git commit -q -m "usb: add g" &&
		git format-patch -q -1 --stdout >../other.mbox &&
		git checkout -q --detach base
	) &&
	cat change.mbox other.mbox >two.mbox &&
	(cd r && test_expect_code 1 git maint-dry-apply --color --onto work-next ../two.mbox) >pipe &&
	grep -xF "${BOLD}Series 1/2: usb: change three (v1, 1 patch)${RESET}" pipe &&
	grep -xF "${RED}Series 1 applies to none of the targets${RESET}" pipe &&
	grep -xF "${GREEN}Series 2 applies to: work-next${RESET}" pipe &&
	grep -xF "Verdicts, series by series:" pipe &&
	grep -xF "${RED}  1: none: usb: change three${RESET}" pipe &&
	grep -xF "${GREEN}  2: work-next: usb: add g${RESET}" pipe
'

test_expect_success 'color.ui=never and color.maint-dry-apply=false turn it off; --color turns it on' '
	git -C r config color.ui never &&
	(cd r && GIT_PAGER=cat on_pty git maint-dry-apply --onto base ../change.mbox) >tty &&
	! grep "$ESC" tty &&
	(cd r && GIT_PAGER=cat on_pty git maint-dry-apply --color=auto --onto base ../change.mbox) >tty &&
	grep "$ESC" tty &&
	git -C r config color.ui auto &&
	git -C r config color.maint-dry-apply false &&
	(cd r && GIT_PAGER=cat on_pty git maint-dry-apply --onto base ../change.mbox) >tty &&
	! grep "$ESC" tty &&
	git -C r config --unset color.maint-dry-apply &&
	git -C r config --unset color.ui &&
	(cd r && git maint-dry-apply --color --onto base ../change.mbox) >pipe &&
	grep -xF "${GREEN}base: the patch applies${RESET}" pipe &&
	git -C r config color.ui always &&
	(cd r && git maint-dry-apply --onto base ../change.mbox) >pipe &&
	git -C r config --unset color.ui &&
	grep "$ESC" pipe &&
	(cd r && GIT_PAGER=cat on_pty git maint-dry-apply --no-color --onto base ../change.mbox) >tty &&
	! grep "$ESC" tty &&
	(cd r && PTY_TERM=dumb GIT_PAGER=cat on_pty git maint-dry-apply --onto base ../change.mbox) >tty &&
	! grep "$ESC" tty
'

test_expect_success 'git -c color.ui=... for one command wins over the repository'"'"'s config' '
	git -C r config color.ui never &&
	(cd r && git -c color.ui=always maint-dry-apply --onto base ../change.mbox) >pipe &&
	grep -xF "${GREEN}base: the patch applies${RESET}" pipe &&
	git -C r config color.ui always &&
	(cd r && GIT_PAGER=cat on_pty git -c color.maint-dry-apply=never maint-dry-apply --onto base ../change.mbox) >tty &&
	git -C r config --unset color.ui &&
	! grep "$ESC" tty &&
	grep "base: the patch applies" tty
'

test_expect_success 'a slot is set as git sets colours: color.maint-dry-apply.failed' '
	git -C r config color.maint-dry-apply.failed "yellow reverse" &&
	(cd r && test_expect_code 1 git maint-dry-apply --color --onto work-next ../change.mbox) >pipe &&
	grep -xF "${ESC}[7;33mHunk #1 FAILED at 1.${RESET}" pipe &&
	git -C r config color.maint-dry-apply.failed blurple &&
	(cd r && test_expect_code 1 git maint-dry-apply --color --onto work-next ../change.mbox >../pipe 2>../err) &&
	git -C r config --unset color.maint-dry-apply.failed &&
	grep "^error: invalid color value .blurple. for .color.maint-dry-apply.failed." err &&
	grep -F "${RED}Hunk #1 FAILED" pipe
'

test_expect_success 'git config --get-color is the oracle for what a colour value writes' '
	# (each value, then what it writes: one test_cmp for them all)
	: >expect &&
	: >actual &&
	for v in "red" "yellow reverse" "bold red ul" "brightblue" "#ff0000 bold ul" "208" "12" \
		"green black" "no-bold" "default" "dim italic strike blink" "normal" "-1 red"
	do
		echo "value: $v" >>expect &&
		git config --get-color "" "$v" >>expect &&
		echo >>expect &&
		git -C r config color.maint-dry-apply.applies "$v" &&
		(cd r && git maint-dry-apply --color --onto base ../change.mbox) >pipe &&
		echo "value: $v" >>actual &&
		sed -n "s/base: the patch applies.*//p" pipe >>actual || return 1
	done &&
	test_cmp expect actual &&
	git -C r config --unset color.maint-dry-apply.applies
'

test_expect_success 'a bad --color value is a usage error' '
	(cd r && test_expect_code 129 git maint-dry-apply --color=sometimes ../change.mbox 2>../err) &&
	head -n 1 err >first &&
	echo "error: option '\''--color'\'' expects \"always\", \"auto\", or \"never\", not '\''sometimes'\''" >expect &&
	test_cmp expect first
'

test_expect_success 'the pager: on a terminal the report goes to it, with LESS=FRX, in colour' '
	rm -f paged pager-env &&
	(cd r && GIT_PAGER="$RECORD_PAGER" on_pty git maint-dry-apply --onto work-next --onto base ../change.mbox) >tty &&
	! grep "Hunk" tty &&
	grep -xF "${RED}Hunk #1 FAILED at 1.${RESET}" paged &&
	echo "LESS=FRX LV=-c" >expect &&
	test_cmp expect pager-env
'

test_expect_success 'the pager: a LESS of the user is kept; core.pager, PAGER, pager.maint-dry-apply' '
	rm -f paged pager-env &&
	(cd r && LESS=-R GIT_PAGER="$RECORD_PAGER" on_pty git maint-dry-apply --onto base ../change.mbox) >tty &&
	echo "LESS=-R LV=-c" >expect &&
	test_cmp expect pager-env &&
	rm -f paged &&
	(cd r && unset GIT_PAGER && PAGER="$RECORD_PAGER" on_pty git maint-dry-apply --onto base ../change.mbox) &&
	grep "base: the patch applies" paged &&
	rm -f paged &&
	git -C r config core.pager "$RECORD_PAGER" &&
	(cd r && unset GIT_PAGER && PAGER=cat on_pty git maint-dry-apply --onto base ../change.mbox) &&
	git -C r config --unset core.pager &&
	grep "base: the patch applies" paged &&
	rm -f paged &&
	git -C r config pager.maint-dry-apply false &&
	(cd r && GIT_PAGER="$RECORD_PAGER" on_pty git maint-dry-apply --onto base ../change.mbox) >tty &&
	test_path_is_missing paged &&
	grep "base: the patch applies" tty &&
	git -C r config pager.maint-dry-apply "$RECORD_PAGER" &&
	(cd r && GIT_PAGER=cat on_pty git maint-dry-apply --onto base ../change.mbox) &&
	git -C r config --unset pager.maint-dry-apply &&
	grep "base: the patch applies" paged &&
	rm -f paged &&
	(cd r && GIT_PAGER="$RECORD_PAGER" on_pty git maint-dry-apply --porcelain --onto base ../change.mbox) &&
	test_path_is_missing paged
'

test_expect_success 'the pager: an error reaches the terminal through it, still fatal' '
	rm -f paged &&
	(cd r && GIT_PAGER="$RECORD_PAGER" test_expect_code 128 on_pty \
		git maint-dry-apply --onto base ../change.mbox "$HOME/nosuch") >tty &&
	grep "^fatal: cannot open .*nosuch" paged &&
	! grep "nosuch" tty
'

test_expect_success 'mbox-split --list: coloured on a terminal (%C as in git log), plain into a pipe' '
	git maint-mbox-split --list change.mbox >plain &&
	! grep "$ESC" plain &&
	GIT_PAGER=cat on_pty git maint-mbox-split --list change.mbox >tty &&
	grep -F "${ESC}[33m1${RESET}	" tty &&
	GIT_PAGER=cat on_pty git maint-mbox-split --format="%C(red)%s%Creset %C(bold blue)%an%Creset" change.mbox >tty &&
	echo "${RED}[PATCH] usb: change three${RESET} ${ESC}[1;34mA U Thor${RESET}" >expect &&
	test_cmp expect tty &&
	git maint-mbox-split --format="%C(red)%s%Creset|%C(always,green)x" change.mbox >pipe &&
	echo "[PATCH] usb: change three|${GREEN}x" >expect &&
	test_cmp expect pipe &&
	test_expect_code 129 git maint-mbox-split --format="%C(blurple)%s" change.mbox 2>err &&
	grep "unknown placeholder" err
'

test_expect_success 'mbox-split --list: paged on a terminal' '
	rm -f paged &&
	GIT_PAGER="$RECORD_PAGER" on_pty git maint-mbox-split --list change.mbox >tty &&
	grep "usb: change three" paged &&
	! grep "usb: change three" tty
'

test_expect_success 'publish --dry-run: the plan paged and coloured on a terminal (heading bold, commit ids yellow), plain into a pipe' '
	git init -q --bare o.git &&
	git -C r remote add origin ../o.git &&
	git -C r branch usb-fix usb-next &&
	git -C r checkout -q -b work-fix usb-next &&
	echo fixed >r/g &&
	git -C r add g &&
	git -C r commit -q -m "usb: fix one" &&
	(cd r && git maint-publish -n work-fix) >pipe &&
	! grep "$ESC" pipe &&
	grep "^Would publish '"'"'work-fix'"'"' to '"'"'usb-fix'"'"'\$" pipe &&
	id=$(git -C r rev-parse --short work-fix) &&
	rm -f "$HOME/paged" &&
	(cd r && GIT_PAGER="$RECORD_PAGER" on_pty git maint-publish -n work-fix) >tty &&
	grep -xF "${BOLD}Would publish '"'"'work-fix'"'"' to '"'"'usb-fix'"'"'${RESET}" paged &&
	grep -xF "${YELLOW}  $id${RESET} usb: fix one" paged &&
	sed "s/$ESC\[[0-9;]*m//g" paged >uncoloured &&
	test_cmp pipe uncoloured &&
	(cd r && GIT_PAGER=cat on_pty git -c color.maint-publish.commit=blue -c pager.maint-publish=false maint-publish -n work-fix) >tty &&
	grep -F "${ESC}[34m  $id${RESET} usb: fix one" tty &&
	(cd r && GIT_PAGER=cat on_pty git maint-publish --no-color -n work-fix) >tty &&
	! grep "$ESC" tty &&
	(cd r && git maint-publish --color -n work-fix) >pipe &&
	grep -xF "${BOLD}Would publish '"'"'work-fix'"'"' to '"'"'usb-fix'"'"'${RESET}" pipe &&
	git -C r checkout -q --detach base
'

	git -C r checkout -q --detach base
test_expect_success 'notify'"'"'s dry run: the mails paged on a terminal, not with --send, not into a pipe' '
	git -C r branch queued base &&
	git -C r maint-queue -q queued ../change.mbox &&
	(cd r && git maint-notify queued~1..queued) >pipe &&
	grep "^Subject: Re: \[PATCH\] usb: change three" pipe &&
	rm -f paged &&
	(cd r && GIT_PAGER="$RECORD_PAGER" on_pty git maint-notify queued~1..queued) >tty &&
	test_cmp pipe paged &&
	! grep "^Subject:" tty &&
	rm -f paged &&
	(cd r && GIT_PAGER="$RECORD_PAGER" on_pty git -c pager.maint-notify=false maint-notify queued~1..queued) >tty &&
	test_path_is_missing paged &&
	grep "^Subject: Re: \[PATCH\] usb: change three" tty
'

test_expect_success 'setup: two versions of a series' '
	mkdir reviews &&
	(cd reviews && reviews_setup)
'

test_expect_success 'the range-diff: its pairs coloured as git range-diff --no-dual-color colours them' '
	(
		cd reviews &&
		git range-diff --no-dual-color --color=always base..v1 base..v2 >../git-range &&
		git maint-dry-apply --color --range-diff reviews-v2.mbox >../ours &&
		git maint-dry-apply --range-diff reviews-v2.mbox >../plain
	) &&
	! grep "$ESC" plain &&
	sed "s/${ESC}\[[0-9;]*m//g" ours >uncoloured &&
	test_cmp plain uncoloured &&
	grep "^${ESC}\[3[123]m[-0-9]*:  " git-range >expect &&
	grep "^${ESC}\[3[123]m[-0-9]*:  " ours >actual &&
	test_line_count = 5 expect &&
	test_cmp expect actual &&
	grep -F "    ${GREEN}+" ours &&
	grep -F "    ${RED}-" ours
'

test_done
