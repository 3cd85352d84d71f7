#!/bin/bash
# Instructions per call of closure.transitive_closure(G).to_scipy() on a graph file, under
# callgrind: runs of 1 and 11 calls, differenced, so start-up and imports drop out. The
# 2-core VM's timings drift by 30% from minute to minute; instruction counts do not, so
# this is how a change to the Python path is compared (docs/benchmarks.md, "Python").
#
#   tools/count_instructions.sh GRAPH [PYTHONPATH (default build/python)]   (PYTHON: the
#   interpreter, default /usr/bin/python3, which has Debian's numpy, scipy and networkx)
set -euo pipefail
graph=${1:?usage: tools/count_instructions.sh GRAPH [PYTHONPATH]}
pythonpath=${2:-build/python}
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
script=$(mktemp --suffix=.py)
out=$(mktemp -d)
trap 'rm -rf "$script" "$out"' EXIT
cat >"$script" <<'PY'
import sys
import closure
g = closure.read_graph(sys.argv[1]).to_networkx()
x = None
for _ in range(int(sys.argv[2])):
    x = closure.transitive_closure(g).to_scipy()  # kept, as a user keeps a result
PY
refs() {
  PYTHONHASHSEED=0 PYTHONPATH=$pythonpath valgrind --tool=callgrind \
    --callgrind-out-file="$out/cg.$1" "${PYTHON:-/usr/bin/python3}" "$script" "$graph" "$1" 2>&1 |
    awk '/I *refs:/ {gsub(",", "", $4); print $4}'
}
one=$(refs 1)
eleven=$(refs 11)
echo "$(( (eleven - one) / 10 )) instructions per call ($graph)"
