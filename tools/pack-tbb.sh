#!/usr/bin/env bash
# Copies this machine's oneTBB (Debian's libtbb-dev: headers, libraries, CMake package)
# into .tbb/ for a machine that has none, such as the GPU box (docs/../shared/DEVICE.md):
# carry .tbb there and tools/gpu-bench.sh builds against it.
set -euo pipefail
cd "$(dirname "$0")/.."
lib=/usr/lib/x86_64-linux-gnu
rm -rf .tbb
mkdir -p .tbb/usr/include .tbb/usr/lib/x86_64-linux-gnu/cmake
cp -r /usr/include/tbb /usr/include/oneapi .tbb/usr/include/
cp -a "$lib"/libtbb*.so* .tbb/usr/lib/x86_64-linux-gnu/
cp -r "$lib"/cmake/TBB .tbb/usr/lib/x86_64-linux-gnu/cmake/
du -sh .tbb
