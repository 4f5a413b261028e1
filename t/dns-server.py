#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# A DNS server for t0122 on 127.0.0.1:53 (run in a network namespace of
# the test's own): serves TXT records from a DKIM key file (lines
# "<name> <record>"), NXDOMAIN for other names; "silent" answers nothing.
# Writes <ready> once listening and one line per query to <log>. Stops
# after 60 s at the latest.
#
#   dns-server.py up|silent <keys> <ready> <log>
import socket
import sys
import time

import dns.message
import dns.rcode
import dns.rdatatype
import dns.rrset

mode, keyfile, ready, log = sys.argv[1:5]
keys = {}
for line in open(keyfile):
    name, _, rec = line.rstrip("\n").partition(" ")
    keys[name.lower().rstrip(".") + "."] = rec

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 53))
sock.settimeout(1)
open(ready, "w").close()
deadline = time.time() + 60
while time.time() < deadline:
    try:
        data, peer = sock.recvfrom(4096)
    except socket.timeout:
        continue
    query = dns.message.from_wire(data)
    qname = str(query.question[0].name).lower()
    with open(log, "a") as f:
        f.write(qname + "\n")
    if mode == "silent":
        continue
    reply = dns.message.make_response(query)
    if qname in keys and query.question[0].rdtype == dns.rdatatype.TXT:
        rec = keys[qname]
        # TXT strings of at most 255 bytes each
        parts = " ".join('"%s"' % rec[i:i + 255] for i in range(0, len(rec), 255))
        reply.answer.append(dns.rrset.from_text(qname, 60, "IN", "TXT", parts))
    else:
        reply.set_rcode(dns.rcode.NXDOMAIN)
    sock.sendto(reply.to_wire(), peer)
