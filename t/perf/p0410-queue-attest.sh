#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0410: what checking signatures costs queue. The 2,000-patch series of
# p0400, every message signed by patatt (ed25519) and by DKIM (dkimpy,
# RSA 2048, relaxed/simple, keys from a file: no DNS), queued with
# `--attest=off` and with `--attest=check` on two clones of the corpus
# (without -q: check computes a verdict where it shows one, on the
# "Applying:" lines);
# `git am` on the same series, measured in the same run, for scale.
#
#   sh t/perf/p0410-queue-attest.sh [<patches>]     (default 2000)
#
# Prints CPU (user+sys) and wall seconds of each and verification's
# share of queue's time: (check - off) / check. Needs patatt and
# python3-dkim (contrib/install-deps.sh). The signing (a few minutes)
# is cached in the output directory.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
n=${1:-2000}
py=/usr/bin/python3
command -v patatt >/dev/null && $py -c "import dkim" || {
	echo "p0410: needs patatt and python3-dkim (contrib/install-deps.sh)" >&2
	exit 1
}
corpus=$(sh "$top/t/perf/gen-repo.sh" --size=full --series="$n")
work=$top/t/perf/out/p0410
mkdir -p "$work/home"

export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC XDG_CONFIG_HOME="$work/home/.config"
export GIT_COMMITTER_NAME="Greg Kroah-Hartman" GIT_COMMITTER_EMAIL="gregkh@linuxfoundation.org"
export GIT_COMMITTER_DATE="1345600000 +0200"
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"
unset GIT_MAINT_TEST_CRASH_AT

signed=$work/signed-$n.mbox
if [ ! -s "$signed" ] || [ "$signed" -ot "$corpus/series.mbox" ]; then
	rm -rf "$work/split" "$work/home/.local"
	mkdir -p "$work/split"
	patatt genkey -n perf >/dev/null 2>&1
	git config --global patatt.signingkey ed25519:perf
	git config --global patatt.selector perf
	git mailsplit -o"$work/split" "$corpus/series.mbox" >/dev/null
	(cd "$work/split" && patatt sign -- * >/dev/null 2>&1)
	openssl genrsa -traditional -out "$work/rsa.key" 2048 2>/dev/null
	echo "rsa._domainkey.example.org v=DKIM1; k=rsa; p=$(openssl rsa -in "$work/rsa.key" -pubout \
		-outform DER 2>/dev/null | base64 -w0)" >"$work/dkim-keys"
	$py - "$work" "$signed.tmp" <<-\EOF
	import dkim, os, sys
	work, out = sys.argv[1:3]
	key = open(os.path.join(work, "rsa.key"), "rb").read()
	with open(out, "wb") as f:
	    for name in sorted(os.listdir(os.path.join(work, "split"))):
	        msg = open(os.path.join(work, "split", name), "rb").read()
	        if msg.startswith(b"From "):
	            msg = msg.split(b"\n", 1)[1]	# git mailsplit keeps the From_ line
	        sig = dkim.sign(msg, b"rsa", b"example.org", key, canonicalize=(b"relaxed", b"simple"),
	                        include_headers=[b"from", b"subject", b"date", b"message-id"])
	        f.write(b"From git-maint Mon Sep 17 00:00:00 2001\n" + sig + msg)
	EOF
	mv "$signed.tmp" "$signed"
	rm -rf "$work/split"
fi
mkdir -p "$XDG_CONFIG_HOME/git-maint"
printf "[attest]\n\tdkim-keys = %s\n" "$work/dkim-keys" >"$XDG_CONFIG_HOME/git-maint/config"

for who in am off check; do
	rm -rf "$work/$who"
	git clone -q "$corpus/repo" "$work/$who"
	git -C "$work/$who" checkout -q -b target origin/master
done

measure () {
	# measure <name> <dir> <command...>: "wall user sys KiB" into $work/<name>.time
	name=$1 dir=$2
	shift 2
	(cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>&1) || {
		echo "p0410: $name failed:" >&2
		tail -n 20 "$work/$name.out" >&2
		exit 1
	}
}

measure am "$work/am" git am -q -s "$signed"
# not -q: under check a verdict is computed where it is shown, on the Applying: lines
measure off "$work/off" "$MAINT_BUILD_DIR/bin/git-maint-queue" -s --attest=off target "$signed"
measure check "$work/check" "$MAINT_BUILD_DIR/bin/git-maint-queue" -s --attest=check target "$signed"
grep -q "^Applying: .* \[[GBU] " "$work/check.out" || {
	echo "p0410: queue --attest=check showed no verdict" >&2
	exit 1
}

for who in off check; do
	if [ "$(git -C "$work/am" rev-parse target)" != "$(git -C "$work/$who" rev-parse target)" ]; then
		echo "p0410: queue --attest=$who gave other commits than git am" >&2
		exit 1
	fi
done

read am_s am_u am_y am_kb <"$work/am.time"
read o_s o_u o_y o_kb <"$work/off.time"
read c_s c_u c_y c_kb <"$work/check.time"
awk -v n="$n" -v as="$am_s" -v ac="$am_u $am_y" -v os="$o_s" -v oc="$o_u $o_y" \
    -v cs="$c_s" -v cc="$c_u $c_y" -v ok="$o_kb" -v ck="$c_kb" 'BEGIN {
	split(ac, a, " "); split(oc, o, " "); split(cc, c, " ")
	acpu = a[1] + a[2]; ocpu = o[1] + o[2]; ccpu = c[1] + c[2]
	printf "p0410 queue %d signed patches (patatt ed25519 + DKIM rsa-sha256 each; same commits: yes)\n", n
	printf "                                  wall       cpu (user+sys)  peak memory\n"
	printf "  git am -s                       %8.2f s  %8.2f s\n", as, acpu
	printf "  git maint-queue --attest=off    %8.2f s  %8.2f s      %8d KiB\n", os, ocpu, ok
	printf "  git maint-queue --attest=check  %8.2f s  %8.2f s      %8d KiB\n", cs, ccpu, ck
	printf "  verification: %.2f s cpu, %.0f%% of queue --attest=check (%.2f ms a patch); check is %.1fx faster than git am (cpu)\n",
		ccpu - ocpu, (ccpu > 0 ? 100 * (ccpu - ocpu) / ccpu : 0), (n > 0 ? 1000 * (ccpu - ocpu) / n : 0),
		(ccpu > 0 ? acpu / ccpu : 0)
}'
rm -rf "$work/am" "$work/off" "$work/check"
