#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A git history of a kernel tree's size, as a git fast-import stream.

usage: gen-kernel-size.py [--files N] [--commits N] [--tag-every N] [--work N] > stream

Deterministic (fixed seed, pinned dates and identities): the same
arguments give the same commit ids. What it makes, on refs/heads/master:

  - a first commit with --files source files (default 60,000) in 4,096
    directories three levels deep (16 x 16 x 16 under the top ones:
    arch, drivers, fs, ...), each file a few KiB of C-like lines
  - then --commits commits (default 90,000), each changing one to four
    files (a line added, changed or removed; some files far more often
    than others, as in a real tree), with a subject and a sign-off
  - an annotated tag v0.<n> every --tag-every commits (default 16), up to
    the last --work commits (default 100), which are left untagged: the
    work a maintainer publishes on top of a tagged history

At the defaults: about 1.05 M objects and 5,600 tags; the stream is
about a GiB (fast-import deltas the blobs). Needs only python3.
"""
import argparse
import random
import sys

TOPS = ["arch", "block", "crypto", "drivers", "fs", "include", "init", "ipc", "kernel", "lib",
        "mm", "net", "scripts", "security", "sound", "tools"]
WORDS = ["buf", "len", "dev", "ctx", "reg", "val", "irq", "node", "page", "lock", "flags",
         "skb", "urb", "hub", "port", "queue", "entry", "desc", "mask", "state"]


def file_path(f):
    d = f % 4096
    return "%s/sub%02d/part%02d/file%05d.c" % (TOPS[d >> 8], (d >> 4) & 15, d & 15, f)


def base_lines(f):
    """The file's first version: 40 to 160 lines, a function of f alone."""
    r = random.Random(f * 7919 + 1)
    n = r.randint(40, 160)
    out = ["// SPDX-License-Identifier: GPL-2.0\n", "/* %s */\n" % file_path(f), "\n"]
    for i in range(n):
        a, b, c = r.choice(WORDS), r.choice(WORDS), r.randint(0, 4095)
        out.append("static int %s_%s_%d(struct %s *%s) { return %s->%s + %d; }\n"
                   % (a, b, i, b, a, a, b, c))
    return out


def content(f, edits):
    """The file after its edits: each replaces, adds or drops one line at a place of its own."""
    lines = base_lines(f)
    for e in edits:
        r = random.Random(f * 104729 + e)
        at = r.randrange(3, len(lines)) if len(lines) > 3 else len(lines)
        kind = r.randrange(3)
        new = "\tpr_debug(\"%s %d: %s\\n\", %d);\n" % (r.choice(WORDS), e, r.choice(WORDS), r.randint(0, 99))
        if kind == 0 and at < len(lines):
            lines[at] = new
        elif kind == 1 or len(lines) <= 4:
            lines.insert(at, new)
        else:
            del lines[at]
    return "".join(lines).encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=60000)
    ap.add_argument("--commits", type=int, default=90000)
    ap.add_argument("--tag-every", type=int, default=16)
    ap.add_argument("--work", type=int, default=100)
    o = ap.parse_args()
    out = sys.stdout.buffer
    w = out.write
    rng = random.Random(1)
    when = 1100000000

    def data(b):
        w(b"data %d\n" % len(b))
        w(b)
        w(b"\n")

    w(b"commit refs/heads/master\nmark :1\n")
    w(b"committer Linus Torvalds <torvalds@linux-foundation.org> %d +0000\n" % when)
    data(b"Initial tree")
    for f in range(o.files):
        w(b"M 100644 inline %s\n" % file_path(f).encode())
        data(content(f, []))
    edits = {}
    # a few files change far more often than the rest
    hot = [rng.randrange(o.files) for _ in range(o.files // 50)]
    for c in range(1, o.commits + 1):
        when += 600
        author = rng.randrange(3000)
        subject = "%s: %s: fix %s handling" % (TOPS[rng.randrange(16)], rng.choice(WORDS),
                                               rng.choice(WORDS))
        w(b"commit refs/heads/master\nmark :%d\n" % (c + 1))
        w(b"author Dev %d <dev%d@example.org> %d +0000\n" % (author, author, when))
        w(b"committer Maint %d <maint%d@example.org> %d +0000\n" % (author % 40, author % 40, when))
        data(("%s\n\nA body saying why, commit %d.\n\nSigned-off-by: Dev %d <dev%d@example.org>\n"
              % (subject, c, author, author)).encode())
        for _ in range(rng.randint(1, 4)):
            f = rng.choice(hot) if rng.random() < 0.3 else rng.randrange(o.files)
            edits.setdefault(f, []).append(c)
            w(b"M 100644 inline %s\n" % file_path(f).encode())
            data(content(f, edits[f]))
        if c % o.tag_every == 0 and c <= o.commits - o.work:
            w(b"tag v0.%d\nfrom :%d\n" % (c // o.tag_every, c + 1))
            w(b"tagger Linus Torvalds <torvalds@linux-foundation.org> %d +0000\n" % when)
            data(b"Release v0.%d" % (c // o.tag_every))
    w(b"done\n")


if __name__ == "__main__":
    main()
