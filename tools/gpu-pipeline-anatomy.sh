#!/usr/bin/env bash
# Where the pipelined sweep's time goes on the H200 (issue 26, item 3), in one call: the
# chained and pipelined sweeps counting 200k and 1M commits (bench propagate, median of 3),
# then the pipelined kernel with parts cut out through CLOSURE_KERNEL_PATH (wrong counts;
# the time each part holds): the global fence at its barrier, the stager's row loads, the
# chain (warp 0 closing nothing), and both warps' work but the barriers.
#   there: bash tools/gpu-pipeline-anatomy.sh    (device tool, carry ["build-dev"])
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
BIN=build-dev/closure
G=/tmp/graphs; mkdir -p $G
timeout 60 python3 tools/gen_commit_dag.py 200000 1 > $G/commits-200k.txt
timeout 120 python3 tools/gen_commit_dag.py 1000000 1 > $G/commits-1m.txt
variant() {  # NAME SED-SCRIPT KERNELS
  rm -rf /tmp/k-$1; cp -r kernels /tmp/k-$1; sed -i "$2" /tmp/k-$1/propagate.cl
  echo "-- $1"
  CLOSURE_KERNEL_PATH=/tmp/k-$1 timeout 100 $BIN bench propagate $G/commits-200k.txt \
    $G/commits-1m.txt --repeat 3 --kernels $3 2>&1 | grep commits
}
variant whole 's/^$//' count,count-pipelined,chained,pipelined
variant no-global-fence 's/barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  \/\/ block k staged.*$/barrier(CLK_LOCAL_MEM_FENCE);/' count-pipelined,pipelined
variant no-stager-row-loads 's/? rows\[row \* slice_units + w\]/? (gpuword)0/' count-pipelined,pipelined
variant no-chain 's/^      close_block(mk, ex, closed, lane/      if (0) close_block(mk, ex, closed, lane/' count-pipelined,pipelined
