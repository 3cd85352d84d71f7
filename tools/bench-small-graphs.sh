#!/usr/bin/env bash
# Whole processes on small graphs: `closure G -q` against closure-classic (the classic
# method behind the same reader, a process of its own: src/bench/peer/classic_process.cpp),
# paired and interleaved by farm-bench; one row per graph, medians of RUNS pairs.
#   tools/bench-small-graphs.sh BUILD_DIR GRAPH...     (RUNS=21 by default)
# The ratio is closure's wall time over classic's: under 1.0, closure is faster.
set -euo pipefail
build=${1:?usage: tools/bench-small-graphs.sh BUILD_DIR GRAPH...}
shift
runs=${RUNS:-21}
printf '%-28s %10s %10s %8s\n' graph "closure s" "classic s" ratio
for g in "$@"; do
  out=$(farm-bench -n "$runs" --timeout 600 --vs "$build/closure-classic $g" -- "$build/closure" "$g" -q 2>&1)
  a=$(awk '$1 == "A" && $2 == "wall" { print $5 }' <<<"$out")
  b=$(awk '$1 == "B" && $2 == "wall" { print $5 }' <<<"$out")
  r=$(awk '$1 == "A/B" && $2 == "wall" { print $4 }' <<<"$out")
  printf '%-28s %10s %10s %8s\n' "$(basename "$g")" "$a" "$b" "$r"
done
