#!/usr/bin/env bash
# Builds tools/oreach_harness.cpp against a checkout of O'Reach's public code and times
# closure's index against O'Reach on the same pairs (see the harness's opening comment).
#
#   tools/bench-oreach.sh OREACH_SRC_DIR [harness flags] GRAPH...
#   e.g. tools/bench-oreach.sh /tmp/O-Reach --pairs 100000 --rounds 7 tests/data/grail/*.gra
#
# BUILD_DIR (default build) is the closure build folder the target is added to.
set -euo pipefail
if [[ $# -lt 2 || ! -f "$1/lib/reachability/oreach.h" ]]; then
  echo "usage: $0 OREACH_SRC_DIR [--pairs N] [--rounds R] [--seed S] GRAPH..." >&2
  exit 2
fi
oreach_dir=$(cd "$1" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCLOSURE_OREACH_DIR="$oreach_dir" >/dev/null
cmake --build "$build" --target oreach_harness -j"${JOBS:-2}" >/dev/null
exec "$build/oreach_harness" "$@"
