#!/usr/bin/env bash
# Issue 8 item 6 on the GPU machine's cores: `closure bench read` over the reader inputs of
# tools/make-read-inputs.sh, at several thread counts, each run pinned to as many cores
# (taskset) so that a machine with more cores still measures "16 cores" honestly. With
# build-dev/closure-old present (a binary to compare with), each round runs both.
#   device tool, carry ["build-dev"] after `tools/gpu-gtest.sh pack`:
#   THREADS="1 2 4 8 16" ROUNDS=3 tools/gpu-read-bench.sh      (table in $OUT/read.txt)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
D=${READ_INPUTS:-/tmp/readbench}
[[ -s $D/paths.txt ]] || tools/make-read-inputs.sh "$D" >/dev/null
bins=(closure)
[[ -x build-dev/closure-old ]] && bins=(closure-old closure)
log() { printf '%s\n' "$*" | tee -a "$OUT/read.txt"; }
log "=== reading ($(nproc) cores here; THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null))"
ls -l "$D"/ints.txt "$D"/paths.txt | tee -a "$OUT/read.txt"
for round in $(seq "${ROUNDS:-1}"); do
  for t in ${THREADS:-1 2 4 8 16}; do
    for f in ints paths; do
      for b in "${bins[@]}"; do
        # The input is in the page cache after the first read; each figure is a median of 5.
        line=$(taskset -c "0-$((t - 1))" \
          "build-dev/$b" bench read "$D/$f.txt" --threads "$t" --repeat "${REPEAT:-5}" 2>&1 | tail -1)
        log "round $round $b threads $t $f.txt: $(echo "$line" | awk '{print $5 " s, " $6 " MB/s"}')"
      done
    done
  done
done
# One traced read per file on all the cores: where the time goes.
for f in ints paths; do
  log "--- phases, $f.txt, $(nproc) threads"
  build-dev/closure bench read "$D/$f.txt" --trace 1 --repeat 1 2>&1 | grep '^read:' | tee -a "$OUT/read.txt"
done
