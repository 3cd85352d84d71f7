// BitMatrix storage, conversions and the host reference products.
#include "closure/bitmatrix.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <random>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/util/cancel.hpp"
#include "closure/util/huge_pages.hpp"

namespace closure {

BitMatrix::BitMatrix(size_t n_rows, size_t n_cols, Padding padding, WordOrder order)
    : BitMatrix(n_rows, n_cols, padding, order, /*zero=*/true) {}

BitMatrix::BitMatrix(size_t n_rows, size_t n_cols, Padding padding, WordOrder order, bool zero)
    : n_rows_(n_rows), n_cols_(n_cols), padding_(padding), order_(order) {
  if (padding.row_multiple == 0 || padding.word_multiple == 0)
    throw UsageError("BitMatrix: padding multiples must be positive");
  rows_padded_ = padded_rows(n_rows, padding);
  words_padded_ = padded_words(n_cols, padding);
  allocate(zero);
}

BitMatrix BitMatrix::unfilled(size_t n_rows, size_t n_cols, Padding padding, WordOrder order) {
  return BitMatrix(n_rows, n_cols, padding, order, /*zero=*/false);
}

void BitMatrix::allocate(bool zero) {
  const size_t n = rows_padded_ * words_padded_;
  data_.resize(n);  // not initialised (UninitializedAllocator)
  detail::advise_huge_pages(data_.data(), n * sizeof(word_t));
  if (!zero) return;
  // Zeroed in bands of 16 MB by the pool's threads: page faults and stores in parallel.
  constexpr size_t kBand = (size_t{16} << 20) / sizeof(word_t);
  word_t* d = data_.data();
  if (n <= kBand) {
    std::fill_n(d, n, word_t{0});
    return;
  }
  parallel_chunks(ceil_div(n, kBand), 1, [&](size_t a, size_t b) {
    std::fill(d + a * kBand, d + std::min(n, b * kBand), word_t{0});
  });
}

BitMatrix BitMatrix::from_pairs(size_t n_rows, size_t n_cols,
                                std::span<const std::pair<uint32_t, uint32_t>> pairs,
                                Padding padding, WordOrder order) {
  BitMatrix m(n_rows, n_cols, padding, order);
  for (const auto& [r, c] : pairs) {
    if (r >= n_rows || c >= n_cols) throw UsageError("BitMatrix::from_pairs: index");
    m.set(r, c);
  }
  return m;
}

BitMatrix BitMatrix::random(size_t n_rows, size_t n_cols, double density, uint64_t seed,
                            Padding padding, bool upper_strict) {
  BitMatrix m(n_rows, n_cols, padding);
  std::mt19937_64 rng(seed);
  if (density >= 1.0 && !upper_strict) {
    for (size_t r = 0; r < n_rows; ++r)
      for (size_t c = 0; c < n_cols; ++c) m.set(r, c);
    return m;
  }
  std::bernoulli_distribution bit(std::clamp(density, 0.0, 1.0));
  for (size_t r = 0; r < n_rows; ++r)
    for (size_t c = upper_strict ? r + 1 : 0; c < n_cols; ++c)
      if (bit(rng)) m.set(r, c);
  return m;
}

word_t BitMatrix::last_word_mask() const {
  return tail_mask(n_cols_);
}

void BitMatrix::set_word(size_t r, size_t w, word_t value) {
  if (w + 1 == words_per_row()) value &= last_word_mask();
  data_[index(r, w)] = value;
}

void BitMatrix::copy_row(size_t r, word_t* out) const {
  const size_t words = words_per_row();
  if (order_ == WordOrder::kRowMajor) {
    std::copy_n(row_ptr(r), words, out);
    return;
  }
  for (size_t w = 0; w < words; ++w) out[w] = data_[index(r, w)];
}

void BitMatrix::store_row(size_t r, const word_t* in) {
  const size_t words = words_per_row();
  for (size_t w = 0; w < words; ++w) data_[index(r, w)] = in[w];
  if (words > 0) data_[index(r, words - 1)] &= last_word_mask();
}

BitMatrix BitMatrix::repadded(Padding padding, WordOrder order) const {
  BitMatrix out(n_rows_, n_cols_, padding, order);
  const size_t words = words_per_row();
  if (order == order_ && order == WordOrder::kColumnMajor) {
    for (size_t w = 0; w < words; ++w)
      std::copy_n(data_.data() + w * rows_padded_, n_rows_,
                  out.data_.data() + w * out.rows_padded_);
    return out;
  }
  // Blocked so that the strided side of a column<->row conversion stays in cache.
  constexpr size_t kBlock = 64;
  for (size_t r0 = 0; r0 < n_rows_; r0 += kBlock)
    for (size_t w0 = 0; w0 < words; w0 += kBlock)
      for (size_t r = r0; r < std::min(n_rows_, r0 + kBlock); ++r)
        for (size_t w = w0; w < std::min(words, w0 + kBlock); ++w)
          out.data_[out.index(r, w)] = data_[index(r, w)];
  return out;
}

BitMatrix BitMatrix::transposed(Padding padding) const {
  BitMatrix out(n_cols_, n_rows_, padding, order_);
  for (size_t r = 0; r < n_rows_; ++r) for_each_in_row(r, [&](size_t c) { out.set(c, r); });
  return out;
}

BitMatrix BitMatrix::block(size_t r0, size_t w0, size_t n_rows, size_t n_words,
                           Padding padding) const {
  if (r0 + n_rows > rows_padded_ || w0 + n_words > words_padded_)
    throw UsageError("BitMatrix::block beyond the padded matrix");
  BitMatrix out(n_rows, n_words * kWordBits, padding, order_);
  for (size_t w = 0; w < n_words; ++w)
    for (size_t r = 0; r < n_rows; ++r) out.data_[out.index(r, w)] = data_[index(r0 + r, w0 + w)];
  return out;
}

BitMatrix BitMatrix::row_block(size_t r0, size_t n_rows) const {
  if (r0 + n_rows > n_rows_) throw UsageError("BitMatrix::row_block beyond the matrix");
  BitMatrix out(n_rows, n_cols_, {}, order_);
  for (size_t w = 0; w < words_per_row(); ++w)
    for (size_t r = 0; r < n_rows; ++r) out.data_[out.index(r, w)] = data_[index(r0 + r, w)];
  return out;
}

void BitMatrix::put_block(size_t r0, size_t w0, const BitMatrix& block) {
  const size_t n_words = block.words_per_row();
  if (r0 + block.rows() > rows_padded_ || w0 + n_words > words_padded_)
    throw UsageError("BitMatrix::put_block beyond the padded matrix");
  for (size_t w = 0; w < n_words; ++w)
    for (size_t r = 0; r < block.rows(); ++r)
      data_[index(r0 + r, w0 + w)] = block.data_[block.index(r, w)];
}

std::vector<std::pair<uint32_t, uint32_t>> BitMatrix::to_pairs() const {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (size_t r = 0; r < n_rows_; ++r)
    for_each_in_row(r, [&](size_t c) { out.emplace_back(uint32_t(r), uint32_t(c)); });
  return out;
}

uint64_t BitMatrix::popcount() const {
  uint64_t total = 0;
  for (word_t w : data_) total += std::popcount(w);
  return total;
}

bool BitMatrix::padding_is_zero() const {
  const size_t words = words_per_row();
  for (size_t r = 0; r < rows_padded_; ++r)
    for (size_t w = 0; w < words_padded_; ++w) {
      const word_t v = data_[index(r, w)];
      if (r >= n_rows_ || w >= words) {
        if (v != 0) return false;
      } else if (w + 1 == words && (v & ~last_word_mask()) != 0) {
        return false;
      }
    }
  return true;
}

bool BitMatrix::operator==(const BitMatrix& other) const {
  if (n_rows_ != other.n_rows_ || n_cols_ != other.n_cols_) return false;
  for (size_t w = 0; w < words_per_row(); ++w)
    for (size_t r = 0; r < n_rows_; ++r)
      if (data_[index(r, w)] != other.data_[other.index(r, w)]) return false;
  return true;
}

void naive_multiply_or(BitMatrix& c, const BitMatrix& a, const BitMatrix& b) {
  if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols())
    throw UsageError("naive_multiply_or: shapes do not agree");
  for (size_t i = 0; i < a.rows(); ++i)
    for (size_t j = 0; j < b.cols(); ++j) {
      bool v = false;
      for (size_t k = 0; k < a.cols() && !v; ++k) v = a.get(i, k) && b.get(k, j);
      if (v) c.set(i, j);
    }
}

void host_multiply_or(BitMatrix& c, const BitMatrix& a, const BitMatrix& b) {
  if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols())
    throw UsageError("host_multiply_or: shapes do not agree");
  const BitMatrix a_rows = a.repadded({}, WordOrder::kRowMajor);
  const BitMatrix b_rows = b.repadded({}, WordOrder::kRowMajor);
  BitMatrix c_rows = c.repadded({}, WordOrder::kRowMajor);
  const size_t words = b_rows.words_per_row();
  // Rows are independent: chunks of them run as tasks of the one executor. A product of a
  // large matrix takes minutes on the host, so each chunk polls the cancellation token.
  const CancelToken* cancel = current_cancel_token();
  parallel_chunks(a_rows.rows(), 16, [&](size_t begin, size_t end) {
    if (is_cancelled(cancel)) throw Cancelled();
    for (size_t i = begin; i < end; ++i) {
      word_t* out = c_rows.row_ptr(i);
      for_each_set_bit(a_rows.row_ptr(i), 0, a_rows.words_per_row(), [&](size_t k) {
        const word_t* brow = b_rows.row_ptr(k);
        for (size_t w = 0; w < words; ++w) out[w] |= brow[w];
      });
    }
  });
  c = c_rows.repadded(c.padding(), c.order());
}

}  // namespace closure
