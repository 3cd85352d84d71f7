// Counting a condensation's closure by a chain cover (Jagadish's chain compression; Boost's
// transitive_closure uses Simon's chains too): the components are split into chains, each
// component reaching the one before it on its chain, so what a component reaches of a chain
// is the chain's components up to the last one it reaches, and a row is one number a chain
// (the vertices reached there), not a bit a component. A history of 10M commits is covered
// by about 2,000 chains: a row of 2,000 numbers against 312,500 words of bits.
//
// Two passes, in reverse topological order (ids descending) over the live rows of
// sweep_slots() (column_count.hpp; the one-pass cover takes their slots as it goes):
//  - cover_by_chains: each component extends a chain whose last component (its top) it
//    reaches, else starts one. Whether it reaches a top is read from rows kept over the 64
//    chains extended last (kTrackedChains; older chains are forgotten, which at worst
//    starts a chain that a full row would have extended): one sequential pass; on a large
//    condensation with threads to spare, one a stretch of ids, joined after
//    (cover_by_chains_in_stretches), the live rows' slots taken beside.
//  - count_closure_by_chains: the rows over every chain, in slices of chains on threads
//    (a slice needs no other), summed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "closure/algorithms/column_count.hpp"
#include "closure/graph/csr_dag.hpp"
#include "closure/util/uninitialized_allocator.hpp"

namespace closure {

struct ChainCover {
  // Each written by the cover before it is read: fresh pages, first touched on threads (a
  // 10M-commit history's 80 MB were zeroed on one thread before the stretches began).
  using Numbers = std::vector<uint32_t, UninitializedAllocator<uint32_t>>;
  Numbers chain;                // per component, its chain
  Numbers through;              // per component, the vertices of its chain up to it
  std::vector<uint32_t> first;  // per chain, its first component (ids descending)
  size_t chains() const { return first.size(); }
};

// Chains tracked while covering: 64 cover a 10M-commit history with 1,880 chains where
// 1,816 rows are live (docs/benchmarks-gpu.md, "Counting by chains").
inline constexpr size_t kTrackedChains = 64;

// The cover, or nullopt once it would need more than most_chains chains (the pass stops
// there: a random graph's cover is wide, and its rows would be longer than bits), or more
// than the zeroing of tracked columns allows within the pass's own work (64 numbers a row
// and edge).
// sizes: per component its vertex count, or empty (every size 1). The live rows' slots are
// taken from `sweep`, made from the same dag (whose construction throws InternalError
// unless every edge c -> d has c < d), as the cover goes: once the cover is made,
// std::move(sweep).finish() is sweep_slots(dag).
std::optional<ChainCover> cover_by_chains(const CsrDag& dag, std::span<const uint32_t> sizes,
                                          SlotSweep& sweep, size_t most_chains);

// The same cover made in `stretches` stretches of ids at once, on threads: each stretch
// covered as a DAG of its own (its successors below it left out), then joined from the
// lowest stretch up, where a stretch's chain continues the chain below whose top its first
// component has for a successor (the longest such), else is a chain of its own. A stretch's
// rows know nothing of the components below it, so the joined cover has more chains than
// one pass's (10M commits in 9 stretches: see docs/benchmarks-gpu.md, "Counting by chains").
// nullopt past most_chains, or where a stretch's cover stops. No slots are taken:
// sweep_slots(dag) gives them.
std::optional<ChainCover> cover_by_chains_in_stretches(const CsrDag& dag,
                                                       std::span<const uint32_t> sizes,
                                                       size_t most_chains, size_t stretches);

// The stretches prepare_chain_count() covers C components in with `threads` threads: one
// a thread but one (the live rows' pass runs beside them), each of 2^20 components at
// least (every stretch's start adds chains: a history's width at that point, less joins).
inline constexpr size_t kLeastCoverStretch = size_t{1} << 20;
inline size_t cover_stretches(size_t components, unsigned threads) {
  if (threads < 3) return 1;
  return std::max<size_t>(1, std::min<size_t>(threads - 1, components / kLeastCoverStretch));
}

// Sum over components c of size(c) x (sum of size(d) over d in R(c)), R(c) the strict
// closure's row (sizes empty: every size 1): count_closure_by_columns()'s sum. threads 0:
// the thread budget, or one thread for a small sweep.
uint64_t count_closure_by_chains(const CsrDag& dag, std::span<const uint32_t> sizes,
                                 const ChainCover& cover, const SweepSlots& slots,
                                 unsigned threads = 0);

// The same DAG with ids by generation (the longest path down to a sink, as git's
// commit-graph numbers commits), highest first, sizes carried along: a topological order
// close to a history's time order. The cover's quality depends on the order it meets
// components in: on a 1M-commit history condense()'s depth-first ids need 730 chains,
// breadth-first ids 425, generations 218 (docs/benchmarks-gpu.md, "Counting by chains").
struct RelabelledDag {
  CsrDag dag;
  std::vector<uint32_t> sizes;  // empty when the sizes given were
};
RelabelledDag generation_ids(const CsrDag& dag, std::span<const uint32_t> sizes);

// The most chains worth covering C components with before counting by columns instead. A
// chain costs a number in every row where the count by columns ORs half a row of words
// (C / 64 a row), and the cover its 64 tracked numbers besides; a number measured about
// twice a word's cost (a 20k-commit history: 33 chains in 2.5 ms, its columns 4.4 ms). So:
// a quarter of a row's words, less the tracked chains' share.
inline size_t most_chains_worth_counting(size_t components) {
  const size_t quarter_row = components / 128;
  return quarter_row > kTrackedChains / 2 ? quarter_row - kTrackedChains / 2 : 0;
}

// The count's work before counting: the generation ids, their live rows and the cover;
// nullopt once the cover passes most_chains (chains cost a number a row each, so past
// about a component's words of bits, or what the caller weighs it against, they lose).
// auto makes it while planning (the cover's chains are the cost model's input) and hands
// it to the count.
struct ChainCounting {
  RelabelledDag ids;
  SweepSlots slots;
  ChainCover cover;
};
// stretches: cover_by_chains_in_stretches()'s, 0 for cover_stretches() of the thread budget.
std::optional<ChainCounting> prepare_chain_count(const CsrDag& dag, std::span<const uint32_t> sizes,
                                                 size_t most_chains, size_t stretches = 0);
uint64_t count_closure_by_chains(const ChainCounting& prepared, unsigned threads = 0);

// Both in one: what `closure G` counts by chains. The counted chains in *chains when given.
std::optional<uint64_t> count_closure_by_chains(const CsrDag& dag, std::span<const uint32_t> sizes,
                                                size_t most_chains, unsigned threads = 0,
                                                size_t* chains = nullptr);

}  // namespace closure
