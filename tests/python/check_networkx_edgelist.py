#!/usr/bin/env python3
"""`closure run` on the files networkx's edge-list writers make, against
nx.transitive_closure: write_edgelist with the attribute dict (the default), without it
(data=False), with chosen keys (data=['weight']), write_weighted_edgelist, gzip, and
comma- and tab-delimited (read as CSV and TSV).

Usage: check_networkx_edgelist.py PATH/TO/closure WORKDIR
nx.transitive_closure(reflexive=False) has (u, u) exactly when u lies on a cycle: closure's
strict semantics.
"""
import os
import random
import subprocess
import sys

import networkx as nx

CLOSURE, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
failures = 0


def closure_pairs(path):
    out = path + ".closure.txt"
    r = subprocess.run([CLOSURE, "-q", path, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"closure {path} failed ({r.returncode}): {r.stderr}")
    with open(out) as f:
        return {tuple(line.split()) for line in f if line.strip()}


def random_graph(rng, n, m, names):
    g = nx.DiGraph()
    for _ in range(m):
        a, b = rng.randrange(n), rng.randrange(n)
        if a == b and rng.random() < 0.8:
            continue
        u, v = (f"v{a}", f"v{b}") if names else (a, b)
        # Attributes that would trip a naive reader: blanks, commas, braces and quotes in
        # strings, nested containers, and a weight.
        g.add_edge(u, v, weight=round(rng.uniform(-5, 5), 3),
                   label=rng.choice(["x", "a b", "{", "}", "it's", 'say "hi"', "a, b"]),
                   meta={"k": [1, {"z": "}"}]})
    return g


def check(g, name):
    global failures
    want = {(str(u), str(v)) for u, v in nx.transitive_closure(g, reflexive=False).edges}
    writers = {
        "dict.edgelist": lambda p: nx.write_edgelist(g, p),
        "nodata.edgelist": lambda p: nx.write_edgelist(g, p, data=False),
        "keys.edgelist": lambda p: nx.write_edgelist(g, p, data=["weight"]),
        "weighted.edgelist": lambda p: nx.write_weighted_edgelist(g, p),
        "dict.edgelist.gz": lambda p: nx.write_edgelist(g, p),
        "dict.txt": lambda p: nx.write_edgelist(g, p),
        # delimiter="," and "\t": the dict holds the delimiter and quotes (CSV, TSV readers).
        "dict.csv": lambda p: nx.write_edgelist(g, p, delimiter=","),
        "dict.tsv": lambda p: nx.write_edgelist(g, p, delimiter="\t"),
    }
    for suffix, writer in writers.items():
        path = os.path.join(WORK, f"{name}.{suffix}")
        writer(path)
        got = closure_pairs(path)
        if got != want:
            failures += 1
            print(f"MISMATCH {path}: {len(got)} pairs, networkx {len(want)};",
                  sorted(got ^ want)[:5])


rng = random.Random(27)
empty = nx.DiGraph()
empty.add_edge(0, 1)
empty.add_edge(1, 2)
check(empty, "plain")  # attribute dicts "{}"
for i in range(6):
    check(random_graph(rng, 20 + 10 * i, 40 + 25 * i, names=i % 2 == 1), f"random{i}")
print("networkx edge lists:", "FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
