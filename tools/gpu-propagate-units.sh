#!/usr/bin/env bash
# The propagation sweep kernels compared on the H200 machine, in one call: the device's
# unit tests for `propagate` (every kernel and unit width against the host's sparse
# closure), the kernels' bytes/s against a device copy (`bench propagate`), and the SM
# clock during a 1M run (the default kernel).
# KERNELS picks them (names as --kernels takes them: chained, blocked8, plain16, ...).
#   device tool, carry ["build-dev"] (tools/gpu-gtest.sh pack first):
#   bash tools/gpu-propagate-units.sh > $OUT/log.txt 2>&1
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
B=build-dev/closure
G=/tmp/graphs; mkdir -p $G
KERNELS=${KERNELS:-chained,blocked}
timeout 60 python3 tools/gen_commit_dag.py 200000 1 > $G/commits-200000.txt
timeout 120 python3 tools/gen_commit_dag.py 1000000 1 > $G/commits-1000000.txt
echo "== unit tests (DevicePropagation.*, CLOSURE_DEVICE=gpu)"
CLOSURE_DEVICE=gpu timeout 200 build-dev/closure_tests --gtest_brief=1 \
  --gtest_filter='DevicePropagation.*' 2>&1 | tail -5
echo "== bench propagate --kernels $KERNELS"
timeout 300 $B bench propagate $G/commits-200000.txt $G/commits-1000000.txt --repeat 3 \
  --kernels "$KERNELS" 2>&1 | tail -20
echo "== SM clock (MHz) every 20 ms during a 1M-commit run"
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -lms 20 > /tmp/clocks.txt 2>&1 &
SMI=$!
sleep 0.5
timeout 100 $B $G/commits-1000000.txt --method propagate --device gpu -q
kill $SMI 2>/dev/null
sort -n /tmp/clocks.txt | uniq -c | sort -k2 -n | tail -12
