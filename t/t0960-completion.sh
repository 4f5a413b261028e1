#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only

test_description='make install as a maintainer meets it: git maint-<cmd> --help shows the installed man page, -h the usage, an unknown option a git-style error; bash and zsh completion of the git maint-* commands (contrib/completion), through git'"'"'s own completion'

. ./test-lib.sh

GIT_COMPLETION=/usr/share/bash-completion/completions/git
if test -f "$GIT_COMPLETION" && command -v bash >/dev/null
then
	test_set_prereq BASH_COMPLETION
fi
if test -f /usr/share/bash-completion/bash_completion
then
	test_set_prereq BASH_COMPLETION_PKG
fi
if command -v man >/dev/null && command -v groff >/dev/null
then
	test_set_prereq MAN
fi
if command -v zsh >/dev/null && command -v tmux >/dev/null
then
	test_set_prereq ZSH
fi

# complete '<line>' [<env>...]: the candidates bash offers at the end of
# <line> in the repository r, one per line, sorted (t/lib-completion.bash).
# With an environment of its own, a bash of its own; else the bash of
# complete_server, which loaded the completion once.
complete_in_r () {
	line=$1 &&
	shift &&
	if test $# -gt 0
	then
		(
			cd r &&
			env "$@" bash -c '. "$MAINT_TEST_DIR/lib-completion.bash" && complete_line "$1"' - "$line"
		)
	else
		complete_server "$line"
	fi
}

# complete_server '<line>': one bash for the script, started on the first
# call, reads lines to complete on fd 8 and writes the candidates on fd 9,
# each line's ended by a line holding ^A. It loads git's completion and
# ours once (a bash that loads them costs 30 ms of CPU before it
# completes anything), and completes each line in a subshell of its own,
# so what one completion keeps in variables the next does not see, as
# when each had a bash. It goes with the script (end of file on fd 8).
CTRL_A=$(printf '\001')
complete_server () {
	if test -z "$complete_server_started"
	then
		mkfifo complete.in complete.out || return 1
		# (not "mkfifo ... && bash ... &": that runs both in the background)
		bash -c '
			. "$MAINT_TEST_DIR/lib-completion.bash" &&
			cd r &&
			while IFS= read -r line
			do
				(complete_line "$line")
				printf "\001\n"
			done' <complete.in >complete.out 2>complete.err \
			3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
		exec 8>complete.in 9<complete.out
		complete_server_started=t
	fi
	printf '%s\n' "$1" >&8 &&
	while IFS= read -r candidate <&9
	do
		test "$candidate" = "$CTRL_A" && return 0
		printf '%s\n' "$candidate"
	done
	echo "complete_server: the bash is gone (complete.err)" >&2
	return 1
}

test_expect_success 'setup: the article'"'"'s branches, two remotes, a tag' '
	git init -q -b master r &&
	(
		cd r &&
		test_commit base &&
		git tag -a -m "Linux 6.1" v6.1 &&
		git branch usb-linus &&
		git branch usb-next &&
		git branch work-linus &&
		git branch work-next &&
		git remote add origin https://example.org/usb.git &&
		git remote add backup /srv/backup.git
	)
'

# in_pfx <command>...: as a maintainer runs it after make install
# prefix=pfx with pfx/bin on PATH: man finds the pages from PATH
# (pfx/bin -> pfx/share/man), not from the MANPATH of the tests
in_pfx () {
	(
		cd r &&
		unset MANPATH &&
		PATH="$TRASH_DIRECTORY/pfx/bin:$PATH" MANPAGER=cat MANWIDTH=80 "$@"
	)
}

COMMANDS="describe-contains dry-apply mbox-split notify publish queue request-pull"

test_expect_success 'make install: the programs, their parts, the man pages' '
	maint_install "$PWD/pfx" >install.out 2>&1 &&
	for c in $COMMANDS
	do
		test -x "pfx/bin/git-maint-$c" &&
		test -f "pfx/share/man/man1/git-maint-$c.1" || return 1
	done &&
	test -f pfx/share/man/man7/git-maint.7 &&
	test -x pfx/libexec/git-maint/git-maint-source--fetch &&
	! test -e pfx/bin/git-maint-source--fetch
'

test_expect_success MAN 'git maint-queue --help: the installed man page, as git shows git-<cmd>'"'"'s' '
	in_pfx git maint-queue --help >out 2>err &&
	test_must_be_empty err &&
	head -n 1 out >first &&
	grep "^GIT-MAINT-QUEUE(1) " first &&
	grep "^       git-maint-queue - apply a series of patch mails" out &&
	in_pfx git help maint-queue >again 2>err &&
	test_must_be_empty err &&
	test_cmp out again
'

test_expect_success MAN 'git-maint-<cmd> --help (the dashed program) and git help git-maint: the man pages' '
	for c in $COMMANDS
	do
		in_pfx "git-maint-$c" --help >out 2>err &&
		test_must_be_empty err &&
		grep "^NAME\$" out &&
		grep "^       git-maint-$c - " out || return 1
	done &&
	in_pfx git help git-maint >out 2>err &&
	test_must_be_empty err &&
	grep "^GIT-MAINT(7) " out
'

test_expect_success 'git maint-queue -h: the usage on stdout, exit 129, nothing changed' '
	(cd r && repo_state) >before &&
	test_expect_code 129 in_pfx git maint-queue -h >out 2>err &&
	test_must_be_empty err &&
	head -n 2 out >actual &&
	cat >expect <<-\EOF &&
	usage: git maint-queue [<options>] <branch> [<mbox>|<Maildir>|-|<Message-ID>|<URL>]...
	   or: git maint-queue --show-trailers [<options>] <branch> [<mbox>|<Maildir>|-|<Message-ID>|<URL>]...
	EOF
	test_cmp expect actual &&
	grep "^    --continue  *go on after fixing the patch or the build\$" out &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'an unknown option: git'"'"'s error, then the usage on stderr, exit 129, nothing changed' '
	(cd r && repo_state) >before &&
	for c in $COMMANDS
	do
		test_expect_code 129 in_pfx git maint-$c --frobnicate usb-next >out 2>err &&
		test_must_be_empty out &&
		head -n 1 err >actual &&
		echo "error: unknown option '"'"'frobnicate'"'"'" >expect &&
		test_cmp expect actual &&
		sed -n 2p err | grep "^usage: git maint-$c " || return 1
	done &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'an unknown switch, a value where none goes, a missing value: one line, exit 129' '
	test_expect_code 129 in_pfx git maint-queue -Z usb-next >out 2>err &&
	test_must_be_empty out &&
	head -n 1 err >actual &&
	echo "error: unknown switch '"'"'Z'"'"'" >expect &&
	test_cmp expect actual &&
	test_expect_code 129 in_pfx git maint-queue --signoff=yes usb-next >out 2>err &&
	head -n 1 err >actual &&
	echo "error: option '"'"'--signoff'"'"' takes no value" >expect &&
	test_cmp expect actual &&
	test_expect_code 129 in_pfx git maint-queue --fuzz >out 2>err &&
	head -n 1 err >actual &&
	echo "error: option '"'"'--fuzz'"'"' requires a value" >expect &&
	test_cmp expect actual
'

# on_terminal <command>...: runs it with standard input a terminal (a pty)
# on which Ctrl-D is already typed: a read there ends at once (python
# without the site module, as lib-git-server.sh's helpers: stdlib only)
on_terminal () {
	python3 -S -c '
import os, subprocess, sys
master, slave = os.openpty()
os.write(master, b"\x04")
sys.exit(subprocess.run(sys.argv[1:], stdin=slave).returncode)
' "$@"
}

test_expect_success 'no mailbox named, standard input a terminal: a hint that mail is read from it' '
	(cd r && repo_state) >before &&
	test_expect_code 1 on_terminal git maint-mbox-split >out 2>err &&
	cat >expect <<-\EOF &&
	hint: reading mail from standard input, the terminal: end it with Ctrl-D
	hint: (or name a mailbox, a Maildir, a Message-ID or an archive URL)
	warning: no messages found in standard input
	EOF
	test_cmp expect err &&
	test_must_be_empty out &&
	echo | test_expect_code 1 git maint-mbox-split 2>err &&
	echo "warning: no messages found in standard input" >expect &&
	test_cmp expect err &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success 'git maint-queue <mailbox>, the branch forgotten: the error, and a hint that the branch comes first' '
	(cd r && repo_state) >before &&
	echo >mbox &&
	test_expect_code 128 sh -c "cd r && git maint-queue ../mbox" >out 2>err &&
	cat >expect <<-\EOF &&
	fatal: no such branch '"'"'../mbox'"'"'
	hint: '"'"'../mbox'"'"' is a file; the branch comes first: git maint-queue <branch> ../mbox
	EOF
	test_cmp expect err &&
	test_must_be_empty out &&
	test_expect_code 128 sh -c "cd r && git maint-queue usb-nxet ../mbox" 2>err &&
	cat >expect <<-\EOF &&
	fatal: no such branch '"'"'usb-nxet'"'"'
	hint: the most similar branch is
	hint: 	usb-next
	EOF
	test_cmp expect err &&
	(cd r && repo_state) >after &&
	test_cmp before after
'

test_expect_success BASH_COMPLETION 'complete -p: git, and each dashed program, through git'"'"'s wrapper' '
	bash -c ". $GIT_COMPLETION && . \"$MAINT_SRC_DIR/contrib/completion/git-maint.bash\" &&
		complete -p git git-maint-queue git-maint-mbox-split git-maint-dry-apply \
			git-maint-notify git-maint-publish git-maint-request-pull git-maint-describe-contains" >actual &&
	cat >expect <<-\EOF &&
	complete -o bashdefault -o default -o nospace -F __git_wrap__git_main git
	complete -o bashdefault -o default -o nospace -F __git_wrap_git_maint_queue git-maint-queue
	complete -o bashdefault -o default -o nospace -F __git_wrap_git_maint_mbox_split git-maint-mbox-split
	complete -o bashdefault -o default -o nospace -F __git_wrap_git_maint_dry_apply git-maint-dry-apply
	complete -o bashdefault -o default -o nospace -F __git_wrap_git_maint_notify git-maint-notify
	complete -o bashdefault -o default -o nospace -F __git_wrap_git_maint_publish git-maint-publish
	complete -o bashdefault -o default -o nospace -F __git_wrap_git_maint_request_pull git-maint-request-pull
	complete -o bashdefault -o default -o nospace -F __git_wrap_git_maint_describe_contains git-maint-describe-contains
	EOF
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'git maint-<TAB>: the seven commands, not their parts' '
	complete_in_r "git maint-" >actual &&
	cat >expect <<-\EOF &&
	maint-describe-contains 
	maint-dry-apply 
	maint-mbox-split 
	maint-notify 
	maint-publish 
	maint-queue 
	maint-request-pull 
	EOF
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'git maint-queue --con<TAB>: --continue' '
	echo "--continue " >expect &&
	complete_in_r "git maint-queue --con" >actual &&
	test_cmp expect actual
'

for cmd in mbox-split dry-apply queue notify publish request-pull describe-contains
do
	test_expect_success BASH_COMPLETION "git maint-$cmd --<TAB>: every option the program lists" '
		git-maint-$cmd --git-completion-helper | tr " " "\n" | sed -n "s/^\(--.*=\)\$/\1/p;s/^\(--[^=]*\)\$/\1 /p" >expect &&
		echo "--no-... " >>expect &&
		LC_ALL=C sort -o expect expect &&
		complete_in_r "git maint-$cmd --" >actual &&
		test_cmp expect actual &&
		test_line_count -gt 5 actual
	'
done

test_expect_success BASH_COMPLETION 'git maint-queue --no-<TAB>: the options that have a --no- form' '
	cat >expect <<-\EOF &&
	--no-3way 
	--no-build-each 
	--no-cache 
	--no-input-mboxrd 
	--no-keep-cr 
	--no-refresh 
	--no-scissors 
	--no-signoff 
	--no-sloppy-trailers 
	--no-trailers 
	EOF
	complete_in_r "git maint-queue --no-" >actual &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'an option the program gains is offered without touching the completion' '
	mkdir -p newer &&
	cat >newer/git-maint-queue <<-EOF &&
	#!/bin/sh
	if test "\$1" = --git-completion-helper
	then
		echo " --signoff --add-reviewed-by= --continue"
		exit 0
	fi
	exec "$MAINT_BUILD_DIR/bin/git-maint-queue" "\$@"
	EOF
	chmod +x newer/git-maint-queue &&
	echo "--add-reviewed-by=" >expect &&
	complete_in_r "git maint-queue --add-r" PATH="$PWD/newer:$PATH" >actual &&
	test_cmp expect actual
'

branches () {
	git -C r for-each-ref --format="%(refname:short) " refs/heads
}

test_expect_success BASH_COMPLETION 'git maint-queue <TAB>: the branches' '
	branches >expect &&
	complete_in_r "git maint-queue " >actual &&
	test_cmp expect actual &&
	complete_in_r "git maint-queue -s --fuzz 2 " >actual &&
	test_cmp expect actual &&
	printf "usb-linus \nusb-next \n" >expect &&
	complete_in_r "git maint-queue us" >actual &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'git maint-queue <branch> <TAB>: nothing of ours, so bash completes file names (-o default)' '
	complete_in_r "git maint-queue usb-next " >actual &&
	test_must_be_empty actual &&
	complete_in_r "git maint-queue --fuzz 2 usb-next ../s" >actual &&
	test_must_be_empty actual &&
	complete_in_r "git maint-queue --continue " >actual &&
	test_must_be_empty actual
'

test_expect_success BASH_COMPLETION 'git maint-dry-apply --onto <TAB> and --onto=<TAB>: the branches' '
	branches >expect &&
	complete_in_r "git maint-dry-apply --onto " >actual &&
	test_cmp expect actual &&
	printf "work-linus \nwork-next \n" >expect &&
	complete_in_r "git maint-dry-apply --onto=work" >actual &&
	test_cmp expect actual &&
	complete_in_r "git maint-dry-apply --onto work-linus --onto w" >actual &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'git maint-dry-apply <TAB>: mailboxes, file names' '
	complete_in_r "git maint-dry-apply --onto work-next " >actual &&
	test_must_be_empty actual
'

test_expect_success BASH_COMPLETION 'git maint-notify --after-push <TAB>: the remotes; --branch: the branches; a range' '
	printf "backup\norigin\n" >expect &&
	complete_in_r "git maint-notify --after-push " >actual &&
	sed "s/ *\$//" actual >actual.trim &&
	test_cmp expect actual.trim &&
	complete_in_r "git maint-notify --after-push=o" >actual &&
	sed "s/ *\$//" actual >actual.trim &&
	echo origin >expect &&
	test_cmp expect actual.trim &&
	branches >expect &&
	complete_in_r "git maint-notify --branch " >actual &&
	test_cmp expect actual &&
	complete_in_r "git maint-notify usb-next..work-n" >actual &&
	echo "usb-next..work-next " >expect &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'git maint-publish <TAB>: the branches, nothing after --continue' '
	branches >expect &&
	complete_in_r "git maint-publish " >actual &&
	test_cmp expect actual &&
	complete_in_r "git maint-publish -n work-next " >actual &&
	test_must_be_empty actual &&
	complete_in_r "git maint-publish --continue " >actual &&
	test_must_be_empty actual
'

test_expect_success BASH_COMPLETION 'git maint-describe-contains <TAB>: commits by name; --match: the tags' '
	complete_in_r "git maint-describe-contains v" >actual &&
	echo "v6.1 " >expect &&
	test_cmp expect actual &&
	complete_in_r "git maint-describe-contains --match " >actual &&
	printf "base \nv6.1 \n" >expect &&
	test_cmp expect actual &&
	complete_in_r "git maint-describe-contains --stdin " >actual &&
	test_must_be_empty actual
'

test_expect_success BASH_COMPLETION 'git maint-mbox-split -o <TAB>: directories; --format=%<TAB>: the placeholders' '
	mkdir -p r/outdir &&
	complete_in_r "git maint-mbox-split -o out" >actual &&
	echo outdir >expect &&
	test_cmp expect actual &&
	complete_in_r "git maint-mbox-split --format=%a" >actual &&
	printf "%%ad \n%%ae \n%%an \n%%at \n" >expect &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'the dashed program: git-maint-queue --con<TAB>, git-maint-queue <TAB>' '
	echo "--continue " >expect &&
	complete_in_r "git-maint-queue --con" >actual &&
	test_cmp expect actual &&
	branches >expect &&
	complete_in_r "git-maint-queue " >actual &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION,BASH_COMPLETION_PKG 'make install: bash-completion finds it by itself, for git maint-queue and git-maint-queue' '
	test -f pfx/share/bash-completion/completions/git-maint &&
	test "$(readlink pfx/share/bash-completion/completions/git-maint-queue)" = git-maint &&
	echo "--continue " >expect &&
	complete_in_r "git maint-queue --con" COMPLETION_LAZY=1 XDG_DATA_DIRS="$PWD/pfx/share:/usr/share" \
		PATH="$PWD/pfx/bin:$PATH" >actual &&
	test_cmp expect actual &&
	complete_in_r "git-maint-queue --con" COMPLETION_LAZY=1 XDG_DATA_DIRS="$PWD/pfx/share:/usr/share" \
		PATH="$PWD/pfx/bin:$PATH" >actual &&
	test_cmp expect actual
'

# (bash-completion splits a HOME with a space, as the trash directory'"'"'s
# name has one: a HOME of its own)
test_expect_success BASH_COMPLETION,BASH_COMPLETION_PKG 'prefix=~/.local: found in the bash-completion user directory' '
	home=$(mktemp -d /tmp/maint-home.XXXXXX) &&
	test_when_finished "rm -rf \"$home\"" &&
	maint_install "$home/.local" >install.out 2>&1 &&
	branches >expect &&
	complete_in_r "git maint-dry-apply --onto " COMPLETION_LAZY=1 HOME="$home" \
		PATH="$home/.local/bin:$PATH" >actual &&
	test_cmp expect actual
'

# zsh: a real zsh in a tmux pane, keys sent and the screen read back.
#   zsh_start           zsh -f with compinit and the installed _git-maint-* on
#                       $fpath, in r, once its prompt ("% ") shows
#   zsh_type <keys>...  a fresh line, then the keys (tmux send-keys: "Tab")
#   zsh_expect <regex>  waits until a line of the screen matches (bounded:
#                       10 s), else shows the screen and fails; tmux drops
#                       the blanks at the end of a line
# One zsh for the zsh tests (its compinit costs a second and a half of
# CPU): the first starts it, the last stops it, and so does the end of
# the script, whatever happened before.
zsh_start () {
	ZSH_TMUX=maint-$$ &&
	tmux -L "$ZSH_TMUX" new-session -d -x 200 -y 50 \
		"env -i HOME=/nonexistent TERM=xterm PATH='$PWD/pfx/bin:/usr/bin:/bin' zsh -f" \
		</dev/null >/dev/null 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &&
	tmux -L "$ZSH_TMUX" send-keys "PS1='%% '; fpath=('$PWD/pfx/share/zsh/site-functions' \$fpath); autoload -Uz compinit; compinit -u -D; cd '$PWD/r'; clear; tmux -L '$ZSH_TMUX' wait-for -S maint-ready" Enter &&
	# compinit done, zsh says so (no screen read every 0.1 s meanwhile:
	# 15-20 of them, three processes each); bounded, then the screen is read
	{ timeout 10 tmux -L "$ZSH_TMUX" wait-for maint-ready || :; } &&
	zsh_expect "^% *\$"
}

zsh_stop () {
	test -z "$ZSH_TMUX" || tmux -L "$ZSH_TMUX" kill-server 2>/dev/null
	ZSH_TMUX=
	return 0
}
trap 'code=$?; zsh_stop; maint_return $code; die' EXIT

zsh_type () {
	tmux -L "$ZSH_TMUX" send-keys C-u C-l &&
	zsh_expect_screen "%" &&
	tmux -L "$ZSH_TMUX" send-keys "$@"
}

# zsh_expect_screen <text>: waits until the screen, without its empty
# lines, is <text> (bounded: 10 s)
zsh_expect_screen () {
	i=0
	until test "$(tmux -L "$ZSH_TMUX" capture-pane -p | sed "/^\$/d")" = "$1"
	do
		if test $i -ge 100
		then
			echo "zsh: the screen is not '$1':"
			tmux -L "$ZSH_TMUX" capture-pane -p | sed "/^\$/d"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

zsh_expect () {
	i=0
	while ! tmux -L "$ZSH_TMUX" capture-pane -p | grep -e "$1" >/dev/null
	do
		if test $i -ge 100
		then
			echo "zsh: no line matches '$1' on the screen:"
			tmux -L "$ZSH_TMUX" capture-pane -p | sed "/^\$/d"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

test_expect_success ZSH 'zsh: git maint-queue --con<TAB> becomes --continue' '
	{ test -f pfx/share/zsh/site-functions/_git-maint-queue || maint_install "$PWD/pfx" >install.out 2>&1; } &&
	zsh_start &&
	zsh_type "git maint-queue --con" Tab &&
	zsh_expect "^% git maint-queue --continue *\$"
'

test_expect_success ZSH 'zsh: git maint-<TAB> lists the commands with their man page'"'"'s description' '
	zsh_type "git maint-" Tab &&
	zsh_expect "^maint-queue  *-- apply a series of patch mails to a branch" &&
	zsh_expect "^maint-dry-apply  *-- check whether a series of patch mails applies"
'

test_expect_success ZSH 'zsh: branches for the queue and --onto, remotes for --after-push, tags and refs for describe-contains, options' '
	test_when_finished zsh_stop &&
	zsh_type "git maint-queue " Tab &&
	zsh_expect "^master  *usb-linus  *usb-next  *work-linus  *work-next" &&
	zsh_type "git maint-dry-apply --onto work-l" Tab &&
	zsh_expect "^% git maint-dry-apply --onto work-linus *\$" &&
	zsh_type "git maint-notify --after-push " Tab &&
	zsh_expect "^backup  *origin" &&
	zsh_type "git maint-describe-contains --match v6" Tab &&
	zsh_expect "^% git maint-describe-contains --match v6.1 *\$" &&
	zsh_type "git maint-describe-contains usb-l" Tab &&
	zsh_expect "^% git maint-describe-contains usb-linus *\$" &&
	zsh_type "git-maint-queue --sig" Tab &&
	zsh_expect "^% git-maint-queue --signoff *\$"
'

test_done
