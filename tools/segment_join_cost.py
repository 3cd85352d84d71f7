#!/usr/bin/env python3
"""What a join pass would cost the device sweep on a commit history (issue 26, item 3).

Cut the sweep's row order (newest commit first, as tools/gen_commit_dag.py numbers them:
edges go from a commit to its older parents) at a fraction of the rows. Rows below the cut
could be closed at once, in parallel, if each took its columns above the cut from the
final rows of the "exits" it reaches inside its segment (targets of edges leaving the
segment): row = OR of those exits' rows. An exit reachable from another of the row's exits
adds nothing, so the join needs only the rest (Xmin). Prints, per cut, the exits and the
mean |X| and |Xmin| a row: the words a join loads per row and word-column, against about
1.2 (a successor or two) in the chained sweep.

    tools/segment_join_cost.py HISTORY.txt [FRACTION ...]   (default 0.25 0.5 0.75)
"""
import collections
import sys


def main():
    parents = collections.defaultdict(list)
    n = 0
    with open(sys.argv[1]) as f:
        for line in f:
            c, p = map(int, line.split())
            parents[c].append(p)
            n = max(n, c + 1, p + 1)
    for fraction in map(float, sys.argv[2:] or ["0.25", "0.5", "0.75"]):
        cut = n - 1 - int(n * fraction)  # ids <= cut lie beyond the cut (older commits)
        exits = sorted({p for c in range(cut + 1, n) for p in parents[c] if p <= cut})
        bit = {x: 1 << i for i, x in enumerate(exits)}
        beyond = [0] * (cut + 1)  # exits each older commit reaches, itself excluded
        for v in range(cut + 1):
            for p in parents[v]:
                beyond[v] |= beyond[p] | bit.get(p, 0)
        reach, dominated = {}, {}  # per row below the cut: exits reached, and those implied
        total_x = total_min = rows = 0
        for v in range(cut + 1, n):
            x = d = 0
            for p in parents[v]:
                if p <= cut:
                    x, d = x | bit[p], d | beyond[p]
                else:
                    x, d = x | reach[p], d | dominated[p]
            reach[v], dominated[v] = x, d
            total_x += bin(x).count("1")
            total_min += bin(x & ~d).count("1")
            rows += 1
        print(f"{sys.argv[1]}: {n} commits, cut at {fraction:.2f}: {len(exits)} exits; "
              f"{rows} rows below: mean |X| {total_x / rows:.1f}, mean |Xmin| {total_min / rows:.1f}")


if __name__ == "__main__":
    main()
