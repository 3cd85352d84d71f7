#!/usr/bin/env bash
# reach, reduce, index (build and --append) and serve on a graph read it through the run
# pipeline's read stage (run_graph.hpp, read_input), not a reading of their own: the trace
# shows its "reading" and "read" milestones for each as for run, the progress line (on a
# terminal) its "reading FILE" phase, and the output guard refuses an output target before
# reading, as run's does. Usage: read_stage_door.sh BIN DATA DIR
set -u
bin=$1 data=$2 dir=$3
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir/folder"
g=$data/diamond.txt
"$bin" index -q "$g" -o "$dir/d.idx" || fail "index of $g"
printf '5 6\n6 1\n' > "$dir/new.txt"

# The read stage's milestones, in order, with each command's output as before.
traced() {  # NAME COMMAND...: runs it under CLOSURE_TRACE, stderr in $dir/NAME.err
  local name=$1; shift
  CLOSURE_TRACE=1 "$@" > "$dir/$name.out" 2> "$dir/$name.err" || fail "$name: $(cat "$dir/$name.err")"
  grep -E ' (reading|read)$' "$dir/$name.err" | awk '{ print $3 }' | tr '\n' ' ' > "$dir/$name.stages"
  [ "$(cat "$dir/$name.stages")" = "reading read " ] ||
    fail "$name: not through the read stage: $(cat "$dir/$name.err")"
}
traced run "$bin" -q "$g"
traced reach "$bin" reach "$g" 1
[ "$(tr '\n' ' ' < "$dir/reach.out")" = "2 3 4 5 " ] || fail "reach: $(cat "$dir/reach.out")"
traced reduce "$bin" reduce -q "$g" -o "$dir/r.txt"
[ "$(wc -l < "$dir/r.txt")" -eq 5 ] || fail "reduce: $(cat "$dir/r.txt")"
traced index "$bin" index -q "$g" -o "$dir/i.idx"
traced append "$bin" index -q --append "$dir/d.idx" "$dir/new.txt" -o "$dir/d2.idx"
[ "$("$bin" query -q "$dir/d2.idx" 6 5)" = "6 5 yes" ] || fail "append: 6 does not reach 5"

# serve on a graph: read at start (the milestones before it listens), and a malformed graph
# refused as an input error (exit 3, FILE:LINE), as every command refuses it.
CLOSURE_TRACE=1 "$bin" serve "$g" --port 0 --port-file "$dir/port" > /dev/null 2> "$dir/serve.err" &
pid=$!
for _ in $(seq 200); do [ -s "$dir/port" ] && break; sleep 0.1; done
[ -s "$dir/port" ] || { kill "$pid"; fail "serve did not listen: $(cat "$dir/serve.err")"; }
kill -TERM "$pid"; wait "$pid"
grep -q ' reading$' "$dir/serve.err" && grep -q ' read$' "$dir/serve.err" ||
  fail "serve: not through the read stage: $(cat "$dir/serve.err")"
printf '1 2\n3\n' > "$dir/bad.txt"
CLOSURE_TRACE=1 "$bin" serve "$dir/bad.txt" --port 0 > /dev/null 2> "$dir/bad.err"
rc=$?
[ "$rc" -eq 3 ] && grep -q "^closure: $dir/bad.txt:2: " "$dir/bad.err" && grep -q ' reading$' "$dir/bad.err" ||
  fail "serve on a malformed graph: exit $rc: $(cat "$dir/bad.err")"

# The output guard before reading: a folder named by -o is refused (exit 2) even when the
# input is missing, word for word as run refuses it.
"$bin" -q "$dir/missing.txt" -o "$dir/folder" 2> "$dir/run.guard"
[ $? -eq 2 ] || fail "run: $(cat "$dir/run.guard")"
for cmd in "reduce" "index" "index --append $dir/d.idx"; do
  $bin $cmd "$dir/missing.txt" -o "$dir/folder" 2> "$dir/guard.err"
  rc=$?
  [ "$rc" -eq 2 ] && cmp -s "$dir/run.guard" "$dir/guard.err" ||
    fail "$cmd -o a folder: exit $rc: $(cat "$dir/guard.err")"
done

# The progress line's reading phase, on a terminal (where auto shows it), when `script` can
# give the command one.
if command -v script > /dev/null; then
  for cmd in "reach $g 1" "reduce $g -o $dir/r2.txt" "index $g -o $dir/i2.idx" \
             "index --append $dir/d.idx $dir/new.txt -o $dir/d3.idx"; do
    CLOSURE_PROGRESS_DELAY=0 script -qec "$bin $cmd" /dev/null > "$dir/tty.out" 2>&1 < /dev/null
    file=$(echo "$cmd" | awk '{ print ($2 == "--append") ? $4 : $2 }')
    grep -q "reading $file" "$dir/tty.out" || fail "$cmd: no reading phase: $(cat -v "$dir/tty.out")"
  done
fi
echo "read stage door ok"
