#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes git binary patches (as a format-patch mail) for t0304.

  binpatch.py delta <path> <source-file> <copies>
	a delta against <source-file> (at most 64 KiB) whose result is
	<copies> copies of it, made of <copies> copy commands: a few hundred
	bytes that announce <copies> x <size> bytes.
  binpatch.py literal <path> <size> [<count>]
	<count> (default 1) new files <path>, <path>1, ... each holding
	<size> zero bytes, as "literal <size>" blocks.
  binpatch.py grow <path> <source-file> <growth> <count>
	a series of <count> mails ([PATCH k/<count>]), each a delta that
	grows <path> by <growth> bytes, from <source-file>'s content on:
	copy commands only, a few dozen bytes a mail.

The index lines carry the full ids of the pre- and post-images, so git
apply checks them as we do. Nothing here is a copy of git's code: the
formats are those of git's Documentation (base85 lines of up to 52
bytes, a length letter first; zlib-deflated data; git's delta encoding).
"""
import base64
import hashlib
import struct
import sys
import zlib

MIB = 1 << 20


def base85_lines(data, deflated=None):
    if deflated is None:
        deflated = zlib.compress(data, 9)
    out = []
    for i in range(0, len(deflated), 52):
        chunk = deflated[i:i + 52]
        n = len(chunk)
        letter = chr(ord('A') + n - 1) if n <= 26 else chr(ord('a') + n - 27)
        out.append(letter + base64.b85encode(chunk, pad=True).decode())
    return out


def varint(v):
    out = bytearray()
    while True:
        c = v & 0x7f
        v >>= 7
        if not v:
            out.append(c)
            return bytes(out)
        out.append(c | 0x80)


def blob_id(chunks, size):
    h = hashlib.sha1(b"blob %d\0" % size)
    for c in chunks:
        h.update(c)
    return h.hexdigest()


def mail(subject, lines, prefix="[PATCH]"):
    return "".join(l + "\n" for l in [
        "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001",
        "From: A U Thor <author@example.com>",
        "Date: Thu, 7 Apr 2005 15:13:13 -0700",
        "Subject: %s %s" % (prefix, subject), "", "---"] + lines + ["-- ", "2.39.5", ""])


def copy_op(offset, size):
    """A copy command with every offset and size byte given (size < 2^24)."""
    return bytes([0xff]) + struct.pack("<I", offset) + struct.pack("<I", size)[:3]


def grow(path, source, growth, count):
    content = open(source, "rb").read()
    out = []
    for k in range(1, count + 1):
        old = content
        data = varint(len(old)) + varint(len(old) + growth)
        for at in range(0, len(old), 65536):
            data += copy_op(at, min(65536, len(old) - at))
        left = growth
        while left:
            n = min(left, 65536, len(old))
            data += copy_op(0, n)
            content += old[:n]
            left -= n
        out.append(mail("grow %s" % path, [
            "diff --git a/%s b/%s" % (path, path),
            "index %s..%s 100644" % (blob_id([old], len(old)), blob_id([content], len(content))),
            "GIT binary patch", "delta %d" % len(data)] + base85_lines(data) +
            ["", "literal 0", "HcmV?d00001", ""], "[PATCH %d/%d]" % (k, count)))
    return "".join(out)


def delta(path, source, copies):
    src = open(source, "rb").read()
    assert 0 < len(src) <= 65536
    # copy command: 0x80 | offset/size bytes present; size 0 means 64 KiB
    op = bytes([0x90 | 0x20, len(src) & 0xff, len(src) >> 8]) if len(src) < 65536 else b"\x80"
    data = varint(len(src)) + varint(copies * len(src)) + op * copies
    old = blob_id([src], len(src))
    new = blob_id([src] * copies, copies * len(src)) if copies * len(src) <= 64 << 20 else "f" * 40
    return mail("grow %s" % path, [
        "diff --git a/%s b/%s" % (path, path), "index %s..%s 100644" % (old, new),
        "GIT binary patch", "delta %d" % len(data)] + base85_lines(data) +
        ["", "literal 0", "HcmV?d00001", ""])


def zeros_deflated(size):
    """zlib data of <size> zero bytes, each whole MiB deflated once: after
    a full flush the compressor starts afresh, so every MiB of zeros comes
    out as the same bytes (deflating 256 MiB anew takes seconds)."""
    whole, rest = divmod(size, MIB)
    mib = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = mib.compress(b"\0" * MIB) + mib.flush(zlib.Z_FULL_FLUSH)
    last = zlib.compressobj(9, zlib.DEFLATED, -15)
    end = last.compress(b"\0" * rest) + last.flush()
    adler = 1
    for chunk in zero_chunks(size):
        adler = zlib.adler32(chunk, adler)
    return b"\x78\xda" + block * whole + end + struct.pack(">I", adler)


def zero_chunks(size):
    mib = b"\0" * MIB
    whole, rest = divmod(size, MIB)
    return [mib] * whole + [b"\0" * rest]


def literal(path, size, count):
    oid = blob_id(zero_chunks(size), size)
    data = base85_lines(None, zeros_deflated(size))
    lines = []
    for i in range(count):
        name = path + (str(i) if i else "")
        lines += ["diff --git a/%s b/%s" % (name, name), "new file mode 100644",
                  "index %s..%s" % ("0" * 40, oid), "GIT binary patch",
                  "literal %d" % size] + data + ["", "literal 0", "HcmV?d00001", ""]
    return mail("add %d zero-filled files" % count, lines)


if __name__ == "__main__":
    if sys.argv[1] == "delta":
        sys.stdout.write(delta(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    elif sys.argv[1] == "literal":
        sys.stdout.write(literal(sys.argv[2], int(sys.argv[3]),
                                 int(sys.argv[4]) if len(sys.argv) > 4 else 1))
    elif sys.argv[1] == "grow":
        sys.stdout.write(grow(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])))
    else:
        sys.exit("usage: binpatch.py delta|literal|grow ...")
