# Embeds kernels/*.cl into a generated header at build time, as raw string literals
# with a custom delimiter, so the .cl files stay plain OpenCL C.
file(GLOB CLOSURE_KERNEL_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/*.cl)
set(CLOSURE_KERNEL_HEADER ${CMAKE_BINARY_DIR}/generated/closure/embedded_kernels.hpp)
add_custom_command(
  OUTPUT ${CLOSURE_KERNEL_HEADER}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${CLOSURE_KERNEL_HEADER} -DKERNEL_DIR=${CMAKE_SOURCE_DIR}/kernels
          -P ${CMAKE_SOURCE_DIR}/cmake/write_kernel_header.cmake
  DEPENDS ${CLOSURE_KERNEL_FILES} ${CMAKE_SOURCE_DIR}/cmake/write_kernel_header.cmake
  COMMENT "Embedding OpenCL kernels")
