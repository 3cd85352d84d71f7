# A small run's functions placed together in the executable (cmake/startup-order.txt).
#
# Why: on a graph of a few vertices, a run of `closure` is all start-up, and each first touch
# of a 64 KB block of its 5.8 MB of code is a page fault: 20-28 us each in the 2-core VM.
# Scattered over the text, the ~580 functions a small run executes (the CLI's options, the
# session, the reader, the planner) faulted it in 23 times on data/dag.gra; listed to gold,
# they sit together and fault 11 times (docs/benchmarks-startup.md). tools/make-startup-
# order.py writes the list from callgrind; a stale list costs faults, never correctness.
#
# Needs gold (Debian's binutils has it) and each function in its own section; elsewhere the
# default link, unchanged. Release builds only: the sanitizer and fuzz builds gain nothing.
option(CLOSURE_STARTUP_ORDER "Place a small run's functions together (needs ld.gold)" ON)
set(CLOSURE_STARTUP_ORDER_FILE ${CMAKE_SOURCE_DIR}/cmake/startup-order.txt)
set(CLOSURE_STARTUP_ORDER_LINK OFF)
string(TOLOWER "${CMAKE_BUILD_TYPE}" _closure_build_type)
if(CLOSURE_STARTUP_ORDER AND _closure_build_type STREQUAL "release" AND NOT CLOSURE_SANITIZE)
  include(CheckCXXSourceCompiles)
  # Asked again at each configure: a cached yes would outlive gold's removal or a linker flag
  # it refuses.
  unset(CLOSURE_GOLD_SECTION_ORDERING CACHE)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fuse-ld=gold
                                  -Wl,--section-ordering-file=${CLOSURE_STARTUP_ORDER_FILE})
  check_cxx_source_compiles("int main() { return 0; }" CLOSURE_GOLD_SECTION_ORDERING)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(CLOSURE_GOLD_SECTION_ORDERING)
    # Every object the executable links (the library's too) must name its functions'
    # sections for the list to place them.
    add_compile_options(-ffunction-sections)
    set(CLOSURE_STARTUP_ORDER_LINK ON)
  endif()
endif()

function(closure_startup_order target)
  if(CLOSURE_STARTUP_ORDER_LINK)
    target_link_options(${target} PRIVATE -fuse-ld=gold
                        -Wl,--section-ordering-file=${CLOSURE_STARTUP_ORDER_FILE})
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${CLOSURE_STARTUP_ORDER_FILE})
  endif()
endfunction()
