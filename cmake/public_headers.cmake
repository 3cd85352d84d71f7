# The installed headers: src/closure/closure.hpp (the public API, docs/cpp.md) and every
# header of src/closure it includes, directly or not. The compiler gives the set (-MM:
# the headers outside the system folders that preprocessing the umbrella opens; -MG: a
# header not found is listed, not an error), so it cannot drift from the code.
# Computed when CMake configures; any of these headers changing configures again, since a
# new include in one of them can add a header. The result: CLOSURE_PUBLIC_HEADERS, paths
# relative to src/closure.
set(CLOSURE_UMBRELLA ${CMAKE_SOURCE_DIR}/src/closure/closure.hpp)
execute_process(
  COMMAND ${CMAKE_CXX_COMPILER} -x c++ -std=c++20 -M -MG -I${CMAKE_SOURCE_DIR}/src
          -I${CMAKE_BINARY_DIR}/generated ${CLOSURE_UMBRELLA}
  OUTPUT_VARIABLE closure_deps ERROR_VARIABLE closure_deps_error RESULT_VARIABLE closure_deps_status)
if(NOT closure_deps_status EQUAL 0)
  message(FATAL_ERROR "cannot list the headers of ${CLOSURE_UMBRELLA}:\n${closure_deps_error}")
endif()
# "closure.o: a.hpp b.hpp \<newline> c.hpp ...": the target, then the headers (system ones
# too, -M: an OpenCL header among them stops the configure below).
string(REPLACE "\\\n" " " closure_deps "${closure_deps}")
string(REGEX REPLACE "^[^:]*:" "" closure_deps "${closure_deps}")
separate_arguments(closure_deps UNIX_COMMAND "${closure_deps}")
set(CLOSURE_PUBLIC_HEADERS)
foreach(header ${closure_deps})
  file(REAL_PATH ${header} header BASE_DIRECTORY ${CMAKE_SOURCE_DIR})
  cmake_path(IS_PREFIX CMAKE_SOURCE_DIR "${header}" NORMALIZE in_source)
  if(in_source)
    file(RELATIVE_PATH relative ${CMAKE_SOURCE_DIR}/src/closure ${header})
    if(NOT relative MATCHES "^\\.\\.")
      list(APPEND CLOSURE_PUBLIC_HEADERS ${relative})
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${header})
    endif()
  endif()
endforeach()
list(REMOVE_DUPLICATES CLOSURE_PUBLIC_HEADERS)
list(SORT CLOSURE_PUBLIC_HEADERS)

# The set against the allowed one (cmake/public_headers.txt), and no OpenCL anywhere in it.
file(STRINGS ${CMAKE_SOURCE_DIR}/cmake/public_headers.txt CLOSURE_ALLOWED_HEADERS REGEX "^[^#]")
list(SORT CLOSURE_ALLOWED_HEADERS)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_SOURCE_DIR}/cmake/public_headers.txt)
if(NOT CLOSURE_PUBLIC_HEADERS STREQUAL CLOSURE_ALLOWED_HEADERS)
  set(added ${CLOSURE_PUBLIC_HEADERS})
  list(REMOVE_ITEM added ${CLOSURE_ALLOWED_HEADERS})
  set(gone ${CLOSURE_ALLOWED_HEADERS})
  list(REMOVE_ITEM gone ${CLOSURE_PUBLIC_HEADERS})
  message(FATAL_ERROR "closure.hpp now reaches headers that cmake/public_headers.txt does not "
                      "allow: [${added}]; allowed but no longer reached: [${gone}]. The public "
                      "API is a small facade: include the inside from .cpp files, or add the "
                      "header to the list on purpose.")
endif()
if(closure_deps MATCHES "/CL/")
  message(FATAL_ERROR "closure.hpp reaches an OpenCL header: the public API holds none "
                      "(the device is ocl::Runtime, declared only)")
endif()
