#include "closure/graph/huge_pages.hpp"

#include "closure/executor.hpp"

namespace closure::detail {

void prefault_in_parallel(void* p, size_t bytes) {
  constexpr size_t kPage = 4096, kGrain = size_t{8} << 20;
  auto* base = static_cast<unsigned char*>(p);
  parallel_chunks(bytes, kGrain, [&](size_t a, size_t b) {
    for (size_t i = a; i < b; i += kPage) base[i] = 0;
  });
}

}  // namespace closure::detail
