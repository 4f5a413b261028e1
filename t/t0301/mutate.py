#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mutate.py <seed> <count> <out-dir> <patch>...: writes <count> seeded
random mutations of the patches (bytes changed, cut, duplicated, lines
repeated or dropped) as <out-dir>/NNNN.patch, for robustness tests."""
import os
import random
import sys

seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sources = [open(p, "rb").read() for p in sys.argv[4:]]
rnd = random.Random(seed)
os.makedirs(out, exist_ok=True)
for n in range(count):
    data = bytearray(rnd.choice(sources))
    for _ in range(rnd.randint(1, 6)):
        op = rnd.random()
        i = rnd.randrange(len(data) + 1)
        if op < 0.3 and i < len(data):
            data[i] = rnd.choice(b" +-@\\\n,0123456789abz\"/.\t\x00")
        elif op < 0.5:
            del data[i:i + rnd.randint(1, 40)]
        elif op < 0.7:
            j = rnd.randrange(len(data) + 1)
            data[i:i] = data[j:j + rnd.randint(1, 80)]
        else:
            lines = data.split(b"\n")
            k = rnd.randrange(len(lines))
            if op < 0.85:
                lines.insert(k, lines[rnd.randrange(len(lines))])
            else:
                del lines[k]
            data = bytearray(b"\n".join(lines))
    with open(os.path.join(out, "%04d.patch" % n), "wb") as f:
        f.write(data)
