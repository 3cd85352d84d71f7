#!/usr/bin/env bash
# Issue 8 on the H200 machine (shared/DEVICE.md), in one call: commit-history DAGs
# (tools/gen_commit_dag.py) at 200k and 1M commits; whole process, median of 3:
# `propagate` on the GPU vs `sparse` on the 16-core host vs `auto`; the classic method
# (in process, `closure bench closure`); the propagation kernel's bytes/s vs a device copy,
# the pinned download and device queries (`closure bench propagate`); identical closures
# (hash of the sorted pairs) from every method on the host, PoCL and the GPU.
#
#   tools/gpu-propagate-bench.sh             STAGES="build gen check whole classic kernel big"
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
mkdir -p "$OUT"
STAGES=${STAGES:-"build gen check whole grail classic kernel big"}
SIZES=${SIZES:-"200000 1000000"}
has() { [[ " $STAGES " == *" $1 "* ]]; }
log() { printf '\n=== %s\n' "$*" | tee -a "$OUT/summary.txt"; }

source tools/gpu-env.sh
CMAKE=${CMAKE:-/opt/torch/.venv/bin/cmake}
command -v "$CMAKE" >/dev/null || CMAKE=cmake
BIN=build-release/closure
# The GPU image has no oneTBB development files, so it cannot build the tool since the
# executor came in: carry the binary built here instead (`tools/gpu-gtest.sh pack` fills
# build-dev/; device tool: carry ["build-dev"]), and the build stage is skipped.
if [[ -x build-dev/closure ]]; then
  BIN=build-dev/closure
  export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
  STAGES=${STAGES/build/}
fi
G=${GRAPHS:-/tmp/graphs}
mkdir -p "$G"

if has build; then
  log "build (Release, no tests)"
  if ! { "$CMAKE" -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCLOSURE_BUILD_TESTS=OFF &&
    "$CMAKE" --build build-release -j "$(nproc)"; } >"$OUT/build.log" 2>&1; then
    tail -40 "$OUT/build.log"
    exit 1
  fi
  $BIN devices 2>&1 | tee -a "$OUT/summary.txt"
fi

if has gen; then
  log "generate commit DAGs"
  for n in 3000 $SIZES; do
    [[ -s $G/commits-$n.txt ]] || python3 tools/gen_commit_dag.py "$n" 1 >"$G/commits-$n.txt"
    wc -l "$G/commits-$n.txt" | tee -a "$OUT/summary.txt"
  done
fi

# Seconds of a whole process (wall), its summary kept in the log.
wall() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >>"$OUT/runs.log" 2>&1
  local rc=$?
  t1=$(date +%s%N)
  [[ $rc == 0 ]] || echo "rc=$rc: $*" >>"$OUT/summary.txt"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

if has check; then
  log "identical closures: sha256 of the sorted pairs, every method, host / PoCL / GPU"
  # The device program is compiled once here (the cache keeps it for the timed runs).
  files="$G/commits-3000.txt data/*.txt data/*.gra data/*.dot data/*.dimacs data/*.mtx"
  [[ -d grail ]] && files="$files grail/*.gra"
  for f in $files; do
    [[ $f == *closure* ]] && continue
    line="$(basename "$f")"
    for run in "sparse host" "propagate gpu" "propagate cpu" "recursive gpu" "auto gpu"; do
      set -- $run
      [[ $1 == recursive && $f == *commits* ]] && continue
      $BIN "$f" --method "$1" --device "$2" -q -o "$OUT/pairs.txt" --force 2>>"$OUT/check.log"
      line="$line $1/$2=$(sort "$OUT/pairs.txt" | sha256sum | cut -c1-12)"
    done
    echo "$line" | tee -a "$OUT/check.txt"
    rm -f "$OUT/pairs.txt"
  done
  awk '{split($2,a,"="); for(i=3;i<=NF;i++){split($i,b,"="); if(b[2]!=a[2]) {print "MISMATCH " $0; bad=1}}} END{if(!bad) print "all identical"}' \
    "$OUT/check.txt" | tee -a "$OUT/summary.txt"
fi

if has whole; then
  log "whole process, median of 3 (seconds): closure G --method M [--device gpu]"
  printf '%-22s %10s %10s %10s %10s\n' graph propagate sparse auto "sparse/prop" | tee -a "$OUT/summary.txt"
  for n in $SIZES; do
    f=$G/commits-$n.txt
    [[ $n -gt 300000 ]] && continue  # the 1M host run is in stage big
    p=() s=() a=()
    for i in 1 2 3; do
      p+=("$(wall $BIN "$f" --method propagate --device gpu)")
      s+=("$(wall $BIN "$f" --method sparse)")
      a+=("$(wall $BIN "$f" --device gpu)")
    done
    mp=$(median3 "${p[@]}") ms=$(median3 "${s[@]}") ma=$(median3 "${a[@]}")
    printf '%-22s %10.3f %10.3f %10.3f %9.1fx\n' "commits-$n" "$mp" "$ms" "$ma" \
      "$(awk -v a="$ms" -v b="$mp" 'BEGIN { print a / b }')" | tee -a "$OUT/summary.txt"
  done
  grep -E "^method|^time" "$OUT/runs.log" | tail -6 | tee -a "$OUT/summary.txt"
fi

if has grail; then
  log "GRAIL graphs, whole process, median of 3 (seconds): auto's choice vs the best"
  printf '%-24s %9s %9s %9s  %s\n' graph sparse propagate auto "auto's reason" | tee -a "$OUT/summary.txt"
  for f in grail/*.gra $G/commits-3000.txt; do
    [[ -f $f ]] || continue
    s=() p=() a=()
    for i in 1 2 3; do
      s+=("$(wall $BIN "$f" --method sparse)")
      p+=("$(wall $BIN "$f" --method propagate --device gpu)")
      a+=("$(wall $BIN "$f")")
    done
    why=$($BIN "$f" 2>&1 | sed -n 's/^method *//p')
    printf '%-24s %9s %9s %9s  %s\n' "$(basename "$f")" "$(median3 "${s[@]}")" \
      "$(median3 "${p[@]}")" "$(median3 "${a[@]}")" "$why" | tee -a "$OUT/summary.txt"
  done
fi

if has classic; then
  log "classic vs sparse vs propagate, in process (closure bench closure, median of 3)"
  for n in $SIZES; do
    [[ $n -gt 300000 ]] && continue  # classic needs C*C/8 bytes: 125 GB at 1M
    timeout 400 $BIN bench closure "$G/commits-$n.txt" --methods propagate --device gpu \
      --no-boost --repeat 3 --memory-cap 100 2>&1 | tee -a "$OUT/summary.txt"
  done
fi

if has kernel; then
  log "propagation kernel vs device copy; pinned download; device queries"
  files=""
  for n in $SIZES; do files="$files $G/commits-$n.txt"; done
  timeout 500 $BIN bench propagate $files --repeat 3 ${KERNELS:+--kernels $KERNELS} 2>&1 | tee -a "$OUT/summary.txt"
fi

if has big; then
  log "1M commits: propagate (count on one H200), median of 3; sparse on the host once"
  f=$G/commits-1000000.txt
  p=()
  for i in 1 2 3; do p+=("$(wall $BIN "$f" --method propagate --device gpu)"); done
  a=$(wall $BIN "$f")
  echo "auto whole process: $a s" | tee -a "$OUT/summary.txt"
  grep -E "^method" "$OUT/runs.log" | tail -1 | tee -a "$OUT/summary.txt"
  echo "propagate whole process: ${p[*]} -> median $(median3 "${p[@]}") s" | tee -a "$OUT/summary.txt"
  grep -E "^closure|^method|^time" "$OUT/runs.log" | tail -6 | tee -a "$OUT/summary.txt"
  if [[ -n "${BIG_HOST:-}" ]]; then
    s=$(wall timeout 400 $BIN "$f" --method sparse)
    echo "sparse whole process: $s s" | tee -a "$OUT/summary.txt"
    grep -E "^closure|^method|^time" "$OUT/runs.log" | tail -3 | tee -a "$OUT/summary.txt"
  fi
fi
log "done"
