// SUMMA over column panels, written once over the engine (host or device), with every
// local step agreed on before the next broadcast so that no rank waits on a failed one.
#include "app/distributed/panel_squaring.hpp"

#include <bit>
#include <chrono>
#include <cstring>

#include "closure/engine/with_engine.hpp"
#include "closure/errors.hpp"

namespace closure {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The columns of a range that exist: [32*begin, min(32*end, C)).
size_t first_column(const WordRange& r) {
  return bits_in_words(r.begin);
}
size_t column_count(const WordRange& r, size_t C) {
  const size_t a = bits_in_words(r.begin), b = std::min(C, bits_in_words(r.end));
  return b > a ? b - a : 0;
}

// Panels cross the wire in one layout: column-major, no padding (BitMatrix's default).
std::string panel_bytes(const BitMatrix& m) {
  const BitMatrix plain = m.repadded(Padding{}, WordOrder::kColumnMajor);
  return std::string(reinterpret_cast<const char*>(plain.data()), plain.bytes());
}
BitMatrix panel_from(const std::string& bytes, size_t rows, size_t cols) {
  BitMatrix m(rows, cols);
  if (bytes.size() != m.bytes())
    throw InternalError("a rank broadcast a panel of " + std::to_string(bytes.size()) +
                        " bytes where " + std::to_string(m.bytes()) + " were expected");
  std::memcpy(m.data(), bytes.data(), bytes.size());
  if (!m.padding_is_zero()) throw InternalError("a rank broadcast a panel with padding bits set");
  return m;
}

template <class Engine>
ColumnSlice square_on(Engine& e, Communicator& comm, const CsrDag& dag,
                      std::span<const uint32_t> sizes, const std::vector<WordRange>& ranges,
                      PanelSquaringStats& stats) {
  const size_t C = dag.offsets.size() - 1;
  const WordRange mine = ranges[size_t(comm.rank())];
  const size_t c0 = first_column(mine), cols = column_count(mine, C);
  using Matrix = typename Engine::Matrix;
  Matrix panel;
  BitMatrix host;  // the panel as the host last saw it
  collectively(comm, [&] {
    BitMatrix adjacency(C, cols);
    for (size_t c = 0; c < C; ++c)
      for (uint64_t k = dag.offsets[c]; k < dag.offsets[c + 1]; ++k)
        if (const size_t d = dag.targets[k]; d >= c0 && d < c0 + cols) adjacency.set(c, d - c0);
    host = std::move(adjacency);
    if (cols) panel = e.from_host(host);
  });
  const int most_rounds = 2 + int(std::bit_width(C));
  for (int round = 1;; ++round) {
    stats.rounds = round;
    Matrix next;
    collectively(comm, [&] {
      if (cols) next = e.from_host(host);
    });
    for (size_t k = 0; k < ranges.size(); ++k) {
      const size_t k0 = first_column(ranges[k]), kcols = column_count(ranges[k], C);
      if (kcols == 0) continue;
      auto tc = std::chrono::steady_clock::now();
      std::string bytes;  // made apart, so that a failure here stops every rank cleanly
      collectively(comm, [&] {
        if (int(k) == comm.rank()) bytes = panel_bytes(host);
      });
      bytes = comm.broadcast(bytes, int(k));
      stats.communicate_s += seconds_since(tc);
      auto t0 = std::chrono::steady_clock::now();
      collectively(comm, [&] {
        if (cols == 0) return;
        // R(:, J_k) (this rank's own panel is used in place), and R(J_k, J_r): rows
        // k0 .. k0 + kcols of this rank's panel.
        const BitMatrix received =
            int(k) == comm.rank() ? BitMatrix() : panel_from(bytes, C, kcols);
        const BitMatrix& a = int(k) == comm.rank() ? host : received;
        Matrix da = e.from_host(a), db = e.from_host(host.row_block(k0, kcols));
        e.multiply_or(next, da, db);
        e.finish();
      });
      stats.compute_s += seconds_since(t0);
    }
    int changed = 0;
    collectively(comm, [&] {
      if (cols == 0) return;
      changed = e.differ(next, panel) ? 1 : 0;
      panel = std::move(next);
      host = e.to_host(panel).repadded(Padding{}, WordOrder::kColumnMajor);
    });
    if (comm.sum(uint64_t(changed)) == 0) break;
    if (round >= most_rounds)
      throw InternalError("the distributed squaring did not converge in " + std::to_string(round) +
                          " rounds");
  }
  ColumnSlice out;
  out.range = mine;
  out.components = C;
  if (cols == 0) return out;
  const BitMatrix rows = host.repadded(Padding{}, WordOrder::kRowMajor);
  out.rows.assign(rows.data(), rows.data() + rows.word_count());
  for (size_t c = 0; c < C; ++c) {
    uint64_t reached = 0;
    for_each_set_bit(rows.row_ptr(c), mine.begin, mine.words(),
                     [&](size_t d) { reached += sizes.empty() ? 1 : sizes[d]; });
    out.cross_pairs += reached * (sizes.empty() ? 1 : sizes[c]);
  }
  return out;
}

}  // namespace

ColumnSlice square_panels(Communicator& comm, const CsrDag& dag, std::span<const uint32_t> sizes,
                          const std::vector<WordRange>& ranges, ocl::Runtime* rt,
                          const BooleanParams& params, PanelSquaringStats* stats) {
  if (ranges.size() != size_t(comm.size()))
    throw InternalError("square_panels: one range per rank");
  PanelSquaringStats s;
  ColumnSlice out = with_engine(
      rt, params, [&](auto& engine) { return square_on(engine, comm, dag, sizes, ranges, s); });
  if (stats) *stats = s;
  return out;
}

}  // namespace closure
