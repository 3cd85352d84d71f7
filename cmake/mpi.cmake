# MPI (docs/distributed.md): when Open MPI's development files are present the
# CLI is built with it (`mpirun -np P closure G`); without them the build is as before.
# Only the CLI links MPI: the library, the Python module and the installed package do not.
option(CLOSURE_MPI "Build the CLI with MPI when MPI is found" ON)
set(CLOSURE_HAVE_MPI OFF)
if(CLOSURE_MPI)
  # Only MPI's C API is used: no libmpi_cxx (gone from Open MPI 5), so the binary runs
  # against either version's libmpi.so.40.
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(CLOSURE_HAVE_MPI ON)
    add_library(closure_mpi STATIC src/mpi/mpi_communicator.cpp)
    target_include_directories(closure_mpi PUBLIC ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(closure_mpi PUBLIC closure_app MPI::MPI_CXX)
    target_compile_options(closure_mpi PRIVATE ${CLOSURE_WARNINGS})
    target_link_libraries(closure PRIVATE closure_mpi)
    target_compile_definitions(closure PRIVATE CLOSURE_HAVE_MPI)
    message(STATUS "closure: MPI found (${MPI_CXX_LIBRARIES}); mpirun -np P closure G works")
  else()
    message(STATUS "closure: no MPI; the CLI runs as one process (install libopenmpi-dev)")
  endif()
endif()
