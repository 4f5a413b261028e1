#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# p0600: 1,000 notifications to the loopback SMTP server of the tests
# (t/smtp-server.py: aiosmtpd, STARTTLS with a throwaway CA, AUTH), sent by
# `git maint-notify --send` (its password from a gnome-keyring on a
# private D-Bus session) and, in the same run, the same 1,000 mails sent
# by `git send-email` (Debian's git-email) to a fresh server of the same
# kind. Each is checked: the server must have received 1,000 mails, with
# the same envelopes and the same Message-IDs for both.
#
#   sh t/perf/p0600-notify.sh [<mails>]      (default 1000; `make bench`)
#
# Memory flat in the number of mails: notify's peak RSS is also measured
# for a tenth of the mails. And as the article's do.sh runs its mailer,
# send-email once per mail, on a tenth of the mails. Prints wall-clock and CPU seconds (our
# process only; the server's time is about the same for both) and peak memory
# (GNU time %e, %U+%S, %M), and the ratios; and the server's own CPU time, which
# bounds notify's wall-clock time (it is most of it). The goal: notify >= 10x
# faster than send-email, memory the same for 100 and 1,000 mails.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
n=${1:-1000}
work=$top/t/perf/out/p0600

# a private session bus for the keyring; once
if [ -z "$P0600_IN_SESSION" ]; then
	P0600_IN_SESSION=1 exec dbus-run-session -- sh "$0" "$@"
fi

rm -rf "$work"
mkdir -p "$work/home"
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export GIT_COMMITTER_NAME="Greg Kroah-Hartman" GIT_COMMITTER_EMAIL="gregkh@linuxfoundation.org"
export GIT_COMMITTER_DATE="1345600000 +0200"
unset GIT_DIR GIT_WORK_TREE GIT_CEILING_DIRECTORIES GIT_MAINT_TEST_CRASH_AT
git config --global user.name "$GIT_COMMITTER_NAME"
git config --global user.email "$GIT_COMMITTER_EMAIL"

# the test library's server and CA, outside sharness
TRASH_DIRECTORY=$work MAINT_TEST_DIR=$top/t
. "$top/t/lib-smtp.sh"
trap stop_smtp_server EXIT

GNOME_KEYRING_CONTROL=$(printf 'perf-keyring' |
	gnome-keyring-daemon --unlock --components=secrets 2>/dev/null |
	sed -n 's/^GNOME_KEYRING_CONTROL=//p')
export GNOME_KEYRING_CONTROL
printf '%s' "$SMTP_PASSWORD" |
	secret-tool store --label=perf protocol smtp server 127.0.0.1 user "$SMTP_USER"

echo "p0600: $n commits with their records (fast-import)..."
git init -q "$work/repo"
/usr/bin/python3 - "$n" >"$work/stream" <<'EOF'
import sys
n = int(sys.argv[1])
out = sys.stdout
def data(s):
    b = s.encode()
    out.write("data %d\n" % len(b))
    out.write(s + "\n")
out.write("reset refs/heads/usb-next\ncommit refs/heads/usb-next\nmark :1\n"
          "committer Greg Kroah-Hartman <gregkh@linuxfoundation.org> 1345500000 +0200\n")
data("base")
out.write("reset refs/heads/work-next\nfrom :1\n")
for i in range(1, n + 1):
    out.write("commit refs/heads/work-next\nmark :%d\n" % (i + 1))
    out.write("author Author %d <author%d@example.org> %d +0200\n" % (i, i, 1345500000 + i))
    out.write("committer Greg Kroah-Hartman <gregkh@linuxfoundation.org> %d +0200\n" % (1345500000 + i))
    data("usb: driver %d: fix the thing\n\nA body.\n\nSigned-off-by: Author %d <author%d@example.org>" % (i, i, i))
for i in range(1, n + 1):
    out.write("commit refs/notes/maint\n"
              "committer Greg Kroah-Hartman <gregkh@linuxfoundation.org> 1345600000 +0200\n")
    data("notes")
    out.write("N inline :%d\n" % (i + 1))
    data("Message-ID: <patch%d@example.org>\nFrom: Author %d <author%d@example.org>\n"
         "Subject: [PATCH] usb: driver %d: fix the thing\nTo: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
         "Cc: linux-usb@vger.kernel.org\nCc: Reviewer %d <rev%d@example.org>" % (i, i, i, i, i % 7, i % 7))
EOF
git -C "$work/repo" fast-import --quiet <"$work/stream"
git -C "$work/repo" checkout -q work-next
git -C "$work/repo" config sendemail.smtpServer 127.0.0.1
git -C "$work/repo" config sendemail.smtpEncryption tls
git -C "$work/repo" config sendemail.smtpUser "$SMTP_USER"
git -C "$work/repo" config sendemail.smtpSSLCertPath "$SMTP_TLS/ca.crt"

# the mails, for send-email: the dry run, split into one file each
(cd "$work/repo" && "$MAINT_BUILD_DIR/bin/git-maint-notify" usb-next..work-next) >"$work/mails.mbox"
mkdir "$work/mails"
git mailsplit -o"$work/mails" "$work/mails.mbox" >/dev/null

measure () {
	# measure <name> <command...>: "wall user sys KiB" into $work/<name>.time
	name=$1
	shift
	(cd "$work/repo" && /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" \
		>"$work/$name.out" 2>&1) || {
		echo "p0600: $name failed:" >&2
		tail -n 20 "$work/$name.out" >&2
		exit 1
	}
}

# run <name> <command...>: a fresh server and spool for one sender
run () {
	name=$1
	shift
	stop_smtp_server
	SMTP_SPOOL=$work/spool-$name
	start_smtp_server
	git -C "$work/repo" config sendemail.smtpServerPort "$SMTP_PORT"
	# the server's own CPU seconds for these mails (utime + stime, less its start)
	before=$(awk '{ print $14 + $15 }' "/proc/$SMTP_PID/stat")
	measure "$name" "$@"
	awk -v hz="$(getconf CLK_TCK)" -v b="$before" '{ printf "%.2f\n", ($14 + $15 - b) / hz }' \
		"/proc/$SMTP_PID/stat" >"$work/$name.server"
	stop_smtp_server
	got=$(ls "$SMTP_SPOOL" | grep -c '\.eml$' || true)
	[ "$got" = "$want" ] || { echo "p0600: $name: the server got $got mails, not $want" >&2; exit 1; }
}

tenth=$((n / 10))
want=$tenth
run notify-tenth "$MAINT_BUILD_DIR/bin/git-maint-notify" --send -q --stdin <<EOF
$(git -C "$work/repo" rev-list --reverse usb-next..work-next | head -n "$tenth")
EOF
git -C "$work/repo" update-ref -d refs/notes/maint-notify
want=$n
run notify "$MAINT_BUILD_DIR/bin/git-maint-notify" --send -q usb-next..work-next
journal=$(git -C "$work/repo" notes --ref=maint-notify list | wc -l)
[ "$journal" = "$n" ] || { echo "p0600: the journal has $journal notes" >&2; exit 1; }
# the recipients are in the mails' To and Cc; nothing else is added
run send-email git send-email --quiet --confirm=never --no-validate --suppress-cc=self \
	--suppress-cc=sob --suppress-cc=bodycc --suppress-cc=misc-by \
	--from="$GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL>" --smtp-pass="$SMTP_PASSWORD" \
	"$work/mails" </dev/null

# the article's do.sh runs the mailer once per mail: send-email that way, on the tenth
want=$tenth
ls "$work/mails" | head -n "$tenth" | sed "s|^|$work/mails/|" >"$work/tenth.list"
run send-email-each sh -c 'while read f; do
	git send-email --quiet --confirm=never --no-validate --suppress-cc=self \
		--suppress-cc=sob --suppress-cc=bodycc --suppress-cc=misc-by \
		--from="$1" --smtp-pass="$2" "$f" </dev/null || exit 1
done <"$3"' - "$GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL>" "$SMTP_PASSWORD" "$work/tenth.list"

# the same mails reached the server: envelopes and Message-IDs
for who in notify send-email; do
	cat "$work/spool-$who"/*.env | sort >"$work/$who.envelopes"
	for f in "$work/spool-$who"/*.eml; do
		tr -d '\r' <"$f" | sed -n '/^$/q;s/^Message-ID: //Ip'
	done | sort >"$work/$who.ids"
done
if ! cmp -s "$work/notify.ids" "$work/send-email.ids"; then
	echo "p0600: the Message-IDs differ between notify and send-email" >&2
	exit 1
fi
if ! cmp -s "$work/notify.envelopes" "$work/send-email.envelopes"; then
	echo "p0600: the envelopes differ between notify and send-email:" >&2
	diff "$work/notify.envelopes" "$work/send-email.envelopes" | head >&2
	exit 1
fi

read e_s e_u e_y e_kb <"$work/send-email-each.time"
read t_s t_u t_y t_kb <"$work/notify-tenth.time"
read q_s q_u q_y q_kb <"$work/notify.time"
read s_s s_u s_y s_kb <"$work/send-email.time"
q_srv=$(cat "$work/notify.server") s_srv=$(cat "$work/send-email.server")
awk -v n="$n" -v tenth="$tenth" -v ts="$t_s" -v tc="$t_u $t_y" -v tk="$t_kb" -v es="$e_s" \
    -v ec="$e_u $e_y" \
    -v qs="$q_s" -v qc="$q_u $q_y" -v qk="$q_kb" -v ss="$s_s" -v sc="$s_u $s_y" -v sk="$s_kb" \
    -v qv="$q_srv" -v sv="$s_srv" 'BEGIN {
	split(tc, t, " "); split(qc, q, " "); split(sc, s, " "); split(ec, e, " ")
	tcpu = t[1] + t[2]; qcpu = q[1] + q[2]; scpu = s[1] + s[2]; ecpu = e[1] + e[2]
	printf "p0600 notify %d mails over STARTTLS+AUTH to aiosmtpd (same envelopes and Message-IDs: yes)\n", n
	printf "                              wall       cpu (user+sys)  peak memory\n"
	printf "  git send-email  %5d mails %8.2f s  %8.2f s      %8d KiB\n", n, ss, scpu, sk
	printf "  git maint-notify %4d mails %8.2f s  %8.2f s      %8d KiB\n", n, qs, qcpu, qk
	printf "  git maint-notify %4d mails %8.2f s  %8.2f s      %8d KiB\n", tenth, ts, tcpu, tk
	printf "  git send-email once per mail (as do.sh), %d mails %8.2f s  %8.2f s\n", tenth, es, ecpu
	printf "  against one send-email: wall %.1fx faster; cpu %.1fx less; memory %.2fx of send-email\n",
		(qs > 0 ? ss / qs : 0), (qcpu > 0 ? scpu / qcpu : 0), (sk > 0 ? qk / sk : 0)
	printf "  against send-email per mail: wall %.1fx faster per mail (%.1f ms against %.1f ms)\n",
		(qs > 0 ? (es / tenth) / (qs / n) : 0), 1000 * qs / n, 1000 * es / tenth
	printf "  memory for %d against %d mails: %.2fx\n", n, tenth, (tk > 0 ? qk / tk : 0)
	printf "  the server'"'"'s own cpu: %.2f s for notify'"'"'s mails, %.2f s for send-email'"'"'s\n", qv, sv
}'
