# tools/oreach_harness.cpp, the comparison with O'Reach, built only when CLOSURE_OREACH_DIR
# names a checkout of O'Reach's public repository (github.com/o-reach/O-Reach). That code
# is never part of this project; tools/bench-oreach.sh sets the variable and builds the
# target `oreach_harness`.
set(CLOSURE_OREACH_DIR "" CACHE PATH "A checkout of O'Reach, for tools/oreach_harness.cpp")
if(NOT CLOSURE_OREACH_DIR)
  return()
endif()
set(_oreach ${CLOSURE_OREACH_DIR})
add_library(oreach_third_party STATIC EXCLUDE_FROM_ALL
            ${_oreach}/extern/KaHIP/lib/algorithms/strongly_connected_components.cpp
            ${_oreach}/extern/KaHIP/lib/tools/random_functions.cpp
            ${_oreach}/lib/algorithms/topological_sort.cpp
            ${_oreach}/lib/algorithms/bfs.cpp
            ${_oreach}/lib/reachability/oreach.cpp)
# O'Reach's own settings: C++14, its Release flags, no warnings of ours.
set_target_properties(oreach_third_party PROPERTIES CXX_STANDARD 14 CXX_EXTENSIONS OFF)
target_include_directories(oreach_third_party SYSTEM PUBLIC
  ${_oreach} ${_oreach}/app ${_oreach}/lib ${_oreach}/extern/flat_hash_map
  ${_oreach}/extern/KaHIP/lib ${_oreach}/extern/KaHIP/lib/io ${_oreach}/extern/KaHIP/lib/tools)
target_link_libraries(oreach_third_party PUBLIC Boost::headers)
add_executable(oreach_harness EXCLUDE_FROM_ALL tools/oreach_harness.cpp)
target_link_libraries(oreach_harness PRIVATE closure_core oreach_third_party)
