#!/usr/bin/env bash
# `closure run` under its exit watcher (src/app/process/exit_watcher.hpp; forced on with
# CLOSURE_EXIT_WATCHER=on, as on a GPU machine): the output is whole, every exit status is
# the worker's, a signal sent to the watcher reaches the worker, and a worker killed
# outright is mirrored by the watcher. Usage: exit_watcher.sh CLOSURE_BIN DATA_DIR WORK_DIR
set -u
bin=$1 data=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
export CLOSURE_EXIT_WATCHER=on

# 1. The output is whole, with a driver loaded (PoCL) and without.
for args in "-m propagate --device cpu" "-m sparse"; do
  "$bin" "$data/cycle.txt" $args -q -o - | sort | cmp -s - <(sort "$data/cycle.closure.txt") ||
    fail "closure differs under the watcher ($args)"
done

# 2. Each exit status is the worker's, as without the watcher.
status_of() { "$@" > /dev/null 2>&1; echo $?; }
printf '1 2\nthree 4 5 6 x\n' > "$dir/bad.txt"
for case in "$data/cycle.txt" "$dir/bad.txt" "$dir/missing.txt" "$data/cycle.txt --threads 0"; do
  on=$(status_of "$bin" $case) off=$(CLOSURE_EXIT_WATCHER=off status_of "$bin" $case)
  [ "$on" = "$off" ] || fail "exit status $on under the watcher, $off without ($case)"
done
"$bin" "$data/cycle.txt" -q -o - > /dev/full 2> /dev/null
[ $? -eq 4 ] || fail "a write error to /dev/full is not exit 4 under the watcher"
"$bin" "$dir/missing.txt" 2> "$dir/err.txt"
grep -q "missing.txt" "$dir/err.txt" || fail "the worker's error message did not reach stderr"

# 3. The worker is the watcher's child, and SIGTERM sent to the watcher reaches it. A FIFO
#    with no writer keeps the worker waiting.
mkfifo "$dir/never.fifo"
"$bin" "$dir/never.fifo" -q &
watcher=$!
for _ in $(seq 50); do worker=$(pgrep -P "$watcher") && break; sleep 0.1; done
[ -n "${worker:-}" ] || fail "no worker process under the watcher"
kill -TERM "$watcher"
wait "$watcher"
[ $? -eq 143 ] || fail "the watcher did not end by the SIGTERM it forwarded"
for _ in $(seq 50); do kill -0 "$worker" 2> /dev/null || break; sleep 0.1; done
kill -0 "$worker" 2> /dev/null && fail "the worker still runs after SIGTERM"

# 4. A worker killed outright: the watcher ends the same way.
"$bin" "$dir/never.fifo" -q &
watcher=$!
worker=
for _ in $(seq 50); do worker=$(pgrep -P "$watcher") && break; sleep 0.1; done
[ -n "$worker" ] || fail "no worker process under the watcher (second run)"
kill -KILL "$worker"
wait "$watcher"
[ $? -eq 137 ] || fail "the watcher did not mirror its worker's SIGKILL"

# 5. Off: one process.
CLOSURE_EXIT_WATCHER=off "$bin" "$dir/never.fifo" -q &
single=$!
sleep 0.5
pgrep -P "$single" > /dev/null && fail "a child process with CLOSURE_EXIT_WATCHER=off"
kill -TERM "$single"
wait "$single" 2> /dev/null
echo "exit watcher ok"
