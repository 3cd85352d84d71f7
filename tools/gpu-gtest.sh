#!/usr/bin/env bash
# The GoogleTest suite on the GPU machine (issue 13), whose image has no GoogleTest: the test
# binary built here is carried there with the one library that image lacks (oneTBB).
#   here:  tools/gpu-gtest.sh pack          (after tools/build --all; fills build-dev/)
#   there: tools/gpu-gtest.sh run           (device tool, carry ["build-dev"]; log in $OUT)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  pack)
    mkdir -p build-dev
    cp build/tests/closure_tests build/tests/gemm/closure_gemm_tests build/closure build-dev/
    cp -L "$(ldd build/tests/closure_tests | awk '/libtbb/ {print $3}')" build-dev/
    ;;
  run)
    source tools/gpu-env.sh
    export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
    # The binary looks for data/ under the source folder it was built in.
    [ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
    build-dev/closure devices
    CLOSURE_DEVICE=gpu build-dev/closure_tests --gtest_brief=1 \
      --gtest_filter='-*Grail*:*HostClosureBench*' 2>&1 | tee "${OUT:-.}/gtest_gpu.log" | tail -40
    status=${PIPESTATUS[0]}
    # The float GEMM family's tests (tests/gemm/) are their own binary.
    CLOSURE_DEVICE=gpu build-dev/closure_gemm_tests --gtest_brief=1 2>&1 |
      tee "${OUT:-.}/gtest_gemm_gpu.log" | tail -20
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
    exit "$status"
    ;;
  *) echo "usage: tools/gpu-gtest.sh pack|run" >&2; exit 2 ;;
esac
