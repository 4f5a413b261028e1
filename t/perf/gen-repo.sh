#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The corpus every git-maint benchmark (and the demo) works on.
#
# usage: t/perf/gen-repo.sh [--size=full|small|demo] [--series=<n>] [--base=master|next]
#                           [--out=<dir>] [--force]
#
# Builds, deterministically (fixed seed, pinned dates and identities, so
# two runs give the same commit ids and the same mailbox bytes), and
# prints the output directory on stdout:
#
#   <out>/repo          a kernel-like repository (drivers/usb, drivers/net,
#                       fs, include/linux, net, ...) built with git fast-import,
#                       work tree checked out on master; branches:
#                         master   the whole history
#                         maint    an older point of master
#                         next     master plus a few more commits
#                         series   <base> plus the --series patches (the
#                                  expected result of applying series.mbox)
#   <out>/mbox          git format-patch -M of master's history as a mailing
#                       list would carry it: series with cover letters,
#                       "[PATCH v2 n/m]" resends of earlier versions, threads
#                       (Message-ID/In-Reply-To/References), review replies and
#                       discussions without patches, some bodies quoted-printable
#                       or base64, non-ASCII authors; about 20,000 messages
#                       at --size=full
#   <out>/series.mbox   --series linear patches (default 2500 at full, 100 at
#                       small) that apply one after another to <base>
#                       (default master); "series" is the branch they give
#   <out>/stats         counts: commits, files, messages, largest message
#
# --size=small is for tests (a few hundred files and messages, seconds);
# --size=demo builds the tree and TODO mailbox of contrib/demo.sh (the
# branch layout of the USB maintainer's workflow, git-maint(7)). The default is full
# (a few minutes on 2 cores). The default <out> is t/perf/out/<size>, or
# t/perf/out/<size>-<n>-<base> when --series/--base differ from the
# defaults. An existing output with the same parameters is reused unless
# --force.
#
# Needs python3 and git.
set -e
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/gen-corpus.py" "$@"
