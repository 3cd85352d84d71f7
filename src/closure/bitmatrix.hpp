// BitMatrix: the packed Boolean matrix, the one type that owns word/bit index arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace closure {

using word_t = uint32_t;  // the kernels' `gpuword`
inline constexpr int kWordBits = 32;

inline constexpr size_t ceil_div(size_t a, size_t b) {
  return (a + b - 1) / b;
}
inline constexpr size_t round_up(size_t a, size_t b) {
  return ceil_div(a, b) * b;
}

// Padding a matrix carries: rows to a multiple of `row_multiple`, word-columns to a
// multiple of `word_multiple`. Kernels need their tile sizes here; the host needs none.
struct Padding {
  size_t row_multiple = 1;
  size_t word_multiple = 1;
  bool operator==(const Padding&) const = default;
};

// Word order. kColumnMajor is the device layout of DESIGN.md; kRowMajor is the same
// packing with each row's words contiguous, for host algorithms that walk rows.
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
  std::vector<word_t>& storage() { return data_; }

  // The same matrix with another padding and/or order (a copy); used when a kernel's
  // tiles differ or a host algorithm wants rows.
  BitMatrix repadded(Padding padding, WordOrder order = WordOrder::kColumnMajor) const;
  BitMatrix transposed(Padding padding = {}) const;
  // A copy of the rows [r0, r0 + n_rows) x words [w0, w0 + n_words) (word-aligned block),
  // as an n_rows x 32*n_words matrix with `padding`; and the inverse, overwriting that
  // block with `block`. The block may reach into padding only where it is zero.
  BitMatrix block(size_t r0, size_t w0, size_t n_rows, size_t n_words, Padding padding = {}) const;
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
  word_t last_word_mask() const;

  size_t n_rows_ = 0, n_cols_ = 0;
  size_t rows_padded_ = 0, words_padded_ = 0;
  Padding padding_{};
  WordOrder order_ = WordOrder::kColumnMajor;
  std::vector<word_t> data_;
};

// The test reference: C |= A * B over the Boolean semiring, by the definition
// C(i,j) |= OR_k A(i,k) AND B(k,j). Slow on purpose: nothing clever to get wrong.
void naive_multiply_or(BitMatrix& c, const BitMatrix& a, const BitMatrix& b);

// The host engine's product, same contract as the kernels: C |= A * B. Works on rows
// (for each set bit k of row i of A, OR row k of B into row i of C), threaded.
void host_multiply_or(BitMatrix& c, const BitMatrix& a, const BitMatrix& b);

}  // namespace closure
