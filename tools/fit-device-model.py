#!/usr/bin/env python3
"""Grid-fits the device terms of auto's cost model to measured runs.

Reads the propagate rows of `closure bench closure --predict` run on a GPU machine (their
inputs: n, m, components, condensed edges and block items; the measured seconds),
recomputes each prediction as predict_gpu_propagate_s() in src/closure/algorithms/
cost_model.cpp does for a grid of its constants, and prints the set with the fewest
predictions outside 2x, then the least squared log error; each row's ratio beside it.

  closure bench closure --predict --no-boost ... > runs.txt      (on the GPU machine)
  python3 tools/fit-device-model.py runs.txt [more.txt ...]

The formula here must follow cost_model.cpp's (count mode: no rows' bytes).
"""
import argparse
import itertools
import math

GRID = dict(
    start=[0.20, 0.22, 0.25, 0.28, 0.30, 0.33, 0.35],  # kDeviceStartS
    host=[2e-8, 4e-8, 6e-8, 8e-8, 1e-7],  # kDeviceHostLinearS, a vertex or edge
    block=[1e-6, 1.5e-6, 2e-6, 2.5e-6, 3e-6],  # kDeviceBlockS
    wave=[2e6, 3e6, 4e6],  # kDeviceWaveColumns
    item=[2e-7, 3e-7, 4e-7, 4.5e-7, 5e-7, 6e-7],  # kDeviceItemS
)
CYCLIC_GAIN = 2.0  # kCyclicGain, copied


def predict(r, p):
    cyclic = 1.0 if r["C"] == r["V"] else CYCLIC_GAIN
    sweep = p["block"] * math.ceil(r["C"] / 32) * max(1.0, r["C"] / p["wave"])
    return p["start"] + p["host"] * (r["V"] + r["E"]) * cyclic + sweep + p["item"] * r["items"]


def read_rows(path):
    rows = []
    for line in open(path):
        f = line.split()
        # graph n m SCCs DAG-m reach row span cols levels live items method predicted measured
        if len(f) < 15 or f[12] != "propagate" or f[14] == "-":
            continue
        rows.append(dict(name=f[0], V=int(f[1]), E=int(f[2]), C=int(f[3]), items=int(f[11]),
                         measured=float(f[14])))
    return rows


def score(rows, p):
    outside, error = 0, 0.0
    for r in rows:
        ratio = r["measured"] / predict(r, p)
        outside += not 0.5 <= ratio <= 2
        error += math.log(ratio) ** 2
    return outside, error


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    rows = [r for path in ap.parse_args().logs for r in read_rows(path)]
    if not rows:
        raise SystemExit("no propagate rows with block items in the logs")
    keys = list(GRID)
    best = min((dict(zip(keys, values)) for values in itertools.product(*GRID.values())),
               key=lambda p: score(rows, p))
    outside, error = score(rows, best)
    print(f"{len(rows)} rows, {outside} outside 2x, squared log error {error:.3f}: {best}")
    for r in rows:
        print(f"  {r['name']:<26} predicted {predict(r, best):8.4f}  measured {r['measured']:8.4f}"
              f"  ratio {r['measured'] / predict(r, best):5.2f}")


if __name__ == "__main__":
    main()
