#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generates, in the git repository in the current directory, a base
commit and a linear series of commits with random (seeded) edits, for
the dry-apply oracle tests:

    gen-series.py <seed> <files> <commits>

The base holds <files> text files of 40-120 lines in a few directories,
one executable script and one binary file. Each commit edits 1-3 files
(lines replaced, inserted, deleted, a missing final newline added or
removed) and sometimes creates, deletes, renames, copies or chmods a
file, or changes the binary file. Branch "base" is the base commit and
the series ends at HEAD (branch main, checked out). Deterministic for a
given seed.

The work tree is kept in memory and the commits go to git in one
git fast-import stream (one process, where "git add -A" and "git commit"
per commit were some 100); author, committer and dates come from the
environment as git commit would take them, so the commits are the ones
git commit made.

    gen-series.py shift <file>...

inserts three lines at the top of each file, each written anew and
renamed over the old one (so its mode is 0666 less the umask, as with
the shell's "{ printf ...; cat f; } >tmp && mv tmp f"), in one process.
"""
import os
import random
import subprocess
import sys


class Tree:
    """The work tree: path -> [bytes, executable]."""

    def __init__(self):
        self.files = {}

    def write(self, path, lines, final_newline=True):
        text = "\n".join(lines)
        if lines and final_newline:
            text += "\n"
        self.write_bytes(path, text.encode())

    def write_bytes(self, path, data):
        old = self.files.get(path)
        self.files[path] = [bytes(data), old[1] if old else False]

    def read(self, path):
        text = self.files[path][0].decode()
        return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), text.endswith("\n")

    def commit(self, out, message, mark):
        """A commit of every file, as "git add -A" then "git commit" record them."""
        def ident(who):
            return "%s <%s> %s" % (os.environ["GIT_%s_NAME" % who], os.environ["GIT_%s_EMAIL" % who],
                                   os.environ["GIT_%s_DATE" % who])
        msg = (message + "\n").encode()
        out.write(b"commit refs/heads/main\nmark :%d\n" % mark)
        out.write(("author %s\ncommitter %s\n" % (ident("AUTHOR"), ident("COMMITTER"))).encode())
        out.write(b"data %d\n%s\ndeleteall\n" % (len(msg), msg))
        for path in sorted(self.files):
            data, executable = self.files[path]
            out.write(b"M %s inline %s\ndata %d\n%s\n" %
                      (b"100755" if executable else b"100644", path.encode(), len(data), data))
        out.write(b"\n")


def shift(paths):
    for path in paths:
        with open(path, "rb") as old:
            data = old.read()
        with open("tmp", "wb") as new:
            new.write(b"/* shift 1 */\n/* shift 2 */\n/* shift 3 */\n" + data)
        os.rename("tmp", path)


def main():
    if sys.argv[1] == "shift":
        shift(sys.argv[2:])
        return
    seed, nfiles, ncommits = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(seed)
    tree = Tree()
    fast_import = subprocess.Popen(("git", "fast-import", "--quiet"), stdin=subprocess.PIPE)
    out = fast_import.stdin
    dirs = ["drivers/usb/core", "drivers/usb/storage", "fs", "include/linux", "net"]
    files = []
    serial = [0]

    def fresh(tag):
        serial[0] += 1
        return "%s %d: %s" % (tag, serial[0], rnd.choice(["int x;", "return 0;", "}", "{", "i++;", "/* note */"]))

    for i in range(nfiles):
        path = "%s/file%d.c" % (rnd.choice(dirs), i)
        tree.write(path, [fresh("line") for _ in range(rnd.randint(40, 120))])
        files.append(path)
    tree.write("scripts/run.sh", ["#!/bin/sh", "echo run"])
    tree.files["scripts/run.sh"][1] = True
    tree.write_bytes("data.bin", bytes(rnd.randrange(256) for _ in range(600)))
    tree.commit(out, "base", 1)
    out.write(b"reset refs/heads/base\nfrom :1\n\n")

    for c in range(ncommits):
        what = rnd.random()
        if what < 0.06:
            path = "%s/new%d.c" % (rnd.choice(dirs), c)
            tree.write(path, [fresh("new") for _ in range(rnd.randint(5, 30))])
            files.append(path)
        elif what < 0.10 and len(files) > 3:
            path = files.pop(rnd.randrange(len(files)))
            del tree.files[path]
        elif what < 0.15 and len(files) > 1:
            i = rnd.randrange(len(files))
            new = "%s/renamed%d.c" % (rnd.choice(dirs), c)
            tree.files[new] = tree.files.pop(files[i])
            lines, nl = tree.read(new)
            lines[rnd.randrange(len(lines))] = fresh("renamed")
            tree.write(new, lines, nl)
            files[i] = new
        elif what < 0.18:
            src = rnd.choice(files)
            new = "%s/copy%d.c" % (rnd.choice(dirs), c)
            lines, nl = tree.read(src)
            tree.write(new, lines, nl)
            files.append(new)
        elif what < 0.21:
            tree.files["scripts/run.sh"][1] = not tree.files["scripts/run.sh"][1]
        elif what < 0.27:
            tree.write_bytes("blob%d.bin" % c, bytes(rnd.randrange(256) for _ in range(rnd.randint(10, 300))))
        elif what < 0.31:
            data = bytearray(tree.files["data.bin"][0])
            for _ in range(rnd.randint(1, 8)):
                data[rnd.randrange(len(data))] = rnd.randrange(256)
            if rnd.random() < 0.3:
                data += bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 100)))
            tree.write_bytes("data.bin", data)
        for path in rnd.sample(files, min(len(files), rnd.randint(1, 3))):
            lines, nl = tree.read(path)
            for _ in range(rnd.randint(1, 3)):
                op = rnd.random()
                at = rnd.randrange(len(lines) + 1)
                if op < 0.4 and at < len(lines):
                    lines[at] = fresh("changed")
                elif op < 0.7:
                    lines[at:at] = [fresh("added") for _ in range(rnd.randint(1, 4))]
                elif op < 0.95 and len(lines) > 8 and at < len(lines):
                    del lines[at:at + rnd.randint(1, 3)]
                else:
                    nl = not nl
            tree.write(path, lines, nl)
        tree.commit(out, "change %d" % (c + 1), c + 2)
    out.close()
    if fast_import.wait() != 0:
        sys.exit("gen-series.py: git fast-import failed")
    subprocess.run(("git", "reset", "-q", "--hard"), check=True)


main()
