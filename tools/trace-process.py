#!/usr/bin/env python3
"""Where a whole process's time goes: runs a closure command line with CLOSURE_TRACE set
(src/closure/util/trace.hpp) and prints each milestone's seconds since the launch, then
the seconds from `output flushed` (the last milestone) to the process reaped. Medians of
--rounds runs; milestones that a run lacks are left out.

    tools/trace-process.py [--rounds 5] -- build/closure GRAPH --method propagate -q
"""

import argparse
import os
import statistics
import subprocess
import time


def once(argv):
    env = dict(os.environ, CLOSURE_TRACE="1")
    t0 = time.time()
    p = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    t1 = time.time()
    marks = []
    for line in p.stderr.splitlines():
        if line.startswith("closure-trace "):
            _, stamp, event = line.split(" ", 2)
            marks.append((event, float(stamp) - t0))
    marks.append(("reaped", t1 - t0))
    return marks


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("argv", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    argv = a.argv[1:] if a.argv[:1] == ["--"] else a.argv
    runs = [once(argv) for _ in range(a.rounds)]
    order = [event for event, _ in runs[0]]
    print("%-28s %8s" % ("milestone (" + " ".join(os.path.basename(x) for x in argv[:2]) + ")",
                         "s"))
    for event in order:
        times = [t for run in runs for e, t in run if e == event]
        print("%-28s %8.5f" % (event, statistics.median(times)))


if __name__ == "__main__":
    main()
