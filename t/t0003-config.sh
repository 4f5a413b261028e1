#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='settings where git users keep them: maint.* in git'"'"'s config (read through libgit2, and without it by mbox-split and the fetcher), maint.ini with values of any length and bare keys, one precedence, warnings for misplaced keys, b4'"'"'s keys'

. ./test-lib.sh

# every known key: "<section> <1 if it needs a name> <key> <type> <choices>"
sed -n 's/^	{ "\([a-z]*\)", \([01]\), "\([a-z0-9-]*\)", \(KEY_[A-Z_]*\)\(, "\([^"]*\)"\)\{0,1\} },$/\1 \2 \3 \4 \6/p' \
	"$MAINT_SRC_DIR/common/base/config.c" >keys

# both loaders, what mbox-split and the fetcher read (no libgit2) and
# what the others read: the same output, errors and exit code (returned)
# (in both.files/ and both.libgit2/: one diff -r compares the outputs and the errors)
mkdir -p "$TRASH_DIRECTORY/both.files" "$TRASH_DIRECTORY/both.libgit2"
both () {
	test-config files "$@" >"$TRASH_DIRECTORY/both.files/out" 2>"$TRASH_DIRECTORY/both.files/err"
	rc=$?
	test-config libgit2 "$@" >"$TRASH_DIRECTORY/both.libgit2/out" 2>"$TRASH_DIRECTORY/both.libgit2/err"
	test $? = $rc &&
	diff -r -u "$TRASH_DIRECTORY/both.files" "$TRASH_DIRECTORY/both.libgit2" &&
	cat "$TRASH_DIRECTORY/both.files/out" &&
	return $rc
}

test_expect_success 'setup: a repository' '
	git init -q repo &&
	test_line_count -gt 40 keys
'

test_expect_success 'every key of maint.ini can be set with git config, as maint.<section>[.<name>].<key>' '
	cp repo/.git/config config.before &&
	while read section named key type choices
	do
		case $type in
		KEY_BOOL) value=true ;;
		KEY_INT) value=7 ;;
		KEY_ENUM) value=${choices%%|*} ;;
		*) value="v-$key %s" ;;
		esac &&
		case $key in
		3way) gkey=threeWay ;;	# a git name starts with a letter: as am.threeWay
		*) gkey=$key ;;
		esac &&
		if test "$named" = 1
		then
			name=maint.$section.usb.$gkey sub=usb
		else
			name=maint.$section.$gkey sub=
		fi &&
		git -C repo config "$name" "$value" &&
		printf "%s\t%s\t%s\n" "$section" "$sub" "$key" &&
		printf "%s\t%s\n" "$value" "$name" >&9 || return 1
	done <keys >asked 9>set &&
	# every key read back by both loaders, each in one run; named as
	# git lists it: section and key lower-cased
	(cd repo && both get-each ../asked) >actual &&
	awk -F "\t" -v q="'"'"'" "{ print \$1 \"\tgit config \" q tolower(\$2) q }" set >expect &&
	test_cmp expect actual &&
	test_line_count -gt 40 actual &&
	cp config.before repo/.git/config
'

test_expect_success 'the precedence: global git config < ~/.config/git-maint/config < the repository'"'"'s git config < maint.ini' '
	mkdir -p .config/git-maint &&
	git config --global maint.queue.fuzz 1 &&
	(cd repo && both get queue "" fuzz) >actual &&
	printf "[queue]\n\tfuzz = 2\n" >.config/git-maint/config &&
	(cd repo && both get queue "" fuzz) >>actual &&
	git -C repo config maint.queue.fuzz 3 &&
	(cd repo && both get queue "" fuzz) >>actual &&
	printf "[queue]\n\tfuzz = 4\n" >repo/.git/maint.ini &&
	(cd repo && both get queue "" fuzz) >>actual &&
	cat >expect <<-EOF &&
	1	git config '"'"'maint.queue.fuzz'"'"'
	2	$HOME/.config/git-maint/config:2
	3	git config '"'"'maint.queue.fuzz'"'"'
	4	$PWD/repo/.git/maint.ini:2
	EOF
	test_cmp expect actual &&
	rm repo/.git/maint.ini .config/git-maint/config &&
	git -C repo config --unset maint.queue.fuzz &&
	git config --global --unset maint.queue.fuzz
'

# git-params: what git -c gives the programs it runs, in $GIT_CONFIG_PARAMETERS
printf '#!/bin/sh\nprintf "%%s" "$GIT_CONFIG_PARAMETERS"\n' >git-params &&
chmod +x git-params
PATH=$PWD:$PATH

test_expect_success 'git -c maint.*: for one command, over every file (maint.ini too), both readers' '
	git -C repo config maint.queue.fuzz 3 &&
	printf "[queue]\n\tfuzz = 4\n" >repo/.git/maint.ini &&
	(cd repo &&
	 GIT_CONFIG_PARAMETERS=$(git -c maint.queue.fuzz=5 params) both get queue "" fuzz &&
	 GIT_CONFIG_PARAMETERS=$(git -c Maint.Queue.Fuzz=6 params) both get queue "" fuzz &&
	 GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=maint.queue.fuzz GIT_CONFIG_VALUE_0=7 both get queue "" fuzz &&
	 GIT_CONFIG_PARAMETERS=$(git -c maint.queue.fuzz=8 -c maint.queue.fuzz=9 params) both get queue "" fuzz) >actual &&
	cat >expect <<-EOF &&
	5	git -c '"'"'maint.queue.fuzz'"'"'
	6	git -c '"'"'maint.Queue.fuzz'"'"'
	7	git -c '"'"'maint.queue.fuzz'"'"'
	9	git -c '"'"'maint.queue.fuzz'"'"'
	EOF
	test_cmp expect actual &&
	(cd repo && GIT_CONFIG_PARAMETERS=$(git -c maint.queue.fuzz=many params) &&
	 GIT_CONFIG_PARAMETERS=$GIT_CONFIG_PARAMETERS test_expect_code 128 both get queue "" fuzz) &&
	grep "^fatal: git -c '"'"'maint.queue.fuzz'"'"': bad value '"'"'many'"'"'" both.files/err &&
	rm repo/.git/maint.ini &&
	git -C repo config --unset maint.queue.fuzz
'

test_expect_success 'git -c: the variables both readers list are those git config --list lists, last' '
	git -C repo config sendemail.smtpServer file.example.org &&
	set -- -c sendemail.smtpServer=cmd.example.org -c "Maint.Tree.USB.Public=it'"'"'s \"q\" = x" \
		-c bare.key -c empty.key= -c "maint.notify.cc=a@example.org, b@example.org" &&
	(cd repo && git "$@" config --list --includes) >expect &&
	(cd repo && GIT_CONFIG_PARAMETERS=$(git "$@" params) both git) >actual &&
	test_cmp expect actual &&
	(cd repo && GIT_CONFIG_PARAMETERS=$(git "$@" params) both get tree USB public) >actual &&
	printf "it'"'"'s \"q\" = x\tgit -c '"'"'maint.Tree.USB.public'"'"'\n" >expect &&
	test_cmp expect actual &&
	git -C repo config --unset sendemail.smtpServer
'

test_expect_success 'git -c: the old form of GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT before it, as git reads them' '
	(
		export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=a.Count GIT_CONFIG_VALUE_0=0 \
			GIT_CONFIG_KEY_1=b.c GIT_CONFIG_VALUE_1= &&
		GIT_CONFIG_PARAMETERS="'"'"'a.b=c=d'"'"' '"'"'x.y'"'"'=  '"'"'p.q'"'"'\'"'"''"'"'r.s'"'"'='"'"'s'"'"'\!'"'"''"'"'" &&
		export GIT_CONFIG_PARAMETERS &&
		cd repo &&
		git config --list --includes >../expect &&
		both git >../actual
	) &&
	test_cmp expect actual &&
	grep "^p.q'"'"'r.s=s!\$" actual
'

test_expect_success 'git -c: what git refuses, refused with git'"'"'s words' '
	for params in bogus "'"'"'foo'"'"'='"'"'v'"'"'" "'"'"'foo.'"'"'='"'"'v'"'"'" "'"'"'a.1b'"'"'='"'"'v'"'"'" \
		"'"'"'a.b_c=v'"'"'" "'"'"'a.b'"'"'=v" "'"'"'a.b'"'"'='"'"'v" "'"'"'=v'"'"'"
	do
		(cd repo && GIT_CONFIG_PARAMETERS=$params test_expect_code 128 git config --list 2>../expect >/dev/null) &&
		(cd repo && GIT_CONFIG_PARAMETERS=$params test_expect_code 128 both git >/dev/null) &&
		test_cmp expect both.files/err || return 1
	done &&
	for env in "GIT_CONFIG_COUNT=x" "GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=a.b GIT_CONFIG_VALUE_0=x" \
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=a.b"
	do
		(cd repo && env $env git config --list 2>../expect >/dev/null; test $? = 128) &&
		(cd repo && export $env && both git >/dev/null; test $? = 128) &&
		test_cmp expect both.files/err || return 1
	done
'

test_expect_success 'end to end: git -c maint.mbox.max-message-size reaches mbox-split (no libgit2)' '
	{
		printf "From x Mon Sep 17 00:00:00 2001\nMessage-ID: <s1@example.com>\nSubject: small\n\nhi\n\n" &&
		printf "From x Mon Sep 17 00:00:00 2001\nMessage-ID: <s2@example.com>\nSubject: big\n\n" &&
		head -c 3000 /dev/zero | tr "\0" x && printf "\n"
	} >sizes-cl &&
	(cd repo && test_expect_code 1 git -c maint.mbox.max-message-size=2000 maint-mbox-split --format=%m ../sizes-cl >../out 2>../err) &&
	echo s1@example.com >expect &&
	test_cmp expect out &&
	grep "message 2 exceeds max size (2000 bytes)" err
'

test_expect_success 'a 300-byte value in maint.ini (a real check command) is read whole' '
	check="./scripts/checkpatch.pl --terse --no-tree --strict --ignore $(printf "X%.0s" $(test_seq 260)) -" &&
	test ${#check} -gt 300 &&
	printf "[tree \"usb\"]\n\tcheck = %s\n\tpublic = usb-next\n" "$check" >repo/.git/maint.ini &&
	(cd repo && both get tree usb check) >actual &&
	printf "%s\t%s:2\n" "$check" "$PWD/repo/.git/maint.ini" >expect &&
	test_cmp expect actual &&
	(cd repo && both get tree usb public) >actual &&
	grep "^usb-next	" actual
'

test_expect_success 'a value with an inline comment and spaces, long or short, reads as inih reads it' '
	long=$(printf "y%.0s" $(test_seq 250)) &&
	printf "[tree \"usb\"]\n\tcheck =   %s   ; a comment\n\tbuild = make -j8 ; comment\n" "$long" >repo/.git/maint.ini &&
	(cd repo && both get tree usb check && both get tree usb build) | cut -f1 >actual &&
	printf "%s\nmake -j8\n" "$long" >expect &&
	test_cmp expect actual
'

test_expect_success 'a line over the bound (1 MiB) is refused naming file:line' '
	{ printf "[tree \"usb\"]\n\tcheck = " && head -c 1048577 /dev/zero | tr "\0" x && echo; } >repo/.git/maint.ini &&
	(cd repo && test_expect_code 128 test-config files get tree usb check 2>../err) &&
	grep "maint.ini:2: line too long (limit 1048576 bytes)" err
'

test_expect_success 'a bare key means true, as in git; a bare key that is not a boolean is an error' '
	printf "[queue]\n\tsignoff\n\t3way ; a comment\n" >repo/.git/maint.ini &&
	# git config writes no bare key: the way a user writes one
	printf "[maint \"queue\"]\n\tsloppy-trailers\n" >>repo/.git/config &&
	(cd repo && both get queue "" signoff && both get queue "" 3way && both get queue "" sloppy-trailers) |
		cut -f1 >actual &&
	printf "true\ntrue\ntrue\n" >expect &&
	test_cmp expect actual &&
	git -C repo config --unset maint.queue.sloppy-trailers &&
	printf "[queue]\n\ttrailers\n" >repo/.git/maint.ini &&
	(cd repo && test_expect_code 128 test-config files get queue "" trailers 2>../err) &&
	grep "maint.ini:2: missing value for .trailers." err &&
	rm repo/.git/maint.ini
'

test_expect_success 'a key git-maint reads under another name gets a warning naming the right one' '
	git -C repo config archive.url https://lore.kernel.org/linux-usb/ &&
	git -C repo config tree.usb.public usb-next &&
	git -C repo config imap.host imap.example.org &&
	(cd repo && test_expect_code 1 both get archive "" url) &&
	cat >expect <<-EOF &&
	warning: '"'"'archive.url'"'"' in git'"'"'s config is not read by git-maint: set '"'"'maint.archive.url'"'"'
	warning: '"'"'tree.usb.public'"'"' in git'"'"'s config is not read by git-maint: set '"'"'maint.tree.usb.public'"'"'
	EOF
	test_cmp expect both.files/err &&
	# mbox-split, which reads git'"'"'s files without libgit2, says the same
	(cd repo && test_expect_code 1 git-maint-mbox-split --format=%s /dev/null 2>../err) &&
	grep -v "no messages found" err >warnings &&
	test_cmp expect warnings &&
	git -C repo config --remove-section archive &&
	git -C repo config --remove-section tree.usb &&
	git -C repo config --remove-section imap
'

test_expect_success 'an unknown or misspelt maint.* key is an error naming it' '
	git -C repo config maint.tree.usb.publik usb-next &&
	(cd repo && test_expect_code 128 test-config files get tree usb public 2>../err) &&
	echo "fatal: git config '"'"'maint.tree.usb.publik'"'"': unknown key" >expect &&
	test_cmp expect err &&
	git -C repo config --unset maint.tree.usb.publik &&
	git -C repo config maint.queue.signoff perhaps &&
	(cd repo && test_expect_code 128 test-config libgit2 get queue "" signoff 2>../err) &&
	grep "git config .maint.queue.signoff.: bad value .perhaps." err &&
	git -C repo config --unset maint.queue.signoff
'

test_expect_success 'include.path and includeIf "gitdir:" hold maint.* for both readers' '
	cat >inc.conf <<-\EOF &&
	[maint "tree.usb"]
		public = usb-next
	EOF
	cat >work.conf <<-\EOF &&
	[maint "queue"]
		signoff = true
	EOF
	git config --global include.path "$PWD/inc.conf" &&
	git config --global "includeIf.gitdir:$PWD/repo/.path" "$PWD/work.conf" &&
	(cd repo && both get tree usb public && both get queue "" signoff) | cut -f1 >actual &&
	printf "usb-next\ntrue\n" >expect &&
	test_cmp expect actual &&
	git init -q elsewhere &&
	(cd elsewhere && test_expect_code 1 both get queue "" signoff) &&
	git config --global --unset include.path &&
	git config --global --unset "includeIf.gitdir:$PWD/repo/.path"
'

test_expect_success 'includeIf "gitdir:" and "onbranch:" patterns match as git matches them ("*" within a component, "**" across)' '
	mkdir -p deep/one/two &&
	git init -q deep/one/two/repo &&
	git -C deep/one/two/repo checkout -q -b topic/sub/x &&
	d=$PWD/deep &&
	i=0 &&
	for cond in "gitdir:$d/*/repo/" "gitdir:$d/*/*/repo/" "gitdir:$d/**/repo/" "gitdir:$d/one/**/two/repo/" \
		"gitdir:$d/one**/repo/" "gitdir:$d/one/t?o/repo/" "gitdir:$d/one/two?repo/" "gitdir:$d/one[/]two/repo/" \
		"gitdir:$d/*" "gitdir:$d/**" "gitdir:one/two/" "gitdir:*/two/repo/.git" "gitdir/i:$d/ONE/*/REPO/" \
		"gitdir:$d/**/two/**" "gitdir:$d/o*/two/repo/" "onbranch:topic/*" "onbranch:topic/**" "onbranch:topic/" \
		"onbranch:topic*" "onbranch:*/x" "onbranch:**/x"
	do
		i=$((i + 1)) &&
		echo "[maint \"tree.t$i\"] public = $cond" >"cond$i.conf" &&
		git config --global --add "includeIf.$cond.path" "$PWD/cond$i.conf" || return 1
	done &&
	(cd deep/one/two/repo && git config --list --includes) >expect &&
	(cd deep/one/two/repo && test-config files git) >actual &&
	test_cmp expect actual &&
	# not everything, not nothing
	grep "^maint.tree.t3.public=" actual &&
	! grep "^maint.tree.t1.public=" actual &&
	! grep "^maint.tree.t19.public=" actual &&
	rm -f .gitconfig
'

test_expect_success 'our reader of git'"'"'s files lists what git config --list lists (quotes, escapes, continuations, old-style sections, includes, includeIf)' '
	cat >tricky.conf <<-\EOF &&
	# a comment
	[Core]
		Editor = "vi  -x" ; trailing comment
		pager = less\
	 -R
	[section.OldStyle]
		key = a\tb\\c\"d
	[branch "Sub.Section \"q\""]
		remote = origin
		bare
	[sendemail]
		smtpServer   =   mail.example.org   # comment
		smtpPass = "p#ss;word "
	[includeIf "onbranch:work*"]
		path = branch.conf
	[includeIf "gitdir/i:**/REPO/"]
		path = icase.conf
	EOF
	echo "[maint \"queue\"] fuzz = 2" >branch.conf &&
	echo "[maint \"queue\"] link = x" >icase.conf &&
	git config --global include.path "$PWD/tricky.conf" &&
	git -C repo checkout -q -b work-next &&
	git -C repo config maint.notify.cc "a@example.org, b@example.org" &&
	(cd repo && git config --list --includes) >expect &&
	(cd repo && test-config files git) >actual &&
	test_cmp expect actual &&
	git config --global --unset include.path
'

test_expect_success 'what git config takes at the edges, our reader takes; what it refuses, refused at the line git names' '
	mkdir edges &&
	printf "[a]\n\tb = x\\\\" >edges/1 &&
	printf "top = 1\n[ \"sub\"]\n\tk = 2\n[.old]\n\tk = 3\n[s]\n\tk = \"q\"\\\\\n  more\\\\" >edges/2 &&
	n=2 &&
	for bad in "[s" "[s]\nk = \"x" "[s]\nk = \"x\\\\" "[s]\nk = x\\\\q" "[s \"x" "[s \"x\"" "[s]\nk x" \
		"[s]\nk = \"a\nb\"" "[s\n]" "[s]\n1k=x" "[s \"x\\\\" "[s\v\"x\"]\nk = 1" "[s \"x\" ]\nk = 1" "[]\nk = 1"
	do
		n=$((n + 1)) &&
		printf "$bad" >edges/$n || return 1
	done &&
	# each file: its name, the output, the exit code, the errors (git
	# quotes the file name in its error, as we do): one cat a side, one
	# test_cmp for them all
	mkdir edges.git edges.ours &&
	for f in $(test_seq $n)
	do
		echo "edges/$f" >edges.git/$f.0 &&
		GIT_CONFIG_GLOBAL=$PWD/edges/$f git config --list >edges.git/$f.1 2>edges.git/$f.3
		echo $? >edges.git/$f.2 &&
		echo "edges/$f" >edges.ours/$f.0 &&
		GIT_CONFIG_GLOBAL=$PWD/edges/$f test-config files git >edges.ours/$f.1 2>edges.ours/$f.3
		echo $? >edges.ours/$f.2 || return 1
	done &&
	(cd edges.git && cat $(for f in $(test_seq $n); do echo $f.0 $f.1 $f.2 $f.3; done)) |
	sed "s/^\(fatal: bad config line [0-9]* in file \)\(.*\)/\1'"'"'\2'"'"'/" >expect &&
	(cd edges.ours && cat $(for f in $(test_seq $n); do echo $f.0 $f.1 $f.2 $f.3; done)) >actual &&
	test_cmp expect actual &&
	GIT_CONFIG_GLOBAL=$PWD/edges/2 test-config files git >actual &&
	grep "^s.k=q  more\$" actual &&
	GIT_CONFIG_GLOBAL=$PWD/edges/5 test_expect_code 128 test-config files git 2>err &&
	grep "bad config line 3 in file" err
'

test_expect_success 'a malformed git config file: an error naming file and line' '
	printf "[maint]\n\tok = 1\n[broken\n" >bad.conf &&
	printf "[include]\n\tpath = bad.conf\n" >global.conf &&
	(cd repo && GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/global.conf" test_expect_code 128 test-config files git 2>../err) &&
	echo "fatal: bad config line 3 in file '"'"'$PWD/bad.conf'"'"'" >expect &&
	test_cmp expect err &&
	(cd repo && GIT_CONFIG_GLOBAL="$TRASH_DIRECTORY/global.conf" test_must_fail git config --list 2>../err) &&
	grep "^fatal: bad config line 3 in file $PWD/bad.conf" err
'

test_expect_success 'end to end: maint.mbox.max-message-size from git config, in mbox-split (no libgit2)' '
	{
		printf "From x Mon Sep 17 00:00:00 2001\nMessage-ID: <s1@example.com>\nSubject: small\n\nhi\n\n" &&
		printf "From x Mon Sep 17 00:00:00 2001\nMessage-ID: <s2@example.com>\nSubject: big\n\n" &&
		head -c 3000 /dev/zero | tr "\0" x && printf "\n"
	} >sizes &&
	git -C repo config maint.mbox.max-message-size 2000 &&
	(cd repo && test_expect_code 1 git-maint-mbox-split --format=%m ../sizes >../out 2>../err) &&
	echo s1@example.com >expect &&
	test_cmp expect out &&
	grep "message 2 exceeds max size (2000 bytes)" err &&
	git -C repo config --unset maint.mbox.max-message-size
'

test_expect_success 'b4.midmask stands for archive.url when that is unset' '
	git -C repo config b4.midmask "http://127.0.0.1:1/all/%s" &&
	(cd repo && test_expect_code 75 git-maint-mbox-split "<x@example.org>" >out 2>../err) &&
	grep "http://127.0.0.1:1/all/x@example.org/t.mbox.gz" err &&
	git -C repo config maint.archive.url "http://127.0.0.1:1/usb/" &&
	(cd repo && test_expect_code 75 git-maint-mbox-split "<x@example.org>" >out 2>../err) &&
	grep "http://127.0.0.1:1/usb/x@example.org/t.mbox.gz" err &&
	git -C repo config --unset maint.archive.url &&
	git -C repo config --unset b4.midmask
'

test_expect_success 'queue.link = true (or bare): the Link: mask b4 uses, b4.linkmask, else b4'"'"'s default' '
	echo a >repo/f &&
	git -C repo add f &&
	git -C repo commit -q -m base &&
	git -C repo branch one &&
	git -C repo branch two &&
	{
		printf "From 0 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <author@example.com>\n" &&
		printf "Date: Thu, 7 Apr 2005 15:13:13 -0700\nSubject: [PATCH] linked\nMessage-ID: <id@example.com>\n" &&
		printf "\nmsg\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
	} >link.mbox &&
	git -C repo config maint.queue.link true &&
	git -C repo config b4.linkmask "https://patch.msgid.link/%s" &&
	git -C repo maint-queue -q one ../link.mbox &&
	git -C repo config --unset b4.linkmask &&
	git -C repo maint-queue -q two ../link.mbox &&
	git -C repo config --unset maint.queue.link &&
	for b in one two
	do
		git -C repo log -1 --format=%\(trailers:key=Link,valueonly\) $b || return 1
	done >actual &&
	printf "https://patch.msgid.link/id@example.com\n\nhttps://lore.kernel.org/r/id@example.com\n\n" >expect &&
	test_cmp expect actual
'

test_done
