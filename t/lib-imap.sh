# SPDX-License-Identifier: GPL-2.0-only
# A real IMAP server on loopback for the fetch tests: Debian's dovecot,
# rootless, with its own configuration under the trash directory: a
# throwaway certificate (lib-tls.sh), one user from a passwd-file, mail in
# Maildirs. Source after test-lib.sh (and lib-keyring.sh).
#
#   start_imap            dovecot on free loopback ports: IMAPS on
#                         IMAP_PORT, IMAP with STARTTLS required (no
#                         login before it) on IMAP_PLAIN_PORT; sets those,
#                         IMAP_PID, IMAP_USER, IMAP_PASSWORD and IMAP_CA
#                         (the certificate to trust)
#   start_no_starttls_server
#                         a fake IMAP server that offers no STARTTLS and
#                         logs every line it gets to no-starttls.log; sets
#                         NO_TLS_PORT
#   stop_imap             stops it: returns once neither port accepts
#                         (bounded wait; dovecot's master holds its
#                         listeners for a fixed second of grace for its
#                         log process, then exits)
#   imap_append <folder> <flags> <file>... [-- <folder> <flags> <file>...]...
#                         appends each file (one message) to <folder> with
#                         the flags ("" or "\Seen ..."), creating the folder;
#                         several groups, separated by "--", in one login
#   imap_flags <folder>   prints "<uid> <flags>" for each message, read
#                         with EXAMINE (which changes no flag)
#
# The server runs as the user running the tests; as root it runs as
# Debian's "dovecot" system user (setpriv), never as root, and the
# trash directory's server files are handed to that user. Without
# dovecot the DOVECOT prerequisite is not set. The servers go when the
# script ends (lib-git-server.sh's cleanup).
#
# Dovecot's brakes on password guessing are off (the 2 s delay of a failed
# login, and the per-IP penalty that then delays every login from
# 127.0.0.1 by up to 15 s): the tests check what a refused login says,
# not how long it takes, and with the brakes on one wrong password costs
# the later tests of the script a dozen seconds.

. "$MAINT_TEST_DIR/lib-git-server.sh"
. "$MAINT_TEST_DIR/lib-tls.sh"

if test -x /usr/sbin/dovecot && command -v python3 >/dev/null 2>&1 &&
   { test "$(id -u)" != 0 || { id dovecot >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1; }; }
then
	test_set_prereq DOVECOT
fi

IMAP_USER=tester
IMAP_PASSWORD='imap-pw-9f3c'
IMAP_DIR="$TRASH_DIRECTORY/imap"
IMAP_CA="$IMAP_DIR/cert.pem"

imap_write_config () {
	cat >"$IMAP_DIR/dovecot.conf" <<-EOF
	protocols = imap
	listen = 127.0.0.1
	base_dir = $IMAP_DIR/run
	state_dir = $IMAP_DIR/state
	instance_name = maint-test-$1
	log_path = $IMAP_DIR/dovecot.log
	ssl = required
	ssl_cert = <$IMAP_DIR/cert.pem
	ssl_key = <$IMAP_DIR/key.pem
	default_login_user = $2
	default_internal_user = $2
	default_internal_group = $3
	first_valid_uid = 1
	mail_location = maildir:~/Maildir
	auth_mechanisms = plain login
	auth_failure_delay = 0
	passdb {
	  driver = passwd-file
	  args = scheme=PLAIN $IMAP_DIR/passwd
	}
	userdb {
	  driver = passwd-file
	  args = $IMAP_DIR/passwd
	}
	service imap-login {
	  chroot =
	  inet_listener imap {
	    port = $4
	  }
	  inet_listener imaps {
	    port = $1
	    ssl = yes
	  }
	}
	service anvil {
	  chroot =
	  unix_listener anvil-auth-penalty {
	    mode = 0
	  }
	}
	namespace inbox {
	  inbox = yes
	  separator = /
	}
	EOF
}

start_imap () {
	use_resolved_python3
	if test "$(id -u)" = 0
	then
		user=dovecot group=$(id -gn dovecot) run_as="setpriv --reuid=dovecot --regid=$group --init-groups"
	else
		user=$(id -un) group=$(id -gn) run_as=
	fi
	mkdir -p "$IMAP_DIR/run" "$IMAP_DIR/state" "$IMAP_DIR/home" &&
	make_tls_cert "$IMAP_DIR" &&
	echo "$IMAP_USER:{PLAIN}$IMAP_PASSWORD:$(id -u $user):$(id -g $user)::$IMAP_DIR/home/$IMAP_USER" \
		>"$IMAP_DIR/passwd" || return 1
	tries=0
	while test $tries -lt 5
	do
		ports=$(free_port 2) &&
		port=${ports%%"$LF"*} &&
		plain_port=${ports#*"$LF"} &&
		imap_write_config "$port" "$user" "$group" "$plain_port" || return 1
		if test -n "$run_as"
		then
			chown -R "$user:$group" "$IMAP_DIR" || return 1
		fi
		$run_as /usr/sbin/dovecot -F -c "$IMAP_DIR/dovecot.conf" \
			>>"$IMAP_DIR/out.log" 2>&1 </dev/null 5>&- 6>&- 7>&- 8>&- 9>&- &
		IMAP_PID=$!
		if wait_for_port "$port" "$IMAP_PID" "$plain_port"
		then
			register_server "$IMAP_PID"
			IMAP_PORT=$port
			IMAP_PLAIN_PORT=$plain_port
			return 0
		fi
		stop_server "$IMAP_PID"
		tries=$((tries + 1))
	done
	echo "dovecot did not start; see imap/dovecot.log" >&2
	return 1
}

stop_imap () {
	kill "$IMAP_PID" 2>/dev/null
	wait_for_port_closed "$IMAP_PORT" "$IMAP_PLAIN_PORT"
}

# python's imaplib, the test's own IMAP client
imap_client () {
	use_resolved_python3
	python3 -S - "$IMAP_PORT" "$IMAP_CA" "$IMAP_USER" "$IMAP_PASSWORD" "$@" <<-\EOF
	import imaplib, ssl, sys
	port, ca, user, pw, what = sys.argv[1:6]
	args = sys.argv[6:]
	ctx = ssl.create_default_context(cafile=ca)
	m = imaplib.IMAP4_SSL("127.0.0.1", int(port), ssl_context=ctx)
	m.login(user, pw)
	if what == "append":
	    groups = [[]]
	    for a in args:
	        if a == "--":
	            groups.append([])
	        else:
	            groups[-1].append(a)
	    for folder, flags, *paths in groups:
	        m.create(folder)
	        for path in paths:
	            with open(path, "rb") as f:
	                data = f.read()
	            if data.startswith(b"From "):
	                data = data.split(b"\n", 1)[1]
	            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
	            typ, _ = m.append(folder, flags or None, None, data)
	            if typ != "OK":
	                sys.exit("append failed")
	elif what == "flags":
	    folder = args[0]
	    typ, _ = m.select(folder, readonly=True)
	    if typ != "OK":
	        sys.exit("no folder " + folder)
	    typ, data = m.uid("FETCH", "1:*", "(FLAGS)")
	    for d in data:
	        if d:
	            print(d.decode())
	m.logout()
	EOF
}

imap_append () {
	imap_client append "$@"
}

imap_flags () {
	imap_client flags "$1"
}

start_no_starttls_server () {
	use_resolved_python3
	# not "rm ... && python3 ... &": that puts the whole list in the
	# background, and $! is then a subshell, not the server to stop
	rm -f "$TRASH_DIRECTORY/no-starttls.port" || return 1
	python3 -S - "$TRASH_DIRECTORY/no-starttls" <<-\EOF >/dev/null 2>&1 5>&- 6>&- 7>&- 8>&- 9>&- &
	import os, socket, sys
	base = sys.argv[1]
	s = socket.socket()
	s.bind(("127.0.0.1", 0))
	s.listen(4)
	with open(base + ".port.tmp", "w") as f:
	    f.write("%d\n" % s.getsockname()[1])
	os.rename(base + ".port.tmp", base + ".port")
	while True:
	    c, _ = s.accept()
	    c.sendall(b"* OK fake IMAP ready\r\n")
	    f = c.makefile("rb")
	    with open(base + ".log", "ab") as log:
	        for line in f:
	            log.write(line)
	            log.flush()
	            tag = line.split(b" ")[0]
	            if b"CAPABILITY" in line.upper():
	                c.sendall(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n")
	            elif b"LOGOUT" in line.upper():
	                c.sendall(b"* BYE\r\n" + tag + b" OK bye\r\n")
	                break
	            else:
	                c.sendall(tag + b" OK whatever\r\n")
	    c.close()
	EOF
	register_server $! &&
	n=0 &&
	while ! test -f "$TRASH_DIRECTORY/no-starttls.port" && test $n -lt 500
	do
		sleep 0.02
		n=$((n + 1))
	done &&
	NO_TLS_PORT=$(cat "$TRASH_DIRECTORY/no-starttls.port")
}
