# SPDX-License-Identifier: GPL-2.0-only
# bash completion for the git-maint commands, through git's own completion:
#
#   git maint-queue --con<TAB>      git maint-queue --continue
#   git maint-queue u<TAB>          the branches (usb-next, ...), then mailboxes (files)
#   git maint-dry-apply --onto <TAB>   branches
#   git maint-notify --after-push <TAB>   remotes
#   git-maint-queue --<TAB>         the same for the dashed programs
#
# The options are the programs' own: each one's --git-completion-helper
# (the long options of its table) and its -h (which of them take --no-,
# and the short options that take a value), asked once per shell. What an
# option's value or an argument is (a branch, a remote, a revision, a
# mailbox file) is written below.
#
# Installed by `make install` as <prefix>/share/bash-completion/completions/git-maint
# with a link git-maint-<command> to it for each command, where the
# bash-completion package finds it by itself: git's completion asks it for
# git-maint-<command> when `git maint-<command>` is completed, and so does
# bash for the dashed program. bash-completion looks in
# ~/.local/share/bash-completion/completions (prefix=~/.local, the
# default) and in <dir>/bash-completion/completions for each <dir> of
# $XDG_DATA_DIRS (another prefix: add <prefix>/share there).
# Without the bash-completion package, source it from ~/.bashrc after
# git's completion:
#
#   . /usr/share/bash-completion/completions/git
#   . ~/.local/share/bash-completion/completions/git-maint

# git's completion first (its __gitcomp, __git_complete_refs, ...), when
# this file is loaded on its own (bash-completion loading it for a
# dashed program).
if ! declare -F __gitcomp >/dev/null 2>&1; then
	if declare -F __load_completion >/dev/null 2>&1; then
		__load_completion git
	fi
	if ! declare -F __gitcomp >/dev/null 2>&1; then
		for __git_maint_f in /usr/share/bash-completion/completions/git \
			/etc/bash_completion.d/git /usr/share/git/completion/git-completion.bash
		do
			if [ -f "$__git_maint_f" ]; then
				. "$__git_maint_f"
				break
			fi
		done
		unset __git_maint_f
	fi
fi

__git_maint_commands="mbox-split dry-apply queue notify publish request-pull describe-contains"

# __git_maint_load <command>: asks git-maint-<command> for its options once
# and keeps them in __git_maint_opts_<command> (for __gitcomp: the long
# options, then "--" and the --no- forms) and __git_maint_valued_<command>
# (" --onto -o ... ": the options whose value may be the next word).
__git_maint_load ()
{
	local var=${1//-/_} helper usage line opts neg valued
	eval "test -n \"\${__git_maint_opts_$var+set}\"" && return 0
	helper=$(git-maint-$1 --git-completion-helper 2>/dev/null) || helper=
	usage=$(git-maint-$1 -h 2>&1)
	opts=" $helper "
	neg= valued=
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		case $line in
		-?", --"*" <"*)
			line=${line#-}
			valued="$valued -${line%%,*}"
			;;
		esac
		case $line in
		*"--[no-]"*)
			line=${line#*--\[no-\]}
			neg="$neg --no-${line%%[ =[]*}"
			;;
		esac
	done <<<"$usage"
	for line in $helper; do
		case $line in
		--*=) valued="$valued ${line%=}" ;;
		esac
	done
	case $opts in
	*" -- "*) ;;
	*) test -n "$neg" && opts="$opts --$neg" ;;
	esac
	eval "__git_maint_opts_$var=\$opts"
	eval "__git_maint_valued_$var=\"\$valued \""
}

# __git_maint_argc <command>: how many arguments (not options, nor
# option values) come before the word being completed.
__git_maint_argc ()
{
	local var=${1//-/_} valued i word n=0 dashdash=
	eval "valued=\${__git_maint_valued_$var}"
	for ((i = __git_cmd_idx + 1; i < cword; i++)); do
		word=${words[i]}
		if [ -n "$dashdash" ]; then
			((n++))
			continue
		fi
		case $word in
		--) dashdash=y ;;
		--*=*) ;;
		-*)
			case $valued in
			*" $word "*) ((i++)) ;;
			esac
			;;
		*) ((n++)) ;;
		esac
	done
	echo $n
}

# __git_maint_value <command>: sets __git_maint_opt to the option whose
# value is being completed ("--onto" for "--onto=u<TAB>" and for
# "--onto u<TAB>"), else to nothing, and __git_maint_cur to the value
# typed so far.
__git_maint_value ()
{
	local var=${1//-/_} valued
	eval "valued=\${__git_maint_valued_$var}"
	__git_maint_opt= __git_maint_cur=$cur
	case $cur in
	--*=*)
		__git_maint_opt=${cur%%=*}
		__git_maint_cur=${cur#*=}
		return
		;;
	esac
	case $prev in
	-*)
		case $valued in
		*" $prev "*) __git_maint_opt=$prev ;;
		esac
		;;
	esac
}

__git_maint_branches ()
{
	__git_complete_refs --mode=heads --cur="$1"
}

# __git_maint_complete <command> <value-completer> <argument-completer>:
# options, then an option's value, then the arguments. The completers
# are given the option (or the argument's number) and what was typed of
# it; they fill COMPREPLY, or leave it empty for file names (the
# completion is registered with -o default).
__git_maint_complete ()
{
	local cmd=$1 var=${1//-/_} __git_maint_opt __git_maint_cur
	__git_maint_load "$cmd"
	__git_maint_value "$cmd"
	if [ -n "$__git_maint_opt" ]; then
		$2 "$__git_maint_opt" "$__git_maint_cur"
		return
	fi
	case $cur in
	-*)
		eval "__gitcomp \"\${__git_maint_opts_$var}\""
		return
		;;
	esac
	$3 "$(__git_maint_argc "$cmd")" "$cur"
}

__git_maint_none ()
{
	COMPREPLY=()
}

__git_maint_mbox_split_value ()
{
	case $1 in
	-o|--output-directory|--series-dir)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$2"))
		;;
	--touches)
		;;	# a path: file names
	--format)
		__gitcomp "%i %I %m %r %an %ae %ad %at %s %S %v %k %K %p %P %o %qn %qN %qv %qK %qs %qm %qf %qF %n" "" "$2"
		;;
	*)
		__git_maint_none
		;;
	esac
}

_git_maint_mbox_split ()
{
	# arguments: mailboxes, Maildirs, -, Message-IDs, URLs: file names
	__git_maint_complete mbox-split __git_maint_mbox_split_value :
}

__git_maint_onto_value ()
{
	case $1 in
	--onto) __git_maint_branches "$2" ;;
	*) __git_maint_none ;;
	esac
}

_git_maint_dry_apply ()
{
	__git_maint_complete dry-apply __git_maint_onto_value :
}

__git_maint_queue_arg ()
{
	# the branch, then mailboxes; nothing after --continue and the like
	if [ -n "$(__git_find_on_cmdline "--continue --skip --abort --show-current")" ]; then
		__git_maint_none
	elif [ "$1" = 0 ]; then
		__git_maint_branches "$2"
	fi
}

_git_maint_queue ()
{
	__git_maint_complete queue __git_maint_none __git_maint_queue_arg
}

__git_maint_notify_value ()
{
	case $1 in
	--after-push) __gitcomp_nl "$(__git_remotes)" "" "$2" ;;
	--branch) __git_maint_branches "$2" ;;
	*) __git_maint_none ;;
	esac
}

__git_maint_notify_arg ()
{
	if [ -n "$(__git_find_on_cmdline "--stdin --store-password --forget-password")" ]; then
		__git_maint_none
	else
		__git_complete_revlist
	fi
}

_git_maint_notify ()
{
	__git_maint_complete notify __git_maint_notify_value __git_maint_notify_arg
}

__git_maint_publish_arg ()
{
	if [ "$1" = 0 ] && [ -z "$(__git_find_on_cmdline "--continue --abort")" ]; then
		__git_maint_branches "$2"
	else
		__git_maint_none
	fi
}

_git_maint_publish ()
{
	__git_maint_complete publish __git_maint_none __git_maint_publish_arg
}

__git_maint_request_pull_value ()
{
	case $1 in
	--tag) __gitcomp_direct "$(__git_tags "" "$2" " ")" ;;
	*) __git_maint_none ;;
	esac
}

_git_maint_request_pull ()
{
	__git_maint_complete request-pull __git_maint_request_pull_value __git_maint_publish_arg
}

__git_maint_describe_value ()
{
	case $1 in
	--match|--exclude) __gitcomp_direct "$(__git_tags "" "$2" " ")" ;;
	*) __git_maint_none ;;
	esac
}

__git_maint_describe_arg ()
{
	if [ -n "$(__git_find_on_cmdline "--stdin")" ]; then
		__git_maint_none
	else
		__git_complete_refs --cur="$2"
	fi
}

_git_maint_describe_contains ()
{
	__git_maint_complete describe-contains __git_maint_describe_value __git_maint_describe_arg
}

# The dashed programs too (git-maint-queue --con<TAB>), through git's
# wrapper that sets up cur, words and cword as for "git <command>".
if declare -F __git_complete >/dev/null 2>&1; then
	for __git_maint_c in $__git_maint_commands; do
		__git_complete "git-maint-$__git_maint_c" "_git_maint_${__git_maint_c//-/_}"
	done
	unset __git_maint_c
fi
