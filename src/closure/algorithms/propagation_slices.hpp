// How the device propagation cuts its rows into column slices: each slice one device
// allocation, all of them resident when the device budget holds the closure, else
// streamed one after another (a pure function: tested without a device).
#pragma once

#include <cstddef>
#include <cstdint>

namespace closure {

struct SliceLimits {
  size_t components = 0;
  size_t first_word = 0, words = 0;  // the word-columns to compute: [first, first + words)
  uint64_t global_mem_bytes = 0;     // the device's
  uint64_t max_alloc_bytes = 0;      // the device's largest allocation
  size_t max_slice_words = 0;        // 0: as many as one allocation holds
  size_t budget_bytes = 0;           // what the rows may take; 0: 85% of global_mem_bytes
};

struct SlicePlan {
  size_t first_word = 0, words = 0;  // as in SliceLimits
  size_t slice_words = 0;            // every slice's width but the last's
  size_t slices = 0;
  bool resident = true;  // every slice stays on the device
  size_t at_once = 1;    // slices the budget holds together (all of them when resident)

  uint32_t word_begin(size_t k) const { return uint32_t(first_word + k * slice_words); }
  uint32_t words_of(size_t k) const {
    return uint32_t(slice_words < words - k * slice_words ? slice_words : words - k * slice_words);
  }
};

SlicePlan plan_propagation_slices(const SliceLimits& limits);

}  // namespace closure
