// BitMatrix storage, conversions and the host reference products.
#include "closure/bitmatrix.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <random>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "closure/util/cancel.hpp"

namespace closure {

BitMatrix::BitMatrix(size_t n_rows, size_t n_cols, Padding padding, WordOrder order)
    : n_rows_(n_rows), n_cols_(n_cols), padding_(padding), order_(order) {
  if (padding.row_multiple == 0 || padding.word_multiple == 0)
    throw std::invalid_argument("BitMatrix: padding multiples must be positive");
  rows_padded_ = round_up(std::max<size_t>(n_rows, 1), padding.row_multiple);
  words_padded_ = round_up(std::max<size_t>(ceil_div(n_cols, kWordBits), 1), padding.word_multiple);
  data_.assign(rows_padded_ * words_padded_, 0);
}

BitMatrix BitMatrix::from_pairs(size_t n_rows, size_t n_cols,
                                std::span<const std::pair<uint32_t, uint32_t>> pairs,
                                Padding padding, WordOrder order) {
  BitMatrix m(n_rows, n_cols, padding, order);
  for (const auto& [r, c] : pairs) {
    if (r >= n_rows || c >= n_cols) throw std::out_of_range("BitMatrix::from_pairs: index");
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
  const size_t tail = n_cols_ % kWordBits;
  return tail == 0 ? ~word_t{0} : (word_t{1} << tail) - 1;
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
  for (size_t r = 0; r < n_rows_; ++r)
    for (size_t w = 0; w < words_per_row(); ++w) {
      word_t bits = data_[index(r, w)];
      while (bits) {
        const int b = std::countr_zero(bits);
        bits &= bits - 1;
        out.set(w * kWordBits + b, r);
      }
    }
  return out;
}

BitMatrix BitMatrix::block(size_t r0, size_t w0, size_t n_rows, size_t n_words,
                           Padding padding) const {
  if (r0 + n_rows > rows_padded_ || w0 + n_words > words_padded_)
    throw std::out_of_range("BitMatrix::block beyond the padded matrix");
  BitMatrix out(n_rows, n_words * kWordBits, padding, order_);
  for (size_t w = 0; w < n_words; ++w)
    for (size_t r = 0; r < n_rows; ++r) out.data_[out.index(r, w)] = data_[index(r0 + r, w0 + w)];
  return out;
}

void BitMatrix::put_block(size_t r0, size_t w0, const BitMatrix& block) {
  const size_t n_words = block.words_per_row();
  if (r0 + block.rows() > rows_padded_ || w0 + n_words > words_padded_)
    throw std::out_of_range("BitMatrix::put_block beyond the padded matrix");
  for (size_t w = 0; w < n_words; ++w)
    for (size_t r = 0; r < block.rows(); ++r)
      data_[index(r0 + r, w0 + w)] = block.data_[block.index(r, w)];
}

std::vector<std::pair<uint32_t, uint32_t>> BitMatrix::to_pairs() const {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (size_t r = 0; r < n_rows_; ++r)
    for (size_t w = 0; w < words_per_row(); ++w) {
      word_t bits = data_[index(r, w)];
      while (bits) {
        const int b = std::countr_zero(bits);
        bits &= bits - 1;
        out.emplace_back(uint32_t(r), uint32_t(w * kWordBits + b));
      }
    }
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
    throw std::invalid_argument("naive_multiply_or: shapes do not agree");
  for (size_t i = 0; i < a.rows(); ++i)
    for (size_t j = 0; j < b.cols(); ++j) {
      bool v = false;
      for (size_t k = 0; k < a.cols() && !v; ++k) v = a.get(i, k) && b.get(k, j);
      if (v) c.set(i, j);
    }
}

void host_multiply_or(BitMatrix& c, const BitMatrix& a, const BitMatrix& b) {
  if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols())
    throw std::invalid_argument("host_multiply_or: shapes do not agree");
  const BitMatrix a_rows = a.repadded({}, WordOrder::kRowMajor);
  const BitMatrix b_rows = b.repadded({}, WordOrder::kRowMajor);
  BitMatrix c_rows = c.repadded({}, WordOrder::kRowMajor);
  const size_t words = b_rows.words_per_row();
  const size_t threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 16));
  // One product of a large matrix takes minutes on the host: polled every 8 rows.
  const CancelToken* cancel = current_cancel_token();
  std::atomic<bool> stop{false};
  auto work = [&](size_t t) {
    for (size_t i = t; i < a_rows.rows(); i += threads) {
      if ((i / threads) % 8 == 0 &&
          (stop.load(std::memory_order_relaxed) || is_cancelled(cancel))) {
        stop.store(true, std::memory_order_relaxed);
        return;
      }
      word_t* out = c_rows.row_ptr(i);
      const word_t* arow = a_rows.row_ptr(i);
      for (size_t kw = 0; kw < a_rows.words_per_row(); ++kw) {
        word_t bits = arow[kw];
        while (bits) {
          const size_t k = kw * kWordBits + std::countr_zero(bits);
          bits &= bits - 1;
          const word_t* brow = b_rows.row_ptr(k);
          for (size_t w = 0; w < words; ++w) out[w] |= brow[w];
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work, t);
    } catch (const std::system_error&) {  // no thread to be had (ulimit -v, -u): run it here
      work(t);
    }
  }
  work(0);
  for (auto& th : pool) th.join();
  if (stop.load()) throw Cancelled();
  c = c_rows.repadded(c.padding(), c.order());
}

}  // namespace closure
