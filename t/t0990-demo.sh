#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='make demo (contrib/demo.sh): the maintainer'"'"'s loop end to end, each step checked by its outcome'

. ./test-lib.sh

# The demo's TODO mailbox is generated deterministically: these are its
# patches for the USB tree, in the order they are queued.
cat >expect-subjects <<\EOF
usb/endpoint: Set release callback in the struct device_type instead of in the device itself directly
usb: convert USB_QUIRK_RESET_MORPHS to USB_QUIRK_RESET
usb: gadget: cmd738: convert to platform remove callback returning void
USB: serial: rqs: fix use-after-free at disconnect
USB: serial: work_lib: add device id for a new adapter
USB: serial: rqs: drop redundant error message
EOF

# server_gone <pid>: the process is gone (bounded wait: it may be exiting).
server_gone () {
	i=0
	while kill -0 "$1" 2>/dev/null
	do
		test $i -lt 50 || return 1
		sleep 0.1
		i=$((i + 1))
	done
}

test_expect_success 'the demo runs to the end (exit 0)' '
	DEMO_DIR="$PWD/demo" sh "$MAINT_SRC_DIR/contrib/demo.sh" >out 2>&1 &&
	grep "^Done\. " out
'

test_expect_success 'every server it started is stopped' '
	test_line_count = 2 demo/server-pids &&
	for pid in $(cat demo/server-pids)
	do
		server_gone $pid || return 1
	done
'

test_expect_success 'mbox-split: the USB threads in s, the two series in s1 and s2' '
	git maint-mbox-split --format="%S" --patches-only demo/s1 demo/s2 >actual &&
	test_cmp expect-subjects actual &&
	git maint-mbox-split --format="%S" demo/s >all &&
	grep "RTL8157" all &&
	! grep -e "ext4" -e "drm/i915" -e "net: desc-port" all
'

test_expect_success 'dry-apply: s1 fails on work-linus at hunk 2 of sysfs.c, applies to work-next' '
	sed -n "/^\$ git maint-dry-apply --onto work-linus \.\.\/s1\$/,/^(exit 1)\$/p" out >dry &&
	grep "^Hunk #2 FAILED at [0-9]*\.\$" dry &&
	grep "^work-linus: 1 of 2 patches apply; patch 2/2 is the first that does not\$" dry &&
	grep "^The series applies to: work-next\$" out
'

test_expect_success 'queue: six commits on work-next from the mails, checked, signed off, linked, built' '
	(
		cd demo/repo &&
		test "$(git log -1 --format=%s work-next~6)" = \
			"usb: hcd: use *resource_size_t* for specifying resource data" &&
		git log --reverse --format=%s work-next~6..work-next >../../actual &&
		git log --format="%(trailers:key=Signed-off-by,valueonly)" work-next~6..work-next |
			grep -c "^Greg Kroah-Hartman <gregkh@linuxfoundation.org>\$" >../../sob &&
		git log --format="%(trailers:key=Link)" work-next~6..work-next |
			grep -c "^Link: https://lore.kernel.org/r/" >../../link &&
		git log --notes=maint --format=%N work-next~6..work-next | grep -c "^Message-ID: <" >../../notes
	) &&
	test_cmp expect-subjects actual &&
	echo 6 >expect &&
	test_cmp expect sob &&
	test_cmp expect link &&
	test_cmp expect notes &&
	test "$(grep -c "^checkpatch: patch [0-9]: total: 0 errors, 0 warnings\$" out)" = 6 &&
	test "$(grep -c "^build: work-next ok\$" out)" = 2
'

test_expect_success 'work-linus is untouched, the work tree clean, HEAD still on work-next' '
	(
		cd demo/repo &&
		test "$(git rev-parse work-linus)" = "$(git rev-parse usb-linus)" &&
		test "$(git symbolic-ref HEAD)" = refs/heads/work-next &&
		git status --porcelain >../../status
	) &&
	test_must_be_empty status
'

test_expect_success 'publish: usb-next moved to work-next here, on the git daemon and on the backup' '
	tip=$(git -C demo/repo rev-parse work-next) &&
	test "$(git -C demo/repo rev-parse usb-next)" = "$tip" &&
	test "$(git -C demo/srv/origin.git rev-parse usb-next)" = "$tip" &&
	test "$(git -C demo/backup.git rev-parse usb-next)" = "$tip" &&
	test "$(git -C demo/repo rev-parse refs/remotes/origin/usb-next)" = "$tip" &&
	git -C demo/repo config remote.origin.url >url &&
	grep "^git://127\.0\.0\.1:[0-9]*/origin\.git\$" url
'

test_expect_success 'notify: six mails received, each to its author, in reply to its patch, none twice' '
	ls demo/smtp-spool | grep -c "\.eml\$" >count &&
	echo 7 >expect &&
	test_cmp expect count &&
	rm demo/smtp-spool/0007.env &&
	mv demo/smtp-spool/0007.eml pull.eml &&
	cat >expect <<-\EOF &&
	tianyu.lan@intel.com
	tianyu.lan@intel.com
	u.kleine-koenig@pengutronix.de
	johan@kernel.org
	johan@kernel.org
	johan@kernel.org
	EOF
	for f in demo/smtp-spool/*.env
	do
		sed -n "2s/^RCPT TO:<\(.*\)>\$/\1/p" "$f" || return 1
	done >actual &&
	test_cmp expect actual &&
	grep -h "^RCPT TO:" demo/smtp-spool/*.env | sort -u >rcpt &&
	grep "<linux-usb@vger.kernel.org>" rcpt &&
	! grep "gregkh@" rcpt &&
	git maint-mbox-split --format="<%m>" --patches-only demo/s1 demo/s2 >expect &&
	for f in demo/smtp-spool/*.eml
	do
		tr -d "\r" <"$f" | sed -n "/^\$/q;s/^In-Reply-To: //p" || return 1
	done >actual &&
	test_cmp expect actual &&
	for f in demo/smtp-spool/*.eml
	do
		tr -d "\r" <"$f" | sed -n "/^\$/q;s/^Message-ID: //p" || return 1
	done | sort | uniq -d >dups &&
	test_must_be_empty dups &&
	# and the pull request'"'"'s, on its tag
	test "$(git -C demo/repo notes --ref=maint-notify list | wc -l)" = 7
'

test_expect_success 'request-pull: usb-next asked for once, the tag on origin, the text of git request-pull' '
	test "$(git -C demo/srv/origin.git rev-parse refs/tags/usb-6.2-rc1)" = \
		"$(git -C demo/repo rev-parse refs/tags/usb-6.2-rc1)" &&
	tr -d "\r" <pull.eml >mail &&
	grep "^Subject: \[GIT PULL\] USB changes for 6.2-rc1\$" mail &&
	grep "^To: Linus Torvalds <torvalds@example.org>\$" mail &&
	sed -n "/^The following changes since commit/,\$p" mail >actual &&
	# the daemon is gone: git request-pull asks the bare repository it
	# served; master was the first parent of the demo'"'"'s later merge
	url=$(git -C demo/repo config remote.origin.url) &&
	srv="$PWD/demo/srv/origin.git" &&
	(cd demo/repo && COLUMNS=80 git request-pull v6.2-rc1^1 "$srv" usb-6.2-rc1) >oracle &&
	sed "s|$srv|$url|" oracle >expect &&
	test_cmp expect actual
'

test_expect_success 'describe-contains on the demo release tags answers as git describe --contains' '
	(
		cd demo/repo &&
		# Linus'"'"'s tags: the pull request'"'"'s usb-6.2-rc1 on usb-next is nearer
		git maint-describe-contains --match "v*" usb-next~5 >../../actual &&
		git describe --contains --match "v*" usb-next~5 >../../expect
	) &&
	test_cmp expect actual &&
	grep "^v6.2-rc1^2~5\$" actual
'

test_expect_success 'the mails received are shown as a mail reader shows them: whole subjects, names decoded' '
	grep "^Subject: Re: \[PATCH 1/2\] usb/endpoint: Set release callback in the struct device_type instead of in the device itself directly\$" out &&
	grep "^To: Uwe Kleine-König <u.kleine-koenig@pengutronix.de>\$" out &&
	! grep "=?UTF-8?" out
'

test_expect_success 'the end says where everything is and how to try the commands there' '
	sed -n "/^Done\. /,\$p" out >end &&
	cat >expect <<-EOF &&
	Done. The tree is in $PWD/demo/repo, the mailboxes and the mails received in $PWD/demo.
	To try the README'"'"'s tour yourself, in a fresh copy of the tree (its remotes are
	bare repositories beside it, its mails are filed in $PWD/demo/tour/sent):
	    export PATH="$MAINT_BUILD_DIR/bin:\$PATH"; cd "$PWD/demo/tour/repo"
	EOF
	test_cmp expect end
'

test_expect_success 'the README'"'"'s tour, as written, works where the demo says to try it' '
	sed -n "/^A short tour/,/^Wherever/s/^    \(git maint-[^#]*\)#.*/\1/p" "$MAINT_SRC_DIR/README" >tour &&
	test_line_count = 8 tour &&
	(
		cd demo/tour/repo &&
		while read -r cmd
		do
			echo "\$ $cmd" &&
			eval "$cmd" </dev/null || { echo "tour: $cmd: exit $?"; exit 1; }
		done <../../../tour
	) >tour.out 2>&1 &&
	# one hunk fails: series 2 on work-linus (made on usb-next); none for patches already applied
	test "$(grep -c "^Hunk #[0-9]* FAILED" tour.out)" = 1 &&
	grep "^Series 2 applies to: work-next\$" tour.out &&
	grep "^usb-next: fast-forward [0-9a-f]*\.\.[0-9a-f]* (2 commits)\$" tour.out &&
	test "$(git -C demo/tour/repo rev-parse usb-next)" = "$(git -C demo/tour/origin.git rev-parse usb-next)" &&
	test "$(git -C demo/tour/repo rev-parse usb-next)" = "$(git -C demo/tour/backup.git rev-parse usb-next)" &&
	ls demo/tour/sent >sent &&
	test_line_count = 3 sent &&
	grep "^To: Lan Tianyu <tianyu.lan@intel.com>" demo/tour/sent/0001.eml &&
	# the pull request: the tag on origin, one mail to the tour'"'"'s upstream
	test "$(git -C demo/tour/origin.git rev-parse usb-6.2-rc1^{commit})" = "$(git -C demo/tour/repo rev-parse usb-next)" &&
	grep "^Subject: \[GIT PULL\] USB for 6.2-rc1\$" demo/tour/sent/0003.eml &&
	tail -n 1 tour.out >last &&
	echo v6.1 >expect &&
	test_cmp expect last
'

# (by hand the demo uses the programs in .build, not the sanitizer build under test)
test_expect_success !SANITIZE 'sh contrib/demo.sh by hand: what make demo does first (packages, then make), then the demo' '
	mkdir stub &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s/make.args\"\n" "$PWD" >stub/make &&
	chmod +x stub/make &&
	test_expect_code 1 env -u MAINT_BUILD_DIR PATH="$PWD/stub:$PATH" DEMO_DIR="$PWD/notdemo-byhand" \
		sh -c "mkdir notdemo-byhand && sh \"\$1\"" - "$MAINT_SRC_DIR/contrib/demo.sh" >out4 2>err4 &&
	echo "-C $MAINT_SRC_DIR --no-print-directory -j$(nproc) programs" >expect &&
	test_cmp expect make.args &&
	# one line for the build, its output in a file (the packages are all here: no line for them)
	echo "demo: building (make programs; its output: $MAINT_SRC_DIR/.build/demo-make.log)" >expect &&
	test_cmp expect out4 &&
	echo "demo: '"'"'$PWD/notdemo-byhand'"'"' exists and is not a demo directory; remove it or set DEMO_DIR" >expect &&
	test_cmp expect err4
'

test_expect_success 'a step that fails stops the demo (exit 1) and still stops every server' '
	mkdir -p broken/bin &&
	for p in "$MAINT_BUILD_DIR"/bin/git-maint-*
	do
		ln -s "$p" broken/bin/ || return 1
	done &&
	rm broken/bin/git-maint-publish &&
	printf "#!/bin/sh\necho \"fatal: broken on purpose\" >&2\nexit 128\n" >broken/bin/git-maint-publish &&
	chmod +x broken/bin/git-maint-publish &&
	test_expect_code 1 env DEMO_DIR="$PWD/demo2" MAINT_BUILD_DIR="$PWD/broken" \
		sh "$MAINT_SRC_DIR/contrib/demo.sh" >out2 2>err2 &&
	grep "^demo: step .What publishing would do (the article.s do.sh, as a plan). exited 128, expected 0\$" err2 &&
	test_line_count = 2 demo2/server-pids &&
	for pid in $(cat demo2/server-pids)
	do
		server_gone $pid || return 1
	done
'

test_expect_success 'an existing directory that is not a demo is refused and left alone' '
	mkdir notdemo &&
	echo precious >notdemo/file &&
	test_expect_code 1 env DEMO_DIR="$PWD/notdemo" sh "$MAINT_SRC_DIR/contrib/demo.sh" >out3 2>err3 &&
	echo "demo: '"'"'$PWD/notdemo'"'"' exists and is not a demo directory; remove it or set DEMO_DIR" >expect &&
	test_cmp expect err3 &&
	test_must_be_empty out3 &&
	echo precious >expect &&
	test_cmp expect notdemo/file &&
	ls notdemo >actual &&
	echo file >expect &&
	test_cmp expect actual
'

test_done
