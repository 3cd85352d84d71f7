#!/usr/bin/env bash
# Issue 10 on the 2-GPU H200 machine (device kind nvidia-h200-x2; carry ["build-dev"],
# filled by `tools/gpu-gtest.sh pack`, whose closure is built with MPI): 1 rank vs 2 ranks
# (one GPU each), whole process and compute, median of 3, on the 1M-commit DAG and on a
# random DAG of 65,536 vertices with a dense closure; then a 1.2M-commit DAG whose closure
# (180 GB dense) is larger than one GPU, counted on 2. Summary in $OUT/summary.txt.
#
#   tools/gpu-mpi-bench.sh            SIZES="1000000" BIG=1200000 REPEAT=3
#                                     STAGES="propagate dense big"
# (dense: the random DAG by `condense` and `recursive`; 2 ranks run both as SUMMA
# squaring over column panels, so `condense` is the like-for-like pair.)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
mkdir -p "$OUT"
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
BIN=$PWD/build-dev/closure
G=${GRAPHS:-/tmp/graphs}
REPEAT=${REPEAT:-3}
mkdir -p "$G"
STAGES=${STAGES:-"propagate dense big"}
has() { [[ " $STAGES " == *" $1 "* ]]; }
log() { printf '%s\n' "$*" | tee -a "$OUT/summary.txt"; }
# The ranks get this shell's OpenCL set-up through `env` (mpirun's processes otherwise
# see an OCL_ICD_FILENAMES without NVIDIA's driver, -x or not: docs/distributed.md).
MPIRUN=(mpirun --allow-run-as-root -np 2 -x LD_LIBRARY_PATH --bind-to none
  env "OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-}" "OCL_ICD_VENDORS=$OCL_ICD_VENDORS"
  "CLOSURE_CACHE_DIR=$CLOSURE_CACHE_DIR")

log "=== devices (one process, then each of 2 ranks)"
$BIN devices 2>&1 | tee -a "$OUT/summary.txt"
"${MPIRUN[@]}" CLOSURE_MPI_ALL_OUTPUT=1 $BIN devices 2>&1 | grep -c "NVIDIA H200" | tee -a "$OUT/summary.txt"
mpirun --version 2>&1 | head -1 | tee -a "$OUT/summary.txt"

log "=== generate"
for n in ${SIZES:-1000000} ${BIG:-1200000}; do
  has propagate || has big || break
  [[ -s $G/commits-$n.txt ]] || python3 tools/gen_commit_dag.py "$n" 1 >"$G/commits-$n.txt"
done
# Random DAG, 65,536 vertices, 4 edges each to a later vertex: its closure is dense.
[[ -s $G/random-65536.txt ]] || awk 'BEGIN { srand(3); n = 65536;
  for (i = 0; i < n - 1; i++) for (k = 0; k < 4; k++) print i, i + 1 + int(rand() * (n - i - 1)) }' \
  >"$G/random-65536.txt"
wc -l "$G"/*.txt | tee -a "$OUT/summary.txt"

# One run: wall seconds, then the summary's compute seconds and pair count.
one() {
  local t0 t1 json
  t0=$(date +%s%N)
  json=$("$@" --json 2>>"$OUT/runs.log")
  local rc=$?
  t1=$(date +%s%N)
  echo "$json" >>"$OUT/runs.log"
  [[ $rc == 0 ]] || { echo "rc=$rc: $*" | tee -a "$OUT/summary.txt"; return; }
  local compute pairs
  compute=$(echo "$json" | grep -o '"compute": [0-9.e-]*' | head -1 | awk '{print $2}')
  pairs=$(echo "$json" | grep -o '"pairs": [0-9]*' | awk '{print $2}')
  awk -v a="$t0" -v b="$t1" -v c="$compute" -v p="$pairs" 'BEGIN { printf "%.3f %.3f %s\n", (b - a) / 1e9, c, p }'
}
median() { sort -n | awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }'; }

compare() {
  local name=$1 graph=$2
  shift 2
  local walls1=() walls2=() comp1=() comp2=() p1 p2
  for r in $(seq "$REPEAT"); do
    read -r w c p1 < <(one "$BIN" "$graph" "$@")
    walls1+=("$w"); comp1+=("$c")
    read -r w c p2 < <(one "${MPIRUN[@]}" "$BIN" "$graph" "$@")
    walls2+=("$w"); comp2+=("$c")
  done
  local w1 w2 c1 c2
  w1=$(printf '%s\n' "${walls1[@]}" | median); w2=$(printf '%s\n' "${walls2[@]}" | median)
  c1=$(printf '%s\n' "${comp1[@]}" | median); c2=$(printf '%s\n' "${comp2[@]}" | median)
  log "$(awk -v n="$name" -v w1="$w1" -v w2="$w2" -v c1="$c1" -v c2="$c2" -v p1="$p1" -v p2="$p2" \
    'BEGIN { printf "%-28s 1 rank: whole %.3f s, compute %.3f s | 2 ranks: whole %.3f s, compute %.3f s | speed-up whole %.2fx, compute %.2fx | pairs %s %s\n", n, w1, c1, w2, c2, w1 / w2, c1 / c2, p1, (p1 == p2 ? "same" : "DIFFER " p2) }')"
}

log "=== 1 rank vs 2 ranks (median of $REPEAT; wall = whole process incl. mpirun start-up)"
if has propagate; then
  for n in ${SIZES:-1000000}; do
    compare "commits-$n propagate" "$G/commits-$n.txt" -m propagate
  done
  compare "random-65536 propagate" "$G/random-65536.txt" -m propagate
  compare "random-65536 auto" "$G/random-65536.txt"
fi
if has dense; then
  compare "random-65536 condense" "$G/random-65536.txt" -m condense
  compare "random-65536 recursive" "$G/random-65536.txt" -m recursive
fi
if has big; then
  log "=== larger than one GPU: commits-${BIG:-1200000}"
  REPEAT=1 compare "commits-${BIG:-1200000} propagate" "$G/commits-${BIG:-1200000}.txt" -m propagate
fi
grep -h '"ranks_detail"\|"reason"' "$OUT/runs.log" | tail -6 | tee -a "$OUT/summary.txt"
