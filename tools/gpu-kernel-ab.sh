#!/usr/bin/env bash
# A/B of two versions of the kernel sources on the H200, in one call, through
# CLOSURE_KERNEL_PATH (no rebuild: the binary loads kernels/*.cl from that folder): the
# propagation kernels (bench propagate, median of 3) at 200k and 1M commits, rows kept
# and counted, and at 10M commits counted, then the 10M history counted whole process,
# A and B interleaved. A is build-dev/kernels-a/ (fill it here, for example with
# `mkdir -p build-dev/kernels-a && git show HEAD:kernels/propagate.cl >
# build-dev/kernels-a/propagate.cl`; the other files come from kernels/), B the tree's kernels/.
# KERNELS_A / KERNELS_B (default count,chained) and KERNELS10M_A / _B (default count) name
# the variants each times (bench propagate --kernels), for sweeps only one side has.
#   there: bash tools/gpu-kernel-ab.sh    (device tool, carry ["build-dev"])
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
BIN=build-dev/closure
G=/tmp/graphs; mkdir -p $G
A=/tmp/kernels-a B=$PWD/kernels
rm -rf $A; cp -r kernels $A; cp build-dev/kernels-a/* $A/
(timeout 250 python3 tools/gen_commit_dag.py 10000000 1 > $G/commits-10m.txt) &
gen10m=$!
timeout 60 python3 tools/gen_commit_dag.py 200000 1 > $G/commits-200k.txt
timeout 120 python3 tools/gen_commit_dag.py 1000000 1 > $G/commits-1m.txt
echo "== the propagation tests on the GPU with B"
CLOSURE_KERNEL_PATH=$B CLOSURE_DEVICE=gpu timeout 200 build-dev/closure_tests --gtest_brief=1 \
  --gtest_filter='LiveRows.*:DevicePropagation.*' 2>&1 | tail -3
for round in 1 2; do
  for v in A B; do
    dir=$A; [ $v = B ] && dir=$B
    echo "== $v (round $round): 200k and 1M commits"
    ks=${KERNELS_A:-count,chained}; [ $v = B ] && ks=${KERNELS_B:-count,chained}
    CLOSURE_KERNEL_PATH=$dir timeout 200 $BIN bench propagate $G/commits-200k.txt $G/commits-1m.txt \
      --repeat 3 --kernels $ks 2>&1 | grep commits
  done
done
wait $gen10m
for v in A B A B; do
  dir=$A; [ $v = B ] && dir=$B
  echo "== $v: 10M commits counted (kernel, then whole process)"
  ks=${KERNELS10M_A:-count}; [ $v = B ] && ks=${KERNELS10M_B:-count}
  CLOSURE_KERNEL_PATH=$dir timeout 200 $BIN bench propagate $G/commits-10m.txt --repeat 1 --kernels $ks 2>&1 | grep commits
  a=$(date +%s%N); CLOSURE_KERNEL_PATH=$dir timeout 100 $BIN $G/commits-10m.txt --method propagate --device gpu > /tmp/s.log 2>&1; b=$(date +%s%N)
  awk -v a=$a -v b=$b 'BEGIN{printf "whole process %.2f s\n", (b-a)/1e9}'; grep -E "^time" /tmp/s.log
done
