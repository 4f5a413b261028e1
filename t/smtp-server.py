#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# A real SMTP server for the tests (Debian's python3-aiosmtpd), on a
# loopback address, started and stopped by t/lib-smtp.sh.
#
# It listens on a port the kernel picks (port 0: free by construction, so
# tests run at the same time never collide), writes that port to
# --port-file once it accepts connections, and spools every message it
# accepts under --spool:
#
#   NNNN.eml   the message data as received (CRLF line ends, dots unstuffed)
#   NNNN.env   the envelope: "MAIL FROM:<x>" then one "RCPT TO:<y>" per line
#   log        one line per command: "<connection> <COMMAND> <argument>"
#              (AUTH shows its mechanism only), "<connection> connect",
#              "<connection> tls" once STARTTLS is done; connections are
#              numbered from 1 in each log
#
# The spool may be emptied (removed) between connections: the next one
# starts a new log, counted from 1, and file numbers go on after what is
# left in it. --closed-port-file names a file to write a second port to:
# one this server holds bound but does not listen on, so connecting there
# is refused (a port where no server answers, that no one else takes).
#
# Modes (for fault tests): --fail-after K answers 421 to the data of the
# (K+1)th message and closes the connection; --drop-after K drops the
# connection instead of answering; --stall-after K does not answer until
# the control file (below) changes, then answers 421 and closes; each
# fires once. It writes its pid to --pid-file, and exits by itself when
# the process --watch-pid names (the test script) is gone, or after 30
# minutes, so a test that dies leaves no server behind. --reject ADDR answers 550 to RCPT TO:<ADDR>; --defer ADDR
# answers 451 to it once. --refuse-after K answers 554 to the data of the
# (K+1)th message (once), which is not spooled; the connection goes on.
# --rcpt-max N answers "452 4.5.3 Too many recipients" to every RCPT TO
# after the first N a transaction accepted (RFC 5321 4.5.3.1.10);
# --defer-all answers 451 to every RCPT TO, every time (a server that
# defers everything). --refuse-from K answers 554 to the data of every message after the
# first K accepted (a policy that changed mid-run), until the next reset.
# --inject-starttls sends a second reply right after "220 Ready to start
# TLS", before the handshake (an attacker's injection, RFC 3207).
# --no-starttls offers no STARTTLS (AUTH needs
# TLS, so it is not offered either); --plain: no TLS at all, no AUTH.
#
# It offers PIPELINING (RFC 2920), as Postfix, Exim and the big mail
# services do (aiosmtpd reads commands one after another from what it
# received, so a group of them works; it just does not say so);
# --no-pipelining leaves it out; --pipelining-before-tls offers it in the
# EHLO before STARTTLS only (what counts is the EHLO after it).
#
# One server can play all of these in turn (a test script starts one, not
# one per test): at each connection it reads the control file
# (--control-file, by default "control" in the spool), one argument per
# line (lines starting with "#" aside), and serves that connection as if
# those arguments followed its command line (modes, --cert/--key, --plain
# ...). When the control file changes (or goes), the modes are armed
# afresh: "fires once" counts from there. A control file it cannot parse
# is reported in the log ("0 control: <error>") and on stderr, and the
# command line alone serves. A control file outside the spool may be
# written in place (t/lib-smtp.sh numbers each version in a "#" line):
# read while it is being written, it has changed all the same, which is
# all a stalled mail waits for, and a connection starts only after the
# test has written it.
import argparse
import asyncio
import os
import socket
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def make_parser(exit_on_error=True):
    p = argparse.ArgumentParser(exit_on_error=exit_on_error)
    p.add_argument("--spool", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--closed-port-file")
    p.add_argument("--control-file")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--user")
    p.add_argument("--password-file")
    p.add_argument("--fail-after", type=int)
    p.add_argument("--drop-after", type=int)
    p.add_argument("--stall-after", type=int)
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--defer", action="append", default=[])
    p.add_argument("--rcpt-max", type=int)
    p.add_argument("--defer-all", action="store_true")
    p.add_argument("--refuse-after", type=int)
    p.add_argument("--refuse-from", type=int)
    p.add_argument("--inject-starttls", action="store_true")
    p.add_argument("--pipelining-before-tls", action="store_true")
    p.add_argument("--no-starttls", action="store_true")
    p.add_argument("--plain", action="store_true")
    p.add_argument("--no-pipelining", action="store_true")
    p.add_argument("--pid-file")
    p.add_argument("--watch-pid", type=int)
    return p


class Modes:
    """The arguments one control file gives, and what its modes have done."""

    def __init__(self, args, control):
        self.args = args
        self.control = control  # what the control file was: see State.read_control
        self.accepted = 0       # under these modes
        self.fired = set()
        self.deferred = set()

    def once(self, mode, count):
        """True when mode is set, count mails were accepted, and it has not fired yet."""
        k = getattr(self.args, mode)
        if k is None or mode in self.fired or self.accepted != k:
            return False
        self.fired.add(mode)
        return True


class State:
    def __init__(self, argv):
        self.argv = argv
        args = make_parser().parse_args(argv)
        self.parser = make_parser(exit_on_error=False)
        self.args = args
        self.control_path = args.control_file or os.path.join(args.spool, "control")
        self.log_path = os.path.join(args.spool, "log")
        self.modes = Modes(args, None)
        self.seq = 0
        self.connections = 0
        self.log = None
        self.tls = {}
        self.password = None
        self.open_log()
        if args.password_file:
            with open(args.password_file, "rb") as f:
                self.password = f.read().rstrip(b"\n")

    def read_control(self):
        """The control file's identity and arguments (None, [] when there is none)."""
        try:
            with open(self.control_path, "rb") as f:
                st = os.fstat(f.fileno())
                data = f.read()
        except FileNotFoundError:
            return None, []
        return (st.st_ino, st.st_mtime_ns, data), [
            a for a in data.decode().splitlines() if a and not a.startswith("#")]

    def control_changed(self, modes):
        return self.read_control()[0] != modes.control

    def open_log(self):
        """The log of the spool as it is now: a new one (connections from 1) if it was emptied."""
        os.makedirs(self.args.spool, exist_ok=True)
        try:
            if os.stat(self.log_path).st_ino == os.fstat(self.log.fileno()).st_ino:
                return
        except (FileNotFoundError, AttributeError):
            pass
        if self.log:
            self.log.close()
        self.log = open(self.log_path, "a", buffering=1)
        self.connections = 0

    def connect(self):
        """A new connection: its number and the modes that serve it."""
        self.open_log()
        numbers = [int(n[:4]) for n in os.listdir(self.args.spool)
                   if n.endswith(".eml") and n[:4].isdigit()]
        self.seq = max(numbers, default=0)
        self.connections += 1
        control, extra = self.read_control()
        if control != self.modes.control:
            try:
                args = self.parser.parse_args(self.argv + extra)
            except (argparse.ArgumentError, SystemExit) as e:
                self.write("0 control: %s\n" % e)
                print("smtp-server: bad control file: %s" % e, file=sys.stderr)
                args = self.args
            self.modes = Modes(args, control)
        return self.connections, self.modes

    def write(self, line):
        self.log.write(line)

    def tls_context(self, args):
        if args.plain or args.no_starttls:
            return None
        key = (args.cert, args.key)
        if key not in self.tls:
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls.load_cert_chain(args.cert, args.key)
            self.tls[key] = tls
        return self.tls[key]

    def spool(self, modes, envelope):
        modes.accepted += 1
        self.seq += 1
        base = os.path.join(self.args.spool, "%04d" % self.seq)
        lines = ["MAIL FROM:<%s>" % envelope.mail_from]
        lines += ["RCPT TO:<%s>" % r for r in envelope.rcpt_tos]
        for name, data in ((".env", ("\n".join(lines) + "\n").encode()),
                           (".eml", envelope.original_content)):
            with open(base + name + ".tmp", "wb") as f:
                f.write(data)
            os.rename(base + name + ".tmp", base + name)


class Handler:
    def __init__(self, state, modes):
        self.state = state
        self.modes = modes

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        args = self.modes.args
        before_tls = server._tls_protocol is None
        if not args.no_pipelining and (before_tls or not args.pipelining_before_tls):
            responses.insert(-1, "250-PIPELINING")
        return responses

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        m = self.modes
        if address in m.args.reject:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        if m.args.defer_all:
            return "451 4.3.0 <%s>: Recipient address deferred: try again later" % address
        if m.args.rcpt_max is not None and len(envelope.rcpt_tos) >= m.args.rcpt_max:
            return "452 4.5.3 Too many recipients"
        if address in m.args.defer and address not in m.deferred:
            m.deferred.add(address)
            return "451 4.7.1 <%s>: Recipient address deferred: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        st, m = self.state, self.modes
        if m.once("fail_after", m.accepted):
            asyncio.get_event_loop().call_soon(server.transport.close)
            return "421 4.3.2 Service shutting down, closing transmission channel"
        if m.once("drop_after", m.accepted):
            server.transport.abort()
            return "421 4.3.2 dropped"
        if m.once("stall_after", m.accepted):
            # until the test says (a client that gives up cancels this)
            while not st.control_changed(m):
                await asyncio.sleep(0.05)
            asyncio.get_event_loop().call_soon(server.transport.close)
            return "421 4.3.2 stalled, closing transmission channel"
        if m.once("refuse_after", m.accepted) or (
                m.args.refuse_from is not None and m.accepted >= m.args.refuse_from):
            return "554 5.7.1 Message refused: content rejected"
        st.spool(m, envelope)
        return "250 2.0.0 Ok: queued as %04d" % st.seq


class LoggingSMTP(SMTP):
    """aiosmtpd's server, logging each command it handles and each connection."""

    def __init__(self, state, conn, modes, *a, **kw):
        super().__init__(*a, **kw)
        self.state = state
        self.conn = conn
        self.modes = modes
        methods = self._smtp_methods

        def wrap(name, method):
            async def logged(arg):
                shown = arg
                if name == "AUTH" and arg:
                    shown = arg.split()[0]
                state.write("%d %s%s\n" % (self.conn, name, " " + shown if shown else ""))
                return await method(arg)
            return logged

        self._smtp_methods = {name: wrap(name, m) for name, m in methods.items()}

    async def push(self, status):
        await super().push(status)
        if self.modes.args.inject_starttls and status.startswith("220 Ready to start TLS"):
            await super().push("250 2.0.0 injected before the handshake")

    def connection_made(self, transport):
        if self.transport is None:
            self.state.write("%d connect\n" % self.conn)
        else:
            self.state.write("%d tls\n" % self.conn)
        super().connection_made(transport)


def main():
    state = State(sys.argv[1:])
    args = state.args

    def authenticator(server, session, envelope, mechanism, auth_data):
        user = server.modes.args.user
        ok = (isinstance(auth_data, LoginPassword) and state.password is not None and
              auth_data.login.decode() == user and auth_data.password == state.password)
        return AuthResult(success=ok, handled=False)

    def factory():
        conn, modes = state.connect()
        a = modes.args
        tls = state.tls_context(a)
        return LoggingSMTP(state, conn, modes, Handler(state, modes), hostname="smtp.test",
                           tls_context=tls, require_starttls=tls is not None,
                           auth_required=not a.plain, auth_require_tls=not a.plain,
                           authenticator=authenticator)

    state.tls_context(args)  # a bad certificate fails now, not at the first connection
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(loop.create_server(factory, host=args.host, port=0))
    port = server.sockets[0].getsockname()[1]
    if args.closed_port_file:
        closed = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        closed.bind((args.host, 0))
        with open(args.closed_port_file, "w") as f:
            f.write("%d\n" % closed.getsockname()[1])
    if args.pid_file:
        with open(args.pid_file, "w") as f:
            f.write("%d\n" % os.getpid())
    with open(args.port_file + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(args.port_file + ".tmp", args.port_file)
    # never outlive the test script that started us, nor run for ever
    watched = args.watch_pid or os.getppid()
    started = loop.time()

    def alive(pid):
        # A script that has exited but not been reaped is a zombie, which
        # kill(0) still finds: prove reaps it only once its output pipe,
        # which we hold, is closed, so both would wait half an hour.
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return False
        except (OSError, IndexError):
            pass
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True

    def watchdog():
        if not alive(watched) or loop.time() - started > 1800:
            loop.stop()
        else:
            loop.call_later(0.5, watchdog)

    loop.call_later(0.5, watchdog)
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(main())
