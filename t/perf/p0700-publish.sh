#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0700: git maint-publish against git push, to the same remote in the
# same run: wall-clock time, CPU time and peak memory of the client (GNU
# time %e, %U+%S, %M: the process and the children it waited for, so
# git push's pack-objects and publish's push worker count), and the bytes
# on the wire both ways (a counting proxy, t/perf/count-proxy.py, in one
# more run of each).
#
#   sh t/perf/p0700-publish.sh [git] [kernel]     (`make bench BENCH=p0700`)
#
# The data sets, built once and kept in $MAINT_PERF_CACHE (default
# t/perf/out/cache; keep it outside the work tree to share it):
#   git     git.git's history and tags, cloned from $MAINT_PERF_GIT_REPO (a
#           path or URL of a git.git clone; unset: skipped). The public
#           branch is the newest tag 150 first-parent commits before master;
#           the work is 100 of the commits after it (cherry-picked, the
#           first 100 that apply); the remote has the public branch and
#           every tag it contains (about a thousand).
#   kernel  t/perf/gen-kernel-size.py through git fast-import (>= 1 M
#           objects, >= 5,000 tags): the public branch is master~100, the
#           work master, the remote has the public branch and every tag.
#           Built when asked for (a long while, once).
#
# Each run pushes the first P0700_COMMITS (default "30 100") commits of the
# work over each transport of P0700_VIA (default all four): daemon (git
# daemon), http (lighttpd + git http-backend with basic auth, the
# password from a credential helper for both tools), https (the same
# over TLS, a throwaway certificate both tools trust by http.sslCAInfo),
# ssh (sshd on loopback, a throwaway key in ~/.ssh; git push's ssh told
# it by core.sshCommand), P0700_REPS times (default 5), publish and git
# push alternating which goes first, each to a fresh hard-linked copy of
# the remote. Prints the medians and the ratios publish / git push; fails
# when a push did not leave the remote at the work's tip, not when a goal
# is missed.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
: "${MAINT_PERF_CACHE:=$top/t/perf/out/cache}"
: "${P0700_REPS:=5}"
: "${P0700_COMMITS:=30 100}"
: "${P0700_VIA:=daemon http https ssh}"
run=$top/t/perf/out/p0700
sets=${*:-git kernel}

rm -rf "$run"
mkdir -p "$run/home" "$run/srv" "$MAINT_PERF_CACHE"
export HOME="$run/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
export GIT_COMMITTER_NAME="Greg Kroah-Hartman" GIT_COMMITTER_EMAIL="gregkh@linuxfoundation.org"
export GIT_AUTHOR_NAME="$GIT_COMMITTER_NAME" GIT_AUTHOR_EMAIL="$GIT_COMMITTER_EMAIL"
unset GIT_DIR GIT_WORK_TREE GIT_MAINT_TEST_CRASH_AT DBUS_SESSION_BUS_ADDRESS SSH_AUTH_SOCK \
	GIT_SSL_CAINFO GIT_SSL_CAPATH
PATH=$MAINT_BUILD_DIR/bin:$PATH

# ---- the data sets ----

# trim_remote <bare repo> <public commit>: the remote of a set: the public
# branch and the tags it contains, nothing else, repacked without the rest.
trim_remote () {
	git -C "$1" for-each-ref --format='delete %(refname)' 'refs/heads/*' 'refs/notes/*' 'refs/pull/*' |
		git -C "$1" update-ref --stdin
	git -C "$1" tag --no-merged "$2" | sed 's|^|delete refs/tags/|' | git -C "$1" update-ref --stdin
	git -C "$1" update-ref refs/heads/usb-next "$2"
	git -C "$1" config receive.denyNonFastForwards true
	git -C "$1" repack -adq
	git -C "$1" prune
}

build_git_set () {
	cache=$MAINT_PERF_CACHE/p0700-git
	test -f "$cache/ready" && return 0
	if test -z "$MAINT_PERF_GIT_REPO"; then
		echo "p0700: MAINT_PERF_GIT_REPO is not set (a git.git clone): the git set is skipped" >&2
		return 1
	fi
	echo "p0700: building the git.git set in $cache (once)..."
	rm -rf "$cache"
	mkdir -p "$cache"
	git clone -q --bare "$MAINT_PERF_GIT_REPO" "$cache/src.git"
	git -C "$cache/src.git" fetch -q origin 'refs/tags/*:refs/tags/*'
	public=$(git -C "$cache/src.git" describe --tags --abbrev=0 "master~150^{commit}")
	git clone -q --shared "$cache/src.git" "$cache/wt"
	git -C "$cache/wt" checkout -q -b work-next "$public^{commit}"
	n=0
	for c in $(git -C "$cache/src.git" rev-list --reverse --no-merges "$public..master"); do
		if git -C "$cache/wt" cherry-pick --allow-empty-message "$c" >/dev/null 2>&1; then
			n=$((n + 1))
		else
			git -C "$cache/wt" cherry-pick --abort >/dev/null 2>&1 || git -C "$cache/wt" reset -q --hard
		fi
		test $n -lt 100 || break
	done
	git init -q --bare "$cache/local.git"
	git -C "$cache/wt" push -q "$cache/local.git" "$public^{commit}:refs/heads/usb-next" \
		work-next:refs/heads/work-next
	git -C "$cache/local.git" fetch -q "$cache/src.git" 'refs/tags/*:refs/tags/*'
	git -C "$cache/local.git" repack -adq
	rm -rf "$cache/wt"
	git clone -q --mirror "$cache/local.git" "$cache/tmpl.git"
	trim_remote "$cache/tmpl.git" "$(git -C "$cache/local.git" rev-parse usb-next)"
	touch "$cache/ready"
}

build_kernel_set () {
	cache=$MAINT_PERF_CACHE/p0700-kernel
	test -f "$cache/ready" && return 0
	echo "p0700: building the kernel-size set in $cache (once; a long while)..."
	rm -rf "$cache"
	mkdir -p "$cache"
	git init -q --bare "$cache/src.git"
	python3 "$top/t/perf/gen-kernel-size.py" | git -C "$cache/src.git" fast-import --quiet
	git -C "$cache/src.git" repack -adq
	git clone -q --mirror "$cache/src.git" "$cache/local.git"
	git -C "$cache/local.git" update-ref refs/heads/usb-next "$(git -C "$cache/src.git" rev-parse master~100)"
	git -C "$cache/local.git" update-ref refs/heads/work-next "$(git -C "$cache/src.git" rev-parse master)"
	git clone -q --mirror "$cache/src.git" "$cache/tmpl.git"
	trim_remote "$cache/tmpl.git" "$(git -C "$cache/src.git" rev-parse master~100)"
	touch "$cache/ready"
}

# ---- the servers ----

PASSWORD=p0700-pw
# the test library's servers, outside sharness
TRASH_DIRECTORY=$run
cleanup () { :; }
test_set_prereq () { :; }
die () { :; }
. "$top/t/lib-git-server.sh"
. "$top/t/lib-tls.sh"
trap 'code=$?; set +e; stop_git_servers; exit $code' EXIT
# A counting proxy in front of each server, for the runs that count bytes.
start_proxy () {
	rm -f "$run/proxy-$1.port"
	python3 "$top/t/perf/count-proxy.py" "$2" "$run/proxy-$1.port" "$run/proxy-$1.count" \
		</dev/null >/dev/null 2>&1 &
	register_server $!
	while ! test -f "$run/proxy-$1.port"; do sleep 0.05; done
	cat "$run/proxy-$1.port"
}
# only the servers of the transports asked for (sshd needs root for /run/sshd)
via () { case " $P0700_VIA " in *" $1 "*) return 0 ;; esac; return 1; }
if via daemon; then
	start_git_daemon "$run/srv"
	daemon_proxy=$(start_proxy daemon "$DAEMON_PORT")
fi
if via http; then
	start_http_server "$run/srv" maint "$PASSWORD"
	http_port=$HTTP_PORT
	http_proxy=$(start_proxy http "$http_port")
fi
if via https; then
	mkdir -p "$run/tls"
	(cd "$run/tls" && tls_cert_make)
	start_http_server "$run/srv" maint "$PASSWORD" "server.modules += ( \"mod_openssl\" )
		ssl.engine = \"enable\"
		ssl.pemfile = \"$run/tls/cert.pem\"
		ssl.privkey = \"$run/tls/key.pem\""
	https_port=$HTTP_PORT
	https_proxy=$(start_proxy https "$https_port")
fi
if via ssh; then
	mkdir -p "$HOME/.ssh"
	ssh-keygen -q -t ed25519 -N "" -f "$HOME/.ssh/id_ed25519"
	cp "$HOME/.ssh/id_ed25519.pub" "$run/authorized_keys"
	start_ssh_server "$run/authorized_keys" || {
		echo "p0700: sshd did not start (root is needed for /run/sshd): leave ssh out of P0700_VIA" >&2
		exit 1
	}
	ssh_proxy=$(start_proxy ssh "$SSH_PORT")
	# the proxy's port shows the same host key
	sed -n "s/^\[127.0.0.1\]:$SSH_PORT /[127.0.0.1]:$ssh_proxy /p" "$HOME/.ssh/known_hosts" >>"$HOME/.ssh/known_hosts"
fi

for port in $http_port $http_proxy; do
	printf "http://maint:%s@127.0.0.1:%s\n" "$PASSWORD" "$port"
done >"$run/creds"
# localhost: libgit2 (mbedTLS) matches the certificate's DNS names only
for port in $https_port $https_proxy; do
	printf "https://maint:%s@localhost:%s\n" "$PASSWORD" "$port"
done >>"$run/creds"
chmod 600 "$run/creds"
for t in $P0700_VIA; do
	case $t in
	daemon|http|https|ssh) ;;
	*) echo "p0700: no transport '$t' (daemon, http, https, ssh)" >&2; exit 1 ;;
	esac
done

url_of () {	# transport remote-name counted
	case $1 in
	daemon) port=$DAEMON_PORT; test -z "$3" || port=$daemon_proxy; echo "git://127.0.0.1:$port/$2.git" ;;
	http) port=$http_port; test -z "$3" || port=$http_proxy; echo "http://127.0.0.1:$port/git/$2.git" ;;
	https) port=$https_port; test -z "$3" || port=$https_proxy; echo "https://localhost:$port/git/$2.git" ;;
	ssh) port=$SSH_PORT; test -z "$3" || port=$ssh_proxy; echo "ssh://$(id -un)@127.0.0.1:$port$run/srv/$2.git" ;;
	esac
}

counted () {	# transport: "up down" so far
	cat "$run/proxy-$1.count" 2>/dev/null || echo "0 0"
}

# prepare <set> <tool> <commits> <transport> [counted]: a fresh remote and
# local copy; the local's work-next holds the first <commits> of the work
prepare () {
	rm -rf "$run/srv/$2.git" "$run/$2"
	git clone -q --mirror "$cache/tmpl.git" "$run/srv/$2.git"
	git -C "$run/srv/$2.git" config http.receivepack true
	cp -al "$cache/local.git" "$run/$2"
	git -C "$run/$2" update-ref refs/heads/work-next \
		"$(git -C "$cache/local.git" rev-parse "work-next~$((100 - $3))")"
	git -C "$run/$2" config credential.helper "store --file=$run/creds"
	git -C "$run/$2" config http.sslCAInfo "$run/tls/cert.pem"
	git -C "$run/$2" config core.sshCommand \
		"ssh -i $HOME/.ssh/id_ed25519 -o IdentitiesOnly=yes -o UserKnownHostsFile=$HOME/.ssh/known_hosts -o BatchMode=yes"
	git -C "$run/$2" remote add r "$(url_of "$4" "$2" "$5")"
	printf '[tree "p"]\n\tpublic = usb-next\n\twork = work-next\n\tremote = r\n\tnotify = false\n' \
		>"$run/$2/maint.ini"
	want=$(git -C "$run/$2" rev-parse work-next)
}

# one <tool> <set> <commits> <transport> <rep> [counted]
one () {
	prepare "$2" "$1" "$3" "$4" "$6"
	before=$(counted "$4")
	case $1 in
	publish) cmd="git-maint-publish -q work-next" ;;
	push) cmd="git push -q r work-next:refs/heads/usb-next" ;;
	esac
	(cd "$run/$1" && /usr/bin/time -f "%e %U %S %M" -o "$run/time" $cmd >"$run/out" 2>&1) || {
		echo "p0700: $1 failed:" >&2
		cat "$run/out" >&2
		exit 1
	}
	got=$(git -C "$run/srv/$1.git" rev-parse refs/heads/usb-next)
	if test "$got" != "$want"; then
		echo "p0700: after $1 the remote is at $got, not $want" >&2
		exit 1
	fi
	if test -n "$6"; then
		sleep 0.2	# the proxy counts a connection once it closed
		after=$(counted "$4")
		echo "$2 $4 $3 $1 $before $after" | awk '{ print $1, $2, $3, $4, $7 - $5, $8 - $6 }' >>"$run/bytes"
	else
		read t u s kb <"$run/time"
		echo "$2 $4 $3 $1 $5 $t $(echo "$u $s" | awk '{ print $1 + $2 }') $kb" >>"$run/results"
	fi
}

: >"$run/results"
: >"$run/bytes"
for set in $sets; do
	case $set in
	git) build_git_set || continue ;;
	kernel) build_kernel_set ;;
	*) echo "p0700: no data set '$set'" >&2; exit 1 ;;
	esac
	objects=$(git -C "$cache/src.git" count-objects -v | awk '/^(count|in-pack):/ { n += $2 } END { print n }')
	tags=$(git -C "$cache/tmpl.git" tag | wc -l)
	echo "p0700 $set: $objects objects, the remote $tags tags"
	for commits in $P0700_COMMITS; do
		for transport in $P0700_VIA; do
			r=1
			while test $r -le "$P0700_REPS"; do
				if test $((r % 2)) = 1; then
					one publish "$set" "$commits" "$transport" $r
					one push "$set" "$commits" "$transport" $r
				else
					one push "$set" "$commits" "$transport" $r
					one publish "$set" "$commits" "$transport" $r
				fi
				r=$((r + 1))
			done
			one publish "$set" "$commits" "$transport" 0 counted
			one push "$set" "$commits" "$transport" 0 counted
		done
	done
done

# Medians per set, transport, commits and tool; then the ratios.
awk -v reps="$P0700_REPS" '
function median(key, n,   i, j, t, a) {
	n = cnt[key]
	for (i = 1; i <= n; i++) a[i] = v[key, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FILENAME ~ /results$/ {
	k = $1 " " $2 " " $3 " " $4
	if (!(k in seen)) { seen[k] = 1; order[++no] = $1 " " $2 " " $3 }
	for (f = 6; f <= 8; f++) { key = k " " f; v[key, ++cnt[key]] = $f }
	next
}
{ up[$1 " " $2 " " $3 " " $4] = $5; down[$1 " " $2 " " $3 " " $4] = $6 }
END {
	printf "p0700: medians of %d runs each; ratio = publish / git push (goals: wall 1.2, memory 1.5, bytes 1.5)\n", reps
	printf "%-7s %-7s %4s | %8s %8s %5s | %7s %7s %5s | %8s %8s %5s | %9s %9s %5s | %9s %9s\n",
		"set", "via", "cmts", "wall pub", "wall git", "ratio", "cpu pub", "cpu git", "ratio",
		"MiB pub", "MiB git", "ratio", "sent pub", "sent git", "ratio", "recv pub", "recv git"
	for (i = 1; i <= no; i++) {
		split(order[i], p, " ")
		if (seen2[order[i]]++) continue
		kp = order[i] " publish"; kg = order[i] " push"
		wp = median(kp " 6"); wg = median(kg " 6"); cp = median(kp " 7"); cg = median(kg " 7")
		mp = median(kp " 8") / 1024; mg = median(kg " 8") / 1024
		printf "%-7s %-7s %4s | %7.2fs %7.2fs %5.2f | %6.2fs %6.2fs %5.2f | %8.1f %8.1f %5.2f | %9d %9d %5.2f | %9d %9d\n",
			p[1], p[2], p[3], wp, wg, (wg ? wp / wg : 0), cp, cg, (cg ? cp / cg : 0),
			mp, mg, (mg ? mp / mg : 0), up[kp], up[kg], (up[kg] ? up[kp] / up[kg] : 0),
			down[kp], down[kg]
	}
}' "$run/results" "$run/bytes"
