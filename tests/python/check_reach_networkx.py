#!/usr/bin/env python3
"""`closure reduce`, `closure reach` and `closure query` on an index against networkx on
random DAGs and random graphs with cycles and self-loops (fixed seeds).

Usage: check_reach_networkx.py PATH/TO/closure WORKDIR
Strict semantics: `reach` lists u itself only when u lies on a cycle (networkx's
descendants never does), so the expectation adds u in that case.
"""
import os
import random
import subprocess
import sys

import networkx as nx

CLOSURE, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
failures = 0


def run(*args):
    r = subprocess.run([CLOSURE, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"closure {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return r.stdout


def fail(msg):
    global failures
    failures += 1
    print("MISMATCH:", msg)


def random_graph(rng, n, m, dag, loops):
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    order = list(range(n))
    rng.shuffle(order)
    for _ in range(m):
        a, b = rng.randrange(n), rng.randrange(n)
        if a == b:
            continue
        if dag and a > b:
            a, b = b, a
        g.add_edge(order[a], order[b])
    if loops:
        for _ in range(n // 8 + 1):
            v = rng.randrange(n)
            g.add_edge(v, v)
    # The edge-list format only knows vertices that appear in an edge.
    g.remove_nodes_from([v for v in list(g.nodes) if g.degree(v) == 0])
    return g


def write(g, name):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        for u, v in g.edges:
            f.write(f"{u} {v}\n")
    return path


def on_cycle(g, u):
    return g.has_edge(u, u) or any(nx.has_path(g, s, u) for s in g.successors(u))


def check(g, name, rng):
    if g.number_of_nodes() == 0:
        return
    path = write(g, name + ".txt")
    nodes = sorted(g.nodes)
    # reach / --ancestors / --count
    for u in rng.sample(nodes, min(len(nodes), 6)):
        want = set(nx.descendants(g, u)) | ({u} if on_cycle(g, u) else set())
        got = {int(x) for x in run("reach", path, str(u)).split()}
        if got != want:
            fail(f"{name}: reach {u}: {sorted(got ^ want)} differ")
        want_a = set(nx.ancestors(g, u)) | ({u} if on_cycle(g, u) else set())
        got_a = {int(x) for x in run("reach", path, str(u), "--ancestors").split()}
        if got_a != want_a:
            fail(f"{name}: reach --ancestors {u}: {sorted(got_a ^ want_a)} differ")
        if int(run("reach", path, str(u), "--count")) != len(want):
            fail(f"{name}: reach --count {u}")
    # reduce
    out = os.path.join(WORK, name + ".reduced.txt")
    run("reduce", path, "-o", out, "-q")
    with open(out) as f:
        got = {tuple(map(int, line.split())) for line in f if line.strip()}
    if nx.is_directed_acyclic_graph(g):
        want = set(nx.transitive_reduction(g).edges)
        if got != want:
            fail(f"{name}: reduce: {sorted(got ^ want)[:10]} differ")
    else:
        # Same closure, and the documented size: a cycle per SCC (k edges), self-loops of
        # one-vertex SCCs, one edge per edge of the condensation's reduction.
        r = nx.DiGraph()
        r.add_nodes_from(g.nodes)
        r.add_edges_from(got)
        if set(nx.transitive_closure(r, reflexive=False).edges) != set(
            nx.transitive_closure(g, reflexive=False).edges
        ):
            fail(f"{name}: reduce changes the closure")
        c = nx.condensation(g)
        sccs = c.graph["mapping"]
        size = sum(len(m) for m in (c.nodes[x]["members"] for x in c.nodes) if len(m) > 1)
        size += sum(1 for v in g.nodes if g.has_edge(v, v) and len(c.nodes[sccs[v]]["members"]) == 1)
        size += nx.transitive_reduction(c).number_of_edges()
        if len(got) != size:
            fail(f"{name}: reduce kept {len(got)} edges, expected {size}")
    # index + query --pairs on every pair (plus unknown labels)
    idx = os.path.join(WORK, name + ".idx")
    run("index", path, "-o", idx, "-q")
    pairs = os.path.join(WORK, name + ".pairs")
    with open(pairs, "w") as f:
        for u in nodes:
            for v in nodes:
                f.write(f"{u} {v}\n")
    r = subprocess.run([CLOSURE, "query", idx, "--pairs", pairs, "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{name}: query on the index exited {r.returncode}: {r.stderr}")
    reach = {u: set(nx.descendants(g, u)) | ({u} if on_cycle(g, u) else set()) for u in nodes}
    for line in r.stdout.splitlines():
        u, v, answer = line.split()
        if (answer == "yes") != (int(v) in reach[int(u)]):
            fail(f"{name}: query {u} {v} answered {answer}")


rng = random.Random(1111)
count = 0
for n in (2, 7, 33, 65):
    for degree in (0.8, 2.0):
        for dag, loops in ((True, False), (False, False), (False, True)):
            g = random_graph(rng, n, int(n * degree), dag, loops)
            check(g, f"g{count}_n{n}_{'dag' if dag else 'cyc'}{'_loops' if loops else ''}", rng)
            count += 1
print(f"{count} graphs checked against networkx, {failures} mismatches")
sys.exit(1 if failures else 0)
