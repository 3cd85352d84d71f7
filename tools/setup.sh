#!/usr/bin/env bash
# Installs the Debian packages closure needs, and only those that are missing: quiet and
# fast when everything is already there. Without arguments, what the tool and its Python
# module need; with --tests, what the whole test suite needs too.
set -euo pipefail
# What the tool and its Python module need to build and run (the quick start: tools/build).
packages=(
  build-essential cmake pkg-config ccache
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd
  libboost-graph-dev libcli11-dev zlib1g-dev nlohmann-json3-dev libtbb-dev
  python3-dev pybind11-dev python3-numpy
)
# What the test suite needs besides (tools/setup.sh --tests, from tools/build --all).
if [ "${1:-}" = --tests ]; then
  packages+=(
    libgtest-dev clinfo
    # The sanitizer and fuzz build (tools/sanitize, tools/fuzz).
    clang libclang-rt-14-dev
    # MPI: `mpirun -np P closure G` (docs/distributed.md) and its tests.
    libopenmpi-dev openmpi-bin
    # The Python tests and the offline pip install (python/, docs/python.md); pandas:
    # DataFrame inputs and Closure.to_pandas().
    python3-scipy python3-networkx python3-pytest python3-pandas
    python3-venv python3-pip python3-setuptools python3-wheel
    # `dot`: the DOT output's tests render what closure writes; tools/draw-example.sh.
    graphviz
    # ctags: house.short_functions measures functions with it.
    universal-ctags
  )
elif [ -n "${1:-}" ]; then
  echo "usage: tools/setup.sh [--tests]" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/closure-setup.log 2>&1; then
  $sudo apt-get update -qq >>/tmp/closure-setup.log 2>&1
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >>/tmp/closure-setup.log 2>&1 ||
    { cat /tmp/closure-setup.log >&2; exit 1; }
fi
