# `cmake --install`: the library (libclosure_core.a and libclosure_device.a, one target
# closure::closure), its public
# headers under include/closure/, a CMake package (find_package(closure)), a pkg-config file, the
# CLI, and (CLOSURE_PYTHON) the Python package (python/CMakeLists.txt).
include(CMakePackageConfigHelpers)

set(CLOSURE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/closure)

install(TARGETS closure_lib closure_device closure_core EXPORT closureTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS closure RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The public API: closure/closure.hpp and the headers it includes (cmake/public_headers.cmake),
# each under its own folder. The rest of src/closure is the library's inside.
include(${CMAKE_SOURCE_DIR}/cmake/public_headers.cmake)
foreach(header ${CLOSURE_PUBLIC_HEADERS})
  get_filename_component(folder ${header} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/src/closure/${header}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/closure/${folder})
endforeach()
# Of the generated headers only version.hpp is public: embedded_kernels.hpp is the kernels'
# source text, compiled into the library (only kernel_source.cpp includes it).
install(FILES ${CMAKE_BINARY_DIR}/generated/closure/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/closure)

install(EXPORT closureTargets NAMESPACE closure:: FILE closureTargets.cmake
        DESTINATION ${CLOSURE_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/closureConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/closureConfig.cmake
                              INSTALL_DESTINATION ${CLOSURE_CMAKE_DIR})
# 0.x: a minor version may break the API.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/closureConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/closureConfig.cmake ${CMAKE_BINARY_DIR}/closureConfigVersion.cmake
        DESTINATION ${CLOSURE_CMAKE_DIR})

file(RELATIVE_PATH CLOSURE_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_SOURCE_DIR}/cmake/closure.pc.in ${CMAKE_BINARY_DIR}/closure.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/closure.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
