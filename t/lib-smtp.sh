# SPDX-License-Identifier: GPL-2.0-only
# A real SMTP server for the tests: t/smtp-server.py (Debian's
# python3-aiosmtpd, run by /usr/bin/python3) on 127.0.0.1, on a port the
# kernel picks, with STARTTLS (a throwaway CA made with openssl) and AUTH
# required. Source it after test-lib.sh.
#
#   smtp_make_ca                  CA and certificates under $SMTP_TLS (made once a run,
#                                 test_cache in test-lib.sh, and copied; made in place
#                                 without test-lib.sh, as for contrib/demo.sh):
#                                 ca.crt, server.{crt,key} for localhost/127.0.0.1,
#                                 wrong.{crt,key} for another name, self.{crt,key} self-signed
#   start_smtp_server [<opts>]    starts the server (spool $SMTP_SPOOL, port $SMTP_PORT);
#                                 opts are t/smtp-server.py's (--fail-after 3, --reject a@b,
#                                 --no-starttls, --plain, --cert/--key to override ...);
#                                 stop it with test_when_finished stop_smtp_server;
#                                 $SMTP_CLOSED_PORT is a port it holds where
#                                 nothing listens (connecting there is refused)
#   stop_smtp_server
#   smtp_mode [<opts>]            from its next connection on, the running server
#                                 behaves as if started with <opts> too (modes armed
#                                 afresh): one server per script, told per test how
#                                 to misbehave (its control file, $SMTP_CONTROL)
#   smtp_reset [<opts>]           empties the spool (removes it: no mail, log
#                                 connections counted from 1 again; the server
#                                 makes it again at its next connection), then
#                                 smtp_mode <opts>
#   smtp_config                   git config sendemail.* for that server (STARTTLS,
#                                 user $SMTP_USER, the test CA)
#   smtp_count                    how many messages the server accepted
#   smtp_header <n> <name>        a header of message n (unfolded, CR removed)
#   smtp_message_ids              the Message-IDs of all accepted messages, in order
#   notify_held_at_data <repo> [<command>...]
#                                 runs git-maint-notify --send -v in <repo> (after
#                                 <command>..., e.g. env PATH=...) with the server
#                                 holding the mail at DATA; meanwhile keeps the
#                                 process's cmdline, limits and environ (empty where
#                                 unreadable: a process holding a password is not
#                                 dumpable; root reads it anyway) in the trash
#                                 directory, its output in out and err; then the
#                                 server answers 421, and it exits 75
#
# The password the server wants is $SMTP_PASSWORD, given to it in a file
# (never on a command line); tests put it in the keyring themselves.

SMTP_USER=maint@example.org
SMTP_PASSWORD='s3cret-smtp-pw'
SMTP_TLS="$TRASH_DIRECTORY/smtp-tls"
SMTP_SPOOL="$TRASH_DIRECTORY/smtp-spool"
SMTP_CONTROL="$TRASH_DIRECTORY/smtp-control"
SMTP_PYTHON=/usr/bin/python3

smtp_make_ca () {
	test -f "$SMTP_TLS/server.crt" && return 0
	if command -v test_cache >/dev/null
	then
		test_cache smtp-ca "$MAINT_TEST_DIR/lib-smtp.sh" -- smtp_ca_make &&
		cp -R "$TEST_CACHE" "$SMTP_TLS"
	else
		# sourced by contrib/demo.sh, without test-lib.sh
		mkdir -p "$SMTP_TLS" &&
		(cd "$SMTP_TLS" && smtp_ca_make)
	fi
}

smtp_ca_make () {
	(
		ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes" &&
		openssl req -x509 $ec -keyout ca.key -out ca.crt -days 2 \
			-subj "/CN=git-maint test CA" \
			-addext basicConstraints=critical,CA:TRUE \
			-addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null &&
		for name in server:localhost wrong:mail.example.net
		do
			base=${name%%:*} host=${name#*:} &&
			openssl req $ec -keyout $base.key -out $base.csr \
				-subj "/CN=$host" 2>/dev/null &&
			printf "subjectAltName=DNS:%s,IP:127.0.0.1\n" "$host" >$base.ext &&
			if test $base = wrong
			then
				printf "subjectAltName=DNS:%s\n" "$host" >$base.ext
			fi &&
			openssl x509 -req -in $base.csr -CA ca.crt -CAkey ca.key \
				-CAcreateserial -days 2 -extfile $base.ext -out $base.crt 2>/dev/null ||
			return 1
		done &&
		openssl req -x509 $ec -keyout self.key -out self.crt -days 2 \
			-subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
	)
}

start_smtp_server () {
	smtp_make_ca &&
	rm -f "$TRASH_DIRECTORY/smtp-port" "$TRASH_DIRECTORY/smtp-pid" "$TRASH_DIRECTORY/smtp-closed-port" &&
	mkdir -p "$SMTP_SPOOL" &&
	printf '%s\n' "$SMTP_PASSWORD" >"$TRASH_DIRECTORY/smtp-password" || return 1
	# alone in its list: "a && b &" would put a in the background too
	"$SMTP_PYTHON" "$MAINT_TEST_DIR/smtp-server.py" --spool "$SMTP_SPOOL" \
		--port-file "$TRASH_DIRECTORY/smtp-port" --pid-file "$TRASH_DIRECTORY/smtp-pid" \
		--closed-port-file "$TRASH_DIRECTORY/smtp-closed-port" \
		--control-file "$SMTP_CONTROL" \
		--watch-pid $$ \
		--cert "$SMTP_TLS/server.crt" --key "$SMTP_TLS/server.key" \
		--user "$SMTP_USER" --password-file "$TRASH_DIRECTORY/smtp-password" \
		"$@" >"$TRASH_DIRECTORY/smtp-server.out" 2>&1 &
	# bounded: 20 s at most for Python to start listening (aiosmtpd's
	# imports alone take 0.2 s of CPU: polled every 50 ms, not 20, a
	# sleep process each time)
	i=0
	while ! test -s "$TRASH_DIRECTORY/smtp-port"
	do
		if test $i -ge 400 || ! kill -0 $! 2>/dev/null
		then
			echo "the SMTP server did not start:" >&2
			cat "$TRASH_DIRECTORY/smtp-server.out" >&2
			return 1
		fi
		sleep 0.05
		i=$((i + 1))
	done
	SMTP_PORT=$(cat "$TRASH_DIRECTORY/smtp-port") &&
	SMTP_CLOSED_PORT=$(cat "$TRASH_DIRECTORY/smtp-closed-port") &&
	SMTP_PID=$(cat "$TRASH_DIRECTORY/smtp-pid")
}

# One argument a line, after a "#" line numbering this version of the
# file (so every call changes it, even to the same modes); written in
# place by the shell, no process (the server reads it when a connection
# starts, after this; see t/smtp-server.py).
smtp_mode () {
	smtp_mode_n=$((${smtp_mode_n:-0} + 1)) &&
	printf '%s\n' "# $smtp_mode_n" "$@" >"$SMTP_CONTROL"
}

smtp_reset () {
	rm -rf "$SMTP_SPOOL" &&
	smtp_mode "$@"
}

# Stops the server (the python process itself: with an EXIT trap set, the
# shell may have kept a subshell between us and it) and waits, bounded, for it to go.
stop_smtp_server () {
	if test -n "$SMTP_PID"
	then
		kill $SMTP_PID 2>/dev/null
		i=0
		while kill -0 $SMTP_PID 2>/dev/null && test $i -lt 500
		do
			sleep 0.02
			i=$((i + 1))
		done
		SMTP_PID=
	fi
	return 0
}

smtp_config () {
	git config sendemail.smtpServer 127.0.0.1 &&
	git config sendemail.smtpServerPort "$SMTP_PORT" &&
	git config sendemail.smtpEncryption tls &&
	git config sendemail.smtpUser "$SMTP_USER" &&
	git config sendemail.smtpSSLCertPath "$SMTP_TLS/ca.crt"
}

# a glob, not ls | grep: asked after nearly every run (status 1 for none, as grep -c)
smtp_count () {
	set -- "$SMTP_SPOOL"/*.eml
	test -e "$1" || { echo 0; return 1; }
	echo $#
}

# one awk: the tests ask after nearly every run
smtp_header () {
	awk -v want="$2" '
		BEGIN { want = tolower(want) }
		{ gsub(/\r/, "") }
		$0 == "" { exit }
		/^[ \t]/ { if (on) { sub(/^[ \t]+/, " "); val = val $0 } next }
		{ if (on) print val; on = 0
		  name = tolower(substr($0, 1, index($0, ":") - 1))
		  if (name == want) { on = 1; val = substr($0, index($0, ":") + 2) } }
		END { if (on) print val }' "$SMTP_SPOOL/$(printf %04d "$1").eml"
}

# one awk for all the messages (the fault tests ask after every run)
smtp_message_ids () {
	set --
	for f in "$SMTP_SPOOL"/*.eml
	do
		test -f "$f" && set -- "$@" "$f"
	done
	test $# = 0 ||
	awk 'FNR == 1 { head = 1 }
		head { gsub(/\r/, ""); if ($0 == "") head = 0; else if (sub(/^Message-ID: /, "")) print }' "$@"
}

notify_held_at_data () {
	repo=$1 &&
	shift &&
	smtp_mode --stall-after 0 &&
	printf "[smtp]\n\ttimeout = 5\n" >"$repo/.git/maint.ini" &&
	(
		cd "$repo" &&
		{ "$@" git-maint-notify --send -v </dev/null >"$TRASH_DIRECTORY/out" 2>"$TRASH_DIRECTORY/err" & } &&
		pid=$! &&
		i=0 &&
		until grep -q "^smtp: > DATA" "$TRASH_DIRECTORY/err" || test $i -ge 100
		do
			sleep 0.1 && i=$((i + 1))
		done &&
		tr "\0" "\n" </proc/$pid/cmdline >"$TRASH_DIRECTORY/cmdline" &&
		cp /proc/$pid/limits "$TRASH_DIRECTORY/limits" &&
		{ tr "\0" "\n" </proc/$pid/environ >"$TRASH_DIRECTORY/environ" 2>/dev/null ||
			: >"$TRASH_DIRECTORY/environ"; } &&
		smtp_mode &&
		{ wait $pid; test $? = 75; }
	) &&
	rm "$repo/.git/maint.ini"
}
