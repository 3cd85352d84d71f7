// BitMatrix: the packed Boolean matrix, the one type that owns word/bit index arithmetic.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "closure/util/uninitialized_allocator.hpp"

namespace closure {

using word_t = uint32_t;  // the kernels' `gpuword`
inline constexpr int kWordBits = 32;

inline constexpr size_t ceil_div(size_t a, size_t b) {
  return (a + b - 1) / b;
}
inline constexpr size_t round_up(size_t a, size_t b) {
  return ceil_div(a, b) * b;
}

// Packed bit rows: bit i of a row lives in word i / 32 at bit i % 32 (M4RI's layout of a
// row). Every word/bit index computation of the project goes through these helpers, the
// BitMatrix below and DeviceBitMatrix (closure/kernels/boolean_kernels.hpp).
inline constexpr size_t words_for_bits(size_t bits) {
  return ceil_div(bits, kWordBits);
}
inline constexpr size_t bits_in_words(size_t words) {
  return words * kWordBits;
}
inline constexpr size_t word_of(size_t bit) {
  return bit / kWordBits;
}
inline constexpr word_t bit_mask(size_t bit) {
  return word_t{1} << (bit % kWordBits);
}
// The bits of word word_of(bit) from `bit` upwards, and those up to and including `bit`.
inline constexpr word_t mask_from(size_t bit) {
  return ~word_t{0} << (bit % kWordBits);
}
inline constexpr word_t mask_through(size_t bit) {
  return ~word_t{0} >> (kWordBits - 1 - bit % kWordBits);
}
// The bits of a row's last word that hold columns of an n-bit row (all ones when n is a
// multiple of 32): padding bits outside it stay zero.
inline constexpr word_t tail_mask(size_t n) {
  return n % kWordBits == 0 ? ~word_t{0} : (word_t{1} << (n % kWordBits)) - 1;
}
inline bool test_bit(const word_t* row, size_t bit) {
  return (row[word_of(bit)] & bit_mask(bit)) != 0;
}
inline void set_bit(word_t* row, size_t bit) {
  row[word_of(bit)] |= bit_mask(bit);
}
// The first clear bit of `row` at or after `bit` (scanning stops at `end`; the result may
// pass it within the last word scanned).
inline size_t first_clear_from(const word_t* row, size_t bit, size_t end) {
  while (bit < end) {
    const size_t in_word = bit % kWordBits;
    const int ones = std::countr_one(word_t(row[word_of(bit)] >> in_word));
    bit += size_t(ones);
    if (in_word + size_t(ones) < kWordBits) break;
  }
  return bit;
}
// Sets bits [a, b) of `row`, a < b.
inline void set_bit_range(word_t* row, size_t a, size_t b) {
  const size_t wa = word_of(a), wb = word_of(b - 1);
  if (wa == wb) {
    row[wa] |= mask_from(a) & mask_through(b - 1);
    return;
  }
  row[wa] |= mask_from(a);
  for (size_t w = wa + 1; w < wb; ++w) row[w] = ~word_t{0};
  row[wb] |= mask_through(b - 1);
}
// Calls f(bit) for every set bit of the n_words words at `words`, which hold bits from
// bits_in_words(first_word) on, in ascending order.
template <class F>
void for_each_set_bit(const word_t* words, size_t first_word, size_t n_words, F&& f) {
  for (size_t i = 0; i < n_words; ++i)
    for (word_t bits = words[i]; bits; bits &= bits - 1)
      f(bits_in_words(first_word + i) + size_t(std::countr_zero(bits)));
}

// Words whose resize() does not initialise: every user writes them before reading.
using WordStorage = std::vector<word_t, UninitializedAllocator<word_t>>;

// Padding a matrix carries: rows to a multiple of `row_multiple`, word-columns to a
// multiple of `word_multiple`. Kernels need their tile sizes here; the host needs none.
struct Padding {
  size_t row_multiple = 1;
  size_t word_multiple = 1;
  bool operator==(const Padding&) const = default;
};

// A row held only over its words [word_lo, word_lo + word_count) (the others are zero),
// as the ragged rows of sparse propagation are.
struct BitWindow {
  const word_t* words = nullptr;
  size_t word_lo = 0, word_count = 0;
  bool test(size_t bit) const {
    const size_t w = word_of(bit);
    return w >= word_lo && w < word_lo + word_count && (words[w - word_lo] & bit_mask(bit));
  }
  template <class F>
  void for_each(F&& f) const {
    for_each_set_bit(words, word_lo, word_count, f);
  }
};

// The padded extent of an n_rows x n_cols matrix: at least one row and one word, rounded
// up to the multiples (BitMatrix and DeviceBitMatrix share it).
inline constexpr size_t padded_rows(size_t n_rows, Padding p) {
  return round_up(n_rows > 0 ? n_rows : 1, p.row_multiple);
}
inline constexpr size_t padded_words(size_t n_cols, Padding p) {
  const size_t words = words_for_bits(n_cols);
  return round_up(words > 0 ? words : 1, p.word_multiple);
}

// Word order. kColumnMajor is the device layout (docs/architecture.md, "Packed matrix");
// kRowMajor is the same packing with each row's words contiguous, for host algorithms that
// walk rows.
enum class WordOrder { kColumnMajor, kRowMajor };

// An n_rows x n_cols Boolean matrix packed 32 columns to a word.
//
//   bit j of word w of row r  <=>  element (r, 32*w + j)
//
// Word order is column-major over words (the device layout): word (r, w) is stored at
// data[w * rows_padded + r], so consecutive rows are consecutive in memory and
// consecutive work-items read consecutive addresses.
//
//              word 0        word 1             word W-1   (W = words_padded)
//            +------------+------------+-----+------------+
//   row 0    | data[0]    | data[R]    | ... | data[(W-1)R]
//   row 1    | data[1]    | data[R+1]  |     |
//   ...      | ...        |            |     |
//   row n-1  |            |            |     |
//   padding  | 0          | 0          |     |            |  rows n .. R-1 (R = rows_padded)
//            +------------+------------+-----+------------+
//              columns 0..31 columns 32..63       padding words / bits: always zero
//
// With WordOrder::kRowMajor the words of a row are contiguous instead:
// word (r, w) at data[r * words_padded + w] (row_ptr() gives the row).
//
// Every padding bit (rows >= n_rows, columns >= n_cols) is zero before and after every
// operation; the constructors and setters keep it so and tests check it with canaries.
class BitMatrix {
 public:
  BitMatrix() = default;
  BitMatrix(size_t n_rows, size_t n_cols, Padding padding = {},
            WordOrder order = WordOrder::kColumnMajor);
  // The same shape with its words left unwritten, for a caller that writes every word
  // (padding included) before anything reads one; a download fills its pages in
  // parallel instead of after one thread's zeroing.
  static BitMatrix unfilled(size_t n_rows, size_t n_cols, Padding padding = {},
                            WordOrder order = WordOrder::kColumnMajor);

  // From an edge list (row, col) pairs; duplicates collapse.
  static BitMatrix from_pairs(size_t n_rows, size_t n_cols,
                              std::span<const std::pair<uint32_t, uint32_t>> pairs,
                              Padding padding = {}, WordOrder order = WordOrder::kColumnMajor);
  // A random matrix with each bit set with probability `density` (fixed seed -> fixed
  // matrix); `upper_strict` keeps only bits with col > row.
  static BitMatrix random(size_t n_rows, size_t n_cols, double density, uint64_t seed,
                          Padding padding = {}, bool upper_strict = false);

  size_t rows() const { return n_rows_; }
  size_t cols() const { return n_cols_; }
  size_t words_per_row() const { return ceil_div(n_cols_, kWordBits); }
  size_t rows_padded() const { return rows_padded_; }
  size_t words_padded() const { return words_padded_; }
  Padding padding() const { return padding_; }
  WordOrder order() const { return order_; }
  size_t word_count() const { return data_.size(); }
  size_t bytes() const { return data_.size() * sizeof(word_t); }

  bool get(size_t r, size_t c) const {
    return (data_[index(r, c / kWordBits)] >> (c % kWordBits)) & 1u;
  }
  void set(size_t r, size_t c, bool v = true) {
    word_t& w = data_[index(r, c / kWordBits)];
    const word_t bit = word_t{1} << (c % kWordBits);
    w = v ? (w | bit) : (w & ~bit);
  }
  word_t word(size_t r, size_t w) const { return data_[index(r, w)]; }
  // Calls f(c) for every set column c of row r, ascending; either word order.
  template <class F>
  void for_each_in_row(size_t r, F&& f) const {
    for (size_t w = 0; w < words_per_row(); ++w) {
      const word_t bits = data_[index(r, w)];
      for_each_set_bit(&bits, w, 1, f);
    }
  }
  // Sets word w of row r; bits beyond n_cols are masked so padding stays zero.
  void set_word(size_t r, size_t w, word_t value);
  // Copies row r into `out` (words_per_row() words), row-major for host loops.
  void copy_row(size_t r, word_t* out) const;
  // Overwrites row r from `in` (words_per_row() words), masking the padding bits.
  void store_row(size_t r, const word_t* in);

  // Row r's words, contiguous; only for WordOrder::kRowMajor.
  word_t* row_ptr(size_t r) { return data_.data() + r * words_padded_; }
  const word_t* row_ptr(size_t r) const { return data_.data() + r * words_padded_; }

  // Raw storage in the layout above (what the device buffers hold).
  word_t* data() { return data_.data(); }
  const word_t* data() const { return data_.data(); }
  WordStorage& storage() { return data_; }

  // The same matrix with another padding and/or order (a copy); used when a kernel's
  // tiles differ or a host algorithm wants rows.
  BitMatrix repadded(Padding padding, WordOrder order = WordOrder::kColumnMajor) const;
  BitMatrix transposed(Padding padding = {}) const;
  // A copy of the rows [r0, r0 + n_rows) x words [w0, w0 + n_words) (word-aligned block),
  // as an n_rows x 32*n_words matrix with `padding`; and the inverse, overwriting that
  // block with `block`. The block may reach into padding only where it is zero.
  BitMatrix block(size_t r0, size_t w0, size_t n_rows, size_t n_words, Padding padding = {}) const;
  // Rows [r0, r0 + n_rows) whole, as an n_rows x cols() matrix in the same word order.
  BitMatrix row_block(size_t r0, size_t n_rows) const;
  void put_block(size_t r0, size_t w0, const BitMatrix& block);
  std::vector<std::pair<uint32_t, uint32_t>> to_pairs() const;
  uint64_t popcount() const;
  // True when every bit outside rows() x cols() is zero.
  bool padding_is_zero() const;
  // Logical equality (ignores the padding amounts).
  bool operator==(const BitMatrix& other) const;

 private:
  size_t index(size_t r, size_t w) const {
    return order_ == WordOrder::kColumnMajor ? w * rows_padded_ + r : r * words_padded_ + w;
  }
  BitMatrix(size_t n_rows, size_t n_cols, Padding padding, WordOrder order, bool zero);
  word_t last_word_mask() const;
  void allocate(bool zero);  // data_ for the padded shape, zeroed if asked

  size_t n_rows_ = 0, n_cols_ = 0;
  size_t rows_padded_ = 0, words_padded_ = 0;
  Padding padding_{};
  WordOrder order_ = WordOrder::kColumnMajor;
  WordStorage data_;
};

// The test reference: C |= A * B over the Boolean semiring, by the definition
// C(i,j) |= OR_k A(i,k) AND B(k,j). Slow on purpose: nothing clever to get wrong.
void naive_multiply_or(BitMatrix& c, const BitMatrix& a, const BitMatrix& b);

// The host engine's product, same contract as the kernels: C |= A * B. Works on rows
// (for each set bit k of row i of A, OR row k of B into row i of C), threaded.
void host_multiply_or(BitMatrix& c, const BitMatrix& a, const BitMatrix& b);

}  // namespace closure
