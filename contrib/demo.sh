#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The maintainer's loop of "Ask a kernel developer: maintainer workflow"
# (Greg Kroah-Hartman, 2012), end to end
# on a generated demo tree. Run by `make demo`, or by hand as
# `sh contrib/demo.sh`, which first installs what is missing (Debian) and
# builds, as make demo does; with MAINT_BUILD_DIR=<dir> it uses the programs
# built there and builds nothing.
#
# Generates $DEMO_DIR (default ./demo) with t/perf/gen-repo.sh --size=demo:
#   repo/    a driver tree (drivers/usb, drivers/net, fs, ...) with the
#            article's branches master, usb-linus, usb-next, work-linus,
#            work-next; on work-next
#   TODO     patches for several subsystems, cover letters, review replies,
#            a v1 and a v2 of one series
# then runs the loop: pick the USB threads (mbox-split), try them on both
# work branches (dry-apply: one series fails on work-linus), queue them on
# work-next with sign-off, a check hook and a build hook (queue), publish
# usb-next to a public server (git daemon on a free loopback port) and a
# bare backup, mailing the authors through a loopback SMTP sink
# (t/smtp-server.py via t/lib-smtp.sh; what it receives is kept in
# $DEMO_DIR/smtp-spool), asks the demo's upstream to pull usb-next (a tag
# pushed to the public server, one "[GIT PULL]" mail: request-pull), and
# finally asks which release holds a commit (describe-contains). Every server is stopped when the script ends, also
# when a step fails or the script is interrupted; their pids are in
# $DEMO_DIR/server-pids.
#
# The demo runs with HOME=$DEMO_DIR/home: neither your ~/.gitconfig nor your
# ~/.config/git-maint is read, and no real mail can leave.
#
# Adding a step: append to the steps below
#	step "what it shows" 'command line, run in demo/repo'
#	step -e 1 "a step whose expected exit code is 1" '...'
# A step that exits with another code than expected stops the demo (exit 1).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$MAINT_BUILD_DIR" ]; then
	# Run by hand (sh contrib/demo.sh), perhaps on a fresh machine without
	# even make: first what make demo does (install-deps.sh brings make),
	# one line each, their output in files.
	sh "$top/contrib/install-deps.sh" --demo
	mkdir -p "$top/.build"
	echo "demo: building (make programs; its output: $top/.build/demo-make.log)"
	if ! make -C "$top" --no-print-directory -j"$(nproc 2>/dev/null || echo 1)" programs \
		>"$top/.build/demo-make.log" 2>&1; then
		tail -n 20 "$top/.build/demo-make.log" >&2
		echo "demo: the build failed (its output: $top/.build/demo-make.log)" >&2
		exit 1
	fi
	MAINT_BUILD_DIR=$top/.build
fi
for p in mbox-split dry-apply queue publish notify request-pull describe-contains; do
	if ! test -x "$MAINT_BUILD_DIR/bin/git-maint-$p"; then
		echo "demo: $MAINT_BUILD_DIR/bin/git-maint-$p is not built; run 'make demo'" >&2
		exit 1
	fi
done
demo=${DEMO_DIR:-$PWD/demo}
case $demo in /*) ;; *) demo=$PWD/$demo ;; esac
# gen-repo.sh replaces the whole directory: never one that is not a demo
if test -e "$demo" && ! test -f "$demo/stamp"; then
	echo "demo: '$demo' exists and is not a demo directory; remove it or set DEMO_DIR" >&2
	exit 1
fi
PATH="$MAINT_BUILD_DIR/bin:$PATH"
HOME=$demo/home
GIT_CONFIG_NOSYSTEM=1
export PATH HOME GIT_CONFIG_NOSYSTEM
# the identity and dates are the demo maintainer's (set in the demo repository)
unset XDG_CONFIG_HOME GIT_DIR GIT_WORK_TREE EMAIL GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE
LC_ALL=C.UTF-8
export LC_ALL

bold= plain=
if [ -t 1 ]; then bold=$(printf '\033[1m') plain=$(printf '\033[m'); fi

# step [-e <code>] <title> <command>: shows and runs <command> in demo/repo.
step () {
	want=0
	if [ "$1" = -e ]; then want=$2; shift 2; fi
	printf '\n%s== %s%s\n$ %s\n' "$bold" "$1" "$plain" "$2"
	set +e
	(cd "$demo/repo" && eval "$2")
	rc=$?
	set -e
	[ $rc = 0 ] || echo "(exit $rc)"
	if [ $rc != "$want" ]; then
		echo "demo: step '$1' exited $rc, expected $want" >&2
		exit 1
	fi
}

# mail_headers <file>...: To, Cc, Subject and In-Reply-To of each mail as a
# mail reader shows them: folded lines joined, RFC 2047 words decoded
mail_headers () {
	python3 -c '
import email, email.policy, sys
for f in sys.argv[1:]:
    with open(f, "rb") as fp:
        m = email.message_from_binary_file(fp, policy=email.policy.default)
    for h in ("To", "Cc", "Subject", "In-Reply-To"):
        if m[h] is not None:
            print("%s: %s" % (h, m[h]))
    print()
' "$@"
}

# --- servers: started below, stopped whatever happens ---------------------------
daemon_pid= SMTP_PID=
stop_servers () {
	stop_smtp_server
	stop_git_daemon
}
stop_git_daemon () {
	if [ -n "$daemon_pid" ]; then
		kill "$daemon_pid" 2>/dev/null || :
		i=0
		while kill -0 "$daemon_pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$daemon_pid" 2>/dev/null || :
		daemon_pid=
	fi
}
# t/lib-smtp.sh, the tests' SMTP server, with the demo directory for a trash directory
TRASH_DIRECTORY=$demo
MAINT_TEST_DIR=$top/t
. "$top/t/lib-smtp.sh"

trap 'rc=$?; trap - EXIT; stop_servers; exit $rc' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port () {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# git daemon serving $demo/srv on a free loopback port, receive-pack on.
start_git_daemon () {
	tries=0
	while [ $tries -lt 5 ]; do
		port=$(free_port)
		git daemon --listen=127.0.0.1 --port="$port" --reuseaddr --base-path="$demo/srv" \
			--export-all --enable=receive-pack --informative-errors "$demo/srv" \
			</dev/null >>"$demo/daemon.log" 2>&1 &
		daemon_pid=$!
		echo "$daemon_pid" >>"$demo/server-pids"
		i=0
		while [ $i -lt 100 ] && kill -0 "$daemon_pid" 2>/dev/null; do
			if git ls-remote "git://127.0.0.1:$port/origin.git" >/dev/null 2>&1; then
				DAEMON_URL=git://127.0.0.1:$port
				return 0
			fi
			sleep 0.1
			i=$((i + 1))
		done
		stop_git_daemon
		tries=$((tries + 1))
	done
	echo "demo: git daemon did not start (see $demo/daemon.log)" >&2
	return 1
}

# --- the demo tree and mailbox ---------------------------------------------------
printf '%sGenerating the demo tree and TODO mailbox in %s%s\n' "$bold" "$demo" "$plain"
sh "$top/t/perf/gen-repo.sh" --size=demo --out="$demo" --force >/dev/null
mkdir -p "$HOME"
git -C "$demo/repo" config user.name "Greg Kroah-Hartman"
git -C "$demo/repo" config user.email "gregkh@linuxfoundation.org"
# the README's tour, to be tried by hand in a tree of its own (set up at the end)
mkdir -p "$demo/tour"
cp -R "$demo/repo" "$demo/tour/repo"
cp "$demo/TODO" "$demo/tour/TODO"

step "The maintainer's branches (the article's git b)" 'git branch -v'
step "The TODO mailbox: $(grep -c '^From ' "$demo/TODO") messages for several subsystems" \
	'grep "^Subject:" ../TODO'

# --- mbox-split: the USB threads, and the article's series --------------------------
step "Every thread that touches drivers/usb, newest version of each series, into ../s" \
	'git maint-mbox-split --touches drivers/usb ../TODO >../s && git maint-mbox-split --format="%s" ../s'
step "The article's series, its patches only, into ../s1" \
	'git maint-mbox-split --patches-only --author "Lan Tianyu" ../s >../s1 && grep "^Subject:" ../s1'
step "The other USB patches for the next release into ../s2: the serial series (v2) and a gadget fix" \
	'git maint-mbox-split --patches-only --author "Johan Hovold" --author "Uwe Kleine" ../s >../s2 && grep "^Subject:" ../s2'

# --- dry-apply: which work branch takes them (the article's p1 < ../s1) -------------
step "Every USB series of the week checked on both work branches, one verdict per series" \
	'git maint-dry-apply -q --onto work-linus --onto work-next ../s'
step -e 1 "Does ../s1 apply to work-linus? It was made against usb-next" \
	'git maint-dry-apply --onto work-linus ../s1'
step "Both work branches in one run: ../s1 belongs on work-next" \
	'git maint-dry-apply --onto work-linus --onto work-next ../s1'
step "And ../s2 on work-next, one line per patch" \
	'git maint-dry-apply --porcelain --onto work-next ../s2 | grep "^patch"'

# --- queue: apply to the work branch, checked, signed off, built ------------------
# The article's ./scripts/checkpatch.pl and make -j8, as demo hooks: the
# check wants a Signed-off-by in each mail (decoded by git mailinfo: one of
# the mails is base64), the build "compiles" the C files the series changed.
cat >"$demo/check.sh" <<'EOF'
msg=$(mktemp) && patch=$(mktemp) || exit 1
git mailinfo "$msg" "$patch" >/dev/null && grep -q "^Signed-off-by: " "$msg"
rc=$?
rm -f "$msg" "$patch"
[ $rc = 0 ] || { echo "checkpatch: patch $GIT_MAINT_PATCH has no Signed-off-by"; exit 1; }
echo "checkpatch: patch $GIT_MAINT_PATCH: total: 0 errors, 0 warnings"
EOF
cat >"$demo/build.sh" <<'EOF'
for f in $(git diff --name-only ORIG_HEAD HEAD -- '*.c'); do echo "  CC      ${f%.c}.o"; done
echo "build: $GIT_MAINT_BRANCH ok"
EOF
cat >"$demo/repo/.git/maint.ini" <<'EOF'
[tree "usb"]
	public = usb-next
	work = work-next
	signoff = true
	link = https://lore.kernel.org/r/%s
	check = sh ../check.sh
	build = sh ../build.sh
	remote = origin
	backup = backup
EOF
step "git maint-queue usb-next ../s1: onto work-next, each patch checked, signed off, then built" \
	'git maint-queue usb-next ../s1'
step "../s2 holds two series (the gadget fix, the serial series): both, one after the other" \
	'git maint-queue --series all usb-next ../s2'
step "The commits: the mail's author and date, Link: and the maintainer's Signed-off-by" \
	'git log --format="%h %an, %ad%n    %s%n%(trailers:key=Link,key=Signed-off-by,separator=%x2c )" usb-next..work-next'
step "Which mail each commit came from (refs/notes/maint: what notify answers to)" \
	'git notes --ref=maint show work-next~5'

# --- publish: usb-next out to the public server and the backup, authors told ------
mkdir -p "$demo/srv"
git init -q --bare "$demo/srv/origin.git"
git -C "$demo/srv/origin.git" config receive.denyNonFastForwards true
git init -q --bare "$demo/backup.git"
: >"$demo/server-pids"
start_git_daemon
start_smtp_server --plain
echo "$SMTP_PID" >>"$demo/server-pids"
git -C "$demo/repo" push -q "$demo/srv/origin.git" usb-next
git -C "$demo/repo" push -q "$demo/backup.git" usb-next
git -C "$demo/repo" remote add origin "$DAEMON_URL/origin.git"
git -C "$demo/repo" remote add backup "$demo/backup.git"
git -C "$demo/repo" fetch -q origin
git -C "$demo/repo" fetch -q backup
cat >>"$demo/repo/.git/maint.ini" <<EOF
	url = $DAEMON_URL/origin.git
	upstream-to = Linus Torvalds <torvalds@example.org>

# the demo's loopback sink; a real setup names its mail server here, or in
# git send-email's sendemail.* (see git-maint-notify(1))
[smtp]
	server = 127.0.0.1
	port = $SMTP_PORT
	encryption = none
EOF
step "The remotes: origin is git daemon on loopback (receive-pack on), backup a bare repository" \
	'git remote -v'
step "What publishing would do (the article's do.sh, as a plan)" \
	'git maint-publish --dry-run'
step "Publish: usb-next fast-forwarded, pushed to origin then backup, each author mailed in their thread" \
	'git maint-publish'
step "Both remotes have usb-next at work-next" \
	'git rev-parse --short work-next && git ls-remote origin usb-next && git ls-remote backup usb-next'
step "What the SMTP sink received: one mail per commit, to its author, in reply to the patch (headers as a mail reader shows them)" \
	'mail_headers ../smtp-spool/*.eml'
step "One of them whole, as sent" \
	'tr -d "\r" <../smtp-spool/0001.eml'
step "Publishing again sends nothing twice: every mail is in refs/notes/maint-notify" \
	'git maint-publish && ls ../smtp-spool | grep -c "\.eml$"'
step "Back on the work branch, ready for the next round" \
	'git status -sb | head -n 1'

# --- request-pull: the merge window opens, upstream is asked to pull usb-next ----
step "Ask upstream to pull usb-next: a tag (unsigned here: the demo has no key), pushed to origin and seen there, one mail" \
	'git maint-request-pull --no-sign --tag usb-6.2-rc1 -m "USB changes for 6.2-rc1" --send usb-next'
step "The pull request as mailed: its body is what git request-pull prints" \
	'tr -d "\r" <../smtp-spool/0007.eml'

# --- describe-contains: the article's git dc ----------------------------------------
# Weeks later Linus merges usb-next in the merge window and tags -rc1, then
# the release (plumbing here, so the checkout stays on work-next).
(
	cd "$demo/repo"
	tree=$(git merge-tree --write-tree master usb-next)
	merge=$(git commit-tree -p master -p usb-next -m "Merge tag 'usb-6.2-rc1'" "$tree")
	git update-ref refs/heads/master "$merge"
	git tag -a -m "Linux 6.2-rc1" v6.2-rc1 master
	release=$(git commit-tree -p master -m "Linux 6.2" "$tree")
	git update-ref refs/heads/master "$release"
	git tag -a -m "Linux 6.2" v6.2 master
)
step "Which of Linus's tags first holds the first patch of ../s1? (git dc = git describe --contains)" \
	'git maint-describe-contains --match "v*" usb-next~5 && git describe --contains --match "v*" usb-next~5'
step "Which release (rc tags aside) holds each of the last 3 commits touching drivers/usb/serial" \
	'git log --format=%H -3 usb-next -- drivers/usb/serial | git maint-describe-contains --stdin --release'

# --- the tour's tree: as the demo's was before it started ---------------------------
# Its remotes are bare repositories beside it and its mail goes to a
# program that files each message in tour/sent/, so that the README's tour,
# publish included, works there with no server running.
tour=$demo/tour
git init -q --bare "$tour/origin.git"
git init -q --bare "$tour/backup.git"
git -C "$tour/repo" push -q "$tour/origin.git" usb-next usb-linus
git -C "$tour/repo" push -q "$tour/backup.git" usb-next usb-linus
git -C "$tour/repo" remote add origin "$tour/origin.git"
git -C "$tour/repo" remote add backup "$tour/backup.git"
git -C "$tour/repo" fetch -q origin
# the last release, for describe-contains
git -C "$tour/repo" tag -a -m "Linux 6.1" v6.1 master
cp "$demo/check.sh" "$demo/build.sh" "$tour/"
mkdir -p "$tour/sent"
cat >"$tour/sendmail" <<'EOF'
#!/bin/sh
# the tour's mail server: each message into the directory beside it
dir=$(dirname "$0")/sent
n=$(($(ls "$dir" | wc -l) + 1))
cat >"$dir/$(printf %04d $n).eml"
EOF
chmod +x "$tour/sendmail"
sed -e '/^\turl = /d' -e '/^# the demo/,$d' "$demo/repo/.git/maint.ini" >"$tour/repo/.git/maint.ini"
cat >>"$tour/repo/.git/maint.ini" <<EOF

# the tour's mail goes to a program, as git send-email's sendemail.smtpServer
# may name one; a real setup names its mail server (see git-maint-notify(1))
[smtp]
	server = $tour/sendmail
EOF

printf '\n%sDone.%s The tree is in %s/repo, the mailboxes and the mails received in %s.\n' \
	"$bold" "$plain" "$demo" "$demo"
printf 'To try the README'"'"'s tour yourself, in a fresh copy of the tree (its remotes are\nbare repositories beside it, its mails are filed in %s/sent):\n    export PATH="%s/bin:$PATH"; cd "%s/repo"\n' \
	"$tour" "$MAINT_BUILD_DIR" "$tour"
