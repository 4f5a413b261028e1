#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mails of hostile shapes for p0210 (git-maint(7), LIMITS, Mail), one
message each, on standard output as an mbox. <n> is the 100x size of the
table divided by 100, 10 or 1:

  gen-mail-bounds.py message <n>     a patch adding one file: n MB of mail,
                                     77-byte lines (1.3 million at 100 MB)
  gen-mail-bounds.py base64 <n>      a base64 body decoding to one line of
                                     n MB
  gen-mail-bounds.py base64-patch <n>
                                     a patch adding a file of one n MB
                                     line, its body in base64
  gen-mail-bounds.py qp <n>          a quoted-printable body, one line of
                                     n MB (soft line breaks every 76)
  gen-mail-bounds.py comments <n>    n KiB of nested comments in From
  gen-mail-bounds.py headers <n>     n headers
  gen-mail-bounds.py folded <n>      a Subject folded over n KB
  gen-mail-bounds.py mime <n>        a multipart/mixed of n parts

(n addresses in Cc and n ids in References come from gen-review.py, a
diff of n files from gen-hostile.py.)
"""
import base64
import sys

HEAD = ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
        "Date: Thu, 7 Apr 2005 15:13:13 -0700\nMessage-ID: <bounds@example.com>\n")
AUTHOR = "From: A U Thor <author@example.com>\n"
MB = 1000 * 1000


def write(*parts):
    out = sys.stdout.buffer
    for p in parts:
        out.write(p.encode() if isinstance(p, str) else p)


def message(n):
    lines = n * MB // 77
    body = b"".join(b"+line %070d\n" % i for i in range(lines))
    write(HEAD, AUTHOR, "Subject: [PATCH] add big\n\n---\n",
          "diff --git a/big b/big\nnew file mode 100644\n--- /dev/null\n+++ b/big\n"
          "@@ -0,0 +1,%d @@\n" % lines, body, "-- \n2.39.5\n\n")


def encoded(cte, body):
    write(HEAD, AUTHOR, "Subject: [PATCH] one long line\nMIME-Version: 1.0\n"
          "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: %s\n\n" % cte,
          body, "\n")


def base64_line(n):
    raw = base64.encodebytes(b"x" * (n * MB))  # 76 characters a line
    encoded("base64", raw)


def base64_patch(n):
    line = b"x" * (n * MB)
    body = (b"Add one long line.\n---\ndiff --git a/line b/line\nnew file mode 100644\n"
            b"--- /dev/null\n+++ b/line\n@@ -0,0 +1 @@\n+" + line + b"\n-- \n2.39.5\n")
    encoded("base64", base64.encodebytes(body))


def qp_line(n):
    chunk = b"abc=3Dxyz" * 8 + b"=\n"  # 72 characters and a soft line break
    count = n * MB // 56  # each decodes to 56 bytes
    encoded("quoted-printable", chunk * count)


def comments(n):
    depth = n * 1024 // 2
    write(HEAD, "From: A U Thor <author@example.com> ", "(" * depth, ")" * depth,
          "\nSubject: [PATCH] nested\n\nbody\n\n")


def headers(n):
    write(HEAD, AUTHOR, "Subject: [PATCH] many headers\n",
          "".join("X-Header-%d: value %d\n" % (i, i) for i in range(n)), "\nbody\n\n")


def folded(n):
    words = n * 1000 // 10
    write(HEAD, AUTHOR, "Subject: [PATCH]",
          "".join("\n wrd%05d" % (i % 100000) for i in range(words)), "\n\nbody\n\n")


def mime(n):
    parts = "".join("--b\nContent-Type: text/plain\n\npart %d\n" % i for i in range(n))
    write(HEAD, AUTHOR, "Subject: [PATCH] many parts\nMIME-Version: 1.0\n"
          "Content-Type: multipart/mixed; boundary=b\n\n", parts, "--b--\n\n")


if __name__ == "__main__":
    kinds = {"message": message, "base64": base64_line,
             "base64-patch": base64_patch, "qp": qp_line, "comments": comments,
             "headers": headers, "folded": folded, "mime": mime}
    if len(sys.argv) != 3 or sys.argv[1] not in kinds:
        sys.exit("usage: gen-mail-bounds.py %s <n>" % "|".join(kinds))
    kinds[sys.argv[1]](int(sys.argv[2]))
