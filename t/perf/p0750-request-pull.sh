#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0750: the text of a pull request, `git maint-request-pull` (a dry run,
# the existing tag taken as it is) against `git request-pull`, in the
# same run, on a real history: by default this repository's own, the
# upstream at HEAD~120 and the tip at HEAD; any repository and range can
# be given (git.git's v2.48.0..v2.49.0 holds 108 inexact renames).
#
#   sh t/perf/p0750-request-pull.sh [<repository> <upstream> <tip>]
#
# Prints how many lines of git's text ours differs in (0 is the promise:
# the tag message, the shortlog and the diffstat byte for byte, renames
# paired and scored as git does), the wall and CPU seconds of each and
# the ratio. Exits non-zero when the texts differ.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
src=${1:-$top}
upstream=${2:-HEAD~120}
tip=${3:-HEAD}
work=$top/t/perf/out/p0750
url=git://git.example.org/usb.git
rm -rf "$work"
mkdir -p "$work/home"

export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC COLUMNS=80
git config --global user.name "Greg Kroah-Hartman"
git config --global user.email "gregkh@linuxfoundation.org"

# the repository is its own public remote: git request-pull asks it for the tag
git clone -q --shared --no-checkout "$src" "$work/r"
cd "$work/r"
git update-ref refs/heads/master "$(git rev-parse "$upstream^{commit}")"
git update-ref refs/heads/usb-next "$(git rev-parse "$tip^{commit}")"
git symbolic-ref HEAD refs/heads/usb-next
git tag -a -m "USB changes for the benchmark" bench usb-next
git remote add pub "$work/r"
cat >>.git/maint.ini <<EOF
[tree "usb"]
public = usb-next
remote = pub
url = $url
upstream = master
upstream-to = Linus <linus@example.org>
EOF
commits=$(git rev-list --count master..usb-next)

/usr/bin/time -f "%e %U %S" -o "$work/git.time" git request-pull master "$work/r" bench >"$work/git.out"
sed -i "s|$work/r|$url|" "$work/git.out"
/usr/bin/time -f "%e %U %S" -o "$work/ours.time" \
	"$MAINT_BUILD_DIR/bin/git-maint-request-pull" --tag bench usb-next >"$work/ours.mbox"
sed -n '/^The following changes since commit/,$p' "$work/ours.mbox" >"$work/ours.out"

lines=$(wc -l <"$work/git.out")
differ=$(diff "$work/git.out" "$work/ours.out" | grep -c '^[<>]' || true)
read g_s g_u g_y <"$work/git.time"
read o_s o_u o_y <"$work/ours.time"
awk -v c="$commits" -v l="$lines" -v d="$differ" -v gs="$g_s" -v gc="$g_u $g_y" \
    -v os="$o_s" -v oc="$o_u $o_y" 'BEGIN {
	split(gc, g, " "); split(oc, o, " ")
	gcpu = g[1] + g[2]; ocpu = o[1] + o[2]
	printf "p0750 request-pull of %d commits: %d of %d lines differ\n", c, d, l
	printf "                        wall       cpu (user+sys)\n"
	printf "  git request-pull      %8.2f s  %8.2f s\n", gs, gcpu
	printf "  git maint-request-pull%8.2f s  %8.2f s\n", os, ocpu
	printf "  wall: %.2fx of git request-pull; cpu: %.2fx\n",
		(gs > 0 ? os / gs : 0), (gcpu > 0 ? ocpu / gcpu : 0)
}'
if [ "$differ" != 0 ]; then
	echo "p0750: the texts differ:" >&2
	diff "$work/git.out" "$work/ours.out" | head -n 20 >&2
	exit 1
fi
cd "$top"
rm -rf "$work"
