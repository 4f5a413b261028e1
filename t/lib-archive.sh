# SPDX-License-Identifier: GPL-2.0-only
# A real public-inbox archive on loopback for the fetch tests: Debian's
# public-inbox, rootless, with its own configuration under the trash
# directory. Source after test-lib.sh.
#
#   archive_init <list> [<opt>...] an empty v2 inbox <list> (address
#                                  <list>@example.com), its own PI_CONFIG,
#                                  spam checks off; <opt> are
#                                  public-inbox-init's: "-L basic" for
#                                  an inbox only fetched from (no Xapian
#                                  search index: its delivery costs a
#                                  third less)
#   archive_deliver <list> <mbox>  delivers every message of <mbox> to
#                                  <list> as public-inbox-mda does, in
#                                  one process
#   start_archive [https]          public-inbox-httpd on a free loopback
#                                  port, serving every inbox; sets
#                                  ARCHIVE_URL (http://127.0.0.1:<port>, or
#                                  https:// with the certificate of
#                                  make_tls_cert in $TRASH_DIRECTORY/tls),
#                                  ARCHIVE_PORT and ARCHIVE_PID
#   stop_archive                   stops it (bounded wait)
#   start_static_server <dir>      files as they are (below)
#   start_hostile_http <mode>      an HTTP server that answers as no
#                                  archive should (below)
#
# Without public-inbox the PUBLIC_INBOX prerequisite is not set. The
# servers go when the script ends (lib-git-server.sh's cleanup).

. "$MAINT_TEST_DIR/lib-git-server.sh"
. "$MAINT_TEST_DIR/lib-tls.sh"

if command -v public-inbox-init >/dev/null 2>&1 &&
   command -v public-inbox-mda >/dev/null 2>&1 &&
   command -v public-inbox-httpd >/dev/null 2>&1
then
	test_set_prereq PUBLIC_INBOX
fi

PI_CONFIG="$TRASH_DIRECTORY/pi/config"
export PI_CONFIG

archive_init () {
	mkdir -p "$TRASH_DIRECTORY/pi" &&
	archive_list=$1 &&
	shift &&
	public-inbox-init -V2 "$@" "$archive_list" "$TRASH_DIRECTORY/pi/$archive_list" \
		"http://127.0.0.1/$archive_list/" "$archive_list@example.com" &&
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
}

archive_deliver () {
	rm -rf "$TRASH_DIRECTORY/pi/split" &&
	mkdir "$TRASH_DIRECTORY/pi/split" &&
	git mailsplit -o"$TRASH_DIRECTORY/pi/split" "$2" >/dev/null &&
	perl -w - "$1@example.com" "$TRASH_DIRECTORY/pi/split"/* <<-\EOF
	# What public-inbox-mda --no-precheck does with one message (the
	# inbox's filter, the list headers, the importer), for all of them in
	# one process and one commit: mda costs 0.4 s a message to start.
	use strict;
	use PublicInbox::Config;
	use PublicInbox::Eml;
	use PublicInbox::InboxWritable;
	use PublicInbox::MDA;
	use PublicInbox::Filter::Base;
	my $address = shift @ARGV;
	my $ibx = PublicInbox::Config->new->lookup($address)
		or die "no inbox for $address\n";
	$ibx = PublicInbox::InboxWritable->new($ibx);
	$ibx->{filter} ||= 'PublicInbox::Filter::Base';
	my $im = $ibx->importer(0);
	for my $path (@ARGV) {
		open(my $fh, '<', $path) or die "$path: $!\n";
		my $str = do { local $/; <$fh> };
		$str =~ s/\A[\r\n]*From [^\r\n]*\r?\n//s;
		my $eml = PublicInbox::Eml->new(\$str);
		my $ret = $ibx->filter->delivery($eml);
		if (ref($ret)) {
			$eml = $ret;
		} elsif ($ret == PublicInbox::Filter::Base::REJECT) {
			die "$path: rejected: " . $ibx->filter->err . "\n";
		} elsif ($ret == PublicInbox::Filter::Base::IGNORE) {
			next;
		}
		PublicInbox::MDA->set_list_headers($eml, $ibx);
		defined($im->add($eml)) or die "$path: not added\n";
	}
	$im->done;
	EOF
}

start_archive () {
	use_resolved_python3
	scheme=http listen_opts=
	if test "$1" = https
	then
		scheme=https
		test -f "$TRASH_DIRECTORY/tls/cert.pem" || make_tls_cert "$TRASH_DIRECTORY/tls" || return 1
		listen_opts="?cert=$TRASH_DIRECTORY/tls/cert.pem,key=$TRASH_DIRECTORY/tls/key.pem"
	fi
	tries=0
	while test $tries -lt 5
	do
		port=$(free_port) || return 1
		public-inbox-httpd -W0 -l "$scheme://127.0.0.1:$port$listen_opts" \
			>>"$TRASH_DIRECTORY/pi/httpd.log" 2>&1 </dev/null 5>&- 6>&- 7>&- 8>&- 9>&- &
		ARCHIVE_PID=$!
		if wait_for_port "$port" "$ARCHIVE_PID"
		then
			register_server "$ARCHIVE_PID"
			ARCHIVE_URL="$scheme://127.0.0.1:$port"
			ARCHIVE_PORT=$port
			return 0
		fi
		stop_server "$ARCHIVE_PID"
		tries=$((tries + 1))
	done
	echo "public-inbox-httpd did not start; see pi/httpd.log" >&2
	return 1
}

stop_archive () {
	stop_server "$ARCHIVE_PID"
}

# start_static_server <dir>: python's http.server on a free loopback port,
# serving the files under <dir> as they are (a hostile "archive"); sets
# STATIC_URL (http://127.0.0.1:<port>) and STATIC_PID.
start_static_server () {
	use_resolved_python3
	tries=0
	while test $tries -lt 5
	do
		port=$(free_port) || return 1
		python3 -S -m http.server --bind 127.0.0.1 --directory "$1" "$port" \
			>>"$TRASH_DIRECTORY/static.log" 2>&1 </dev/null 5>&- 6>&- 7>&- 8>&- 9>&- &
		STATIC_PID=$!
		if wait_for_port "$port" "$STATIC_PID"
		then
			register_server "$STATIC_PID"
			STATIC_URL="http://127.0.0.1:$port"
			return 0
		fi
		stop_server "$STATIC_PID"
		tries=$((tries + 1))
	done
	echo "python3 -m http.server did not start; see static.log" >&2
	return 1
}

# start_hostile_http <mode> [<arg>]: t/http-hostile.py on a free loopback
# port, answering every request as <mode> says (empty-members [<delay>],
# big-header, many-headers, drip); sets HOSTILE_URL
# (http://127.0.0.1:<port>) and HOSTILE_PID.
start_hostile_http () {
	use_resolved_python3
	rm -f "$TRASH_DIRECTORY/hostile.port" || return 1
	python3 -S "$MAINT_TEST_DIR/http-hostile.py" "$TRASH_DIRECTORY/hostile.port" "$@" \
		>>"$TRASH_DIRECTORY/hostile.log" 2>&1 </dev/null 5>&- 6>&- 7>&- 8>&- 9>&- &
	HOSTILE_PID=$! &&
	register_server "$HOSTILE_PID" &&
	n=0 &&
	while ! test -f "$TRASH_DIRECTORY/hostile.port" && test $n -lt 500
	do
		sleep 0.02
		n=$((n + 1))
	done &&
	HOSTILE_URL="http://127.0.0.1:$(cat "$TRASH_DIRECTORY/hostile.port")"
}
