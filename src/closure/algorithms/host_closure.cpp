// Host closure methods: threaded ragged-row sparse propagation, and the plain classic peer.
#include "closure/algorithms/host_closure.hpp"

#include <sys/mman.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for_each.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/or_words.hpp"
#include "closure/popcount.hpp"
#include "closure/util/cancel.hpp"
#include "closure/util/huge_pages.hpp"
#include "closure/util/work_meter.hpp"

namespace closure {

namespace {

// Row words live in blocks that never move, so finished rows can be read by other
// threads while their owner keeps appending, and the Closure can share the blocks.
// Blocks grow geometrically, so small graphs touch little memory. Blocks of 2 MiB and more
// (and from 512 KiB, rounded up: kHugeFromWords) are aligned to 2 MiB and asked for
// transparent huge pages: in a virtual machine each fresh 4 KiB page was a fault of 5-13 us (GRAIL
// ba10k5d: 1,658 -> 1,168 faults, whole process 0.92x, `farm-bench -n 21`; a random 1M-edge DAG
// written 0.97x, its times no more spread). An earlier try had seen one random DAG's time vary
// several-fold.
constexpr size_t kFirstBlockWords = size_t{1} << 14;  // 64 KB
constexpr size_t kMaxBlockWords = size_t{1} << 22;    // 16 MB

// A block from malloc (mapped_bytes 0) or mapped on huge pages (map_huge_aligned).
struct BlockDeleter {
  size_t mapped_bytes = 0;
  void operator()(word_t* p) const {
    if (mapped_bytes)
      ::munmap(p, mapped_bytes);
    else
      std::free(p);
  }
};
using Block = std::unique_ptr<word_t[], BlockDeleter>;

constexpr size_t kHugeBytes = detail::kHugePageBytes;
constexpr size_t kHugeWords = kHugeBytes / sizeof(word_t);
// From a block of 512 KiB on (without an estimate, the fourth, past 448 KiB in the first
// three), a whole 2 MiB huge page instead. In this project's VM a fresh 4 KiB page's fault
// took 9-19 us and a 2 MiB page's 50-140 us: GRAIL arXiv, citeseer and ba10k2d, 1-2 MB of
// rows, 5.7-7.2 -> 1.5-2.6 ms (docs/benchmarks.md, "Sparse's row blocks"). From 256 KiB,
// kegg's 388 KB of rows took a huge page, 2 MiB zeroed where about 50 small pages had done
// (0.1 -> 0.4 ms): not kept.
constexpr size_t kHugeFromWords = (size_t{512} << 10) / sizeof(word_t);

size_t round_up_huge(size_t words) {
  return (words + kHugeWords - 1) / kHugeWords * kHugeWords;
}

// A block of `words`: a whole number of 2 MiB pages is mapped aligned on huge pages (Pool
// rounds most blocks so, and charges them so); any other size comes from malloc.
Block allocate_block(size_t words) {
  const size_t bytes = words * sizeof(word_t);
  const bool huge = bytes >= kHugeBytes && bytes % kHugeBytes == 0;
  void* p = huge ? detail::map_huge_aligned(bytes) : std::malloc(bytes);
  if (!p) throw std::bad_alloc();
  return Block(static_cast<word_t*>(p), BlockDeleter{huge ? bytes : 0});
}

struct RowStorage {
  std::vector<Block> blocks;
};

class Pool {
 public:
  // first_words: the first block's words where more than kFirstBlockWords are expected.
  Pool(MemoryBudget* budget, size_t first_words)
      : budget_(budget), next_(std::clamp(first_words, kFirstBlockWords, kMaxBlockWords) / 2) {}
  word_t* take(size_t k) {
    if (k > cap_ - used_) add_block(k);
    word_t* p = cur_ + used_;
    used_ += k;
    return p;
  }
  std::vector<Block>& blocks() { return blocks_; }

 private:
  // The next block, for a row of k words: the doubled size, rounded up to whole huge pages
  // from 2 MiB, and from 512 KiB where the budget's room holds eight of them (near the limit
  // blocks keep their sizes). Where the budget refuses it: the doubled size unrounded, then
  // what room is left (at least k), then k itself, which alone refuses. So neither the
  // rounding nor the doubling refuses a row that fits: the rounding shifts the blocks after
  // it, and a pool was charged up to 2.5 MiB more than doubling alone, refusing closures
  // that had fit.
  void add_block(size_t k) {
    next_ = std::min(kMaxBlockWords, next_ * 2);
    const size_t doubled = std::max(next_, k);
    size_t size = doubled >= kHugeWords || (doubled >= kHugeFromWords && fits_huge())
                      ? round_up_huge(doubled)
                      : doubled;
    if (budget_ && !budget_->try_charge(size * sizeof(word_t))) {
      size = doubled;
      if (!budget_->try_charge(size * sizeof(word_t))) {
        size = std::clamp(budget_->room() / sizeof(word_t), k, doubled);
        if (!budget_->try_charge(size * sizeof(word_t))) {
          size = k;
          budget_->charge(size * sizeof(word_t));  // refuses, with the budget's message
        }
      }
    }
    blocks_.push_back(allocate_block(size));
    cur_ = blocks_.back().get();
    cap_ = size;
    used_ = 0;
  }
  bool fits_huge() const { return !budget_ || budget_->room() / 8 >= kHugeBytes; }

  MemoryBudget* budget_;
  std::vector<Block> blocks_;
  word_t* cur_ = nullptr;
  size_t used_ = 0, cap_ = 0, next_;
};

// The condensation as spans: from a Graph or from bare CSR arrays alike.
struct DagView {
  std::span<const uint64_t> offsets;
  std::span<const vertex_t> targets;
  size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  size_t edge_count() const { return targets.size(); }
  std::span<const vertex_t> successors(size_t c) const {
    return targets.subspan(offsets[c], offsets[c + 1] - offsets[c]);
  }
};

static_assert(sizeof(vertex_t) == sizeof(word_t), "ids share the word pool");

// One worker's state: a zeroed full-width scratch row (only its touched words are
// cleared after each row, so a row costs what it touches, not C/32) and a word pool.
class Propagator {
 public:
  Propagator(const DagView& dag, std::vector<RaggedRow>& rows, MemoryBudget* budget,
             size_t first_block_words)
      : dag_(dag),
        rows_(rows),
        n_(dag.size()),
        scratch_(words_for_bits(n_) + 1, 0),
        pool_(budget, first_block_words) {}

  uint32_t rows_since_metered = 0;  // rows not yet added to the work meter

  void row(vertex_t c) {
    word_t* __restrict s = scratch_.data();
    lo_ = std::numeric_limits<size_t>::max();
    hi_ = 0;
    // Reached so far: the run [c+1, e) plus the bits in s. Successors ascend, and a
    // successor d' that reaches d has d' < d, so "d already reached" is decided before d
    // comes up: then reach(d) is already in, and d is skipped.
    uint32_t e = c + 1;
    for (const vertex_t d : dag_.successors(c)) {
      if (d < e) continue;
      const RaggedRow& rd = rows_[d];
      const bool in_s = test_bit(s, d);
      if (d == e) {
        // d continues the run: {d} and d's run (which starts at d+1) extend it.
        if (!in_s) or_words(rd);
        e = rd.run_end;
        continue;
      }
      if (in_s) continue;
      set_range(d, rd.run_end);
      or_words(rd);
    }
    // Extend the run over the set bits right after it (keeps the bitset part small).
    e = uint32_t(std::min(first_clear_from(s, e, n_), n_));
    RaggedRow out;
    out.run_begin = c + 1;
    out.run_end = e;
    if (lo_ < hi_) {
      // Bits below e belong to the run: drop them, then trim zero words at both ends.
      size_t first = std::max<size_t>(lo_, word_of(e));
      s[word_of(e)] &= mask_from(e);
      size_t last = hi_;
      while (first < last && s[first] == 0) ++first;
      while (last > first && s[last - 1] == 0) --last;
      if (last > first) {
        const size_t span = last - first;
        const size_t bits = popcount_words(s + first, span);
        if (bits * kIdsPerWordSpan <= span) {
          vertex_t* p = pool_.take(bits);
          out.ids = p;
          out.id_count = uint32_t(bits);
          for_each_set_bit(s + first, first, span, [&](size_t d) { *p++ = vertex_t(d); });
        } else {
          word_t* p = pool_.take(span);
          std::copy(s + first, s + last, p);
          out.words = p;
          out.word_lo = uint32_t(first);
          out.word_count = uint32_t(span);
        }
      }
      std::fill(s + lo_, s + hi_, 0);
      s[word_of(e)] = 0;
    }
    rows_[c] = out;
  }

  Pool& pool() { return pool_; }

 private:
  void or_words(const RaggedRow& r) {
    if (r.id_count > 0) {
      word_t* __restrict s = scratch_.data();
      for (const vertex_t d : r.id_list()) s[word_of(d)] |= bit_mask(d);
      lo_ = std::min<size_t>(lo_, word_of(r.ids[0]));
      hi_ = std::max<size_t>(hi_, word_of(r.ids[r.id_count - 1]) + 1);
      return;
    }
    if (r.word_count == 0) return;
    closure::or_words(scratch_.data() + r.word_lo, r.words, r.word_count);
    lo_ = std::min<size_t>(lo_, r.word_lo);
    hi_ = std::max<size_t>(hi_, size_t(r.word_lo) + r.word_count);
  }
  // Sets bits [a, b), a < b.
  void set_range(uint32_t a, uint32_t b) {
    set_bit_range(scratch_.data(), a, b);
    lo_ = std::min(lo_, word_of(a));
    hi_ = std::max(hi_, word_of(b - 1) + 1);
  }

  const DagView& dag_;
  std::vector<RaggedRow>& rows_;
  size_t n_;
  std::vector<word_t> scratch_;
  size_t lo_ = 0, hi_ = 0;  // touched words of scratch_
  Pool pool_;
};

// Below this much work (components + condensation edges) threads cost more than they
// save; measured on the GRAIL graphs, whose rows take microseconds.
constexpr size_t kThreadThreshold = 200'000;
// Below this average level width (components / longest path) there is too little
// independent work: on a 1,000,000-vertex chain a second thread can only wait (before
// workers kept one ready predecessor for themselves, it ran slower than one thread).
constexpr size_t kMinLevelWidth = 64;

// Above this average out-degree nearly every edge is skipped (a successor already
// reached) and the threaded path's per-edge bookkeeping (predecessor lists, one atomic
// per edge) outweighs the rows: the 20,000-vertex 10% DAG ran slower on two threads
// than on one.
constexpr size_t kMaxThreadedDegree = 32;

// Number of levels of the DAG (vertices on its longest path); ids are topological.
size_t level_count(const DagView& dag) {
  std::vector<uint32_t> level(dag.size(), 1);
  uint32_t most = 0;
  for (size_t c = dag.size(); c-- > 0;) {
    uint32_t l = 1;
    for (vertex_t d : dag.successors(c)) l = std::max(l, level[d] + 1);
    level[c] = l;
    most = std::max(most, l);
  }
  return most;
}

unsigned choose_threads(const DagView& dag, unsigned requested) {
  const size_t n = dag.size();
  if (requested == 0) {
    requested = 1;
    if (n + dag.edge_count() >= kThreadThreshold && dag.edge_count() <= kMaxThreadedDegree * n &&
        n / std::max<size_t>(level_count(dag), 1) >= kMinLevelWidth)
      requested = thread_budget();
  }
  return unsigned(std::min<size_t>(requested, std::max<size_t>(n, 1)));
}

// Each thread's first row block: the estimated rows' share (options.expected_row_words),
// 16 MiB at most. An estimate is not a need: the first blocks take at most an eighth of the
// budget's room, so a closure that fits in the rest is not refused for them.
size_t first_block_words(const SparseOptions& options, unsigned threads) {
  uint64_t expected = std::min<uint64_t>(options.expected_row_words, kMaxBlockWords);
  if (options.budget)
    expected = std::min<uint64_t>(expected, options.budget->room() / (8 * sizeof(word_t)));
  return size_t(expected / std::max(1u, threads));
}

RaggedReach propagate(const DagView& dag, const SparseOptions& options) {
  const size_t n = dag.size();
  std::vector<RaggedRow> rows(n);
  auto storage = std::make_shared<RowStorage>();
  const unsigned threads = choose_threads(dag, options.threads);
  MemoryBudget* budget = options.budget;
  const size_t first_block = first_block_words(options, threads);
  // Polled every 64 rows (a row takes microseconds): a cancelled run stops well within a
  // second and frees its blocks on the way out.
  const CancelToken* cancel = current_cancel_token();
  WorkMeter* meter = current_work_meter();  // a unit per row, added 64 at a time
  meter_start(meter, n);

  if (threads <= 1) {
    Propagator p(dag, rows, budget, first_block);
    for (size_t c = n; c-- > 0;) {
      if (c % 64 == 0) {
        throw_if_cancelled(cancel);
        meter_add(meter, 64);
      }
      p.row(vertex_t(c));
    }
    storage->blocks = std::move(p.pool().blocks());
    return {std::move(rows), std::move(storage)};
  }

  // A component is ready once all its successors' rows exist: the sinks start, and the
  // task that finishes a component's last successor feeds it to the executor, keeping one
  // newly ready predecessor for itself (no hand-off along paths). Idle threads sleep in
  // TBB; each thread has its own Propagator (scratch row and word pool). A task that
  // fails (a refused allocation) cancels the rest, and TBB rethrows its exception here.
  std::vector<uint64_t> pred_start(n + 1, 0);
  for (vertex_t d : dag.targets) ++pred_start[d + 1];
  for (size_t c = 0; c < n; ++c) pred_start[c + 1] += pred_start[c];
  std::vector<vertex_t> preds(dag.edge_count());
  {
    std::vector<uint64_t> fill(pred_start.begin(), pred_start.end() - 1);
    for (size_t c = 0; c < n; ++c)
      for (vertex_t d : dag.successors(c)) preds[fill[d]++] = vertex_t(c);
  }
  std::vector<std::atomic<uint32_t>> pending(n);
  std::vector<vertex_t> sinks;
  for (size_t c = n; c-- > 0;) {
    pending[c].store(uint32_t(dag.successors(c).size()), std::memory_order_relaxed);
    if (dag.successors(c).empty()) sinks.push_back(vertex_t(c));
  }
  tbb::enumerable_thread_specific<std::unique_ptr<Propagator>> workers(
      [&] { return std::make_unique<Propagator>(dag, rows, budget, first_block); });
  constexpr vertex_t kNoVertex = std::numeric_limits<vertex_t>::max();
  tbb::task_arena arena{int(threads)};
  arena.execute([&] {
    tbb::parallel_for_each(
        sinks.begin(), sinks.end(), [&](vertex_t first, tbb::feeder<vertex_t>& feeder) {
          Propagator& p = *workers.local();
          for (vertex_t c = first; c != kNoVertex;) {
            throw_if_cancelled(cancel);
            p.row(c);
            if (++p.rows_since_metered == 64) {
              meter_add(meter, 64);
              p.rows_since_metered = 0;
            }
            vertex_t next = kNoVertex;
            for (uint64_t k = pred_start[c]; k < pred_start[c + 1]; ++k)
              if (pending[preds[k]].fetch_sub(1, std::memory_order_acq_rel) == 1) {
                if (next == kNoVertex)
                  next = preds[k];
                else
                  feeder.add(preds[k]);
              }
            c = next;
          }
        });
  });
  for (auto& w : workers)
    for (auto& b : w->pool().blocks()) storage->blocks.push_back(std::move(b));
  return {std::move(rows), std::move(storage)};
}

}  // namespace

Closure closure_sparse(const Condensation& condensation, const SparseOptions& options) {
  return closure_sparse(condensation.scc, condensation.dag, options);
}

namespace {

// The propagation over a condensation known to be consistent (condensation_csr's).
Closure sparse_from_condensation(SccResult scc, const CsrDag& dag, const SparseOptions& options) {
  RaggedReach reach = propagate({dag.offsets, dag.targets}, options);
  return Closure::from_ragged(std::move(scc.component_of), std::move(scc.cyclic), std::move(reach));
}

}  // namespace

Closure closure_sparse(SccResult scc, const CsrDag& dag, const SparseOptions& options) {
  if (dag.offsets.size() != size_t(scc.component_count()) + 1)
    throw InternalError("closure_sparse: condensation sizes disagree");
  for (size_t c = 0; c + 1 < dag.offsets.size(); ++c)
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e)
      if (e >= dag.targets.size() || dag.targets[e] <= c)
        throw InternalError("closure_sparse: condensation ids are not topological");
  return sparse_from_condensation(std::move(scc), dag, options);
}

Closure closure_sparse(const Graph& g, const SparseOptions& options) {
  Condensation c = condense(g);
  return sparse_from_condensation(std::move(c.scc), c.dag, options);  // consistent by construction
}

uint64_t classic_memory_bytes(size_t component_count) {
  return uint64_t(component_count) * words_for_bits(component_count) * sizeof(word_t);
}

Closure closure_classic(const Graph& g) {
  Condensation cond = condense(g);
  const size_t n = cond.component_count();
  BitMatrix reach(n, n, {}, WordOrder::kRowMajor);
  const size_t words = reach.words_per_row();
  for (size_t c = n; c-- > 0;) {
    word_t* row = reach.row_ptr(c);
    for (uint64_t e = cond.dag.offsets[c]; e < cond.dag.offsets[c + 1]; ++e) {
      const vertex_t d = cond.dag.targets[e];
      const word_t* other = reach.row_ptr(d);
      for (size_t w = 0; w < words; ++w) row[w] |= other[w];
      set_bit(row, d);
    }
  }
  return Closure::from_dense(std::move(cond.scc.component_of), std::move(cond.scc.cyclic),
                             std::move(reach));
}

void close_upper_triangular(BitMatrix& m) {
  if (m.rows() != m.cols()) throw InternalError("close_upper_triangular: not square");
  if (m.order() != WordOrder::kRowMajor) {
    BitMatrix rows = m.repadded({}, WordOrder::kRowMajor);
    close_upper_triangular(rows);
    m = rows.repadded(m.padding(), m.order());
    return;
  }
  const size_t n = m.rows(), words = m.words_per_row();
  std::vector<word_t> acc(words);
  for (size_t i = n; i-- > 0;) {
    word_t* row = m.row_ptr(i);
    const size_t wi = word_of(i);
    const word_t below = mask_through(i);  // columns <= i
    bool lower = (row[wi] & below) != 0;
    for (size_t w = 0; w < wi; ++w) lower |= row[w] != 0;
    if (lower)
      throw InternalError("close_upper_triangular: bit on or below the diagonal in row " +
                          std::to_string(i));
    // acc collects the reach of the successors taken so far; a successor already in it
    // adds nothing (ascending order puts whatever reaches it first).
    std::fill(acc.begin() + wi, acc.end(), 0);
    for_each_set_bit(row + wi, wi, words - wi, [&](size_t j) {
      if (test_bit(acc.data(), j)) return;
      const word_t* other = m.row_ptr(j);
      for (size_t k = word_of(j); k < words; ++k) acc[k] |= other[k];
    });
    for (size_t w = wi; w < words; ++w) row[w] |= acc[w];
  }
}

}  // namespace closure
