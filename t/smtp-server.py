#!/usr/bin/python3
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
#              "<connection> tls" once STARTTLS is done
#
# Modes (for fault tests): --fail-after K answers 421 to the data of the
# (K+1)th message and closes the connection; --drop-after K drops the
# connection instead of answering; --stall-after K never answers; each
# fires once. It writes its pid to --pid-file, and exits by itself when
# the process --watch-pid names (the test script) is gone, or after 30
# minutes, so a test that dies leaves no server behind. --reject ADDR answers 550 to RCPT TO:<ADDR>; --defer ADDR
# answers 451 to it once. --refuse-after K answers 554 to the data of the
# (K+1)th message (once), which is not spooled; the connection goes on.
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
import argparse
import asyncio
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--spool", required=True)
    p.add_argument("--port-file", required=True)
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
    p.add_argument("--refuse-after", type=int)
    p.add_argument("--inject-starttls", action="store_true")
    p.add_argument("--pipelining-before-tls", action="store_true")
    p.add_argument("--no-starttls", action="store_true")
    p.add_argument("--plain", action="store_true")
    p.add_argument("--no-pipelining", action="store_true")
    p.add_argument("--pid-file")
    p.add_argument("--watch-pid", type=int)
    return p.parse_args()


class State:
    def __init__(self, args):
        self.args = args
        self.accepted = 0       # by this server, for the modes
        # file numbers go on after what an earlier server of the test spooled
        self.seq = len([n for n in os.listdir(args.spool) if n.endswith(".eml")])
        self.connections = 0
        self.fired = set()
        self.deferred = set()
        self.log = open(os.path.join(args.spool, "log"), "a", buffering=1)
        self.password = None
        if args.password_file:
            with open(args.password_file, "rb") as f:
                self.password = f.read().rstrip(b"\n")

    def once(self, mode, count):
        """True when mode is set, count mails were accepted, and it has not fired yet."""
        k = getattr(self.args, mode)
        if k is None or mode in self.fired or self.accepted != k:
            return False
        self.fired.add(mode)
        return True

    def spool(self, envelope):
        self.accepted += 1
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
    def __init__(self, state):
        self.state = state

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        args = self.state.args
        before_tls = server._tls_protocol is None
        if not args.no_pipelining and (before_tls or not args.pipelining_before_tls):
            responses.insert(-1, "250-PIPELINING")
        return responses

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        st = self.state
        if address in st.args.reject:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        if address in st.args.defer and address not in st.deferred:
            st.deferred.add(address)
            return "451 4.7.1 <%s>: Recipient address deferred: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        st = self.state
        if st.once("fail_after", st.accepted):
            asyncio.get_event_loop().call_soon(server.transport.close)
            return "421 4.3.2 Service shutting down, closing transmission channel"
        if st.once("drop_after", st.accepted):
            server.transport.abort()
            return "421 4.3.2 dropped"
        if st.once("stall_after", st.accepted):
            await asyncio.sleep(3600)
        if st.once("refuse_after", st.accepted):
            return "554 5.7.1 Message refused: content rejected"
        st.spool(envelope)
        return "250 2.0.0 Ok: queued as %04d" % st.seq


class LoggingSMTP(SMTP):
    """aiosmtpd's server, logging each command it handles and each connection."""

    def __init__(self, state, *a, **kw):
        super().__init__(*a, **kw)
        self.state = state
        state.connections += 1
        self.conn = state.connections
        methods = self._smtp_methods

        def wrap(name, method):
            async def logged(arg):
                shown = arg
                if name == "AUTH" and arg:
                    shown = arg.split()[0]
                st.log.write("%d %s%s\n" % (self.conn, name, " " + shown if shown else ""))
                return await method(arg)
            return logged

        st = state
        self._smtp_methods = {name: wrap(name, m) for name, m in methods.items()}

    async def push(self, status):
        await super().push(status)
        if self.state.args.inject_starttls and status.startswith("220 Ready to start TLS"):
            await super().push("250 2.0.0 injected before the handshake")

    def connection_made(self, transport):
        if self.transport is None:
            self.state.log.write("%d connect\n" % self.conn)
        else:
            self.state.log.write("%d tls\n" % self.conn)
        super().connection_made(transport)


def main():
    args = parse_args()
    state = State(args)

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword) and state.password is not None and
              auth_data.login.decode() == args.user and auth_data.password == state.password)
        return AuthResult(success=ok, handled=False)

    tls = None
    if not args.plain and not args.no_starttls:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(args.cert, args.key)

    def factory():
        return LoggingSMTP(state, Handler(state), hostname="smtp.test", tls_context=tls,
                           require_starttls=tls is not None,
                           auth_required=not args.plain, auth_require_tls=not args.plain,
                           authenticator=authenticator)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(loop.create_server(factory, host=args.host, port=0))
    port = server.sockets[0].getsockname()[1]
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
