#!/usr/bin/env python3
"""Grid-fits the host terms of auto's cost model to measured runs.

Reads the sparse and columns rows of `closure bench closure --predict` (their inputs: n, m,
components, condensed edges, reach, row, span and cols words, levels, live rows; and the measured
seconds), recomputes each prediction as src/closure/algorithms/cost_model.cpp does for a
grid of the constants it fits, and prints the set with the fewest predictions outside 2x,
then the least time lost where the predictions pick the slower of sparse and columns
(auto's choice when only counting), then the least squared log error; each row's ratio
beside it.

  closure bench closure --predict --no-boost ... | grep -E ' (sparse|columns) ' > runs.txt
  python3 tools/fit-cost-model.py runs.txt:2 h200-runs.txt:16

Each file is named with the host threads its runs had (default 2); the thread gain (tg: the
gain of each thread past the first) is fitted with the rest.

The formulas here must follow cost_model.cpp's; the constants it does not fit are copied.
"""
import argparse
import itertools
import math


def clamp(x, a, b):
    return max(a, min(b, x))


def thread_gain(t, p):
    return min(1 + p["tg"] * (max(1, t) - 1), p["gm"])


def linear(r, p, streamed=None):
    b = 88.0 * r["V"] + 12.0 * r["E"]
    # cost_model.cpp: a graph without cycles (as many components as vertices) is condensed by
    # a streamed pass, no miss term; sparse's own pass keeps it (streamed=False).
    if streamed is None:
        streamed = r["C"] == r["V"]
    missed = 0 if streamed else clamp(1 - 4 * 1024 * 1024 / max(b, 1), 0, 1)
    passes = p["vs"] * r["V"] * (1 + p["vg"] * missed) + p["es"] * r["E"] * (1 + p["eg"] * missed)
    return passes if r["C"] == r["V"] else p["cg"] * passes  # Tarjan's pass besides


def sparse(r, p, threads):
    c, row, span = r["C"], r["row"], r["span"]
    missed = clamp(1 - p["rc"] / max(c * row * 4, 1), 0, 1)
    rows = c * (p["sw"] * span + (p["rw"] + missed * p["rm"]) * row) + 1e-10 * r["DE"] * row
    threaded = (r["levels"] > 0 and c + r["DE"] >= 200000 and r["DE"] <= 32 * c
                and c / r["levels"] >= 64)
    # cost_model.cpp: sparse's own pass (the miss term) shared by the threads with the rows
    own_pass = max(0.0, linear(r, p, False) - linear(r, p)) * min(1.0, r["DE"] / max(c, 1))
    return (rows + own_pass) / (thread_gain(threads, p) if threaded else 1) + 0.6e-6 + linear(r, p)


def columns(r, p, threads):
    words_per_row = -(-r["C"] // 32)
    visits = r["DE"] + r["C"]
    # cost_model.cpp: the words from a row's first column to its highest reached (sampled),
    # half a row's when unknown (a negative cols); a sweep under 2^22 words on one thread
    words = min(r["cols"], words_per_row) if r["cols"] >= 0 else words_per_row / 2
    threads = 1 if visits * words < (1 << 22) else max(1, threads)
    live = r["live"] or max(1, r["C"] // 10)
    s = 256  # column_count.cpp: kWidestSlice, then kSliceBytes (32 MB)
    while threads > 1 and s > 16 and -(-words_per_row // s) < 4 * threads:
        s //= 2
    while s > 8 and (live + 2) * s * 4 > (32 << 20):
        s //= 2
    s = max(1, min(s, words_per_row))
    slices = -(-words_per_row // s)
    # cost_model.cpp: a live row's slot holds the words it reaches, at most the slice
    row_words = min(s, r["cols"] + 1) if r["cols"] >= 0 else s
    missed = clamp(1 - 4 * 1024 * 1024 / ((live + 2) * row_words * 4), 0, 1)
    slices_a_row = min(slices / 2, 1 + r["cols"] / s) if r["cols"] >= 0 else slices / 2
    # cost_model.cpp: kColumnFreshByteS, each thread's stored rows first touched (not fitted)
    fresh = max(1, threads) * (live + 2) * row_words * 4 * 0.9e-10
    # cost_model.cpp: the part in each thread's cache gains from every thread, the memory-bound
    # part only up to the most gain
    in_cache = visits * words * p["cw"] + visits * slices_a_row * p["cv"] + fresh
    in_memory = visits * words * missed * p["cm"]
    uncapped = 1 + p["tg"] * (max(1, threads) - 1)
    return in_cache / uncapped + in_memory / thread_gain(threads, p) + 0.3e-6 + linear(r, p)


def read_rows(path, threads):
    rows = []
    for line in open(path):
        f = line.split()
        # The method's column: 11, or 12 where bench prints the block items after `live`.
        m = 12 if len(f) > 12 and f[12] in ("sparse", "columns") else 11
        if len(f) < m + 3 or f[m] not in ("sparse", "columns") or f[m + 2] == "-":
            continue  # not a timed row (or one refused for memory)
        rows.append(dict(name=f[0], V=int(f[1]), E=int(f[2]), C=int(f[3]), DE=int(f[4]),
                         row=float(f[6]), span=float(f[7]), cols=float(f[8]), levels=int(f[9]),
                         live=int(f[10]), method=f[m], measured=float(f[m + 2]), threads=threads))
    return rows


def score(rows, p):
    error, outside, by_graph = 0.0, 0, {}
    for r in rows:
        predicted = (sparse if r["method"] == "sparse" else columns)(r, p, r["threads"])
        ratio = r["measured"] / predicted
        error += math.log(ratio) ** 2
        outside += not 0.5 <= ratio <= 2
        r["ratio"] = ratio
        by_graph.setdefault((r["name"], r["threads"]), {})[r["method"]] = (predicted, r["measured"])
    lost = 0.0  # seconds lost where the predictions pick the slower method
    for methods in by_graph.values():
        if len(methods) == 2:
            (ps, ms), (pc, mc) = methods["sparse"], methods["columns"]
            lost += (mc if pc < ps else ms) - min(ms, mc)
    return outside, round(lost, 3), error


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="FILE[:THREADS]")
    a = ap.parse_args()
    rows = []
    for spec in a.runs:
        path, _, threads = spec.partition(":")
        rows += [r for r in read_rows(path, int(threads or 2)) if r["measured"] >= 1e-4]
    grid = dict(vs=[1e-8, 2e-8, 3e-8], vg=[2, 5, 10], es=[2e-8, 3.5e-8], eg=[0],
                rm=[0.5e-9, 1e-9, 2e-9, 4e-9], rc=[32 << 20, 128 << 20],
                cw=[3e-11, 4.5e-11, 6e-11, 1e-10], cm=[0.5e-10, 1e-10, 2e-10, 4e-10],
                tg=[0.42, 0.6, 0.8, 1.0], gm=[3.0, 4.0, 6.0], sw=[0.25e-9, 0.5e-9, 1e-9],
                rw=[0.25e-9, 0.5e-9, 1e-9], cg=[1.0, 1.5, 2.0, 3.0], cv=[0.5e-8, 1e-8])
    # tests/test_planner.cpp's CostModel.ManyLiveRowsMakeTheCountByColumnsMemoryBound: the
    # same sweep over 23,000 live rows (a road network) predicted over twice the time over 180.
    history = dict(V=130000, E=200000, C=130000, DE=200000, row=1000, span=1300, cols=-1,
                   levels=65000, live=180)
    road = dict(history, live=23000)
    best = None
    for values in itertools.product(*grid.values()):
        p = dict(zip(grid, values))
        if columns(road, p, 2) <= 2 * columns(history, p, 2):
            continue
        s = score(rows, p)
        if best is None or s < best[0]:
            best = (s, p)
    (outside, lost, error), p = best
    print(f"{len(rows) - outside} of {len(rows)} within 2x, {lost} s lost to picks, squared log "
          f"error {error:.2f}: {p}")
    score(rows, p)
    for r in rows:
        print(f"{r['name'][:24]:24s} {r['threads']:3d} {r['method']:8s} measured / predicted "
              f"{r['ratio']:.2f}")


if __name__ == "__main__":
    main()
