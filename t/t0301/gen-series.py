#!/usr/bin/env python3
"""Generates, in the git repository in the current directory, a base
commit and a linear series of commits with random (seeded) edits, for
the dry-apply oracle tests:

    gen-series.py <seed> <files> <commits>

The base holds <files> text files of 40-120 lines in a few directories,
one executable script and one binary file. Each commit edits 1-3 files
(lines replaced, inserted, deleted, a missing final newline added or
removed) and sometimes creates, deletes, renames, copies or chmods a
file, or changes the binary file. Branch "base" is the base commit and
the series ends at HEAD. Deterministic for a given seed.
"""
import os
import random
import subprocess
import sys


def git(*args):
    subprocess.run(("git",) + args, check=True, stdout=subprocess.DEVNULL)


def write(path, lines, final_newline=True):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    text = "\n".join(lines)
    if lines and final_newline:
        text += "\n"
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        text = f.read()
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), text.endswith("\n")


def main():
    seed, nfiles, ncommits = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(seed)
    dirs = ["drivers/usb/core", "drivers/usb/storage", "fs", "include/linux", "net"]
    files = []
    serial = [0]

    def fresh(tag):
        serial[0] += 1
        return "%s %d: %s" % (tag, serial[0], rnd.choice(["int x;", "return 0;", "}", "{", "i++;", "/* note */"]))

    for i in range(nfiles):
        path = "%s/file%d.c" % (rnd.choice(dirs), i)
        write(path, [fresh("line") for _ in range(rnd.randint(40, 120))])
        files.append(path)
    write("scripts/run.sh", ["#!/bin/sh", "echo run"])
    os.chmod("scripts/run.sh", 0o755)
    with open("data.bin", "wb") as f:
        f.write(bytes(rnd.randrange(256) for _ in range(600)))
    git("add", ".")
    git("commit", "-q", "-m", "base")
    git("branch", "-f", "base")

    for c in range(ncommits):
        what = rnd.random()
        if what < 0.06:
            path = "%s/new%d.c" % (rnd.choice(dirs), c)
            write(path, [fresh("new") for _ in range(rnd.randint(5, 30))])
            files.append(path)
        elif what < 0.10 and len(files) > 3:
            path = files.pop(rnd.randrange(len(files)))
            git("rm", "-q", path)
        elif what < 0.15 and len(files) > 1:
            i = rnd.randrange(len(files))
            new = "%s/renamed%d.c" % (rnd.choice(dirs), c)
            os.makedirs(os.path.dirname(new), exist_ok=True)
            git("mv", files[i], new)
            lines, nl = read(new)
            lines[rnd.randrange(len(lines))] = fresh("renamed")
            write(new, lines, nl)
            files[i] = new
        elif what < 0.18:
            src = rnd.choice(files)
            new = "%s/copy%d.c" % (rnd.choice(dirs), c)
            lines, nl = read(src)
            write(new, lines, nl)
            files.append(new)
        elif what < 0.21:
            os.chmod("scripts/run.sh", 0o644 if os.access("scripts/run.sh", os.X_OK) else 0o755)
        elif what < 0.27:
            with open("blob%d.bin" % c, "wb") as f:
                f.write(bytes(rnd.randrange(256) for _ in range(rnd.randint(10, 300))))
        elif what < 0.31:
            with open("data.bin", "rb") as f:
                data = bytearray(f.read())
            for _ in range(rnd.randint(1, 8)):
                data[rnd.randrange(len(data))] = rnd.randrange(256)
            if rnd.random() < 0.3:
                data += bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 100)))
            with open("data.bin", "wb") as f:
                f.write(data)
        for path in rnd.sample(files, min(len(files), rnd.randint(1, 3))):
            lines, nl = read(path)
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
            write(path, lines, nl)
        git("add", "-A", ".")
        git("commit", "-q", "--allow-empty", "-m", "change %d" % (c + 1))


main()
