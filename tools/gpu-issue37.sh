#!/usr/bin/env bash
# Issue 37 on the H200 in one call: the GPU suite, auto's predictions beside measured
# seconds (item 2), auto against the named methods whole process (item 1) and the
# 10M-commit history's phases (items 3 and 4: CLOSURE_TRACE milestones, auto, the GPU
# named and the host named). STAGES picks among "gtest predict calibrate predict-calibrated
# whole 10m ab" (default: gtest predict whole 10m); calibrate fits this machine's host
# calibration (bench closure --calibrate) and, with predict-calibrated, predicts again under
# it; ROUNDS and ROUNDS10 the rounds of whole and ab, and of 10m (5, 3); logs under $OUT.
# ab: the two builds alone, interleaved, on GRAPHS with ARGS (default -q): their medians.
#   here:  tools/build --all && tools/gpu-gtest.sh pack [&& cp OLD/closure build-dev/closure-before]
#   there: STAGES="..." bash tools/gpu-issue37.sh   (device tool, carry ["build-dev"])
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NEW=build-dev/closure OLD=build-dev/closure-before G=/tmp/graphs; mkdir -p $G
[ -x $OLD ] || OLD=$NEW
stages=${STAGES:-gtest predict whole 10m}
has() { [[ " $stages " == *" $1 "* ]]; }
if has 10m; then (timeout 250 python3 tools/gen_commit_dag.py 10000000 1 > $G/commits-10m.txt) & fi
gen10m=$!
# 22 MB of disjoint edges: the GPU opened at the start, then released (the host wins).
awk 'BEGIN{for(i=0;i<1500000;i++) print 2*i, 2*i+1}' > $G/pairs-3m
timeout 60 python3 tools/gen_commit_dag.py 200000 2 > $G/H200K
timeout 120 python3 tools/gen_commit_dag.py 1000000 2 > $G/H1M
printf '0 1\n' > $G/tiny
awk 'BEGIN{srand(5); for(i=0;i<1000000;i++) print int(rand()*1000000), int(rand()*1000000)}' > $G/random-1m
$NEW devices
if has gtest; then
  echo "== GPU suite"; timeout 300 bash tools/gpu-gtest.sh run > $OUT/gtest.log 2>&1
  echo "rc $?"; grep -E "PASSED|FAILED|SKIPPED" $OUT/gtest.log | head -20
fi
# The predictions beside measured (item 2), into $OUT/$1.
predict() {
  # A fresh machine compiles each program variant on its first use (1.2 s for the weighted
  # sweep, a cyclic graph's): the single runs below would time it.
  for g in data/cycle.txt data/dag.gra; do $NEW $g -q --method propagate --device gpu > /dev/null; done
  # The small graphs' medians of 3: a single run in a fresh child pays its first page faults.
  timeout 100 $NEW bench closure --predict --no-boost --repeat 3 --memory-cap 60 tests/data/grail \
    > $OUT/$1 2>&1
  timeout 250 $NEW bench closure --predict --no-boost --repeat 1 --memory-cap 60 $G/H200K $G/H1M \
    $G/pairs-3m --generated road,random-dag,giant-scc,chain,dense-dag >> $OUT/$1 2>&1
  timeout 60 $NEW bench closure --predict --no-boost --repeat 3 data >> $OUT/$1 2>&1
  echo "rc $?"; grep "within 2x of" $OUT/$1
}
if has predict; then
  echo "== predictions beside measured (item 2)"
  predict predict.log
fi
# This machine's calibration (bench closure --calibrate), fitted to GRAIL and 200k commits
# into an overlay of its own, then the predictions again under it.
if has calibrate; then
  echo "== calibrated: fitted to tests/data/grail and H200K, then predictions beside measured"
  export CLOSURE_TUNING=$OUT/tuning.txt
  timeout 150 $NEW bench closure --calibrate --save --no-boost --repeat 3 --memory-cap 60 \
    tests/data/grail $G/H200K > $OUT/calibrate.log 2>&1
  echo "rc $?"; grep -E "^calibration|within 2x of" $OUT/calibrate.log
  if has predict-calibrated; then predict predict-calibrated.log; fi
  unset CLOSURE_TUNING
fi
w() { local a b; a=$(date +%s%N); timeout 100 "$@" > /tmp/last.log 2>&1; b=$(date +%s%N); awk -v a=$a -v b=$b 'BEGIN{printf "%.4f\n", (b-a)/1e9}'; }
median() { sort -n | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
if has whole; then
  echo "== whole process, wall s, median of ${ROUNDS:-5}: auto before / auto / host / GPU named (item 1)"
  for g in tiny H200K H1M; do  # the program caches of both binaries
    $NEW $G/$g -q --method propagate --device gpu; $OLD $G/$g -q --method propagate --device gpu
  done
  for g in ${GRAPHS:-tiny H200K H1M random-1m pairs-3m}; do
    : > /tmp/o; : > /tmp/a; : > /tmp/h; : > /tmp/p
    for i in $(seq ${ROUNDS:-5}); do
      w $OLD $G/$g -q >> /tmp/o; w $NEW $G/$g -q >> /tmp/a; w $NEW $G/$g -q --device host >> /tmp/h
      w $NEW $G/$g -q --method propagate --device gpu >> /tmp/p
    done
    printf '%-12s %8s %8s %8s %8s\n' $g $(median < /tmp/o) $(median < /tmp/a) $(median < /tmp/h) \
      $(median < /tmp/p) | tee -a $OUT/whole.txt
  done
  for g in H200K H1M random-1m; do
    echo "-- $g"; CLOSURE_TRACE=1 $NEW $G/$g 2>&1 | grep -vE "^(graph|closure ) " >> $OUT/traces.txt
  done
fi
if has ab; then
  echo "== the builds alone, interleaved, wall s, median of ${ROUNDS:-5}: before / now (${ARGS:--q})"
  for g in ${GRAPHS:-H1M}; do
    : > /tmp/o; : > /tmp/a
    for i in $(seq ${ROUNDS:-5}); do
      # shellcheck disable=SC2086
      w $OLD $G/$g ${ARGS:--q} >> /tmp/o; w $NEW $G/$g ${ARGS:--q} >> /tmp/a
    done
    printf '%-12s %8s %8s\n' $g $(median < /tmp/o) $(median < /tmp/a) | tee -a $OUT/ab.txt
  done
fi
if has 10m; then
  wait $gen10m; ls -la $G/commits-10m.txt
  echo "== 10M commits: auto before, auto, then the GPU named, traced; then wall s"
  CLOSURE_TRACE=1 timeout 100 $OLD $G/commits-10m.txt 2>&1 | grep -v "^graph " >> $OUT/traces.txt
  for args in "" "--method propagate --device gpu" "--device host"; do
    CLOSURE_TRACE=1 timeout 100 $NEW $G/commits-10m.txt $args 2>&1 | grep -v "^graph " >> $OUT/traces.txt
  done
  for i in $(seq ${ROUNDS10:-3}); do
    echo "before $(w $OLD $G/commits-10m.txt -q) after $(w $NEW $G/commits-10m.txt -q) host $(w $NEW $G/commits-10m.txt -q --device host)" | tee -a $OUT/whole.txt
  done
  timeout 200 $NEW bench propagate $G/H1M --repeat 3 --kernels chained,count 2>&1 | tail -4
fi
