#!/usr/bin/env bash
# The memory promise under `ulimit -v`: every command on a 1M-edge random graph ends in
# success or in exit 4 with a message about memory that names a size; never an abort, a
# signal or another status. The 5 GB binary closure goes to /dev/null (the same writer, no
# disk: a CI machine may have less free). Usage: memory_sweep.sh CLOSURE_BIN WORK_DIR LIMIT_MB...
set -u
bin=$1 work=$2
shift 2
mkdir -p "$work"
graph=$work/random-1m.txt
if [ ! -s "$graph" ]; then
  # 1,000,000 edges over 200,000 vertices, fixed seed (awk's srand).
  awk 'BEGIN { srand(24); for (i = 0; i < 1000000; i++) print int(rand() * 200000), int(rand() * 200000) }' > "$graph.tmp" && mv "$graph.tmp" "$graph"
fi
# A saved index, made without a limit: its load and keys under each limit (its advice must
# fit an index, which takes no --method).
[ -s "$work/saved.idx" ] || "$bin" index "$graph" -o "$work/saved.idx" -q
commands=(
  "query $work/saved.idx 1 2"
  "run $graph --method auto"
  "run $graph --method sparse"
  "run $graph --method condense --device host"
  "run $graph --method propagate"
  "run $graph --method square"
  "run $graph -o /dev/null --output-format binary"
  "index $graph -o $work/g.idx"
  "reduce $graph -o $work/reduced.txt"
  "reach $graph 7 --count"
  "query $graph 1 2 --engine index"
  "query $graph 1 2 --engine closure"
  "verify $graph"
  "batch $graph --out $work/batch --jobs 1 --summary-only"
)
failures=0 runs=0
for limit in "$@"; do
  for c in "${commands[@]}"; do
    # shellcheck disable=SC2086
    (ulimit -v $((limit * 1024)); exec "$bin" $c -q) > "$work/out" 2> "$work/err"
    rc=$?
    runs=$((runs + 1))
    ok=0
    if [ "$rc" -eq 0 ]; then
      ok=1
    elif [ "$rc" -eq 4 ] && grep -qiE 'memory|thread' "$work/err" && grep -qE '[0-9]' "$work/err"; then
      ok=1
    fi
    if [ "$ok" = 1 ] && [[ "$c" == *saved.idx* ]] && grep -q -- "--method" "$work/err"; then
      ok=0  # advice the index's command refuses
    fi
    if [ "$ok" -ne 1 ]; then
      failures=$((failures + 1))
      echo "FAILED at ulimit -v ${limit} MB: closure $c: exit $rc"
      head -c 600 "$work/err"
    fi
  done
done
# The Python entry points, where CLOSURE_PYTHONPATH names the built module: a MemoryError
# (closure.OutOfMemoryError) is the promise kept; a dead interpreter is not. Limits at which
# Python and NumPy cannot even start are skipped (and said).
if [ -n "${CLOSURE_PYTHONPATH:-}" ]; then
  for limit in "$@"; do
    if ! (ulimit -v $((limit * 1024)); PYTHONPATH=$CLOSURE_PYTHONPATH exec "${CLOSURE_PYTHON:-python3}" -c 'import numpy, closure') 2>/dev/null; then
      echo "memory sweep: python3 with NumPy does not start under ulimit -v ${limit} MB; skipped"
      continue
    fi
    for call in "closure.transitive_closure(g).pair_count" "closure.build_index(g)"; do
      (ulimit -v $((limit * 1024)); PYTHONPATH=$CLOSURE_PYTHONPATH exec "${CLOSURE_PYTHON:-python3}" -c "
import sys, closure
try:
    g = closure.read_graph('$graph')
    $call
except MemoryError as e:
    print('closure:', e, file=sys.stderr)
    sys.exit(4)
") > "$work/out" 2> "$work/err"
      rc=$?
      runs=$((runs + 1))
      if ! { [ "$rc" -eq 0 ] || { [ "$rc" -eq 4 ] && grep -qiE 'memory' "$work/err" && grep -qE '[0-9]' "$work/err"; }; }; then
        failures=$((failures + 1))
        echo "FAILED at ulimit -v ${limit} MB: python $call: exit $rc"
        tail -c 600 "$work/err"
      fi
    done
  done
fi
echo "memory sweep: $runs runs, $failures broke the promise"
[ "$failures" -eq 0 ]
