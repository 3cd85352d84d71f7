#!/usr/bin/env bash
# The CLI's MPI module (closure-mpi.so): never linked into the binary, looked for only
# beside it (or in its installed library folder), and only under an MPI launcher; a
# missing, broken or foreign module is a clear refusal (exit 4), never a crash.
#   mpi_module.sh CLOSURE_BIN WORK_DIR
set -euo pipefail
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work/lone"
graph="$work/g.txt"
printf '0 1\n1 2\n' >"$graph"
fail() { echo "mpi_module: $*" >&2; exit 1; }

# Captured first: under pipefail, grep -q's early exit can fail readelf with SIGPIPE.
dynamic=$(readelf -d "$bin")
! grep -q 'libmpi' <<<"$dynamic" || fail "the binary links libmpi"
cp "$bin" "$work/lone/closure"
launched() { env -u OMPI_COMM_WORLD_SIZE -u PMIX_RANK -u PMI_RANK PMI_SIZE=2 "$@"; }

# expect STATUS STDERR_PATTERN COMMAND...
expect() {
  local status=$1 pattern=$2 got=0
  shift 2
  "$@" >"$work/out" 2>"$work/err" || got=$?
  [ "$got" = "$status" ] || fail "$* exited $got, not $status: $(cat "$work/err")"
  grep -q -- "$pattern" "$work/err" || fail "$*: no '$pattern' in: $(cat "$work/err")"
}

expect 4 "has no MPI support (no closure-mpi.so beside it" launched "$work/lone/closure" "$graph"
printf 'not a library\n' >"$work/lone/closure-mpi.so"
expect 4 "closure-mpi.so cannot be loaded" launched "$work/lone/closure" "$graph"
cp "$(ldconfig -p | sed -n 's/.*libz.so.1 (libc6,x86-64) => //p' | head -1)" "$work/lone/closure-mpi.so"
expect 4 "is not closure's MPI support" launched "$work/lone/closure" "$graph"
# Without a launcher the module is never opened, broken or not.
printf 'not a library\n' >"$work/lone/closure-mpi.so"
env -u OMPI_COMM_WORLD_SIZE -u PMIX_RANK -u PMI_RANK -u PMI_SIZE "$work/lone/closure" "$graph" --json |
  grep -q '"pairs": 3' || fail "a plain run read the module"
echo "mpi module ok"
