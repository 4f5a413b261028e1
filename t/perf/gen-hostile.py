#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mails for p0310 (patches that are large on purpose).

  gen-hostile.py files <n>          one patch creating d/f000000.c ... (n files)
  gen-hostile.py hunks <n> ok|fail  one patch of n hunks against 'big'
  gen-hostile.py bigfile <n>        the 4n-line file those hunks are for

Each hunk k replaces line 4k+2 of big (x<4k+2>) by two (y, z), with one
line of context on each side, so every hunk grows the file (a matcher
that shifts the rest of the file for each one does n * 4n moves); with
"fail" the leading context line matches
nothing, so every hunk fails (and a matcher that looks at every line
for each failing hunk does n * 4n comparisons).
"""
import hashlib
import sys


def blob_id(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def mail(subject, body):
    return ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            "From: A U Thor <author@example.com>\n"
            "Date: Thu, 7 Apr 2005 15:13:13 -0700\n"
            "Subject: [PATCH] %s\n\n---\n%s-- \n2.39.5\n\n" % (subject, body))


def files(n):
    out = []
    for i in range(n):
        p = "d/f%06d.c" % i
        out.append("diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..%s\n"
                   "--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+line %d\n"
                   % (p, p, blob_id(b"line %d\n" % i)[:7], p, i))
    return mail("add %d files" % n, "".join(out))


def hunks(n, fail):
    out = ["diff --git a/big b/big\n--- a/big\n+++ b/big\n"]
    for k in range(n):
        first = 4 * k + 1
        ctx = "nothing%d" % k if fail else "x%d" % first
        out.append("@@ -%d,3 +%d,4 @@\n %s\n-x%d\n+y%d\n+z%d\n x%d\n"
                   % (first, first + k, ctx, first + 1, first + 1, first + 1, first + 2))
    return mail("%d hunks" % n, "".join(out))


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "files":
        sys.stdout.write(files(int(sys.argv[2])))
    elif what == "hunks":
        sys.stdout.write(hunks(int(sys.argv[2]), sys.argv[3] == "fail"))
    elif what == "bigfile":
        sys.stdout.write("".join("x%d\n" % (i + 1) for i in range(4 * int(sys.argv[2]))))
    else:
        sys.exit("usage: gen-hostile.py files|hunks|bigfile ...")
