# SPDX-License-Identifier: GPL-2.0-only
# A real Secret Service for the tests: gnome-keyring on a private D-Bus
# session bus, so nothing reads or writes the user's own keyring.
#
# Source it after test-lib.sh; it re-runs the test script under
# dbus-run-session (once), then start_keyring (in a test) starts
# gnome-keyring-daemon with its secrets component and unlocks a new
# login keyring under the trash directory's HOME.
#
#   start_keyring                 the daemon, keyring unlocked
#   keyring_store <secret> <attr> <value>...   as git-credential-libsecret stores it
#   keyring_lookup <attr> <value>...           secret-tool lookup
#   run_without_bus <cmd>...      runs cmd with no session bus at all
#   run_without_secret_service <cmd>...  runs cmd on a fresh bus that offers no Secret Service

if test -z "$MAINT_TEST_DBUS"
then
	# The first run's trash directory goes: the re-run makes its own (and
	# gets the script's arguments, which sharness took off "$@", back).
	cd "$MAINT_TEST_DIR" &&
	rm -rf "$SHARNESS_TRASH_DIRECTORY" &&
	eval "set -- $maint_test_args" &&
	MAINT_TEST_DBUS=1 exec dbus-run-session --dbus-daemon="$MAINT_TEST_DIR/lib/dbus-daemon-quiet" -- "${SHELL_PATH:-/bin/sh}" "./${0##*/}" "$@"
fi

start_keyring () {
	GNOME_KEYRING_CONTROL=$(printf 'test-keyring-pw' |
		gnome-keyring-daemon --unlock --components=secrets |
		sed -n 's/^GNOME_KEYRING_CONTROL=//p') &&
	test -n "$GNOME_KEYRING_CONTROL" &&
	export GNOME_KEYRING_CONTROL &&
	wait_for_secret_service
}

# The daemon prints its control socket before it owns its name on the bus;
# a client in between would have the bus start a second daemon, which
# then finds "another secret service is running". Bounded: 10 s.
wait_for_secret_service () {
	i=0
	until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null |
		grep -q "boolean true"
	do
		test $i -lt 500 || return 1
		sleep 0.02
		i=$((i + 1))
	done
}

keyring_store () {
	printf '%s' "$1" | { shift && secret-tool store --label=test "$@"; }
}

keyring_lookup () {
	secret-tool lookup "$@"
}

run_without_bus () {
	env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY "$@"
}

# A session bus with no service files: nothing can be activated on it.
run_without_secret_service () {
	mkdir -p "$SHARNESS_TRASH_DIRECTORY/empty-services" &&
	cat >"$SHARNESS_TRASH_DIRECTORY/bare-session.conf" <<-CONF &&
	<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
	 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
	<busconfig>
	  <type>session</type>
	  <listen>unix:tmpdir=/tmp</listen>
	  <servicedir>$SHARNESS_TRASH_DIRECTORY/empty-services</servicedir>
	  <policy context="default">
	    <allow send_destination="*" eavesdrop="true"/>
	    <allow eavesdrop="true"/>
	    <allow own="*"/>
	  </policy>
	</busconfig>
	CONF
	dbus-run-session --dbus-daemon="$MAINT_TEST_DIR/lib/dbus-daemon-quiet" --config-file="$SHARNESS_TRASH_DIRECTORY/bare-session.conf" -- "$@"
}
