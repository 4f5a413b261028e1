#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# pty-run.py [--expect <text> --send <line>]... -- <command> [<arg>...]
#
# Runs the command on a new pseudo-terminal, its controlling terminal
# (standard input, output and error, and /dev/tty, are the pty), as if a
# user ran it in a terminal. Each --expect waits (10 s at most) until the
# command has written <text>, then --send types <line> and Enter. What
# the command wrote goes to our standard output, CR LF as LF; we exit
# with its exit status (128 + n for signal n), or 124 when it wrote
# nothing for 10 s (an --expect that never came, a command that waits
# for input it will not get: it is killed).
import os
import pty
import select
import signal
import sys

TIMEOUT = 10


def main():
    args = sys.argv[1:]
    script = []
    while args and args[0] != "--":
        if len(args) < 4 or args[0] != "--expect" or args[2] != "--send":
            sys.exit("usage: pty-run.py [--expect <text> --send <line>]... -- <command>...")
        script.append((args[1].encode(), args[3].encode()))
        args = args[4:]
    if len(args) < 2:
        sys.exit("usage: pty-run.py [--expect <text> --send <line>]... -- <command>...")
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(args[1], args[1:])
        finally:
            os._exit(127)
    seen = b""
    timed_out = False
    while True:
        if script and script[0][0] in seen:
            want, line = script.pop(0)
            seen = seen[seen.index(want) + len(want):]
            os.write(fd, line + b"\n")
            continue
        ready, _, _ = select.select([fd], [], [], TIMEOUT)
        if not ready:  # silent for 10 s: waiting for what is not coming
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        try:
            data = os.read(fd, 4096)
        except OSError:  # EIO: the command and all its children closed the pty
            break
        if not data:
            break
        sys.stdout.buffer.write(data.replace(b"\r\n", b"\n"))
        sys.stdout.buffer.flush()
        seen += data
    _, status = os.waitpid(pid, 0)
    if timed_out:
        sys.exit(124)
    if os.WIFSIGNALED(status):
        sys.exit(128 + os.WTERMSIG(status))
    sys.exit(os.WEXITSTATUS(status))


main()
