#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A repository and a mailbox of 48 patches, each rewriting one 700 KB
file whole, for t0307 (written directly: git diff and format-patch take
seconds over 72 MB).

Take k of the file "big" holds the lines "<n> v<k>" for n = k..70000;
take 0 the lines "<n>" for n = 1..70000.

  gen-mailbox.py stream
      a git fast-import stream: the takes as blobs :1..:49, and on main
      the commits "base" (take 0, also refs/heads/base) and "rewrite big,
      take <k>" (take k, the last also refs/tags/tip), as marks :101..:149,
      author and committer from the GIT_* environment.
  gen-mailbox.py mbox <marks> <date> <signature>
      the series base..tip as git format-patch --no-stat --stdout writes
      it, the object ids from <marks> (fast-import --export-marks), <date>
      the author date as format-patch writes it (%aD), <signature> the git
      version it signs with. Every line of the file changes, so each patch
      is one hunk: the old take removed, then the new one added.
"""
import os
import sys

TAKES = 48
LINES = 70000


NUMBERS = [str(n) for n in range(LINES + 1)]


def take(k):
    suffix = " v%d\n" % k if k else "\n"
    return suffix.join(NUMBERS[max(k, 1):]) + suffix


def ident(who):
    env = os.environ
    return "%s <%s> %s" % (env["GIT_%s_NAME" % who], env["GIT_%s_EMAIL" % who],
                           env["GIT_%s_DATE" % who])


def stream(out):
    for k in range(TAKES + 1):
        data = take(k).encode()
        out.write(b"blob\nmark :%d\ndata %d\n" % (k + 1, len(data)))
        out.write(data)
    for k in range(TAKES + 1):
        msg = ("rewrite big, take %d\n" % k if k else "base\n").encode()
        out.write(b"commit refs/heads/main\nmark :%d\n" % (101 + k))
        out.write(b"author %s\ncommitter %s\n" % (ident("AUTHOR").encode(), ident("COMMITTER").encode()))
        out.write(b"data %d\n%s" % (len(msg), msg))
        out.write(b"M 100644 :%d big\n\n" % (k + 1))
    out.write(b"reset refs/heads/base\nfrom :101\n\n")
    out.write(b"reset refs/tags/tip\nfrom :%d\n\n" % (101 + TAKES))


def prefixed(sign, text):
    return sign + text[:-1].replace("\n", "\n" + sign) + "\n"


def mbox(out, marks, date, signature):
    ids = {}
    with open(marks) as f:
        for line in f:
            mark, oid = line.split()
            ids[int(mark[1:])] = oid
    author = "%s <%s>" % (os.environ["GIT_AUTHOR_NAME"], os.environ["GIT_AUTHOR_EMAIL"])
    old = take(0)
    for k in range(1, TAKES + 1):
        new = take(k)
        if k > 1:
            out.write("\n")
        out.write("From %s Mon Sep 17 00:00:00 2001\nFrom: %s\nDate: %s\n"
                  "Subject: [PATCH %02d/%d] rewrite big, take %d\n\n\n"
                  % (ids[101 + k], author, date, k, TAKES, k))
        out.write("diff --git a/big b/big\nindex %s..%s 100644\n--- a/big\n+++ b/big\n"
                  "@@ -1,%d +1,%d @@\n" % (ids[k][:7], ids[k + 1][:7],
                                          old.count("\n"), new.count("\n")))
        out.write(prefixed("-", old))
        out.write(prefixed("+", new))
        out.write("-- \n%s\n\n" % signature)
        old = new


if __name__ == "__main__":
    if sys.argv[1:2] == ["stream"]:
        stream(sys.stdout.buffer)
    elif sys.argv[1:2] == ["mbox"] and len(sys.argv) == 5:
        mbox(sys.stdout, *sys.argv[2:])
    else:
        sys.exit("usage: gen-mailbox.py stream | mbox <marks> <date> <signature>")
