#!/usr/bin/env python3
"""A road-network-like graph for benchmarks: a W x H street grid with streets missing at
random, each street one-way in a random direction or (TWO_WAY of them) both ways. Long
paths, low degree, large SCCs where two-way streets meet. Edge list on stdout; fixed seed.
  tools/gen_road_graph.py W H [KEEP=0.6] [TWO_WAY=0.15] [SEED=1]"""
import random
import sys

w, h = int(sys.argv[1]), int(sys.argv[2])
keep = float(sys.argv[3]) if len(sys.argv) > 3 else 0.6
two_way = float(sys.argv[4]) if len(sys.argv) > 4 else 0.15
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
out = []
for y in range(h):
    for x in range(w):
        v = y * w + x
        for nx, ny in ((x + 1, y), (x, y + 1)):
            if nx >= w or ny >= h or rng.random() >= keep:
                continue
            u = ny * w + nx
            a, b = (v, u) if rng.random() < 0.5 else (u, v)
            out.append(f"{a} {b}")
            if rng.random() < two_way:
                out.append(f"{b} {a}")
sys.stdout.write("\n".join(out) + "\n")
