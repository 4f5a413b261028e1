#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# An HTTP server on loopback that answers as no archive should, for the
# fault tests of t/lib-archive.sh (start_hostile_http). Every request gets
# the answer of the mode it was started in:
#
#   empty-members [<delay>]  200, then empty gzip members one after
#                            another, for ever (a group every <delay>
#                            seconds, default 0: as fast as it can)
#   big-header               200 with one header line of 256 KiB
#   many-headers             200, then header lines of 40 bytes, for ever
#   drip                     200, chunked: a gzip stream of one mail line
#                            every 0.2 s, never ending
#
# It writes its port to <port file> once it listens, and exits by itself
# after 10 minutes, so a test that dies leaves no server behind.
import gzip
import os
import socket
import sys
import threading
import time
import zlib


def read_request(c):
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        more = c.recv(4096)
        if not more:
            return False
        data += more
    return True


def empty_members(c, delay):
    member = gzip.compress(b"", mtime=0)
    group = member * (4096 if not delay else 16)
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\n"
              b"Connection: close\r\n\r\n")
    while True:
        c.sendall(group)
        if delay:
            time.sleep(delay)


def big_header(c):
    c.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (256 << 10) +
              b"\r\nContent-Length: 0\r\n\r\n")


def many_headers(c):
    c.sendall(b"HTTP/1.1 200 OK\r\n")
    n = 0
    while True:
        c.sendall(b"X-Header-%08d: aaaaaaaaaaaaaaaaaaa\r\n" % n)
        n += 1


def chunk(data):
    return b"%x\r\n" % len(data) + data + b"\r\n"


def drip(c):
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
    c.sendall(chunk(z.compress(b"From drip@example.com Mon Sep 17 00:00:00 2001\n") +
                    z.flush(zlib.Z_SYNC_FLUSH)))
    n = 0
    while True:
        time.sleep(0.2)
        c.sendall(chunk(z.compress(b"line %d of a thread that never ends\n" % n) +
                        z.flush(zlib.Z_SYNC_FLUSH)))
        n += 1


def serve(c, mode, args):
    try:
        if not read_request(c):
            return
        if mode == "empty-members":
            empty_members(c, float(args[0]) if args else 0)
        elif mode == "big-header":
            big_header(c)
        elif mode == "many-headers":
            many_headers(c)
        elif mode == "drip":
            drip(c)
    except OSError:
        pass
    finally:
        c.close()


def main():
    port_file, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    with open(port_file + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    os.rename(port_file + ".tmp", port_file)
    threading.Timer(600, lambda: os._exit(0)).start()
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c, mode, args), daemon=True).start()


main()
