#!/usr/bin/env bash
# The living index and `closure serve` on a generated commit history (docs/benchmarks-queries.md,
# "Living index and service"): a rebuild against an append of 1,000 new commits (in memory
# and written), then the service on loopback under `closure bench serve` (batches, single
# pairs), beside `closure query` as one process per question and `git merge-base
# --is-ancestor` on this repository's own history.
#   tools/bench-living-index.sh [COMMITS] [SECONDS]     (defaults: 1000000, 10)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-1000000} seconds=${2:-10}
bin=${CLOSURE_BIN:-build/closure}
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_commit_dag.py" "$n" 1 > "$work/h.txt"
# 1,000 new commits on top: a first-parent line from the newest commit, a merge of an
# older commit every 10th.
python3 - "$n" > "$work/new.txt" <<'PY'
import random, sys
n = int(sys.argv[1]); r = random.Random(2)
for i in range(1000):
    c = n + i
    print(c, c - 1)
    if i % 10 == 9:
        print(c, r.randrange(n))
PY
echo "== build ($n commits)"
"$bin" index -q "$work/h.txt" -o "$work/h.idx" --json | grep -E '"(vertices|bytes|parse_s|build_s|write_s)"'
echo "== append 1000 commits"
"$bin" index -q --append "$work/h.idx" "$work/new.txt" -o "$work/h2.idx" --json |
  grep -E '"(new_vertices|rebuilt|layer_vertices|load_s|append_s|write_s|bytes)"'
echo "== service: batches of 1000 random pairs, 64 connections, ${seconds} s"
"$bin" bench serve --start "$work/h2.idx" --connections 64 --seconds "$seconds" \
  --mix batch=100 --batch 1000 -q
echo "== service: single pairs, 64 connections, ${seconds} s"
"$bin" bench serve --start "$work/h2.idx" --connections 64 --seconds "$seconds" \
  --mix pairs=100 -q
echo "== service: single pairs, 1 connection, ${seconds} s"
"$bin" bench serve --start "$work/h2.idx" --connections 1 --seconds "$seconds" \
  --mix pairs=100 -q
echo "== one question as a process: closure query (median of 11)"
python3 - "$bin" "$work/h2.idx" "$n" <<'PY'
import subprocess, sys, time, statistics
bin, idx, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = []
for i in range(11):
    t0 = time.perf_counter()
    subprocess.run([bin, "query", "-q", idx, str(n + 999), str(i * 997)], stdout=subprocess.DEVNULL)
    t.append(time.perf_counter() - t0)
print(f"closure query: {statistics.median(t) * 1e3:.1f} ms a question")
PY
echo "== one question as a process: git merge-base --is-ancestor (this repository)"
python3 - "$repo" <<'PY'
import subprocess, sys, time, statistics
repo = sys.argv[1]
commits = subprocess.run(["git", "-C", repo, "rev-list", "HEAD"], capture_output=True,
                         text=True).stdout.split()
t = []
for i in range(11):
    a, b = commits[-1 - i], commits[i]
    t0 = time.perf_counter()
    subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", a, b])
    t.append(time.perf_counter() - t0)
print(f"git merge-base --is-ancestor: {statistics.median(t) * 1e3:.1f} ms a question "
      f"({len(commits)} commits)")
PY
