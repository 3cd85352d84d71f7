#!/usr/bin/env bash
# The living index at scale: a generated commit history's index, then ROUNDS rounds of
# appends cycling through the four kinds of edge (new -> old commits, new -> new with a
# cycle, old -> old, old -> new); after each, PAIRS random pairs asked of the appended index
# and of an index rebuilt from all edges must answer line for line the same.
#   tools/check-living-index.sh [COMMITS] [ROUNDS] [PAIRS]   (defaults: 1000000, 20, 100000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-1000000} rounds=${2:-20} pairs=${3:-100000}
bin=${CLOSURE_BIN:-build/closure}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_commit_dag.py" "$n" 1 > "$work/all.txt"
"$bin" index -q "$work/all.txt" -o "$work/live.idx"
for round in $(seq 0 $((rounds - 1))); do
  python3 - "$n" "$round" "$pairs" "$work" <<'PY'
import random, sys
n, k, pairs, work = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = random.Random(k)
kind = k % 4
new = [f"r{k}_{i}" for i in range(100)]
if kind == 0:
    edges = [(new[i], str(r.randrange(n))) for i in range(100)]
elif kind == 1:
    edges = [(new[i], new[(i + 1) % 100]) for i in range(100)] + [(new[0], str(r.randrange(n)))]
elif kind == 2:
    edges = [(str(r.randrange(n)), str(r.randrange(n))) for _ in range(3)]
else:
    edges = [(str(r.randrange(n)), new[i]) for i in range(3)]
with open(f"{work}/new.txt", "w") as f:
    f.writelines(f"{a} {b}\n" for a, b in edges)
labels = [str(r.randrange(n)) for _ in range(pairs)] + [a for e in edges for a in e]
with open(f"{work}/pairs.txt", "w") as f:
    for _ in range(pairs):
        f.write(f"{r.choice(labels)} {r.choice(labels)}\n")
PY
  "$bin" index -q --append "$work/live.idx" "$work/new.txt" -o "$work/live.idx"
  cat "$work/new.txt" >> "$work/all.txt"
  "$bin" index -q "$work/all.txt" -o "$work/rebuilt.idx"
  "$bin" query -q "$work/live.idx" --pairs "$work/pairs.txt" > "$work/a.txt" || [ $? -eq 3 ]
  "$bin" query -q "$work/rebuilt.idx" --pairs "$work/pairs.txt" > "$work/b.txt" || [ $? -eq 3 ]
  cmp -s "$work/a.txt" "$work/b.txt" || { echo "round $round: answers differ"; exit 1; }
  echo "round $round (kind $((round % 4))): $(grep -c ' yes$' "$work/a.txt") of $pairs reachable, same"
done
echo "all $rounds rounds: the appended index answers as a rebuild"
