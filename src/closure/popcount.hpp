// Popcounts of word runs, using the CPU's popcnt instruction where it has one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "closure/bitmatrix.hpp"

namespace closure {

// Set bits in w[0 .. n).
uint64_t popcount_words(const word_t* w, size_t n);
// counts[i] += popcount(w[i]) for i < n.
void add_popcounts(const word_t* w, size_t n, uint64_t* counts);

}  // namespace closure
