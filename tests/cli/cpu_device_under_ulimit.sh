#!/usr/bin/env bash
# The CPU device (PoCL) under `ulimit -v` at limits around what a 60k-vertex DAG's rows
# need: every run ends in its result or a message naming the memory (exit 0 or 4), never
# in PoCL's assertion (exit 134: a buffer it allocates on first use failed) nor an OpenCL
# call's bare name ("closure: clCreateBuffer"). Written rows are sparse's; counts too; and
# recursive's matrices likewise. Rows go through a pipe to cksum: written to files they took
# 1.9 GB of disk, more than a CI machine may have free.
# Usage: cpu_device_under_ulimit.sh BIN DIR
set -u
bin=$1 dir=$2
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
"$bin" devices 2> /dev/null | grep -qi "cpu" || { echo "cpu device under ulimit ok (no CPU device)"; exit 0; }
awk 'BEGIN { srand(5); n = 60000
             for (k = 0; k < 400000; k++) { a = int(rand() * n); b = int(rand() * n)
                                            if (a < b) print a, b; else if (b < a) print b, a } }' \
  > "$dir/g.txt"
"$bin" "$dir/g.txt" -m sparse -o - --max-output 10G -q | cksum > "$dir/want.sum"
[ "${PIPESTATUS[0]}" = 0 ] || fail "sparse: exit ${PIPESTATUS[0]}"
want=$("$bin" "$dir/g.txt" -m sparse --json | grep '"pairs"')
for limit in 900000 950000 1000000 1100000 1250000 1400000 1600000; do
  for out in count rows; do
    args=(--json)
    [ $out = rows ] && args=(-q -o - --max-output 10G)
    (ulimit -v $limit && exec "$bin" "$dir/g.txt" -m propagate --device cpu "${args[@]}" 2> "$dir/err") |
      { if [ $out = rows ]; then cksum; else cat; fi; } > "$dir/out"
    status=${PIPESTATUS[0]}
    what="ulimit -v $limit, $out"
    [ "$status" = 0 ] || [ "$status" = 4 ] || fail "$what: exit $status: $(head -3 "$dir/err")"
    if [ "$status" = 4 ]; then
      grep -q "memory\|left to this process" "$dir/err" || fail "$what: $(head -3 "$dir/err")"
    elif [ $out = rows ]; then
      cmp -s "$dir/out" "$dir/want.sum" || fail "$what: the rows differ from sparse's"
    else
      [ "$(grep '"pairs"' "$dir/out")" = "$want" ] || fail "$what: $(grep '"pairs"' "$dir/out") vs $want"
    fi
  done
done
# The dense methods' matrices on the CPU device are host memory too (recursive aborted in
# PoCL at 1.8-2.2 GB): counted with the host's before any is made.
for limit in 1800000 2200000; do
  (ulimit -v $limit && exec "$bin" "$dir/g.txt" -m recursive --device cpu --json > "$dir/out" 2> "$dir/err")
  status=$?
  [ "$status" = 0 ] || [ "$status" = 4 ] || fail "recursive, ulimit -v $limit: exit $status: $(head -3 "$dir/err")"
  [ "$status" = 0 ] || grep -q "memory" "$dir/err" || fail "recursive, ulimit -v $limit: $(head -3 "$dir/err")"
  [ "$status" = 4 ] || [ "$(grep '"pairs"' "$dir/out")" = "$want" ] || fail "recursive, ulimit -v $limit: pairs"
done
echo "cpu device under ulimit ok"
