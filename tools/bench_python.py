#!/usr/bin/env python3
"""From Python: closure.transitive_closure(G) + .to_scipy() against
networkx.transitive_closure(G) on graphs given as files (default: the GRAIL graphs in
../shared/data/grail), and the cost of converting a networkx graph against the closure.

  PYTHONPATH=build/python python3 tools/bench_python.py [--repeat 5] [--skip-networkx] [FILES]
  PYTHONPATH=build/python python3 tools/bench_python.py --convert [--repeat 5]

Times are medians of --repeat runs (networkx: one run). The pairs are compared each time.
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
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def grail_vs_networkx(files, repeat, skip_networkx):
    print("| graph | n | m | closure pairs | networkx.transitive_closure | "
          "closure.transitive_closure(G) + .to_scipy() | of which converting G | speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for path in files:
        g = closure.read_graph(path).to_networkx()
        t_ours, s = median_time(lambda: closure.transitive_closure(g).to_scipy(), repeat)
        t_conv, _ = median_time(lambda: closure.as_graph(g), repeat)
        if skip_networkx:
            t_nx, speedup = float("nan"), ""
        else:
            t0 = time.perf_counter()
            tc = nx.transitive_closure(g, reflexive=False)
            t_nx = time.perf_counter() - t0
            assert tc.number_of_edges() == s.nnz, (path, tc.number_of_edges(), s.nnz)
            # Same pairs, not only as many: networkx's adjacency over the same vertices.
            ref = nx.to_scipy_sparse_array(tc, nodelist=list(g.nodes), dtype=bool, format="csr")
            assert (ref != s).nnz == 0, path
            speedup = f"{t_nx / t_ours:,.0f}x"
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
        ("random digraph, gnm(50k, 500k)", 50_000, 500_000, False, 4),
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
        t_scipy, s = median_time(lambda: c.to_scipy(), repeat)
        print(f"| {name} | {n:,} | {g.number_of_edges():,} | {c.pair_count:,} "
              f"| {t_conv * 1e3:.1f} ms | {t_close * 1e3:.1f} ms | {t_scipy * 1e3:.1f} ms |",
              flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-networkx", action="store_true")
    ap.add_argument("--convert", action="store_true", help="conversion vs closure instead")
    a = ap.parse_args()
    if a.convert:
        conversion_vs_closure(a.repeat)
        return
    files = a.files or sorted((ROOT.parent / "shared" / "data" / "grail").glob("*.gra"))
    if not files:
        sys.exit("no graphs: pass files, or put the GRAIL graphs in ../shared/data/grail")
    grail_vs_networkx(files, a.repeat, a.skip_networkx)


if __name__ == "__main__":
    main()
