// The download of a slice: through two pinned staging buffers (CL_MEM_ALLOC_HOST_PTR,
// mapped once: the DMA engine reads at full bus speed only into pinned memory), the
// pool's threads copying chunk k out of its staging buffer while chunk k+1 is on the bus.
#include "closure/kernels/device_slice.hpp"

#include <algorithm>
#include <cstring>

#include "closure/executor.hpp"

namespace closure {
namespace {

// A download's staging chunk: two are pinned at once.
constexpr size_t kDownloadChunkBytes = size_t{64} << 20;

struct PinnedStaging {
  cl::Buffer buffers[2];
  word_t* mapped[2] = {nullptr, nullptr};

  PinnedStaging(cl::Context& context, cl::CommandQueue& queue, size_t bytes) {
    for (int i = 0; i < 2; ++i) {
      buffers[i] = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
      mapped[i] = static_cast<word_t*>(
          queue.enqueueMapBuffer(buffers[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
    }
  }
  void unmap(cl::CommandQueue& queue) {
    for (int i = 0; i < 2; ++i) queue.enqueueUnmapMemObject(buffers[i], mapped[i]);
    queue.finish();
  }
};

// Rows [r0, r0 + n) of the slice, staged at src, into their columns of `host`.
void copy_rows_out(const word_t* src, size_t r0, size_t n, const DeviceSlice& s, size_t to_word,
                   BitMatrix& host) {
  const size_t row_bytes = size_t(s.words) * sizeof(word_t);
  const bool whole_rows = to_word == 0 && s.words == host.words_padded();
  // Bands of about 1 MB: one core copies at about a fifth of the bus's speed.
  const size_t band = std::max<size_t>(1, (size_t{1} << 20) / row_bytes);
  parallel_chunks(n, band, [&](size_t a, size_t b) {
    if (whole_rows) {
      std::memcpy(host.row_ptr(r0 + a), src + a * s.words, (b - a) * row_bytes);
    } else {
      for (size_t r = a; r < b; ++r)
        std::memcpy(host.row_ptr(r0 + r) + to_word, src + r * s.words, row_bytes);
    }
  });
}

}  // namespace

void download_slice(cl::Context& context, cl::CommandQueue& queue, const DeviceSlice& s,
                    size_t components, BitMatrix& host, size_t first_word) {
  const size_t to_word = s.word_begin - first_word;
  if (components == 0 || s.words == 0) return;
  const size_t row_bytes = size_t(s.words) * sizeof(word_t);
  const size_t chunk_rows =
      std::max<size_t>(1, std::min(components, kDownloadChunkBytes / row_bytes));
  PinnedStaging staging(context, queue, chunk_rows * row_bytes);
  const size_t chunks = ceil_div(components, chunk_rows);
  cl::Event pending[2];
  auto start = [&](size_t k) {
    const size_t r0 = k * chunk_rows, n = std::min(chunk_rows, components - r0);
    queue.enqueueReadBuffer(s.rows, CL_FALSE, r0 * row_bytes, n * row_bytes, staging.mapped[k % 2],
                            nullptr, &pending[k % 2]);
  };
  start(0);
  for (size_t k = 0; k < chunks; ++k) {
    if (k + 1 < chunks) start(k + 1);
    pending[k % 2].wait();
    const size_t r0 = k * chunk_rows, n = std::min(chunk_rows, components - r0);
    copy_rows_out(staging.mapped[k % 2], r0, n, s, to_word, host);
  }
  staging.unmap(queue);
}

}  // namespace closure
