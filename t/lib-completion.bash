# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the bash scripts of t0960-completion.sh: git's completion
# (as Debian's git package installs it), then ours (or, with
# COMPLETION_LAZY set, bash-completion, which finds ours by itself), and
# complete_line, which completes a command line as bash does when <TAB>
# is pressed at its end.
#
#   complete_line '<line>'    prints the candidates, one per line, sorted
#                             (each as bash would insert it: "--continue ",
#                             "--onto=", "usb-next ")
#
# Words are split as readline splits them (COMP_WORDBREAKS): "--onto=u" is
# the three words "--onto" "=" "u", which the completion joins again.

if test -n "${COMPLETION_LAZY-}"
then
	. /usr/share/bash-completion/bash_completion
else
	. /usr/share/bash-completion/completions/git
	. "$MAINT_SRC_DIR/contrib/completion/git-maint.bash"
fi

complete_line () {
	local line=$1 w spec func
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMP_WORDS=()
	for w in $line
	do
		case $w in
		*=*) COMP_WORDS+=("${w%%=*}" "=")
			test -n "${w#*=}" && COMP_WORDS+=("${w#*=}") ;;
		*) COMP_WORDS+=("$w") ;;
		esac
	done
	case $line in
	*" ") COMP_WORDS+=("") ;;
	esac
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	spec=$(complete -p "${COMP_WORDS[0]}" 2>/dev/null) || spec=$(complete -p -D)
	func=${spec##*-F }
	func=${func%% *}
	"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	if test $? = 124
	then
		# a loader: the completion is defined now, try again
		spec=$(complete -p "${COMP_WORDS[0]}")
		func=${spec##*-F }
		func=${func%% *}
		COMPREPLY=()
		"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	fi
	test ${#COMPREPLY[@]} = 0 || printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
}
