#!/usr/bin/env bash
# A soak run of `closure serve`: a mixed read load (single pairs, batches, descendants,
# ancestors) on 64 connections for SECONDS against a generated commit history's index,
# the server's resident memory sampled every tenth of the run (docs/benchmarks-queries.md).
#   tools/bench-serve-soak.sh [SECONDS] [COMMITS]     (defaults: 600, 1000000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=${1:-600} n=${2:-1000000}
bin=${CLOSURE_BIN:-build/closure}
work=$(mktemp -d)
python3 "$here/gen_commit_dag.py" "$n" 1 > "$work/h.txt"
"$bin" index -q "$work/h.txt" -o "$work/h.idx"
"$bin" serve "$work/h.idx" --read-only --port 0 --port-file "$work/port" -q &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
(
  for i in $(seq 0 10); do
    echo "rss at $((i * 10))%: $(awk '/VmRSS/ {print $2, $3}' /proc/$pid/status)"
    sleep "$(python3 -c "print($seconds / 10)")"
  done
) &
sampler=$!
"$bin" bench serve --url "http://127.0.0.1:$(cat "$work/port")" --connections 64 \
  --seconds "$seconds" --mix pairs=60,batch=20,descendants=10,ancestors=10 --batch 1000 -q
wait $sampler || true
