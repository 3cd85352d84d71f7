#!/usr/bin/env python3
"""From Python: closure.transitive_closure(G) + .to_scipy() against
networkx.transitive_closure(G) on graphs given as files (default: the GRAIL graphs in
tests/data/grail), and the cost of converting a networkx graph against the closure.

  PYTHONPATH=build/python python3 tools/bench_python.py [--repeat 5] [--skip-networkx] [FILES]
  PYTHONPATH=build/python python3 tools/bench_python.py --convert [--repeat 5]
  PYTHONPATH=build/python python3 tools/bench_python.py --descendants [--repeat 5] [--sizes 50000,2000000]
      [--pass-networkx]

Times are medians of --repeat runs. networkx takes minutes per graph (kegg: 284 s on the
shared 2-core machine), so by default its time is estimated: G.copy() plus the exact
per-vertex work networkx.transitive_closure does (an edge BFS from the vertex, adding the
new edges), timed for --sample random vertices and scaled to all n; --networkx-full runs
the whole function instead, in --rounds rounds interleaved with ours (the speed-up is the
median of the rounds' ratios). The closure's rows are checked against networkx's either way.
"""

import argparse
import pathlib
import statistics
import sys
import time

import networkx as nx
import numpy as np

import closure

ROOT = pathlib.Path(__file__).resolve().parents[1]


def median_time(f, repeat):
    # One untimed call first, for both sides alike: the first call in a process pays for
    # imports and for growing the heap (fresh pages cost 8-18 us each on the 2-core VM).
    result = f()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def networkx_estimate(g, sample):
    """Seconds networkx.transitive_closure(g, reflexive=False) would take, and the rows it
    computes for the sampled vertices. Its loop (networkx 2.8: TC = G.copy(); for v in G:
    TC.add_edges_from((v, e[1]) for e in nx.edge_bfs(G, v) if e[1] not in TC[v])) costs
    per vertex about a + b * W(v), W(v) = the edges its BFS walks (the out-degrees of v and
    of every vertex v reaches; exact, from our closure). The loop is timed on `sample`
    vertices spread evenly over the ranks of W (so the rare heavy vertices are in), a and b
    are fitted, and the sum over all vertices is the estimate, plus the copy's time."""
    t0 = time.perf_counter()
    tc = g.copy()
    t_copy = time.perf_counter() - t0
    cg = closure.as_graph(g)
    reach = closure.transitive_closure(cg, reflexive=True).to_scipy().astype(np.float64)
    outdeg = np.diff(cg.to_scipy().indptr).astype(np.float64)
    work = reach @ outdeg  # W(v) for every vertex, in cg.vertices order
    nodes = cg.vertices.tolist()
    ranks = np.argsort(work, kind="stable")
    picked = ranks[np.unique(np.linspace(0, len(nodes) - 1, min(sample, len(nodes))).astype(int))]
    times = []
    for i in picked:
        v = nodes[i]
        t0 = time.perf_counter()
        tc.add_edges_from((v, e[1]) for e in nx.edge_bfs(g, v) if e[1] not in tc[v])
        times.append(time.perf_counter() - t0)
    a, b = np.linalg.lstsq(np.stack([np.ones(len(picked)), work[picked]], axis=1),
                           np.array(times), rcond=None)[0]
    total = float(np.sum(np.maximum(a + b * work, 0.0)))
    return t_copy + total, {nodes[i]: set(tc[nodes[i]]) for i in picked}


def grail_vs_networkx(files, repeat, skip_networkx, sample, full, rounds):
    print("| graph | n | m | closure pairs | networkx.transitive_closure | "
          "closure.transitive_closure(G) + .to_scipy() | of which converting G | speed-up |")
    # (networkx column: estimated from sampled vertices unless --networkx-full)
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for path in files:
        g = closure.read_graph(path).to_networkx()
        t_ours, s = median_time(lambda: closure.transitive_closure(g).to_scipy(), repeat)
        t_conv, _ = median_time(lambda: closure.as_graph(g), repeat)
        if skip_networkx:
            t_nx, speedup = float("nan"), ""
        elif not full:
            t_nx, rows = networkx_estimate(g, sample)
            c = closure.transitive_closure(g)
            for v, row in rows.items():
                assert set(c.successors(v).tolist()) == row, (path, v)
            speedup = f"{t_nx / t_ours:,.0f}x"
        else:
            # Interleaved rounds (networkx once, then ours as a median of `repeat`), so that
            # the shared machine's drift between the two sides' runs cancels; the speed-up
            # is the median of the rounds' ratios.
            t_nxs, ratios = [], []
            for _ in range(rounds):
                t0 = time.perf_counter()
                tc = nx.transitive_closure(g, reflexive=False)
                t_nxs.append(time.perf_counter() - t0)
                t_round, _ = median_time(lambda: closure.transitive_closure(g).to_scipy(), repeat)
                ratios.append(t_nxs[-1] / t_round)
            t_nx = statistics.median(t_nxs)
            assert tc.number_of_edges() == s.nnz, (path, tc.number_of_edges(), s.nnz)
            # Same pairs, not only as many: networkx's adjacency over the same vertices.
            ref = nx.to_scipy_sparse_array(tc, nodelist=list(g.nodes), dtype=bool, format="csr")
            assert (ref != s).nnz == 0, path
            speedup = (f"{statistics.median(ratios):,.0f}x (rounds: "
                       + ", ".join(f"{r:,.0f}x" for r in sorted(ratios)) + ")")
        print(f"| {pathlib.Path(path).stem} | {g.number_of_nodes():,} | {g.number_of_edges():,} "
              f"| {s.nnz:,} | {t_nx:.2f} s | {t_ours * 1e3:.1f} ms | {t_conv * 1e3:.1f} ms "
              f"| {speedup} |", flush=True)


def conversion_vs_closure(repeat):
    print("| graph | n | m | closure pairs | convert networkx G | closure of the converted graph "
          "| + .to_scipy() |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    graphs = [
        ("random DAG, gnm(100k, 200k) forward edges", 100_000, 200_000, True, 1),
        ("random digraph, gnm(100k, 150k)", 100_000, 150_000, False, 2),
        ("random DAG, gnm(20k, 120k) forward edges", 20_000, 120_000, True, 3),
    ]
    for name, n, m, dag, seed in graphs:
        rng = np.random.default_rng(seed)
        us, vs = rng.integers(0, n, m), rng.integers(0, n, m)
        if dag:
            us, vs = np.minimum(us, vs), np.maximum(us, vs)
            keep = us != vs
            us, vs = us[keep], vs[keep]
        g = nx.DiGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from(zip(us.tolist(), vs.tolist()))
        t_conv, cg = median_time(lambda: closure.as_graph(g), repeat)
        t_close, c = median_time(lambda: closure.transitive_closure(cg), repeat)
        # A closure of billions of pairs stays compact in the library; expanding it into
        # a scipy matrix would take gigabytes, so only moderate ones are expanded.
        scipy_ms = "not expanded"
        if c.pair_count <= 50_000_000:
            scipy_ms = f"{median_time(lambda: c.to_scipy(), repeat)[0] * 1e3:.1f} ms"
        print(f"| {name} | {n:,} | {g.number_of_edges():,} | {c.pair_count:,} "
              f"| {t_conv * 1e3:.1f} ms | {t_close * 1e3:.1f} ms | {scipy_ms} |", flush=True)


def descendants_vs_networkx(repeat, sizes, pass_networkx=False):
    """closure.descendants / ancestors on a Graph converted once (g = closure.as_graph(G);
    with pass_networkx, on G itself, which networkx 3.3+ lets the module convert once)
    against networkx.descendants / ancestors on G, per call, for answers of a few vertices
    and of a large part of the graph. The graph: n vertices, each with an edge to the next
    and one to a uniformly random later vertex (a DAG: vertex u has n-1-u descendants and
    u ancestors)."""
    print("| n | m | convert once | query | answer (median) | networkx per call "
          "| closure per call | speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        rng = np.random.default_rng(n)
        us = np.repeat(np.arange(n - 1), 2)
        vs = us + 1 + (rng.random(len(us)) * (n - 1 - us)).astype(np.int64)
        vs[::2] = us[::2] + 1  # and the path 0 -> 1 -> ... -> n-1
        g = nx.DiGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from(zip(us.tolist(), vs.tolist()))
        t_conv, cg = median_time(lambda: closure.as_graph(g), 1)
        # Small answers: vertices near the end (descendants) or the start (ancestors)
        # with 5 to 50 vertices in the answer; large: vertex 0's descendants, the last
        # vertex's ancestors.
        small_d = [u for u in range(n - 200, n) if 5 <= len(closure.descendants(cg, u)) <= 50]
        small_a = [u for u in range(200) if 5 <= len(closure.ancestors(cg, u)) <= 50]
        cases = [("descendants, small", nx.descendants, closure.descendants, small_d[:20]),
                 ("ancestors, small", nx.ancestors, closure.ancestors, small_a[:20]),
                 ("descendants, large", nx.descendants, closure.descendants, [0]),
                 ("ancestors, large", nx.ancestors, closure.ancestors, [n - 1])]
        for name, theirs, ours, vertices in cases:
            t_nx, t_ours, sizes_seen = [], [], []
            for u in vertices:
                t, want = median_time(lambda: theirs(g, u), repeat)
                t_nx.append(t)
                t, got = median_time(lambda: ours(g if pass_networkx else cg, u), repeat)
                t_ours.append(t)
                assert set(got.tolist()) == want
                sizes_seen.append(len(want))
            a, b = statistics.median(t_nx), statistics.median(t_ours)
            fmt = lambda t: f"{t * 1e6:.1f} us" if t < 1e-3 else f"{t * 1e3:.1f} ms"  # noqa
            print(f"| {n:,} | {len(us):,} | {t_conv * 1e3:.0f} ms | {name} "
                  f"| {int(statistics.median(sizes_seen)):,} | {fmt(a)} | {fmt(b)} "
                  f"| {a / b:.1f}x |", flush=True)
        del g, cg


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-networkx", action="store_true")
    ap.add_argument("--sample", type=int, default=300, help="vertices timed for networkx")
    ap.add_argument("--networkx-full", action="store_true", help="run all of networkx")
    ap.add_argument("--rounds", type=int, default=5,
                    help="with --networkx-full: interleaved networkx/ours rounds")
    ap.add_argument("--convert", action="store_true", help="conversion vs closure instead")
    ap.add_argument("--descendants", action="store_true",
                    help="descendants/ancestors per call vs networkx instead")
    ap.add_argument("--pass-networkx", action="store_true",
                    help="with --descendants: pass the networkx graph, not closure.as_graph's")
    ap.add_argument("--sizes", default="50000,2000000",
                    help="with --descendants: vertex counts, comma-separated")
    a = ap.parse_args()
    if a.descendants:
        descendants_vs_networkx(a.repeat, [int(x) for x in a.sizes.split(",")], a.pass_networkx)
        return
    if a.convert:
        conversion_vs_closure(a.repeat)
        return
    files = a.files or sorted((ROOT / "tests" / "data" / "grail").glob("*.gra"))
    if not files:
        sys.exit("no graphs: pass files (tests/data/grail holds the GRAIL graphs)")
    grail_vs_networkx(files, a.repeat, a.skip_networkx, a.sample, a.networkx_full, a.rounds)


if __name__ == "__main__":
    main()
