// Block copies between device matrices: each word-column of a block is a contiguous run
// of rows, so a block is one rectangular copy (clEnqueueCopyBufferRect).
#include "closure/engine/device_engine.hpp"

#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/ocl/error.hpp"

namespace closure {

static void copy_rect(ocl::Runtime& rt, const DeviceBitMatrix& src, size_t src_r0, size_t src_w0,
                      DeviceBitMatrix& dst, size_t dst_r0, size_t dst_w0, size_t rows,
                      size_t words) {
  if (src_r0 + rows > src.rows_padded || src_w0 + words > src.words_padded ||
      dst_r0 + rows > dst.rows_padded || dst_w0 + words > dst.words_padded)
    throw InternalError("device block copy beyond a matrix");
  const size_t w = sizeof(word_t);
  ocl::checked("copying a device block", [&] {
    rt.queue().enqueueCopyBufferRect(src.buffer, dst.buffer, {src_r0 * w, src_w0, 0},
                                     {dst_r0 * w, dst_w0, 0}, {rows * w, words, 1},
                                     src.rows_padded * w, 0, dst.rows_padded * w, 0);
    return 0;
  });
}

DeviceEngine::Matrix DeviceEngine::block(const Matrix& m, size_t r0, size_t c0, size_t rows,
                                         size_t cols) {
  Matrix b = kernels_.allocate(rows, cols);
  copy_rect(kernels_.runtime(), m, r0, word_of(c0), b, 0, 0, b.rows_padded, b.words_padded);
  return b;
}

void DeviceEngine::put_block(Matrix& m, size_t r0, size_t c0, const Matrix& b) {
  copy_rect(kernels_.runtime(), b, 0, 0, m, r0, word_of(c0), b.rows_padded, b.words_padded);
}

}  // namespace closure
