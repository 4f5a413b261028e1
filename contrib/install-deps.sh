#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs the Debian packages git-maint needs to build and test, if any
# is missing. Elsewhere prints the list and stops.
#
#	sh contrib/install-deps.sh [--demo]
#
# --demo: only what the demo needs (contrib/demo.sh: the build, git, and
# python3 with aiosmtpd for its loopback mail server), quietly: one line
# on stderr, apt's own output in $MAINT_DEPS_LOG (default
# .build/install-deps.log), shown only when apt fails.
#
# Build: compiler, pkg-config, libgit2, libcurl, libsecret, inih, OpenSSL (SHA-1), asciidoctor.
# Tests: git, sharness, cmocka, GNU patch, python3 (t/perf/gen-repo.sh), an SMTP server (aiosmtpd), a
# Secret Service (gnome-keyring under dbus), GNU time, man, openssl, clang
# with its libFuzzer runtime (t0103), a web server for git http-backend (lighttpd, with TLS
# for https, t0720),
# an ssh server (openssh-server, t0730), msmtp (notify through a program),
# git send-email with its Perl SMTP modules (the oracle of t/perf/p0600),
# a public-inbox archive (public-inbox, t0800) and an IMAP server (dovecot-imapd, t0810);
# bash-completion, zsh and tmux for the completion tests (t0960);
# attestation: libopendkim to build, and to sign and check test mail
# patatt, python3-dkim (dkimpy, with dnspython for a loopback DNS server)
# and opendkim-tools (t0120); b4, the oracle of the trailers queue carries (t0211);
# gpg, gpg-agent and gpgsm to sign tags with openpgp and x509 (t0752); strace, to see
# which files a run opens (t0720: the system's CA bundle read by an https push only).
packages="build-essential pkg-config git libgit2-dev libcurl4-openssl-dev
libsecret-1-dev libinih-dev libssl-dev asciidoctor sharness libcmocka-dev patch time
man-db python3 python3-aiosmtpd gnome-keyring dbus dbus-daemon libsecret-tools openssl perl
clang libclang-rt-14-dev lighttpd lighttpd-mod-openssl openssh-server msmtp git-email libauthen-sasl-perl
libio-socket-ssl-perl libmailtools-perl public-inbox zlib1g-dev dovecot-imapd
bash-completion zsh tmux libopendkim-dev patatt python3-dkim python3-dnspython
opendkim-tools b4 gpg gpg-agent gpgsm strace"
# the build (the Makefile's PKG_NAMES), then what the demo runs
demo_packages="build-essential pkg-config libgit2-dev libcurl4-openssl-dev libsecret-1-dev
libinih-dev libssl-dev zlib1g-dev libopendkim-dev git python3 python3-aiosmtpd"

demo=
if [ "$1" = --demo ]; then
	demo=y
	packages=$demo_packages
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	echo "git-maint: not a Debian system; install the equivalents of:" >&2
	echo "  $packages" | tr '\n' ' ' >&2
	echo >&2
	exit 1
fi

# One dpkg-query for all of them (one a package read the whole status
# database: 1.4 s of CPU for each make check, make demo and t0990); a
# package may have a line per architecture, and one says "installed".
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' $packages 2>/dev/null |
	sed -n 's/^\([^ ]*\) .* installed$/\1/p' | tr '\n' ' ')"
missing=
for p in $packages; do
	case "$installed" in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

top=$(cd "$(dirname "$0")/.." && pwd)
log=${MAINT_DEPS_LOG:-$top/.build/install-deps.log}
if [ -n "$demo" ]; then
	mkdir -p "$(dirname "$log")"
	echo "git-maint: installing$missing (apt's output: $log)" >&2
else
	echo "git-maint: installing missing packages:$missing" >&2
fi
sudo=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		echo "git-maint: not root and no sudo; please install:$missing" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
# Servers among the packages (dovecot, lighttpd, sshd) are for the tests,
# which start their own on loopback ports; keep the packages from starting
# system-wide ones on every interface (policy-rc.d 101: "action forbidden").
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null &&
	$sudo chmod 755 "$policy" &&
	trap '$sudo rm -f "$policy"' EXIT
fi
install () {
	$sudo apt-get update -qq &&
	$sudo apt-get install -y -qq --no-install-recommends $missing
}
if [ -z "$demo" ]; then
	install >&2
elif ! install >"$log" 2>&1 </dev/null; then
	tail -n 20 "$log" >&2
	echo "git-maint: installing failed (the whole output: $log)" >&2
	exit 1
fi
