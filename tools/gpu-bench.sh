#!/usr/bin/env bash
# GPU benchmark in one go (the H200 machine of shared/DEVICE.md): NVIDIA's OpenCL made
# visible, a Release build without tests, every Boolean product variant checked against
# the host on fresh random inputs, timings, the PyTorch baseline, one table last.
#
#   tools/gpu-bench.sh                      everything; logs under $OUT (default ./out)
#   STAGES="check products" tools/gpu-bench.sh   a subset: build always runs
#
# Stages: sweep (tuning; writes tuning rows to $OUT/tuning.txt, used by the rest),
# check (awkward sizes, every kernel),
# torch (tools/torch_closure_baseline.py), products (closure bench bool 1024..32768),
# closure (random DAGs 16384, 32768, 65536), gemm (closure bench gemm, if it exists),
# ptxas (registers and spills of the kernels that were built, from the program cache),
# gemm8192 (the fast float kernels and the tuned SGEMM sweep at n = 8192),
# dense (recursive closure vs squaring vs one product, tensor cores and portable),
# graphs (closure bench on the generated graphs of issue 4, auto on the GPU vs the host).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
mkdir -p "$OUT"
STAGES=${STAGES:-"sweep check torch products closure gemm ptxas"}
SEED=${SEED:-$RANDOM}
CLOSURE_SIZES=${CLOSURE_SIZES:-16384,32768,65536}
has() { [[ " $STAGES " == *" $1 "* ]]; }
log() { printf '\n=== %s\n' "$*" | tee -a "$OUT/summary.txt"; }

source tools/gpu-env.sh
# The sweeps write their winners as rows of this tuning overlay (docs/kernels.md); later
# stages read it, and it comes back with the logs.
export CLOSURE_TUNING=${CLOSURE_TUNING:-$OUT/tuning.txt}
CMAKE=${CMAKE:-/opt/torch/.venv/bin/cmake}
command -v "$CMAKE" >/dev/null || CMAKE=cmake
PYTHON=${PYTHON:-python3}

# oneTBB is not installed there: tools/pack-tbb.sh packs this machine's into .tbb/ (carry it).
TBB_ARGS=()
if [[ -d .tbb ]]; then
  TBB_ARGS=(-DTBB_DIR="$PWD/.tbb/usr/lib/x86_64-linux-gnu/cmake/TBB")
  export LD_LIBRARY_PATH="$PWD/.tbb/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
log "build (Release, no tests)"
if ! { "$CMAKE" -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DCLOSURE_BUILD_TESTS=OFF \
  "${TBB_ARGS[@]}" &&
  "$CMAKE" --build build-release -j "$(nproc)"; } >"$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"
  exit 1
fi
BIN=build-release/closure
$BIN devices 2>&1 | tee "$OUT/devices.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv \
  >>"$OUT/devices.txt" 2>&1 || true

status=0
if has sweep; then
  log "sweep"
  # One process per kernel family: a launch that fails takes the whole context down.
  for k in cubic mma; do
    timeout 300 $BIN bench bool --device gpu --sweep --sweep-kernels $k --no-products 2>&1 |
      tee -a "$OUT/sweep.log" || status=1
  done
  grep -E "^best" "$OUT/sweep.log" | tee -a "$OUT/summary.txt"
fi
# The sweep's winners drive the rest of the run (the overlay above; copy its rows into
# src/closure/kernels/tuning_rows.cpp to make them the defaults).
PARAMS=()
if [[ -f "$OUT/sweep.log" ]]; then
  best=$(grep -oP '^best portable: \K\S+' "$OUT/sweep.log" | tail -1)
  [[ -n "$best" ]] && PARAMS+=(--params "$best")
  best=$(grep -oP '^best tensor-core: \K\S+' "$OUT/sweep.log" | tail -1)
  [[ -n "$best" ]] && PARAMS+=(--mma-params "$best")
fi
if has check; then
  # Awkward sizes (odd, around tiles and K blocks), checked in full against the host.
  log "check: every kernel at awkward sizes, seed $SEED"
  timeout 300 $BIN bench bool --device gpu --sizes 33,1000,1025,3001,4097 --repeat 1 \
    --seed "$SEED" "${PARAMS[@]}" 2>&1 | tee "$OUT/check.log" || status=1
fi
if has torch; then
  log "PyTorch baseline"
  PYTHONUNBUFFERED=1 timeout 300 "$PYTHON" tools/torch_closure_baseline.py \
    --closure "$(has closure && echo "$CLOSURE_SIZES")" --times "$OUT/torch_times.txt" 2>&1 |
    tee "$OUT/torch.log" || status=1
fi
TORCH=()
[[ -s "$OUT/torch_times.txt" ]] && TORCH=(--torch-times "$OUT/torch_times.txt")
if has products || has closure; then
  log "bench bool, seed $SEED"
  ARGS=(--device gpu --seed "$SEED" "${TORCH[@]}" "${PARAMS[@]}")
  has products || ARGS+=(--no-products)
  has closure && ARGS+=(--closure "$CLOSURE_SIZES")
  timeout 480 $BIN bench bool "${ARGS[@]}" 2>&1 | tee "$OUT/bench_bool.log" || status=1
fi
if has gemm; then
  if $BIN bench gemm --help >/dev/null 2>&1; then
    log "bench gemm"
    timeout 200 $BIN bench gemm --device gpu 2>&1 | tee "$OUT/bench_gemm.log" || status=1
  else
    echo "closure bench gemm: not in this build, skipped" | tee -a "$OUT/summary.txt"
  fi
fi

if has gemm8192; then
  log "bench gemm, n = 8192: fast kernels and the tuned SGEMM sweep"
  timeout 300 $BIN bench gemm --device gpu --n 8192 --repeat 3 \
    --only myGEMM2,MatrixMulKernel,myGEMM_tuned --sweep >"$OUT/gemm8192.log" 2>&1 || status=1
  grep -v '^tsm=' "$OUT/gemm8192.log"
  grep '^tsm=' "$OUT/gemm8192.log" | sort -k3 -g -r | head -8
fi
if has dense; then
  log "bench dense: recursive vs squaring vs one product (tensor cores, then portable)"
  DENSE_SIZES=${DENSE_SIZES:-16384,32768}
  timeout 200 $BIN bench dense --device gpu --n "$DENSE_SIZES" --repeat 3 2>&1 | tee "$OUT/dense.log" || status=1
  CLOSURE_MMA=off timeout 200 $BIN bench dense --device gpu --n "$DENSE_SIZES" --repeat 3 2>&1 |
    tee "$OUT/dense_portable.log" || status=1
fi
if has graphs; then
  log "bench closure: generated graphs, auto on the GPU vs sparse and classic on the host"
  timeout 300 $BIN bench closure --generated all --methods auto,recursive --device gpu --no-boost \
    --repeat 3 --memory-cap 100 2>&1 | tee "$OUT/graphs.log" || status=1
fi

if has ptxas && command -v ptxas >/dev/null; then
  # NVIDIA's program binaries are PTX: ptxas -v tells registers, spills and local memory of
  # the kernels that ran (the disk cache holds every program built above).
  log "ptxas -v of the cached Boolean programs"
  for f in "$CLOSURE_CACHE_DIR"/*.bin; do
    grep -aqE "mma_mul|clcubic_mul" "$f" 2>/dev/null || continue
    tr -d '\000' <"$f" >/tmp/kernel.ptx
    echo "--- $f: $(grep -a -m1 -E '^\.target' /tmp/kernel.ptx)"
    ptxas -arch=sm_90 -v /tmp/kernel.ptx -o /dev/null 2>&1 | grep -E "Compiling|registers|spill|error"
  done >"$OUT/ptxas.log" 2>&1
  grep -c Compiling "$OUT/ptxas.log" | sed 's/^/kernels compiled by ptxas: /'
fi

# One table last: the products' summary, the closures, PyTorch.
{
  echo
  echo "=================== final table ($(date -u +%FT%TZ), seed $SEED)"
  [[ -f "$OUT/bench_bool.log" ]] && sed -n '/^summary/,$p' "$OUT/bench_bool.log"
  [[ -f "$OUT/bench_bool.log" ]] && sed -n '/^full closure/,/^$/p' "$OUT/bench_bool.log"
  [[ -f "$OUT/torch.log" ]] && { echo "PyTorch:"; cat "$OUT/torch.log"; }
  grep -h MISMATCH "$OUT"/check.log "$OUT"/bench_bool.log "$OUT"/sweep.log 2>/dev/null |
    sed 's/^/MISMATCH: /'
} | tee -a "$OUT/summary.txt"
exit $status
