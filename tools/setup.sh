#!/usr/bin/env bash
# Installs the Debian packages closure needs, and only those that are missing: quiet and
# fast when everything is already there.
set -euo pipefail
packages=(
  build-essential cmake pkg-config ccache
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd clinfo
  libboost-graph-dev libcli11-dev libgtest-dev zlib1g-dev nlohmann-json3-dev libtbb-dev
  clang libclang-rt-14-dev
  # MPI: `mpirun -np P closure G` (docs/distributed.md) and its tests.
  libopenmpi-dev openmpi-bin
  # The Python module, its tests and the offline pip install (python/, docs/python.md).
  python3-dev pybind11-dev python3-numpy python3-scipy python3-networkx python3-pytest
  python3-venv python3-pip python3-setuptools python3-wheel
  # `dot`: the DOT output's tests render what closure writes; tools/draw-example.sh.
  graphviz
  # ctags: house.short_functions_in_algorithms_and_kernels measures functions with it.
  universal-ctags
  # pandas: DataFrame inputs and Closure.to_pandas() (their tests skip without it).
  python3-pandas
)
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
