// The dense closure algorithms, written once against the engine operations
// (engine/host_engine.hpp, engine/device_engine.hpp): repeated squaring and the blocked
// recursive closure of an upper-triangular matrix.
#pragma once

#include <algorithm>
#include <bit>
#include <utility>

#include "closure/bitmatrix.hpp"
#include "closure/util/cancel.hpp"

namespace closure {

// At most ceil(log2 n) squarings: after k of them R holds every path of length <= 2^k,
// and a closure never needs paths longer than n.
inline int max_squaring_rounds(size_t n) {
  return n <= 1 ? 1 : std::bit_width(n - 1);
}

// R <- R | R*R until nothing changes; returns the number of products. `upper` promises a
// strictly upper-triangular R (a DAG in topological order): the triangular kernel runs.
// Change detection stays on the engine (one flag crosses the bus per round).
template <class Engine>
int square_in_place(Engine& e, typename Engine::Matrix& r, bool upper) {
  typename Engine::Matrix next = e.zeros(e.rows(r), e.cols(r));
  int rounds = 0;
  for (int i = 0; i < max_squaring_rounds(e.rows(r)); ++i) {
    check_cancelled();  // between products: each is one engine call
    e.copy(next, r);
    e.multiply_or(next, r, r, upper);
    ++rounds;
    const bool changed = e.differ(next, r);
    std::swap(r, next);
    if (!changed) break;
  }
  return rounds;
}

struct RecursiveStats {
  int products = 0;         // rectangular products at the split levels
  int base_blocks = 0;      // diagonal blocks closed by squaring
  int squaring_rounds = 0;  // products inside those blocks
};

// closure([[A, B], [0, D]]) = [[A+, A* B D*], [0, D+]] with X* = I | X+, for a strictly
// upper-triangular s x s matrix `m` (s a multiple of e.tile_bits()). A* B D* is formed as
// B1 = B | A+ B, then B1 | B1 D+: two products per split instead of log2(s) squarings of
// the whole. Blocks of at most `base_bits` are closed by triangular squaring.
template <class Engine>
void recursive_in_place(Engine& e, typename Engine::Matrix& m, size_t s, size_t base_bits,
                        RecursiveStats& stats) {
  const size_t tile = e.tile_bits();
  if (s <= std::max(base_bits, tile)) {
    ++stats.base_blocks;
    stats.squaring_rounds += square_in_place(e, m, true);
    return;
  }
  check_cancelled();
  const size_t mid = round_up(s / 2, tile);
  auto a = e.block(m, 0, 0, mid, mid);
  auto d = e.block(m, mid, mid, s - mid, s - mid);
  recursive_in_place(e, a, mid, base_bits, stats);
  recursive_in_place(e, d, s - mid, base_bits, stats);
  auto b = e.block(m, 0, mid, mid, s - mid);
  auto b1 = e.zeros(mid, s - mid);
  e.copy(b1, b);
  e.multiply_or(b1, a, b);  // B | A+ B
  e.copy(b, b1);
  e.multiply_or(b, b1, d);  // (B | A+ B) | (B | A+ B) D+
  stats.products += 2;
  e.put_block(m, 0, 0, a);
  e.put_block(m, 0, mid, b);
  e.put_block(m, mid, mid, d);
}

}  // namespace closure
