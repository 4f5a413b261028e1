#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A fast-import stream for t0618: usb-next, then <n> commits on work-next,
each by its own author with a commit message of <size> bytes, and the
refs/notes/maint record of the mail each came from (what notify reads for
every commit it mails).

  gen-records.py <n> <size>

The stream depends on <n> only for where it stops: the first k commits of
two streams are the same commits (same ids).
"""
import sys

WHO = b"Greg Kroah-Hartman <gregkh@linuxfoundation.org>"


def main(n, size):
    out = sys.stdout.buffer

    def data(b):
        out.write(b"data %d\n%s\n" % (len(b), b))

    out.write(b"reset refs/heads/usb-next\ncommit refs/heads/usb-next\nmark :1\n"
              b"committer %s 1345500000 +0200\n" % WHO)
    data(b"base")
    body = (b"x" * 71 + b"\n") * (size // 72)
    for k in range(1, n + 1):
        out.write(b"commit refs/heads/work-next\nmark :%d\n"
                  b"author Author %d <a%d@example.com> %d +0200\n"
                  b"committer %s %d +0200\n" % (k + 1, k, k, 1345500000 + k, WHO, 1345500000 + k))
        data(b"usb: fix thing %d\n\n%sSigned-off-by: Author %d <a%d@example.com>" % (k, body, k, k))
        if k == 1:
            out.write(b"from :1\n")
    out.write(b"commit refs/notes/maint\ncommitter %s 1345600000 +0200\n" % WHO)
    data(b"records")
    for k in range(1, n + 1):
        out.write(b"N inline :%d\n" % (k + 1))
        data(b"Message-ID: <p%d@example.com>\nFrom: Author %d <a%d@example.com>\n"
             b"Subject: [PATCH] usb: fix thing %d\nTo: %s\nCc: linux-usb@vger.kernel.org\n"
             % (k, k, k, k, WHO))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: gen-records.py <n> <size>")
    main(int(sys.argv[1]), int(sys.argv[2]))
