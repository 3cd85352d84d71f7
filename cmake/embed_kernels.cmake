# Embeds kernels/*.cl into generated headers at build time, as raw string literals with a
# custom delimiter, so the .cl files stay plain OpenCL C. Each target embeds its own: the
# product (closure_device) the Boolean and propagation kernels, the float GEMM library its
# GEMM kernels, so what users install holds no GEMM text.
function(closure_embed_kernels header table)
  set(files)
  foreach(name ${ARGN})
    list(APPEND files ${CMAKE_SOURCE_DIR}/kernels/${name})
  endforeach()
  string(REPLACE ";" "|" files_arg "${files}")  # one argument on the command line
  add_custom_command(
    OUTPUT ${header}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${header} -DFILES=${files_arg} -DNAME=${table}
            -P ${CMAKE_SOURCE_DIR}/cmake/write_kernel_header.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/write_kernel_header.cmake
    COMMENT "Embedding OpenCL kernels (${table})" VERBATIM)
endfunction()

set(CLOSURE_PRODUCT_KERNEL_HEADER ${CMAKE_BINARY_DIR}/generated/closure/embedded_kernels.hpp)
closure_embed_kernels(${CLOSURE_PRODUCT_KERNEL_HEADER} kKernels boolean_mma.cl boolean_mul.cl
                      boolean_util.cl gpuword.cl propagate.cl)
# The float GEMM family embeds its own in src/gemm/CMakeLists.txt.
