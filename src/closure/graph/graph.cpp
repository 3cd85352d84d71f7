// Graph construction from edge lists (CSR with sorted, de-duplicated successors).
#include "closure/graph/graph.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/graph/phase_trace.hpp"
#include "closure/util/huge_pages.hpp"
#include "closure/util/uninitialized_allocator.hpp"

namespace closure {

namespace {

// Below this many edges the CSR is built on the calling thread: tasks cost more than they save.
constexpr size_t kParallelEdges = size_t{1} << 20;

// An edge in the bucketed build's scratch array: trivially constructible (std::pair is not),
// so the array is not zeroed before it is written.
struct SourceTarget {
  vertex_t source, target;
};

// Short rows sort fastest by plain insertion (std::sort's set-up costs more than the row).
void insertion_sort(vertex_t* first, vertex_t* last) {
  for (vertex_t* i = first + 1; i < last; ++i) {
    const vertex_t v = *i;
    vertex_t* j = i;
    for (; j > first && *(j - 1) > v; --j) *j = *(j - 1);
    *j = v;
  }
}

// Sorts and de-duplicates a row in place; returns its new length. Rows that are already
// strictly ascending (a condensation's) are only checked.
uint64_t sort_row(vertex_t* first, vertex_t* last) {
  if (std::adjacent_find(first, last, std::greater_equal<>()) != last) {
    if (last - first <= 16)
      insertion_sort(first, last);  // most rows: a few targets
    else
      std::sort(first, last);
    last = std::unique(first, last);
  }
  return uint64_t(last - first);
}

// Edges in blocks, read in order by the bucketed build: one edge array cut into ranges.
struct EdgeArrayBlocks {
  std::vector<Edge>& edges;
  size_t per_block, count;
  size_t blocks() const { return count; }
  template <class F>
  void each(size_t k, F&& f) const {
    for (size_t i = k * per_block, end = std::min(edges.size(), i + per_block); i < end; ++i)
      f(edges[i].first, edges[i].second);
  }
  void release() const { edges = {}; }  // before the targets are allocated: a lower peak
};

// The same over blocks of interleaved (source, target) ids (the reader's chunks).
struct PairBlocks {
  std::span<const std::span<const vertex_t>> pairs;
  const std::function<void()>& done;
  size_t blocks() const { return pairs.size(); }
  template <class F>
  void each(size_t k, F&& f) const {
    const std::span<const vertex_t> b = pairs[k];
    for (size_t i = 0; i + 1 < b.size(); i += 2) f(b[i], b[i + 1]);
  }
  void release() const {
    if (done) done();
  }
};

// The CSR of a large edge list in two passes, both parallel and without atomics: the edges
// are first moved into buckets of consecutive sources (each block of edges has its own
// write position in every bucket, so the order of a source's edges is the input's), then
// each bucket, whose counters and targets fit in cache, is counted and scattered by one
// task, which also sorts its rows while they are in cache (their new lengths in `kept`).
// One pass of random writes over the whole target array was most of the time of reading a
// 14.5M-edge file (docs/benchmarks.md, "Reading").
template <class Blocks>
void build_rows_bucketed(size_t n, const Blocks& in, size_t m, std::vector<uint64_t>& offsets,
                         std::vector<vertex_t>& targets, uint64_t* kept) {
  detail::PhaseTrace trace(2, "  csr: ");
  // Buckets of 2^shift sources: about 32k sources and 64k edges each, or fewer sources.
  const size_t want = std::clamp<size_t>(std::max(n / 32768, m / 65536), 1, 4096);
  unsigned shift = 0;
  while ((size_t{1} << shift) * want < n) ++shift;
  const size_t buckets = (n >> shift) + 1;
  const size_t blocks = in.blocks();
  // at[k * buckets + b]: where block k writes its next edge of bucket b.
  std::vector<uint64_t> at(blocks * buckets + 1, 0);
  std::atomic<bool> out_of_range{false};
  parallel_chunks(blocks, 1, [&](size_t k0, size_t k1) {
    for (size_t k = k0; k < k1; ++k) {
      uint64_t* count = at.data() + k * buckets;
      bool bad = false;
      in.each(k, [&](vertex_t u, vertex_t v) {
        bad = bad || u >= n || v >= n;
        ++count[std::min<size_t>(u, n) >> shift];
      });
      if (bad) out_of_range = true;
    }
  });
  if (out_of_range) throw UsageError("Graph: edge endpoint beyond vertex count");
  trace.mark("count");
  // Bucket-major order: bucket b's edges from block 0, then block 1, ...
  std::vector<uint64_t> bucket_start(buckets + 1, 0);
  uint64_t total = 0;
  for (size_t b = 0; b < buckets; ++b) {
    bucket_start[b] = total;
    for (size_t k = 0; k < blocks; ++k) {
      const uint64_t c = at[k * buckets + b];
      at[k * buckets + b] = total;
      total += c;
    }
  }
  bucket_start[buckets] = total;
  std::vector<SourceTarget, UninitializedAllocator<SourceTarget>> sorted;
  detail::resize_huge(sorted, m);
  trace.mark("allocate");
  parallel_chunks(blocks, 1, [&](size_t k0, size_t k1) {
    for (size_t k = k0; k < k1; ++k) {
      uint64_t* next = at.data() + k * buckets;
      in.each(k, [&](vertex_t u, vertex_t v) { sorted[next[u >> shift]++] = {u, v}; });
    }
  });
  trace.mark("bucket");
  in.release();
  detail::resize_huge(targets, m);
  trace.mark("targets");
  parallel_chunks(buckets, 1, [&](size_t b0, size_t b1) {
    for (size_t b = b0; b < b1; ++b) {
      const size_t lo = b << shift, hi = std::min(n, (b + 1) << shift);
      if (lo >= hi) continue;
      // offsets[u + 1] counts u's edges, then holds where u's next edge goes.
      for (uint64_t i = bucket_start[b]; i < bucket_start[b + 1]; ++i)
        ++offsets[sorted[i].source + 1];
      uint64_t sum = bucket_start[b];
      for (size_t u = lo; u < hi; ++u) {
        const uint64_t c = offsets[u + 1];
        offsets[u + 1] = sum;
        sum += c;
      }
      for (uint64_t i = bucket_start[b]; i < bucket_start[b + 1]; ++i)
        targets[offsets[sorted[i].source + 1]++] = sorted[i].target;
      // Now offsets[u + 1] is the end of u's row, which is where row u + 1 starts (row lo
      // starts at the bucket's start: offsets[lo] is the bucket before's to write).
      for (size_t u = lo; u < hi; ++u) {
        const uint64_t start = u == lo ? bucket_start[b] : offsets[u];
        kept[u] = sort_row(targets.data() + start, targets.data() + offsets[u + 1]);
      }
    }
  });
  trace.mark("scatter");
}

}  // namespace

void Graph::start(size_t n, VertexLabels labels) {
  labels_ = std::move(labels);
  if (!labels_.empty() && labels_.size() != n)
    throw UsageError("Graph: label count differs from vertex count");
  detail::reserve_huge(offsets_, n + 1);
  offsets_.assign(n + 1, 0);
}

Graph::Graph(size_t n, std::vector<Edge> edges, VertexLabels labels) {
  start(n, std::move(labels));
  if (edges.size() >= kParallelEdges && thread_budget() > 1) {
    const size_t m = edges.size(), blocks = std::min<size_t>(256, 4 * size_t(thread_budget()));
    build_bucketed(n, EdgeArrayBlocks{edges, (m + blocks - 1) / blocks, blocks}, m);
    return;
  }
  // Counting sort by source, then sort and de-duplicate each (short) row: linear in m
  // plus small sorts, where one global sort of the pairs dominated reading large files.
  for (const auto& [u, v] : edges) {
    if (u >= n || v >= n) throw UsageError("Graph: edge endpoint beyond vertex count");
    ++offsets_[u + 1];
  }
  for (size_t i = 0; i < n; ++i) offsets_[i + 1] += offsets_[i];
  detail::reserve_huge(targets_, edges.size());
  targets_.resize(edges.size());
  {
    std::vector<uint64_t> fill;
    detail::reserve_huge(fill, n);
    fill.assign(offsets_.begin(), offsets_.end() - 1);
    for (const auto& [u, v] : edges) targets_[fill[u]++] = v;
  }
  edges = {};
  normalise_rows();
}

template <class Blocks>
void Graph::build_bucketed(size_t n, const Blocks& blocks, size_t m) {
  std::vector<uint64_t, UninitializedAllocator<uint64_t>> kept;  // every row writes its own
  detail::resize_huge(kept, n);
  build_rows_bucketed(n, blocks, m, offsets_, targets_, kept.data());
  detail::PhaseTrace trace(2, "  csr: ");
  close_gaps(kept.data());
  trace.mark("gaps");
}

Graph Graph::from_pair_blocks(size_t n, std::span<const std::span<const vertex_t>> pair_blocks,
                              VertexLabels labels, const std::function<void()>& blocks_read) {
  size_t m = 0;
  for (std::span<const vertex_t> b : pair_blocks) {
    if (b.size() % 2 != 0) throw UsageError("Graph: a block of pairs has an odd length");
    m += b.size() / 2;
  }
  if (m < kParallelEdges || thread_budget() <= 1) {
    std::vector<Edge> edges;
    edges.reserve(m);
    for (std::span<const vertex_t> b : pair_blocks)
      for (size_t i = 0; i < b.size(); i += 2) edges.emplace_back(b[i], b[i + 1]);
    if (blocks_read) blocks_read();
    return Graph(n, std::move(edges), std::move(labels));
  }
  Graph g;
  g.start(n, std::move(labels));
  g.build_bucketed(n, PairBlocks{pair_blocks, blocks_read}, m);
  return g;
}

Graph Graph::from_rows(std::vector<uint64_t> offsets, std::vector<vertex_t> targets) {
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != targets.size())
    throw UsageError("Graph: row offsets do not span the targets");
  const size_t n = offsets.size() - 1;
  for (size_t u = 0; u < n; ++u)
    if (offsets[u] > offsets[u + 1]) throw UsageError("Graph: row offsets descend");
  for (const vertex_t v : targets)
    if (v >= n) throw UsageError("Graph: edge endpoint beyond vertex count");
  Graph g;
  g.offsets_ = std::move(offsets);
  g.targets_ = std::move(targets);
  g.normalise_rows();
  return g;
}

void Graph::normalise_rows() {
  const size_t n = vertex_count();
  // Each row sorted and de-duplicated where it lies (in parallel over rows when the graph is
  // large), its new length in `kept`; then one pass closes the gaps.
  std::vector<uint64_t, UninitializedAllocator<uint64_t>> kept;  // every row writes its own
  detail::resize_huge(kept, n);
  auto sort_rows = [&](size_t a, size_t b) {
    for (size_t u = a; u < b; ++u)
      kept[u] = sort_row(targets_.data() + offsets_[u], targets_.data() + offsets_[u + 1]);
  };
  if (targets_.size() >= kParallelEdges && thread_budget() > 1)
    parallel_chunks(n, 4096, sort_rows);
  else
    sort_rows(0, n);
  close_gaps(kept.data());
}

void Graph::close_gaps(const uint64_t* kept) {
  const size_t n = vertex_count();
  // Rows move down over the dropped duplicates, in blocks: a block runs from one row with
  // duplicates to the next, so a few dozen duplicates in 14.5M edges are a few dozen
  // memmoves, not one copy per row.
  uint64_t out = 0, block_from = 0, block_to = 0, block_size = 0;
  auto move_block = [&] {
    if (block_to != block_from && block_size != 0)
      std::memmove(targets_.data() + block_to, targets_.data() + block_from,
                   block_size * sizeof(vertex_t));
  };
  for (size_t u = 0; u < n; ++u) {
    const uint64_t from = offsets_[u];
    offsets_[u] = out;
    if (block_from + block_size != from) {  // the row before dropped some: a new block
      move_block();
      block_from = from;
      block_to = out;
      block_size = 0;
    }
    block_size += kept[u];
    out += kept[u];
  }
  move_block();
  offsets_[n] = out;
  // Give memory back only when duplicates freed much of it: shrinking copies the whole
  // array into fresh pages (a copy and its page faults, a noticeable share of reading a
  // large file with a few dozen duplicate edges).
  const bool mostly_dropped = out < targets_.size() - targets_.size() / 8;
  targets_.resize(out);
  if (mostly_dropped) targets_.shrink_to_fit();
}

std::vector<Edge> Graph::edges() const {
  std::vector<Edge> out;
  out.reserve(edge_count());
  for (vertex_t u = 0; u < vertex_count(); ++u)
    for (vertex_t v : successors(u)) out.emplace_back(u, v);
  return out;
}

std::optional<vertex_t> Graph::find(std::string_view label) const {
  if (labels_.empty()) {
    // Labels are the numbers "0".."n-1", as label() spells them: no sign, no leading zeros.
    vertex_t v = 0;
    const char* end = label.data() + label.size();
    const auto [stop, error] = std::from_chars(label.data(), end, v);
    if (error != std::errc() || stop != end || v >= vertex_count() || std::to_string(v) != label)
      return std::nullopt;
    return v;
  }
  if (const std::optional<size_t> v = labels_.find(label)) return static_cast<vertex_t>(*v);
  return std::nullopt;
}

bool Graph::has_self_loop() const {
  for (vertex_t u = 0; u < vertex_count(); ++u)
    for (vertex_t v : successors(u))
      if (u == v) return true;
  return false;
}

}  // namespace closure
