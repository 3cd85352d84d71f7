# Sanitizer and fuzzing builds (docs/testing.md). Included before any target is made, so the
# flags reach the library, the CLI, the tests and the fuzz targets alike.
#   CLOSURE_SANITIZE=ON  AddressSanitizer + UndefinedBehaviorSanitizer (gcc or clang)
#   CLOSURE_FUZZ=ON      libFuzzer targets in tests/fuzz (clang only); implies CLOSURE_SANITIZE
option(CLOSURE_SANITIZE "Build with -fsanitize=address,undefined" OFF)
option(CLOSURE_FUZZ "Build the libFuzzer targets in tests/fuzz (clang; implies CLOSURE_SANITIZE)" OFF)

if(CLOSURE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CLOSURE_FUZZ=ON needs clang: configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(CLOSURE_SANITIZE ON)
  # Coverage feedback for libFuzzer in every object; the fuzzer's main links only into the
  # fuzz targets (tests/fuzz/CMakeLists.txt), so the test suite keeps GoogleTest's.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(CLOSURE_SANITIZE)
  # Undefined behaviour stops the process (no recover), so tests fail on it instead of
  # printing and passing.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
