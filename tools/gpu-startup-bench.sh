#!/usr/bin/env bash
# Issue 8's whole-process figures on the H200 machine, in one call, rounds interleaved so
# that the lease's drift hits every method alike: commit histories of 200k and 1M commits
# (tools/gen_commit_dag.py) under propagate on the GPU, sparse on the 16-core host and
# auto (and the classic method at 200k, in process); a random graph of 1M edges with small reach (sparse vs auto, where auto must stay
# on the host); a 2-vertex graph (the start-up floor); the download's phases.
#   device tool, carry ["build-dev"] (tools/gpu-gtest.sh pack first):
#   bash tools/gpu-startup-bench.sh > $OUT/log.txt 2>&1
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
B=build-dev/closure
G=/tmp/graphs; mkdir -p $G
timeout 60 python3 tools/gen_commit_dag.py 200000 1 > $G/commits-200000.txt
timeout 120 python3 tools/gen_commit_dag.py 1000000 1 > $G/commits-1000000.txt
awk 'BEGIN{srand(5); for(i=0;i<1000000;i++) print int(rand()*1000000), int(rand()*1000000)}' > $G/sparse-random-1m.txt
# Seconds of one whole process (wall), its summary kept in /tmp/last.log.
w() { local a b; a=$(date +%s%N); timeout 100 "$@" > /tmp/last.log 2>&1; b=$(date +%s%N); awk -v a=$a -v b=$b 'BEGIN{printf "%.3f ", (b-a)/1e9}'; }
timeout 60 $B $G/commits-200000.txt --method propagate --device gpu -q  # compile cache
echo "== 200k rounds: propagate sparse auto"
# Which GPU run goes first alternates from round to round: a GPU run right after the
# host's 2 s sparse run was measured up to 0.1 s slower than one right after a GPU run.
for i in 1 2 3 4 5 6; do
  if (( i % 2 )); then p=$(w $B $G/commits-200000.txt --method propagate --device gpu); a=$(w $B $G/commits-200000.txt)
  else a=$(w $B $G/commits-200000.txt); p=$(w $B $G/commits-200000.txt --method propagate --device gpu); fi
  echo "$p$(w $B $G/commits-200000.txt --method sparse)$a"
done
echo "== 1M rounds: propagate auto"
for i in 1 2 3 4; do
  if (( i % 2 )); then p=$(w $B $G/commits-1000000.txt --method propagate --device gpu); a=$(w $B $G/commits-1000000.txt)
  else a=$(w $B $G/commits-1000000.txt); p=$(w $B $G/commits-1000000.txt --method propagate --device gpu); fi
  echo "$p$a"
done
echo "== sparse-random 1M/1M rounds: sparse auto"
for i in 1 2 3 4 5; do w $B $G/sparse-random-1m.txt --method sparse; w $B $G/sparse-random-1m.txt; echo; done
cat /tmp/last.log
echo "== classic vs sparse vs propagate in process, 200k (bench closure)"
timeout 120 $B bench closure $G/commits-200000.txt --methods propagate --device gpu --no-boost --repeat 3 2>&1 | tail -6
echo "== 2-vertex graph, propagate (start-up floor)"; printf '0 1\n' > /tmp/t.txt
for i in 1 2 3; do w $B /tmp/t.txt --method propagate --device gpu; done; echo
echo "== kernels and download (bench propagate)"
timeout 200 $B bench propagate $G/commits-200000.txt $G/commits-1000000.txt \
  --repeat 3 --kernels chained,blocked,plain 2>&1 | tail -16
