// The slice plan: the widest slices one allocation, the caller's cap and (streamed) the
// budget allow.
#include "closure/algorithms/propagation_slices.hpp"

#include <algorithm>

#include "closure/bitmatrix.hpp"

namespace closure {

SlicePlan plan_propagation_slices(const SliceLimits& l) {
  const size_t C = l.components, W = l.words;
  const size_t row_bytes = sizeof(word_t);  // a row's bytes in one word-column
  const size_t budget = l.budget_bytes ? l.budget_bytes : size_t(0.85 * double(l.global_mem_bytes));
  size_t max_words = W;
  if (C > 0)
    max_words = std::min(max_words, std::max<size_t>(1, l.max_alloc_bytes / (C * row_bytes)));
  if (l.max_slice_words) max_words = std::min(max_words, l.max_slice_words);
  const uint64_t total_bytes = uint64_t(C) * W * row_bytes;
  SlicePlan plan;
  plan.first_word = l.first_word;
  plan.words = W;
  plan.resident = total_bytes <= budget;
  if (!plan.resident && C > 0)
    max_words = std::min(max_words, std::max<size_t>(1, budget / (C * row_bytes)));
  max_words = std::max<size_t>(max_words, 1);
  plan.slice_words = std::min(max_words, std::max<size_t>(W, 1));
  plan.slices = W ? ceil_div(W, max_words) : 0;
  const uint64_t slice_bytes = uint64_t(C) * plan.slice_words * row_bytes;
  plan.at_once = plan.resident ? std::max<size_t>(plan.slices, 1)
                               : std::max<uint64_t>(1, slice_bytes ? budget / slice_bytes : 1);
  return plan;
}

}  // namespace closure
