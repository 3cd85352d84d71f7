#!/usr/bin/env bash
# batch never writes over a file it did not create, holds a lock on --out (a second batch is
# refused), and on SIGTERM leaves no worker behind. A FIFO with no writer as input keeps the
# first batch busy for as long as the test needs. Usage: batch_guard.sh BIN DIR
set -u
bin=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir/in" "$dir/out"
printf '1 2\n2 3\n' > "$dir/in/a.txt"
printf '1 3\n' > "$dir/in/b.txt"
fail() { echo "FAILED: $*"; exit 1; }

# 1. A user's file with a batch output's name is left alone; its row says why.
echo "my notes" > "$dir/out/a.txt.closure.txt"
"$bin" batch -q "$dir/in" --out "$dir/out" > "$dir/log1" 2>&1
[ $? -eq 4 ] || fail "a refused file should fail the batch (exit 4)"
grep -q "my notes" "$dir/out/a.txt.closure.txt" || fail "the user's file was overwritten"
grep -q "was not written by closure batch" "$dir/out/summary.csv" || fail "the row does not say why"
grep -q "^1 3$" "$dir/out/b.txt.closure.txt" || fail "the other file was not closed"
# ... and so is a user's summary table, before any work.
rm -rf "$dir/out2" && mkdir -p "$dir/out2" && echo "mine" > "$dir/out2/summary.json"
"$bin" batch -q "$dir/in" --out "$dir/out2" > "$dir/log2" 2>&1
[ $? -eq 2 ] || fail "a user's summary.json should refuse the batch (exit 2)"
[ "$(cat "$dir/out2/summary.json")" = mine ] || fail "the user's summary.json was overwritten"
# A second run over what a batch wrote is allowed (its own files).
rm -f "$dir/out/a.txt.closure.txt"
"$bin" batch -q "$dir/in" --out "$dir/out" > "$dir/log3" 2>&1 || fail "a rerun over the batch's own files failed"
"$bin" batch -q "$dir/in" --out "$dir/out" > "$dir/log4" 2>&1 || fail "a second rerun failed"

# 2. One batch at a time on one --out.
mkfifo "$dir/in/never.fifo"
"$bin" batch -q "$dir/in/never.fifo" --out "$dir/busy" > "$dir/log5" 2>&1 &
first=$!
for _ in $(seq 50); do [ -e "$dir/busy/.closure-batch.lock" ] && break; sleep 0.1; done
sleep 0.5
"$bin" batch -q "$dir/in/a.txt" --out "$dir/busy" > "$dir/log6" 2>&1
[ $? -eq 2 ] || fail "a second batch on the same --out was not refused"
grep -q "another .closure batch. is writing into" "$dir/log6" || fail "no clear message: $(cat "$dir/log6")"

# 3. SIGTERM: the batch ends and takes its worker with it.
workers=$(pgrep -P "$first" | wc -l)
[ "$workers" -ge 1 ] || fail "the busy batch has no worker to test with"
kill -TERM "$first"
wait "$first" 2>/dev/null
for _ in $(seq 50); do
  left=$(pgrep -f -- "--out $dir/busy" | wc -l)
  [ "$left" -eq 0 ] && break
  sleep 0.1
done
[ "$left" -eq 0 ] || fail "$left process(es) of the batch still run after SIGTERM"
ls "$dir/busy" | grep -q 'tmp' && fail "a temporary was left in --out"
echo "batch guard ok"
