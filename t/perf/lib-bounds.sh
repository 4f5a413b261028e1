# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the bounds benchmarks (p0210, p0320): the figures of
# git-maint(7), LIMITS. Set $work (an empty directory, made here) and
# $limit (seconds) first. Each run prints wall-clock seconds, CPU seconds
# (user + system: what a loaded machine changes least) and peak resident
# memory (GNU time %e, %U + %S, %M); a run still going after $limit
# seconds is stopped and shown as "> <limit> s (stopped)".

rm -rf "$work"
mkdir -p "$work"

# bounds_run <label> <n> <command>...: one timed run, its output discarded.
# A run that fails is shown with its exit code or signal and its figures,
# its error output goes to stderr, and bounds_run returns 1: the caller
# decides (ours failing means nothing was measured; git's is a finding).
bounds_run () {
	label=$1 n=$2
	shift 2
	rc=0
	timeout "$limit" /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" \
		>/dev/null 2>"$work/err" || rc=$?
	if test $rc = 124
	then
		printf '  %-42s %8s    > %d s (stopped)\n' "$label" "$n" "$limit"
		return 0
	fi
	read -r s user sys kib <<-EOF
	$(tail -n 1 "$work/time")
	EOF
	printf '  %-42s %8s %8.2f s %7.2f s CPU %6d MiB' "$label" "$n" "$s" \
		"$(awk "BEGIN { print $user + $sys }")" $((kib / 1024))
	case $rc in
	0) echo; return 0 ;;
	129|1[3-9][0-9]) echo " killed by signal $((rc - 128))" ;;
	*) echo " exit $rc" ;;
	esac
	echo "bounds: $label $n failed:" >&2
	cat "$work/err" >&2
	return 1
}
