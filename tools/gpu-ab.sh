#!/usr/bin/env bash
# Two builds of closure, whole process, interleaved on the GPU machine: build-dev/closure-before
# (A) and build-dev/closure (B) on each graph of GRAPHS under /tmp/graphs (made by
# tools/gpu-issue37.sh), ROUNDS rounds, with ARGS; prints each one's median wall seconds.
#   there: GRAPHS="H1M random-1m" ROUNDS=15 ARGS="-q" bash tools/gpu-ab.sh   (device tool)
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
G=/tmp/graphs
w() { local a b; a=$(date +%s%N); timeout 100 "$@" > /dev/null 2>&1; b=$(date +%s%N); awk -v a=$a -v b=$b 'BEGIN{printf "%.4f\n", (b-a)/1e9}'; }
median() { sort -n | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
for g in ${GRAPHS:-H1M}; do
  : > /tmp/ab.a; : > /tmp/ab.b
  for i in $(seq ${ROUNDS:-9}); do
    # shellcheck disable=SC2086
    w build-dev/closure-before $G/$g ${ARGS:--q} >> /tmp/ab.a; w build-dev/closure $G/$g ${ARGS:--q} >> /tmp/ab.b
  done
  printf '%-12s before %8s  now %8s  (%s)\n' $g $(median < /tmp/ab.a) $(median < /tmp/ab.b) "${ARGS:--q}"
done
