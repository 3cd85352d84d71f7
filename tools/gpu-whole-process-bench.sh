#!/usr/bin/env bash
# Whole-process seconds on the H200 machine (issue 26), in one call: auto before and after
# a change (build-dev/closure-before) beside --device host and propagate on the GPU, on
# generated commit histories, random graphs where the host wins, a 2-vertex graph (the
# GPU's floor) and the real graphs of tools/make-real-graphs.sh (carried in bench-graphs/);
# each figure the median of ROUNDS (default 5), variants interleaved round by round.
# Then (unless QUICK=1) the propagation kernels (bench propagate) and the 10M-commit
# history counted.
#   here:  tools/build --all && tools/gpu-gtest.sh pack && cp OLD/closure build-dev/closure-before
#          tools/make-real-graphs.sh bench-graphs
#   there: bash tools/gpu-whole-process-bench.sh  (device tool, carry ["build-dev", "bench-graphs"])
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
NEW=build-dev/closure OLD=build-dev/closure-before
[ -x $OLD ] || OLD=$NEW
G=/tmp/graphs; mkdir -p $G
[ -z "${QUICK:-}" ] && (timeout 200 python3 tools/gen_commit_dag.py 10000000 1 > $G/commits-10m.txt) &
gen10m=$!
timeout 60 python3 tools/gen_commit_dag.py 200000 1 > $G/commits-200k.txt
timeout 120 python3 tools/gen_commit_dag.py 1000000 1 > $G/commits-1m.txt
awk 'BEGIN{srand(5); for(i=0;i<1000000;i++) print int(rand()*1000000), int(rand()*1000000)}' > $G/random-1m.txt
awk 'BEGIN{srand(6); for(i=0;i<250000;i++) print int(rand()*300000), int(rand()*300000)}' > $G/random-250k.txt
printf '0 1\n' > $G/tiny.txt
for f in bench-graphs/*.txt.gz; do [ -e "$f" ] && gunzip -c "$f" > $G/$(basename "$f" .txt.gz).txt; done
ls -la $G
$NEW devices
echo "== the propagation tests on the GPU (live rows among them)"
CLOSURE_DEVICE=gpu timeout 200 build-dev/closure_tests --gtest_brief=1 \
  --gtest_filter='LiveRows.*:DevicePropagation.*:Session.*' 2>&1 | tail -5
for g in tiny commits-200k; do  # the program caches of both binaries
  timeout 100 $NEW $G/$g.txt --method propagate --device gpu -q
  timeout 100 $NEW $G/$g.txt --method propagate --device gpu -q -o /dev/null
  timeout 100 $OLD $G/$g.txt --method propagate --device gpu -q
done
w() { local a b; a=$(date +%s%N); timeout 100 "$@" > /tmp/last.log 2>&1; b=$(date +%s%N); awk -v a=$a -v b=$b 'BEGIN{printf "%.3f\n", (b-a)/1e9}'; }
median() { sort -n | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
printf '%-16s %10s %10s %10s %10s\n' graph "auto-old" "auto-new" "host" "gpu"
real=$(ls bench-graphs/*.txt.gz 2>/dev/null | xargs -rn1 basename | sed 's/.txt.gz//')
for g in ${GRAPHS:-tiny random-250k random-1m commits-200k commits-1m $real}; do
  f=$G/$g.txt
  : > /tmp/o; : > /tmp/n; : > /tmp/h; : > /tmp/p
  for i in $(seq ${ROUNDS:-5}); do
    w $OLD $f -q >> /tmp/o; w $NEW $f -q >> /tmp/n
    w $NEW $f -q --device host >> /tmp/h
    w $NEW $f -q --method propagate --device gpu >> /tmp/p
  done
  printf '%-16s %10s %10s %10s %10s\n' $g $(median < /tmp/o) $(median < /tmp/n) $(median < /tmp/h || true) $(median < /tmp/p)
done
echo "== what auto chose, and the summary's own total (the rest is start-up and exit)"
for g in tiny random-250k commits-200k commits-1m $real; do
  echo "-- $g"; $NEW $G/$g.txt 2>&1 | grep -E "closure |method|time"
done
echo "== batch: one device context per worker, against a process per file (seconds for 40 files)"
B=/tmp/batch-in; rm -rf $B; mkdir -p $B
head -c 2000000 $G/commits-200k.txt | sed '$d' > $B/history.txt
for i in $(seq 40); do cp $B/history.txt $B/h$i.txt; done; rm $B/history.txt
for args in "--device gpu --method propagate" "--device host"; do
  rm -rf /tmp/batch-out
  a=$(date +%s%N); $NEW batch $B --out /tmp/batch-out --summary-only -j 1 -q $args > /dev/null; b=$(date +%s%N)
  awk -v a=$a -v b=$b -v w="$args" 'BEGIN{printf "batch -j1 %-34s %.2f s\n", w, (b-a)/1e9}'
  a=$(date +%s%N); for f in $B/*.txt; do $NEW $f -q $args; done; b=$(date +%s%N)
  awk -v a=$a -v b=$b -v w="$args" 'BEGIN{printf "a process a file %-27s %.2f s\n", w, (b-a)/1e9}'
done
[ -n "${QUICK:-}" ] && exit 0  # QUICK=1: the whole-process table and batch only
echo "== kernels: bench propagate (count: chained with live rows, what closure G runs)"
timeout 200 $NEW bench propagate $G/commits-200k.txt $G/commits-1m.txt --repeat 3 \
  --kernels chained,count 2>&1 | tail -6
wait $gen10m
ls -la $G/commits-10m.txt
echo "== the 10M-commit history counted (auto, then propagate named), whole process"
for args in "" "--method propagate --device gpu"; do
  a=$(date +%s%N); timeout 250 $NEW $G/commits-10m.txt $args; b=$(date +%s%N)
  awk -v a=$a -v b=$b 'BEGIN{printf "whole process %.2f s\n", (b-a)/1e9}'
done
echo "== what else a user gets from it: one commit's ancestors counted (reach), whole process"
for v in 0 5000000; do
  a=$(date +%s%N); timeout 100 $NEW reach $G/commits-10m.txt $v --count; b=$(date +%s%N)
  awk -v a=$a -v b=$b 'BEGIN{printf "whole process %.2f s\n", (b-a)/1e9}'
done
