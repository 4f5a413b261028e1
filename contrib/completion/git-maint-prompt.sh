# SPDX-License-Identifier: GPL-2.0-only
# A prompt helper for bash and zsh, beside git's own __git_ps1: says that
# a git maint-queue (and at which patch) or a git maint-publish is
# stopped in the repository you are in, as __git_ps1 says "|AM 2/5":
#
#   ~/linux (work-next|QUEUE 2/5)$
#
# Source it from ~/.bashrc or ~/.zshrc (make install puts it in
# <prefix>/share/git-maint/git-maint-prompt.sh) and call it in the prompt,
# with a printf format for what it prints (default " (%s)"):
#
#   . ~/.local/share/git-maint/git-maint-prompt.sh
#   PS1='\w$(__git_ps1 " (%s")$(__git_maint_ps1 "|%s")$(__git_ps1 ")")\$ '	# bash
#   PS1='\w$(__git_maint_ps1)\$ '						# alone
#   setopt PROMPT_SUBST; PS1='%~$(__git_maint_ps1)%# '			# zsh
#
# It prints nothing outside a repository or when nothing is stopped.
# What it reads is what git maint-queue --status reads: the state
# directories $GIT_DIR/maint/queue and $GIT_DIR/maint/publish, and the
# next and last lines of the queue's state file.

__git_maint_ps1 ()
{
	local fmt="${1- (%s)}" gitdir state= key value next= last=
	gitdir=$(git rev-parse --git-dir 2>/dev/null) || return 0
	if [ -d "$gitdir/maint/queue" ] && [ ! -L "$gitdir/maint/queue" ]; then
		state=QUEUE
		if [ -f "$gitdir/maint/queue/state" ] && [ ! -L "$gitdir/maint/queue/state" ]; then
			while read -r key value; do
				case $key in
				next) next=$value ;;
				last) last=$value ;;
				esac
			done <"$gitdir/maint/queue/state"
			case $next$last in
			*[!0-9]*) ;;
			?*) [ -n "$next" ] && [ -n "$last" ] && state="QUEUE $next/$last" ;;
			esac
		fi
	fi
	if [ -d "$gitdir/maint/publish" ] && [ ! -L "$gitdir/maint/publish" ]; then
		state="${state:+$state|}PUBLISH"
	fi
	[ -n "$state" ] && printf -- "$fmt" "$state"
	return 0
}
