#!/bin/sh
# The maintainer's loop from /work/shared/seeds/000-article.md, on a demo
# tree; run by `make demo` (after the programs are built).
#
# Generates ./demo/ (t/perf/gen-repo.sh --size=demo): demo/repo, a driver
# tree (drivers/usb, drivers/net, fs, include/linux, ...) with the
# article's branches master, usb-linus, usb-next, work-linus, work-next;
# and demo/TODO, a mailbox of USB patches mixed with other subsystems'
# patches, a cover-letter thread, replies, and a v1 and v2 of one series.
# Then runs each step and shows what it did; the notify steps mail a
# loopback SMTP sink of their own (t/smtp-server.py, spool in demo/smtp-spool).
#
# Adding a step: append to the steps section
#	step "what it shows" 'command line, run in demo/repo'
#	step -e 1 "a step whose expected exit code is 1" '...'
# A step that exits with another code than expected stops the demo.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
: "${MAINT_BUILD_DIR:=$top/.build}"
PATH="$MAINT_BUILD_DIR/bin:$PATH"
demo=${DEMO_DIR:-$PWD/demo}
export PATH GIT_CONFIG_NOSYSTEM=1

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

# --- the demo tree and mailbox ---------------------------------------------
printf '%sGenerating the demo tree and TODO mailbox in %s%s\n' "$bold" "$demo" "$plain"
sh "$top/t/perf/gen-repo.sh" --size=demo --out="$demo" --force >/dev/null
git -C "$demo/repo" config user.name "Greg Kroah-Hartman"
git -C "$demo/repo" config user.email "gregkh@linuxfoundation.org"

# --- the steps -----------------------------------------------------------------
step "The maintainer's branches (git b)" 'git branch -v'
step "The TODO mailbox: every subject" 'grep "^Subject:" ../TODO'
step "Which messages touch drivers/usb: one line per message" \
	'git maint-mbox-split --list --touches drivers/usb ../TODO'
step "Save them, whole threads, newest version of each series, as ../s" \
	'git maint-mbox-split --touches drivers/usb ../TODO >../s && grep "^Subject:" ../s'
step "Only the patches of the article's series, for ../s1" \
	'git maint-mbox-split --patches-only --author "Lan Tianyu" ../s >../s1 && grep "^Subject:" ../s1'
step -e 1 "Nothing in TODO touches sound/" \
	'git maint-mbox-split --touches sound/ ../TODO'

# --- dry-apply: which branch does ../s1 belong on? (git-maint-dry-apply) ------
# The article's "p1 < ../s1" (patch -p1 -g1 --dry-run) on each checked-out
# branch in turn, as one run against both branch tips; nothing changes.
step -e 1 "Does ../s1 apply to work-linus? (the article's p1 < ../s1)" \
	'git maint-dry-apply --onto work-linus ../s1'
step "Both branches in one run: the series belongs on work-next" \
	'git maint-dry-apply --onto work-linus --onto work-next ../s1'
step "Straight from the selection, one record per hunk for scripts" \
	'git maint-mbox-split --patches-only --author "Lan Tianyu" ../s |
	 git maint-dry-apply --porcelain --onto work-linus --onto work-next | grep -v "	ok	"'

# --- queue: apply the series to the work branch (git-maint-queue) -------------
# A demo check hook (the article runs ./scripts/checkpatch.pl --terse -) and
# build hook (make -j8): the check wants a Signed-off-by in each mail, the
# build "compiles" the C files the series changed.
cat >"$demo/check.sh" <<'EOF'
grep -q "^Signed-off-by: " || { echo "check: no Signed-off-by in patch $GIT_MAINT_PATCH"; exit 1; }
echo "check: patch $GIT_MAINT_PATCH ok"
EOF
cat >"$demo/build.sh" <<'EOF'
for f in $(git diff --name-only ORIG_HEAD HEAD -- '*.c'); do echo "  CC      ${f%.c}.o"; done
echo "build: $GIT_MAINT_BRANCH ok"
EOF
cat >>"$demo/repo/.git/maint.ini" <<'EOF'
[tree "usb"]
	public = usb-next
	work = work-next
	signoff = true
	link = https://lore.kernel.org/r/%s
	check = sh ../check.sh
	build = sh ../build.sh
EOF
step "Queue ../s1 for usb-next: lands on work-next, checked, signed off, built" \
	'git maint-queue usb-next ../s1'
step "The commits: the mail's author and date, Link: and our Signed-off-by" \
	'git log --format="%h %an, %ad%n    %s%n%(trailers:unfold)" -2 work-next'
step "Which mail each commit came from (refs/notes/maint, for replies later)" \
	'git notes --ref=maint show work-next'
# --- publish: the public branch, out to two remotes (git-maint-publish) -------
# origin is a public server on loopback (git daemon, receive-pack on,
# non-fast-forwards refused), backup a bare repository. The authors are told
# by git-maint-notify once it is in the suite; until then --no-notify.
git init -q --bare "$demo/srv/origin.git"
git -C "$demo/srv/origin.git" config receive.denyNonFastForwards true
git init -q --bare "$demo/backup.git"
git -C "$demo/repo" push -q "$demo/srv/origin.git" usb-next
git -C "$demo/repo" push -q "$demo/backup.git" usb-next
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
git daemon --listen=127.0.0.1 --port="$port" --reuseaddr --base-path="$demo/srv" --export-all \
	--enable=receive-pack "$demo/srv" </dev/null >"$demo/daemon.log" 2>&1 &
daemon_pid=$!
trap 'kill $daemon_pid 2>/dev/null' EXIT
tries=0
until git ls-remote "git://127.0.0.1:$port/origin.git" >/dev/null 2>&1; do
	tries=$((tries + 1))
	[ $tries -lt 50 ] || { echo "demo: git daemon did not start (see $demo/daemon.log)" >&2; exit 1; }
	sleep 0.1
done
git -C "$demo/repo" remote add origin "git://127.0.0.1:$port/origin.git"
git -C "$demo/repo" remote add backup "$demo/backup.git"
printf '\tremote = origin\n\tbackup = backup\n' >>"$demo/repo/.git/maint.ini"
step "What publishing would do (the article's do.sh, as a plan)" \
	'git maint-publish --dry-run --no-notify'
step "Publish: usb-next fast-forwarded to work-next, pushed to origin and backup" \
	'git maint-publish --no-notify'
step "Both remotes have it; we are still on work-next, the work tree untouched" \
	'git ls-remote origin usb-next && git ls-remote backup usb-next && git status -sb | head -1'

step -e 1 "The series does not apply to work-linus: queue stops at patch 2, keeps patch 1" \
	'git maint-queue work-linus ../s1'
step "--abort puts work-linus back where it was" \
	'git maint-queue --abort && git branch -v --list work-linus'

# --- notify: tell the authors, in their threads (git-maint-notify) ------------
# A loopback SMTP sink of our own (the tests' aiosmtpd server, plain SMTP,
# which notify accepts only on a loopback address) receives the mails.
mkdir -p "$demo/smtp-spool"
/usr/bin/python3 "$top/t/smtp-server.py" --plain --spool "$demo/smtp-spool" \
	--port-file "$demo/smtp-port" --watch-pid $$ >"$demo/smtp-server.log" 2>&1 &
sink=$!
trap 'kill $sink 2>/dev/null' EXIT
i=0
until [ -s "$demo/smtp-port" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
cat >>"$demo/repo/.git/maint.ini" <<EOF
[smtp]
	server = 127.0.0.1
	port = $(cat "$demo/smtp-port")
	encryption = none
EOF
step "The mails for the queued patches: to each author, in the patch's thread (dry run)" \
	'git maint-notify usb-next..work-next | grep -e "^From [0-9a-f]" -e "^To:" -e "^Cc:" -e "^Subject:" -e "^In-Reply-To:"'
step "Send them (to the demo's loopback SMTP sink); each is recorded in refs/notes/maint-notify" \
	'git maint-notify --send usb-next..work-next'
step "What the sink received: the first mail, envelope and message" \
	'cat ../smtp-spool/0001.env && tr -d "\r" <../smtp-spool/0001.eml'
step "A rerun sends nothing: every commit is in the journal" \
	'git maint-notify --send usb-next..work-next && ls ../smtp-spool | grep -c "\.eml$"'

# Months later: the fixes went out in 3.6, the merge window's work in 3.7.
git -C "$demo/repo" tag -a -m "Linux 3.6" v3.6 work-linus
git -C "$demo/repo" tag -a -m "Linux 3.7" v3.7 work-next
step "Which release holds the first queued patch? (the article's git dc = git describe --contains)" \
	'git maint-describe-contains work-next~1 && git describe --contains work-next~1'
step "The first release (rc tags aside) of each of the last 3 commits touching drivers/usb" \
	'git log --format=%H -3 work-next -- drivers/usb | git maint-describe-contains --stdin --release'

printf '\n%sDone.%s The demo tree is in %s/repo, the mailboxes in %s.\n' "$bold" "$plain" "$demo" "$demo"
