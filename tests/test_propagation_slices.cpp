// The device propagation's slice plan, without a device: widths from the allocation
// limit, the caller's cap and the budget; resident or streamed; the slices' word ranges.
#include <gtest/gtest.h>

#include "closure/algorithms/propagation_slices.hpp"

namespace closure {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

SliceLimits limits(size_t components, size_t words) {
  SliceLimits l;
  l.components = components;
  l.words = words;
  l.global_mem_bytes = 4 * kGiB;
  l.max_alloc_bytes = kGiB;
  return l;
}

TEST(PropagationSlices, OneResidentSliceWhenEverythingFits) {
  const SlicePlan p = plan_propagation_slices(limits(100, 4));
  EXPECT_TRUE(p.resident);
  EXPECT_EQ(p.slices, 1u);
  EXPECT_EQ(p.slice_words, 4u);
  EXPECT_EQ(p.word_begin(0), 0u);
  EXPECT_EQ(p.words_of(0), 4u);
}

TEST(PropagationSlices, TheCallersCapCutsSlices) {
  SliceLimits l = limits(99, 4);  // a 100-vertex chain's condensation, one word a slice
  l.max_slice_words = 1;
  const SlicePlan p = plan_propagation_slices(l);
  EXPECT_TRUE(p.resident);
  EXPECT_EQ(p.slices, 4u);
  EXPECT_EQ(p.slice_words, 1u);
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(p.word_begin(k), k);
    EXPECT_EQ(p.words_of(k), 1u);
  }
}

TEST(PropagationSlices, OneAllocationHoldsASlice) {
  SliceLimits l = limits(1000, 32);
  l.max_alloc_bytes = 1000 * 4 * 10;  // ten word-columns of rows
  const SlicePlan p = plan_propagation_slices(l);
  EXPECT_TRUE(p.resident);
  EXPECT_EQ(p.slice_words, 10u);
  EXPECT_EQ(p.slices, 4u);
  EXPECT_EQ(p.word_begin(3), 30u);
  EXPECT_EQ(p.words_of(3), 2u);  // the last slice is narrower
  l.max_alloc_bytes = 100;       // not even one word-column: slices of one word regardless
  EXPECT_EQ(plan_propagation_slices(l).slice_words, 1u);
  EXPECT_EQ(plan_propagation_slices(l).slices, 32u);
}

TEST(PropagationSlices, StreamedWhenLargerThanTheBudget) {
  SliceLimits l = limits(700, 22);
  l.budget_bytes = 700 * 4 * 3;  // three word-columns of rows at a time
  const SlicePlan p = plan_propagation_slices(l);
  EXPECT_FALSE(p.resident);
  EXPECT_EQ(p.slice_words, 3u);
  EXPECT_EQ(p.slices, 8u);
  EXPECT_EQ(p.words_of(7), 1u);
  EXPECT_EQ(p.at_once, 1u);
  l.budget_bytes = 700 * 4 * 22;  // exactly the closure: resident
  EXPECT_TRUE(plan_propagation_slices(l).resident);
  EXPECT_EQ(plan_propagation_slices(l).at_once, plan_propagation_slices(l).slices);
}

// Streamed slices cut by one allocation's size go to a sweep as many as the budget holds
// (the 10M-commit history: a quarter of the memory a slice, three at once).
TEST(PropagationSlices, AsManyStreamedSlicesAtOnceAsTheBudgetHolds) {
  SliceLimits l = limits(1000, 100);
  l.max_alloc_bytes = 1000 * 4 * 10;  // ten word-columns an allocation
  l.budget_bytes = 1000 * 4 * 35;     // 35 word-columns of rows at a time
  const SlicePlan p = plan_propagation_slices(l);
  EXPECT_FALSE(p.resident);
  EXPECT_EQ(p.slice_words, 10u);
  EXPECT_EQ(p.at_once, 3u);
}

TEST(PropagationSlices, TheDefaultBudgetIs85PercentOfTheDevice) {
  SliceLimits l = limits(100, 4);  // 1,600 bytes of rows
  l.global_mem_bytes = 1000;       // budget 850: two word-columns at a time
  const SlicePlan p = plan_propagation_slices(l);
  EXPECT_FALSE(p.resident);
  EXPECT_EQ(p.slice_words, 2u);
  EXPECT_EQ(p.slices, 2u);
  l.global_mem_bytes = 2000;  // budget 1,700
  EXPECT_TRUE(plan_propagation_slices(l).resident);
}

TEST(PropagationSlices, ARanksWordRange) {
  SliceLimits l = limits(1000, 5);
  l.first_word = 27;
  l.max_slice_words = 2;
  const SlicePlan p = plan_propagation_slices(l);
  EXPECT_EQ(p.slices, 3u);
  EXPECT_EQ(p.word_begin(0), 27u);
  EXPECT_EQ(p.word_begin(2), 31u);
  EXPECT_EQ(p.words_of(2), 1u);
}

TEST(PropagationSlices, NoWordsNoSlices) {
  const SlicePlan none = plan_propagation_slices(limits(0, 0));
  EXPECT_EQ(none.slices, 0u);
  EXPECT_EQ(none.slice_words, 1u);
  EXPECT_TRUE(none.resident);
  const SlicePlan empty_range = plan_propagation_slices(limits(100, 0));
  EXPECT_EQ(empty_range.slices, 0u);
}

}  // namespace
}  // namespace closure
