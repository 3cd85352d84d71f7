#!/usr/bin/env bash
# Many threads asked for under `ulimit -v`: the budget stays within what the address space
# holds (each thread a stack and a 64 MiB malloc arena), so the run ends in a result or a
# message (exit 0 or 4), never in an abort from a worker that could not start (134 before).
# Usage: threads_under_ulimit.sh BIN DIR
set -u
bin=$1 dir=$2
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
awk 'BEGIN { for (i = 0; i < 400000; i++) { if (i % 20 != 19) print "v" i, "v" (i + 1)
                                            if (i % 20 < 10) print "v" i, "v" (i + 5) } }' > "$dir/g.txt"
want=$("$bin" "$dir/g.txt" --json -q | grep '"pairs"')
for cmd in "" reduce index verify; do
  out=()
  case "$cmd" in reduce) out=(-o "$dir/r.txt") ;; index) out=(-o "$dir/g.idx") ;; esac
  for threads in 16 64; do
    (ulimit -v 800000 && exec "$bin" $cmd "$dir/g.txt" --threads "$threads" -q "${out[@]}" \
       > "$dir/out" 2> "$dir/err")
    status=$?
    [ "$status" = 0 ] || [ "$status" = 4 ] ||
      fail "${cmd:-run} --threads $threads under ulimit -v: exit $status: $(head -3 "$dir/err")"
  done
done
(ulimit -v 800000 && exec "$bin" "$dir/g.txt" --threads 64 --json -q) > "$dir/json" ||
  fail "run --threads 64 --json under ulimit -v: exit $?"
[ "$(grep '"pairs"' "$dir/json")" = "$want" ] || fail "pairs differ: $(grep '"pairs"' "$dir/json") vs $want"
echo "threads under ulimit ok"
