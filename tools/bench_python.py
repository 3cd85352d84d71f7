#!/usr/bin/env python3
"""From Python: closure.transitive_closure(G) + .to_scipy() against
networkx.transitive_closure(G) on graphs given as files (default: the GRAIL graphs in
tests/data/grail), and the cost of converting a networkx graph against the closure.

  PYTHONPATH=build/python python3 tools/bench_python.py [--repeat 5] [--skip-networkx] [FILES]
  PYTHONPATH=build/python python3 tools/bench_python.py --convert [--repeat 5]

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
    a = ap.parse_args()
    if a.convert:
        conversion_vs_closure(a.repeat)
        return
    files = a.files or sorted((ROOT / "tests" / "data" / "grail").glob("*.gra"))
    if not files:
        sys.exit("no graphs: pass files (tests/data/grail holds the GRAIL graphs)")
    grail_vs_networkx(files, a.repeat, a.skip_networkx, a.sample, a.networkx_full, a.rounds)


if __name__ == "__main__":
    main()
