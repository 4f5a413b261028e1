#compdef git-maint-@CMD@
#description @DESC@
# SPDX-License-Identifier: GPL-2.0-only
#
# zsh completion for git maint-@CMD@, for zsh's own git completion (_git,
# which completes `git maint-@CMD@ <TAB>` with a function _git-maint-@CMD@
# found on $fpath) and for the dashed program. `make install` writes one
# such file per command from this template (contrib/completion/git-maint.zsh)
# into <prefix>/share/zsh/site-functions; for a prefix whose directory is
# not on $fpath yet (~/.local), add it in ~/.zshrc before compinit:
#
#   fpath=(~/.local/share/zsh/site-functions $fpath)
#   autoload -Uz compinit && compinit
#
# The options are the program's own: its --git-completion-helper (the long
# options) and its -h (their help text, short forms, which take --no-),
# asked each time. What a value or an argument is (a branch, a remote, a
# revision, a mailbox file) is written below.

local cmd=${0#_git-maint-}
local line name desc value
local -a helper usage specs args
local -A help shortname negatable

helper=(${=${"$(git-maint-$cmd --git-completion-helper 2>/dev/null)"}})
usage=("${(@f)$(git-maint-$cmd -h 2>&1)}")
for line in $usage; do
	# "    -s, --[no-]signoff    add a ...", "    --fuzz <n>            ignore ..."
	if [[ $line =~ '^ +(-(.), )?--(\[no-\])?([a-z0-9-]+)( <[^>]*>|\[=<[^>]*>\])? *(.*)$' ]]; then
		name=$match[4]
		desc=${match[6]//[\[\]:]/}
		help[$name]=$desc
		[[ -n $match[2] ]] && shortname[$name]=$match[2]
		[[ -n $match[3] ]] && negatable[$name]=1
	fi
done

# the completion of an option's value
__git_maint_value_action () {
	case $cmd:$1 in
	dry-apply:onto|notify:branch) print -r -- ':branch:__git_maint_branches' ;;
	notify:after-push) print -r -- ':remote:__git_maint_remotes' ;;
	mbox-split:output-directory|mbox-split:series-dir) print -r -- ':directory:_directories' ;;
	mbox-split:touches) print -r -- ':path:_files' ;;
	describe-contains:match|describe-contains:exclude) print -r -- ':tag pattern:__git_maint_tags' ;;
	*) print -r -- ":$1: " ;;
	esac
}

# __git_maint_refnames <tag> <description> <ref prefix>...: the short
# names of the refs under those prefixes, offered under that tag
__git_maint_refnames () {
	local tag=$1 descr=$2
	local -a n
	shift 2
	n=(${(f)"$(git for-each-ref --format='%(refname:short)' "$@" 2>/dev/null)"})
	_wanted $tag expl $descr compadd -a n
}

__git_maint_branches () { __git_maint_refnames branches branch refs/heads }

__git_maint_remotes () {
	local -a r
	r=(${(f)"$(git remote 2>/dev/null)"})
	_wanted remotes expl remote compadd -a r
}

__git_maint_tags () { __git_maint_refnames tags tag refs/tags }

__git_maint_refs () { __git_maint_refnames refs commit refs/heads refs/tags refs/remotes }

for name in $helper; do
	case $name in
	--*=)
		name=${name#--}
		name=${name%=}
		value=$(__git_maint_value_action $name)
		specs+=("--${name}=[${help[$name]}]$value")
		[[ -n ${shortname[$name]} ]] && specs+=("-${shortname[$name]}+[${help[$name]}]$value")
		;;
	--*)
		name=${name#--}
		specs+=("--${name}[${help[$name]}]")
		[[ -n ${shortname[$name]} ]] && specs+=("-${shortname[$name]}[${help[$name]}]")
		;;
	*)
		continue
		;;
	esac
	[[ -n ${negatable[$name]} ]] && specs+=("--no-${name}[not --$name]")
done

case $cmd in
mbox-split|dry-apply) args=('*:mailbox, Maildir or message file:_files') ;;
queue) args=('1:branch:__git_maint_branches' '*:mailbox, Maildir or message file:_files') ;;
publish|request-pull) args=('::branch:__git_maint_branches') ;;
notify) args=('*:revision range:__git_maint_refs') ;;
describe-contains) args=('*:commit:__git_maint_refs') ;;
esac

_arguments -s -S $specs $args
