# MPI (docs/distributed.md): when Open MPI's development files are present, closure's MPI
# support is built as a module, closure-mpi.so, beside the CLI (installed in
# LIBDIR/closure). The CLI loads it only in a process that an MPI launcher started
# (src/app/process/mpi_launch.hpp), so a plain `closure G` never maps Open MPI's libraries.
# Only that module links MPI: the CLI, the library, the Python module and the installed
# package do not.
option(CLOSURE_MPI "Build the CLI's MPI module when MPI is found" ON)
set(CLOSURE_HAVE_MPI OFF)
set(CLOSURE_MPI_MODULE_DIR ${CMAKE_INSTALL_LIBDIR}/closure)
# Where the installed CLI finds the module, relative to its own folder.
file(RELATIVE_PATH CLOSURE_MPI_MODULE_FROM_BIN /prefix/${CMAKE_INSTALL_BINDIR}
     /prefix/${CLOSURE_MPI_MODULE_DIR}/closure-mpi.so)
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/app/process/mpi_launch.cpp PROPERTIES
  COMPILE_DEFINITIONS "CLOSURE_MPI_MODULE_FROM_BIN=\"${CLOSURE_MPI_MODULE_FROM_BIN}\"")
if(CLOSURE_MPI)
  # Only MPI's C API is used: no libmpi_cxx (gone from Open MPI 5), so the module runs
  # against either version's libmpi.so.40.
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(CLOSURE_HAVE_MPI ON)
    add_library(closure_mpi MODULE src/mpi/mpi_communicator.cpp)
    set_target_properties(closure_mpi PROPERTIES
      OUTPUT_NAME closure-mpi PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
      CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
    target_include_directories(closure_mpi PRIVATE ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(closure_mpi PRIVATE MPI::MPI_CXX)
    target_compile_options(closure_mpi PRIVATE ${CLOSURE_WARNINGS})
    target_compile_features(closure_mpi PRIVATE cxx_std_20)
    if(NOT CLOSURE_SANITIZE)
      # Self-contained: every symbol from MPI or the C++ runtime, none from the CLI.
      target_link_options(closure_mpi PRIVATE -Wl,--no-undefined)
    endif()
    add_dependencies(closure closure_mpi)
    install(TARGETS closure_mpi LIBRARY DESTINATION ${CLOSURE_MPI_MODULE_DIR})
    message(STATUS "closure: MPI found (${MPI_CXX_LIBRARIES}); mpirun -np P closure G works")
  else()
    message(STATUS "closure: no MPI; the CLI runs as one process (install libopenmpi-dev)")
  endif()
endif()
