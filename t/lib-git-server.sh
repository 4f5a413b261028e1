# SPDX-License-Identifier: GPL-2.0-only
# Real git servers on loopback for the publish tests. Source after
# test-lib.sh (and lib-keyring.sh, which re-runs the script under its own
# session bus).
#
#   start_git_daemon <dir>        git daemon --enable=receive-pack serving the
#                                 bare repositories under <dir>; sets
#                                 DAEMON_URL (git://127.0.0.1:<port>) and DAEMON_PID
#   start_http_server <dir> <user> <password> [<lighttpd settings>]
#                                 git http-backend under lighttpd (CGI), basic
#                                 auth for every request, each request a line
#                                 of httpd/access.log ("<request line> <status>");
#                                 the settings (lines of lighttpd.conf, e.g.
#                                 "server.max-keep-alive-idle = 2") added; sets
#                                 HTTP_URL (http://127.0.0.1:<port>/git) and HTTP_PID
#   start_ssh_server <authorized_keys>
#                                 Debian's sshd on loopback, public-key login
#                                 only, for the running user; its host key is
#                                 added to ~/.ssh/known_hosts (HOME is the trash
#                                 directory); sets SSH_PORT, SSH_PID. Needs
#                                 /run/sshd, sshd's own runtime directory, made
#                                 here as its init script makes it (root only;
#                                 else the SSHD prerequisite is not set)
#   path_without_spaces <dir>     prints a symlink in /tmp to <dir> (an ssh URL
#                                 holds no space; the trash directory's name
#                                 has one), removed with the servers
#   start_silent_server           accepts connections and never answers;
#                                 sets SILENT_PORT and SILENT_PID
#   stop_server <pid>             stops one of them (bounded wait)
#   wait_for_port_closed <port>...
#                                 waits (bounded) until nothing accepts on
#                                 the ports
#   stop_git_servers              stops every server this script started
#                                 (also run when the script exits, pass or fail)
#   make_bare_server_repo <path>  a bare repository with
#                                 receive.denyNonFastForwards, as public
#                                 servers are set up
#
# Ports: a free one is asked of the kernel, then handed to the server; a
# colleague's test may take it meanwhile, so a server that does not come
# up is started again on another port (a few times). Every wait is
# bounded (10 s).

# sharness names it SHARNESS_TRASH_DIRECTORY.
: "${TRASH_DIRECTORY:=$SHARNESS_TRASH_DIRECTORY}"

GIT_SERVER_PIDS="$TRASH_DIRECTORY/.git-server-pids"

# python3 resolved once, through a version manager's shim (pyenv) if there
# is one: the shim costs a quarter of a second a call, and the servers,
# ports and clients here call python3 often. The same interpreter runs; a
# symbolic link to it comes first in PATH (background jobs and scripts'
# "#!/usr/bin/env python3" lines see it too, which a shell function would
# not give them). Done on the first start_* (not in a $(...) subshell,
# whose PATH would not last), so scripts that start no server pay nothing;
# not at all under make check, which resolves it once for every script
# (MAINT_TEST_PYTHON_DIR, t/test-lib.sh).
use_resolved_python3 () {
	test -z "$maint_python3$MAINT_TEST_PYTHON_DIR" || return 0
	maint_python3=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
	if test -x "$maint_python3" && mkdir -p "$TRASH_DIRECTORY/.python3-bin" &&
		ln -sf "$maint_python3" "$TRASH_DIRECTORY/.python3-bin/python3"
	then
		PATH="$TRASH_DIRECTORY/.python3-bin:$PATH"
	fi
	return 0
}

# in_repo <dir> <command>...: runs <command> in <dir>, as git -C <dir> does,
# for a shell function (queue_commit) or one of our programs run without
# git's dispatch in front (a git process less), redirections the caller's.
in_repo () {
	(cd "$1" && shift && "$@")
}

# The python helpers here and in lib-archive.sh and lib-imap.sh need only
# python's standard library: -S skips the site module, whose .pth files
# can cost more than the helper (a version manager's python: 100 ms of
# CPU a start with them, 48 ms without).
# free_port [<n>]: <n> (1) free ports, one a line, all different (held
# together until printed)
free_port () {
	python3 -S - "${1:-1}" <<-\EOF
	import socket, sys
	held = [socket.socket() for _ in range(int(sys.argv[1]))]
	for s in held:
	    s.bind(("127.0.0.1", 0))
	print("\n".join(str(s.getsockname()[1]) for s in held))
	EOF
}

# wait_for_port <port> <pid> [<port>...]: 0 once something accepts on
# each port, 1 when <pid> died or 10 s passed.
wait_for_port () {
	python3 -S - "$@" <<-\EOF
	import os, socket, sys, time
	pid = int(sys.argv[2])
	ports = [int(sys.argv[1])] + [int(p) for p in sys.argv[3:]]
	end = time.monotonic() + 10
	while time.monotonic() < end:
	    try:
	        os.kill(pid, 0)
	    except OSError:
	        sys.exit(1)
	    try:
	        socket.create_connection(("127.0.0.1", ports[0]), 0.5).close()
	        ports.pop(0)
	        if not ports:
	            sys.exit(0)
	    except OSError:
	        time.sleep(0.05)
	sys.exit(1)
	EOF
}

# wait_for_port_closed <port>...: 0 once nothing accepts on any of the
# ports (a stopped server's listeners gone), 1 after 10 s.
wait_for_port_closed () {
	python3 -S - "$@" <<-\EOF
	import socket, sys, time
	ports = [int(p) for p in sys.argv[1:]]
	end = time.monotonic() + 10
	while time.monotonic() < end:
	    for port in ports:
	        try:
	            socket.create_connection(("127.0.0.1", port), 0.5).close()
	            break
	        except OSError:
	            pass
	    else:
	        sys.exit(0)
	    time.sleep(0.02)
	sys.exit(1)
	EOF
}

register_server () {
	echo "$1" >>"$GIT_SERVER_PIDS"
}

stop_server () {
	kill "$1" 2>/dev/null
	n=0
	while kill -0 "$1" 2>/dev/null && test $n -lt 500
	do
		sleep 0.02
		n=$((n + 1))
	done
	kill -9 "$1" 2>/dev/null
	if test -f "$GIT_SERVER_PIDS"
	then
		grep -v "^$1\$" "$GIT_SERVER_PIDS" >"$GIT_SERVER_PIDS.new"
		mv "$GIT_SERVER_PIDS.new" "$GIT_SERVER_PIDS"
	fi
	return 0
}

stop_git_servers () {
	if test -f "$GIT_SERVER_PIDS.links"
	then
		while read link
		do
			rm -f "$link"
		done <"$GIT_SERVER_PIDS.links"
		rm -f "$GIT_SERVER_PIDS.links"
	fi
	test -f "$GIT_SERVER_PIDS" || return 0
	for pid in $(cat "$GIT_SERVER_PIDS")
	do
		stop_server "$pid"
	done
	rm -f "$GIT_SERVER_PIDS"
}

# Servers go when the script ends, whether its tests passed (sharness'
# final cleanup, before the trash directory goes) or not (the exit trap).
cleanup stop_git_servers
trap 'code=$?; stop_git_servers; (exit $code); die' EXIT

make_bare_server_repo () {
	git init -q --bare "$1" &&
	# as git config writes them, without two more gits
	printf '[receive]\n\tdenyNonFastForwards = true\n\tdenyDeletes = true\n' >>"$1/config"
}

start_git_daemon () {
	use_resolved_python3
	tries=0
	while test $tries -lt 5
	do
		port=$(free_port) || return 1
		git daemon --listen=127.0.0.1 --port="$port" --reuseaddr \
			--base-path="$1" --export-all --enable=receive-pack \
			--informative-errors "$1" >>"$TRASH_DIRECTORY/daemon.log" 2>&1 \
			</dev/null 5>&- 6>&- 7>&- 8>&- 9>&- &
		DAEMON_PID=$!
		if wait_for_port "$port" "$DAEMON_PID"
		then
			register_server "$DAEMON_PID"
			DAEMON_URL="git://127.0.0.1:$port"
			DAEMON_PORT=$port
			return 0
		fi
		stop_server "$DAEMON_PID"
		tries=$((tries + 1))
	done
	echo "git daemon did not start; see daemon.log" >&2
	return 1
}

# lighttpd delays its answer to a wrong password (auth.delay-invalid-creds,
# a brake on guessing); the tests check what a refusal says, not its
# timing, and the brake cost t0720 a second a refusal: off.
start_http_server () {
	use_resolved_python3
	dir=$1 user=$2 password=$3 extra=$4
	mkdir -p "$TRASH_DIRECTORY/httpd/docroot" &&
	printf '%s:%s\n' "$user" "$password" >"$TRASH_DIRECTORY/httpd/users" &&
	tries=0
	while test $tries -lt 5
	do
		port=$(free_port) || return 1
		cat >"$TRASH_DIRECTORY/httpd/lighttpd.conf" <<-EOF || return 1
		server.modules = ( "mod_alias", "mod_auth", "mod_authn_file", "mod_setenv", "mod_cgi", "mod_accesslog" )
		server.bind = "127.0.0.1"
		server.port = $port
		server.document-root = "$TRASH_DIRECTORY/httpd/docroot"
		server.errorlog = "$TRASH_DIRECTORY/httpd/error.log"
		server.feature-flags = ( "auth.delay-invalid-creds" => "disable" )
		accesslog.filename = "$TRASH_DIRECTORY/httpd/access.log"
		accesslog.format = "%r %s"
		alias.url = ( "/git" => "/usr/lib/git-core/git-http-backend" )
		\$HTTP["url"] =~ "^/git" {
			cgi.assign = ( "" => "" )
			setenv.add-environment = (
				"GIT_PROJECT_ROOT" => "$dir",
				"GIT_HTTP_EXPORT_ALL" => ""
			)
			auth.backend = "plain"
			auth.backend.plain.userfile = "$TRASH_DIRECTORY/httpd/users"
			auth.require = ( "" => ( "method" => "basic", "realm" => "git", "require" => "valid-user" ) )
		}
		$extra
		EOF
		lighttpd -D -f "$TRASH_DIRECTORY/httpd/lighttpd.conf" >>"$TRASH_DIRECTORY/httpd/out.log" 2>&1 \
			</dev/null 5>&- 6>&- 7>&- 8>&- 9>&- &
		HTTP_PID=$!
		if wait_for_port "$port" "$HTTP_PID"
		then
			register_server "$HTTP_PID"
			HTTP_URL="http://127.0.0.1:$port/git"
			HTTP_PORT=$port
			return 0
		fi
		stop_server "$HTTP_PID"
		tries=$((tries + 1))
	done
	echo "lighttpd did not start; see httpd/error.log" >&2
	return 1
}

path_without_spaces () {
	link=$(mktemp -u /tmp/maint-publish.XXXXXX) &&
	echo "$link" >>"$GIT_SERVER_PIDS.links" &&
	ln -s "$1" "$link" &&
	echo "$link"
}

if test -x /usr/sbin/sshd && { test -d /run/sshd || mkdir -p /run/sshd 2>/dev/null; }
then
	test_set_prereq SSHD
fi

start_ssh_server () {
	use_resolved_python3
	d="$TRASH_DIRECTORY/sshd"
	mkdir -p "$d" "$HOME/.ssh" &&
	rm -f "$d/host_key" "$d/host_key.pub" &&
	ssh-keygen -q -t ed25519 -N "" -f "$d/host_key" || return 1
	tries=0
	while test $tries -lt 5
	do
		port=$(free_port) || return 1
		cat >"$d/sshd_config" <<-EOF || return 1
		Port $port
		ListenAddress 127.0.0.1
		HostKey "$d/host_key"
		AuthorizedKeysFile "$1"
		AuthenticationMethods publickey
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		PermitRootLogin prohibit-password
		StrictModes no
		UsePAM no
		PidFile none
		LogLevel ERROR
		EOF
		/usr/sbin/sshd -D -e -f "$d/sshd_config" >>"$d/log" 2>&1 \
			</dev/null 5>&- 6>&- 7>&- 8>&- 9>&- &
		SSH_PID=$!
		if wait_for_port "$port" "$SSH_PID"
		then
			register_server "$SSH_PID"
			SSH_PORT=$port
			echo "[127.0.0.1]:$port $(cut -d" " -f1-2 "$d/host_key.pub")" >>"$HOME/.ssh/known_hosts"
			return 0
		fi
		stop_server "$SSH_PID"
		tries=$((tries + 1))
	done
	echo "sshd did not start; see sshd/log" >&2
	return 1
}

# Takes connections and holds them without a byte: a server that hangs.
start_silent_server () {
	use_resolved_python3
	# not "rm ... && python3 ... &": that puts the whole list in the
	# background, and $! is then a subshell, not the server to stop
	rm -f "$TRASH_DIRECTORY/silent.port" || return 1
	python3 -S - "$TRASH_DIRECTORY/silent.port" <<-\EOF >/dev/null 2>&1 5>&- 6>&- 7>&- 8>&- 9>&- &
	import socket, sys, time
	s = socket.socket()
	s.bind(("127.0.0.1", 0))
	s.listen(16)
	with open(sys.argv[1] + ".tmp", "w") as f:
	    f.write("%d\n" % s.getsockname()[1])
	import os
	os.rename(sys.argv[1] + ".tmp", sys.argv[1])
	held = []
	while True:
	    c, _ = s.accept()
	    held.append(c)
	EOF
	SILENT_PID=$! &&
	register_server "$SILENT_PID" &&
	n=0 &&
	while ! test -f "$TRASH_DIRECTORY/silent.port" && test $n -lt 500
	do
		sleep 0.02
		n=$((n + 1))
	done &&
	SILENT_PORT=$(cat "$TRASH_DIRECTORY/silent.port")
}
