#!/usr/bin/env bash
# Issue 26 item 1 on the H200 machine: whole-process seconds of auto before and after the
# exit path stopped waiting for the driver (a speculative GPU opening auto does not use,
# and the teardown of one it used), beside --device host and propagate on the GPU; each
# figure the median of ROUNDS (default 5), the variants interleaved round by round; GRAPHS
# picks some of them.
#   here:  tools/gpu-gtest.sh pack && cp /path/to/old/closure build-dev/closure-before
#   there: bash tools/gpu-exit-bench.sh   (device tool, carry ["build-dev"]; log in $OUT)
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
NEW=build-dev/closure OLD=build-dev/closure-before
G=/tmp/graphs; mkdir -p $G
timeout 60 python3 tools/gen_commit_dag.py 200000 1 > $G/commits-200k.txt
timeout 120 python3 tools/gen_commit_dag.py 1000000 1 > $G/commits-1m.txt
# Mid-size graphs where the host wins: small reach, 3-13 MB.
awk 'BEGIN{srand(5); for(i=0;i<1000000;i++) print int(rand()*1000000), int(rand()*1000000)}' > $G/random-1m.txt
awk 'BEGIN{srand(6); for(i=0;i<250000;i++) print int(rand()*300000), int(rand()*300000)}' > $G/random-250k.txt
printf '0 1\n' > $G/tiny.txt
ls -la $G
$NEW devices
for g in $G/*.txt; do timeout 100 $NEW $g --method propagate --device gpu -q; done  # compile cache
w() { local a b; a=$(date +%s%N); timeout 100 "$@" > /tmp/last.log 2>&1; b=$(date +%s%N); awk -v a=$a -v b=$b 'BEGIN{printf "%.3f\n", (b-a)/1e9}'; }
median() { sort -n | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
printf '%-16s %10s %10s %10s %10s\n' graph "auto-old" "auto-new" "host" "gpu"
for g in ${GRAPHS:-tiny random-250k random-1m commits-200k commits-1m}; do
  f=$G/$g.txt
  : > /tmp/o; : > /tmp/n; : > /tmp/h; : > /tmp/p
  for i in $(seq ${ROUNDS:-5}); do
    w $OLD $f -q >> /tmp/o; w $NEW $f -q >> /tmp/n
    # The host's sparse closure of the 1M-commit history takes about 50 s: not repeated.
    [ $g != commits-1m ] && w $NEW $f -q --device host >> /tmp/h
    w $NEW $f -q --method propagate --device gpu >> /tmp/p
  done
  printf '%-16s %10s %10s %10s %10s\n' $g $(median < /tmp/o) $(median < /tmp/n) $(median < /tmp/h || true) $(median < /tmp/p)
done
echo "== what auto chose (new)"
for g in random-250k random-1m commits-200k commits-1m; do $NEW $G/$g.txt 2>&1 | grep -E "method|total"; done
echo "== one run each, before and after, with the summary's own total (the rest is start-up and exit)"
for g in random-1m commits-200k; do for b in $OLD $NEW; do w $b $G/$g.txt; grep total /tmp/last.log; done; done
