#!/usr/bin/env bash
# CLI test driver: runs a command and checks its exit status and output.
#   expect.sh [--status N] [--stdout RE]... [--stderr RE]... [--no-file PATH]
#             [--closure OUT EXPECTED] -- command args...
# Every --stdout / --stderr pattern given must match (each may be repeated).
# --closure compares the closure written to OUT (an edge list) with EXPECTED, order aside.
set -u
status=0 no_file="" out="" expected=""
stdout_res=() stderr_res=()
while [ $# -gt 0 ]; do
  case "$1" in
    --status) status=$2; shift 2 ;;
    --stdout) stdout_res+=("$2"); shift 2 ;;
    --stderr) stderr_res+=("$2"); shift 2 ;;
    --no-file) no_file=$2; shift 2 ;;
    --closure) out=$2; expected=$3; shift 3 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
# No developer's tuning overlay (~/.cache/closure/tuning.txt): its "host" row would move
# auto's choices. A test that wants one sets CLOSURE_TUNING in its command.
export CLOSURE_TUNING=off
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$out" ] && rm -f "$out"
command=("$@")
"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
fail() {
  echo "FAILED: $*"
  echo "command: ${command[*]}"
  echo "--- stdout"; head -c 3000 "$tmp/out"
  echo "--- stderr"; head -c 3000 "$tmp/err"
  exit 1
}
[ "$rc" -eq "$status" ] || fail "exit status $rc, expected $status"
for re in "${stdout_res[@]}"; do
  grep -Eq -- "$re" "$tmp/out" || fail "stdout does not match /$re/"
done
for re in "${stderr_res[@]}"; do
  grep -Eq -- "$re" "$tmp/err" || fail "stderr does not match /$re/"
done
[ -z "$no_file" ] || [ ! -e "$no_file" ] || fail "$no_file exists (a partial output was left)"
[ -z "$no_file" ] || ! ls "$no_file".tmp-* >/dev/null 2>&1 || fail "a temporary file of $no_file was left"
if [ -n "$out" ]; then
  [ -f "$out" ] || fail "no output file $out"
  diff <(grep -v '^#' "$expected" | sort) <(sort "$out") >"$tmp/diff" || { cat "$tmp/diff"; fail "closure differs from $expected"; }
fi
exit 0
