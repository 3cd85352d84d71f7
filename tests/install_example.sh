#!/usr/bin/env bash
# CTest: `cmake --install` the build into a fresh prefix, then build examples/find_package
# against it with find_package(closure), and main.cpp with pkg-config, and run them.
# With PYTHON, the installed Python package is imported too.
# Usage: install_example.sh SOURCE_DIR BUILD_DIR [PYTHON]
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/include/closure/algorithms/closure.hpp"
test -f "$work/prefix/include/closure/version.hpp"
# The public API is closure/closure.hpp and what it includes (cmake/public_headers.cmake):
# the library's inside, such as the CLI's pipeline, stays out.
test -f "$work/prefix/include/closure/closure.hpp"
test ! -e "$work/prefix/include/app"
test ! -e "$work/prefix/include/closure/engine/compute.hpp"
test -x "$work/prefix/bin/closure"
# The installed CLI loads its installed MPI module (and only under a launcher): the same
# pairs from 2 ranks as from one process.
if [ -f "$build/closure-mpi.so" ] && command -v mpirun >/dev/null; then
  . "$(dirname "$0")/mpi/run_mpi.sh"
  printf '0 1\n1 2\n2 0\n2 3\n' >"$work/mpi.txt"
  # Captured before grep: `cmd | grep -q` under pipefail fails when grep's early exit
  # leaves the command writing to a closed pipe (SIGPIPE), and a negated one then passes.
  json=$(mpi 2 "$work/prefix/bin/closure" "$work/mpi.txt" --json)
  grep -q '"pairs": *12' <<<"$json"
  # (A bare `! cmd` never stops a `set -e` script: the check fails out loud.)
  dynamic=$(readelf -d "$work/prefix/bin/closure")
  if grep -q libmpi <<<"$dynamic"; then echo "the installed CLI links libmpi"; exit 1; fi
fi

expected="closure 0.1.0: 4 vertices, 9 pairs, method sparse
a b
a c
a d
b b
b c
b d
c b
c c
c d"
check() {
  local got
  got=$("$1")
  if [ "$got" != "$(sed "s/0\.1\.0/$(cat "$work/version")/" <<<"$expected")" ]; then
    echo "unexpected output of $1:"; echo "$got"; exit 1
  fi
}
sed -n 's/#define CLOSURE_VERSION "\(.*\)"/\1/p' "$work/prefix/include/closure/version.hpp" >"$work/version"

cmake -S "$src/examples/find_package" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/example" -- -s >/dev/null
check "$work/example/closure_example"
# docs/cpp.md's example.
reach=$("$work/example/closure_reach_example")
[ "$reach" = "closure: make reaches test: yes; test reaches make: no; 9 pairs
index: make reaches test: yes; test reaches make: no" ] || { echo "closure_reach_example: $reach"; exit 1; }

export PKG_CONFIG_PATH="$(dirname "$(find "$work/prefix" -name closure.pc)")"
# shellcheck disable=SC2046
c++ -O1 -o "$work/closure_example_pc" "$src/examples/find_package/main.cpp" \
  $(pkg-config --cflags --libs closure)
check "$work/closure_example_pc"
# The Python package, when built, lands in the prefix's site-packages.
if [ -n "${3:-}" ]; then
  init=$(find "$work/prefix" -path '*/closure/__init__.py')
  PYTHONPATH=$(dirname "$(dirname "$init")") "$3" -c \
    'import closure; assert closure.transitive_closure([(0, 1), (1, 0)]).pair_count == 4'
fi
echo "installed package: find_package and pkg-config builds both ran"
