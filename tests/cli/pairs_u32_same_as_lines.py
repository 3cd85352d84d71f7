#!/usr/bin/env python3
"""`closure query IDX --pairs-format u32` against the same pairs as 'u v' lines: one byte an
answer, each the verdict of its line (0 no, 1 yes, 2 u unknown, 3 v unknown), on a numbered
3,000-vertex graph (chains and cycles) with 50,000 random pairs (seed 5), 3% of them naming a vertex past it.

    pairs_u32_same_as_lines.py CLOSURE_BIN DIR      (prints "same", or what differs)
"""
import random
import struct
import subprocess
import sys

closure, out = sys.argv[1], sys.argv[2]
# Vertices named in order (0 1, 1 2, ...: the index is numbered), in chains of 100, then
# edges across them, forward and back (cycles).
edges = [(i, i + 1) for i in range(2999) if i % 100 != 99]
edges += [(i, (i * 7 + 3) % 3000) for i in range(0, 3000, 53)]
with open(f"{out}/u32big.txt", "w") as f:
    f.write("".join(f"{u} {v}\n" for u, v in edges))
subprocess.run([closure, "index", "-q", f"{out}/u32big.txt", "-o", f"{out}/u32big.idx"], check=True)
r = random.Random(5)
pairs = [(r.randrange(3100), r.randrange(3100)) for _ in range(50000)]
with open(f"{out}/u32big.bin", "wb") as f:
    f.write(b"".join(struct.pack("<II", u, v) for u, v in pairs))
with open(f"{out}/u32big.q", "w") as f:
    f.write("".join(f"{u} {v}\n" for u, v in pairs))
query = [closure, "query", "-q", f"{out}/u32big.idx", "--pairs"]
binary = subprocess.run(query + [f"{out}/u32big.bin", "--pairs-format", "u32"],
                        capture_output=True).stdout
lines = subprocess.run(query + [f"{out}/u32big.q"], capture_output=True, text=True).stdout


def verdict(line, u, v):
    tail = line.split(" ", 2)[2]
    if tail in ("yes", "no"):
        return int(tail == "yes")
    return 2 if tail == f"unknown vertex '{u}'" else 3


want = bytes(verdict(l, u, v) for l, (u, v) in zip(lines.splitlines(), pairs))
if len(want) != len(pairs) or set(want) != {0, 1, 2, 3}:
    print(f"the lines do not cover every verdict: {len(want)} lines, {sorted(set(want))}")
elif binary != want:
    at = next((i for i, (a, b) in enumerate(zip(binary, want)) if a != b), min(len(binary), len(want)))
    print(f"differ at pair {at} of {len(binary)} bytes / {len(want)} lines")
else:
    print("same")
