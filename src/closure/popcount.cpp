// Popcounts of word runs (see popcount.hpp).
#include "closure/popcount.hpp"

#include <bit>
#include <cstring>

#include "closure/cpu_features.hpp"

namespace closure {

namespace {

// Popcounts. Baseline x86-64 has no popcnt instruction and gcc then calls a slow
// library routine (it dominated pair counting); where the CPU has the instruction, a
// copy compiled for it is picked once at first use. (Not target_clones: its ifunc
// resolver runs before sanitizer runtimes start and crashed a -fsanitize=thread build.)
[[gnu::always_inline]] inline uint64_t popcount_words_body(const word_t* w, size_t n) {
  uint64_t c = 0;
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {  // two words per popcount
    uint64_t pair;
    std::memcpy(&pair, w + i, sizeof pair);
    c += std::popcount(pair);
  }
  if (i < n) c += std::popcount(w[i]);
  return c;
}
[[gnu::always_inline]] inline void add_popcounts_body(const word_t* w, size_t n, uint64_t* counts) {
  for (size_t i = 0; i < n; ++i) counts[i] += std::popcount(w[i]);
}

uint64_t popcount_words_plain(const word_t* w, size_t n) {
  return popcount_words_body(w, n);
}
void add_popcounts_plain(const word_t* w, size_t n, uint64_t* c) {
  add_popcounts_body(w, n, c);
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("popcnt")]] uint64_t popcount_words_hw(const word_t* w, size_t n) {
  return popcount_words_body(w, n);
}
[[gnu::target("popcnt")]] void add_popcounts_hw(const word_t* w, size_t n, uint64_t* c) {
  add_popcounts_body(w, n, c);
}
bool have_popcnt() {
  return cpu_has_popcnt();
}
#else
uint64_t popcount_words_hw(const word_t* w, size_t n) {
  return popcount_words_plain(w, n);
}
void add_popcounts_hw(const word_t* w, size_t n, uint64_t* c) {
  add_popcounts_plain(w, n, c);
}
bool have_popcnt() {
  return false;
}
#endif

}  // namespace

uint64_t popcount_words(const word_t* w, size_t n) {
  return have_popcnt() ? popcount_words_hw(w, n) : popcount_words_plain(w, n);
}
void add_popcounts(const word_t* w, size_t n, uint64_t* counts) {
  if (have_popcnt())
    add_popcounts_hw(w, n, counts);
  else
    add_popcounts_plain(w, n, counts);
}

}  // namespace closure
