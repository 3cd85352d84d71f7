#!/usr/bin/env bash
# The propagation sweep's bound on the H200 (issue 26, item 3), in one call: the chained
# kernel with work-groups started longest first (the default) and in column order
# (-inorder), with every row kept and counting over live rows, on generated commit
# histories of 200k, 1M and 10M commits; the 10M history counted whole process by this
# binary and by build-dev/closure-before; auto against --device host at 200k commits
# (median of ROUNDS, interleaved); and the anatomy of a block's step at 1M commits (the
# chained kernel with its row loads, stores or count cut out, through CLOSURE_KERNEL_PATH).
#   here:  tools/build --all && tools/gpu-gtest.sh pack && cp OLD/closure build-dev/closure-before
#   there: bash tools/gpu-sweep-order.sh    (device tool, carry ["build-dev"])
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
NEW=build-dev/closure OLD=build-dev/closure-before
[ -x $OLD ] || OLD=$NEW
G=/tmp/graphs; mkdir -p $G
(timeout 250 python3 tools/gen_commit_dag.py 10000000 1 > $G/commits-10m.txt) &
gen10m=$!
timeout 60 python3 tools/gen_commit_dag.py 200000 1 > $G/commits-200k.txt
timeout 120 python3 tools/gen_commit_dag.py 1000000 1 > $G/commits-1m.txt
$NEW devices
echo "== the propagation tests on the GPU"
CLOSURE_DEVICE=gpu timeout 200 build-dev/closure_tests --gtest_brief=1 \
  --gtest_filter='LiveRows.*:DevicePropagation.*' 2>&1 | tail -4
echo "== kernels at 200k and 1M commits: longest first (default) vs -inorder"
timeout 200 $NEW bench propagate $G/commits-200k.txt $G/commits-1m.txt --repeat 3 \
  --kernels count,count-inorder,chained,chained-inorder 2>&1 | tail -9
echo "== auto vs --device host at 200k commits, whole process (median of ${ROUNDS:-9})"
w() { local a b; a=$(date +%s%N); timeout 100 "$@" > /tmp/last.log 2>&1; b=$(date +%s%N); awk -v a=$a -v b=$b 'BEGIN{printf "%.3f\n", (b-a)/1e9}'; }
median() { sort -n | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
$NEW $G/commits-200k.txt -q; $NEW $G/commits-200k.txt -q --device host
: > /tmp/a; : > /tmp/h
for i in $(seq ${ROUNDS:-9}); do
  w $NEW $G/commits-200k.txt -q >> /tmp/a; w $NEW $G/commits-200k.txt -q --device host >> /tmp/h
done
echo "auto $(median < /tmp/a) host $(median < /tmp/h); auto: $(tr '\n' ' ' < /tmp/a)"
$NEW $G/commits-200k.txt 2>&1 | grep -E "method|time"
wait $gen10m
ls -la $G/commits-10m.txt
echo "== 10M commits: kernels longest first vs -inorder (counted over live rows)"
timeout 250 $NEW bench propagate $G/commits-10m.txt --repeat 1 --kernels count,count-inorder 2>&1 | tail -3
echo "== 10M commits counted, whole process: new (longest first) vs before"
for bin in $NEW $OLD $NEW $OLD; do
  a=$(date +%s%N); timeout 100 $bin $G/commits-10m.txt --method propagate --device gpu > /tmp/s.log 2>&1; b=$(date +%s%N)
  awk -v a=$a -v b=$b -v n=$bin 'BEGIN{printf "%s whole process %.2f s\n", n, (b-a)/1e9}'
  grep -E "kernel|time" /tmp/s.log | head -3
done
echo "== anatomy of a block's step at 1M commits (count): the chained kernel with parts taken"
echo "   out (wrong counts; the time each part holds), through CLOSURE_KERNEL_PATH"
anatomy() {  # NAME SED-SCRIPT
  rm -rf /tmp/k-$1; cp -r kernels /tmp/k-$1; sed -i "$2" /tmp/k-$1/propagate.cl
  echo "-- $1"
  CLOSURE_KERNEL_PATH=/tmp/k-$1 timeout 100 $NEW bench propagate $G/commits-1m.txt --repeat 3 \
    --kernels count 2>&1 | tail -1
}
anatomy whole 's/^$//'
anatomy no-row-loads 's/rows\[ROW_AT(d) \* slice_units + w\]/(gpuword)0/'
anatomy no-stores 's/^  if (active \&\& block_slot\[r\] != LIVE_NONE) rows.*$/  if (0) {}/'
anatomy no-count 's/pairs += popcount(acc);/pairs += 0;/'
anatomy no-loads-no-stores 's/rows\[ROW_AT(d) \* slice_units + w\]/(gpuword)0/; s/^  if (active \&\& block_slot\[r\] != LIVE_NONE) rows.*$/  if (0) {}/'
