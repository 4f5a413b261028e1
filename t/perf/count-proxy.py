#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A TCP proxy on loopback that counts the bytes it carries.

usage: count-proxy.py <target port> <port file> <count file>

Listens on a free loopback port (written to <port file> once it
listens), forwards every connection to 127.0.0.1:<target port>, and
after each connection ends adds its bytes to <count file>, one line:
"<bytes client to server> <bytes server to client>" (the totals so far).
What a push puts on the wire, both ways, whatever the protocol.
"""
import asyncio
import os
import sys

target, port_file, count_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
totals = [0, 0]


async def pipe(reader, writer, i):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            totals[i] += len(data)
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        try:
            writer.close()
        except OSError:
            pass


async def handle(creader, cwriter):
    sreader, swriter = await asyncio.open_connection("127.0.0.1", target)
    await asyncio.gather(pipe(creader, swriter, 0), pipe(sreader, cwriter, 1))
    with open(count_file + ".tmp", "w") as f:
        f.write("%d %d\n" % (totals[0], totals[1]))
    os.rename(count_file + ".tmp", count_file)


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    with open(port_file + ".tmp", "w") as f:
        f.write("%d\n" % server.sockets[0].getsockname()[1])
    os.rename(port_file + ".tmp", port_file)
    async with server:
        await server.serve_forever()


asyncio.run(main())
