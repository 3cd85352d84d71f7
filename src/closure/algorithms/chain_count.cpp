// The count by chains (chain_count.hpp).
#include "closure/algorithms/chain_count.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <utility>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/max_words.hpp"
#include "closure/util/huge_pages.hpp"
#include "closure/util/trace.hpp"
#include "closure/util/uninitialized_allocator.hpp"

namespace closure {
namespace {

constexpr uint32_t kNone = SweepSlots::kNone;

// The rows of the chains tracked while covering, one column a tracked chain: the stored
// rows (slot-major) and two scratch rows, for rows no later row reads from a slot.
// A column a new chain takes must read zero in every row closed before: those rows'
// components lie above the chain and reach none of it. Stored rows are zeroed when next
// read, not when the column is taken: `taken` lists the columns in the order taken, and a
// slot's row has had the first `seen[slot]` zeroed. (Zeroing a column of every stored row
// at once was a third of the cover's time at 10M commits, a cache line a row.)
// The slots are not zeroed first: a slot's row is written whole when stored, before any read,
// and a cover that gives up early (too many chains) touches a few of them. Zeroed, 1.5M
// disjoint edges' 1.5M live rows cost 384 MB of fresh pages before the cover gave up after
// 256 chains (0.18 s on the H200 machine's host).
// The slots are taken as the cover goes (SlotSweep), so the stored rows grow with them.
struct TrackedRows {
  std::vector<uint32_t, UninitializedAllocator<uint32_t>> stored;
  std::vector<uint32_t> scratch[2];
  std::vector<uint32_t, UninitializedAllocator<uint32_t>> seen;
  std::vector<uint32_t> taken;
  TrackedRows()
      : scratch{std::vector<uint32_t>(kTrackedChains, 0),
                std::vector<uint32_t>(kTrackedChains, 0)} {}
  // Room for `slot`; whether the stored rows moved (pointers into them are then stale).
  bool make_room(uint32_t slot) {
    if (slot < seen.size()) return false;
    const size_t slots = std::max<size_t>(2 * seen.size(), size_t(slot) + 1);
    stored.resize(slots * kTrackedChains);
    seen.resize(slots);
    return true;
  }
  uint32_t* slot_row(uint32_t slot) { return stored.data() + size_t(slot) * kTrackedChains; }
  // A slot's row with the columns taken since it was stored zeroed.
  const uint32_t* read_slot(uint32_t slot) {
    uint32_t* row = slot_row(slot);
    for (size_t i = seen[slot]; i < taken.size(); ++i) row[taken[i]] = 0;
    seen[slot] = uint32_t(taken.size());
    return row;
  }
  // Row `row` stored in `slot`, current as of now.
  void mark_stored(uint32_t slot) { seen[slot] = uint32_t(taken.size()); }
  bool is_scratch(const uint32_t* row) const {
    return row == scratch[0].data() || row == scratch[1].data();
  }
};

// Row c over the tracked chains from its successors' rows (their own numbers aside): where
// it can be made without a copy when c has one successor d (c takes d's slot, or d's
// scratch row, as d's last reader), else in the scratch row `prev` (the row just closed,
// c + 1's) is not. On a history most components have one parent: no maximum over the row.
uint32_t* successors_row(const CsrDag& dag, size_t c, const SweepSlots& slots, TrackedRows& rows,
                         const uint32_t* prev) {
  const uint64_t e0 = dag.offsets[c], e1 = dag.offsets[c + 1];
  uint32_t* free_scratch = rows.scratch[prev == rows.scratch[0].data() ? 1 : 0].data();
  // The row just closed needs no zeroing: no column was taken since.
  auto row_of = [&](size_t d) -> const uint32_t* {
    return d == c + 1 ? prev : rows.read_slot(slots.slot[d]);
  };
  if (e1 - e0 == 1) {
    const uint32_t* src = row_of(dag.targets[e0]);
    uint32_t* cur = slots.slot[c] != kNone ? rows.slot_row(slots.slot[c])
                    : rows.is_scratch(src) ? const_cast<uint32_t*>(src)
                                           : free_scratch;
    if (cur != src) std::copy(src, src + kTrackedChains, cur);
    return cur;
  }
  // Made in scratch: a slot c takes may still hold a successor's row being read.
  std::fill(free_scratch, free_scratch + kTrackedChains, 0u);
  for (uint64_t e = e0; e < e1; ++e)
    max_words(free_scratch, row_of(dag.targets[e]), kTrackedChains);
  return free_scratch;
}

// Which tracked chain a new chain takes: a free column, else the one extended longest ago,
// zeroed in `row`, the row being made, and in stored rows as they are next read.
size_t take_column(std::vector<uint32_t>& column_chain, std::vector<uint64_t>& column_used,
                   std::vector<uint32_t>& chain_column, TrackedRows& rows, uint32_t* row) {
  size_t s = 0;
  for (size_t i = 0; i < kTrackedChains; ++i) {
    if (column_chain[i] == kNone) return i;
    if (column_used[i] < column_used[s]) s = i;
  }
  chain_column[column_chain[s]] = kNone;
  rows.taken.push_back(uint32_t(s));
  row[s] = 0;
  return s;
}

// The tracked column whose chain's top row c reaches (its number there equals the top's),
// the top with the largest number first, the lowest column among equals; kTrackedChains if
// none. Two passes without branches or indirection over 64 columns: this ran for every
// component whose successors' chains had moved on (a commit beside its parent's first
// child), and its per-column look-ups of the chain's top were 45% of the cover's time.
size_t longest_reached_top(const uint32_t* __restrict cur, const uint32_t* __restrict top_through) {
  uint32_t longest = 0;  // the mask form vectorises (SSE2 has no unsigned maximum to select)
  for (size_t s = 0; s < kTrackedChains; ++s) {
    const uint32_t reached = cur[s] & (0u - uint32_t(cur[s] == top_through[s]));
    longest = std::max(longest, reached);
  }
  if (longest == 0) return kTrackedChains;
  size_t s = 0;
  while (cur[s] != longest || top_through[s] != longest) ++s;
  return s;
}

// The longest chain whose top row c (its tracked numbers in `cur`) reaches, or kNone: a
// successor's, else a tracked one. (On a history a merge then continues the line its first
// parent is on, as the long chains are the lines. A 1M-commit history in breadth-first ids
// took 425 chains so, against 1,134 taking the top with the fewest predecessors and 3,393
// the lowest id.)
// Where a cover is written: per component its chain and running sum (C long, the caller's:
// a stretch's cover writes into the joined cover's arrays), per chain its first component.
struct CoverOut {
  uint32_t* chain;
  uint32_t* through;
  std::vector<uint32_t>& first;
};

uint32_t longest_reached_chain(const CsrDag& dag, size_t c, const CoverOut& cover,
                               const std::vector<uint32_t>& top, const uint32_t* cur,
                               const std::vector<uint32_t>& top_through,
                               const std::vector<uint32_t>& column_chain) {
  uint32_t chain = kNone, longest = 0;
  for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
    const uint32_t d = dag.targets[e];
    if (top[cover.chain[d]] == d && (chain == kNone || cover.through[d] > longest))
      chain = cover.chain[d], longest = cover.through[d];
  }
  if (chain != kNone) return chain;
  const size_t s = longest_reached_top(cur, top_through.data());
  return s < kTrackedChains ? column_chain[s] : kNone;
}

}  // namespace

namespace {

// cover_by_chains() into `cover`; false where it stops.
bool cover_into(const CsrDag& dag, std::span<const uint32_t> sizes, SlotSweep& sweep,
                size_t most_chains, const CoverOut& cover) {
  const SweepSlots& slots = sweep.taken();
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  // The sweep's last readers checked the order (every edge c -> d with c < d < C).
  if (slots.slot.size() != C) throw InternalError("chains: the slots are another graph's");
  std::vector<uint32_t> top;           // per chain, its last component
  std::vector<uint32_t> chain_column;  // per chain, its tracked column or kNone
  std::vector<uint32_t> column_chain(kTrackedChains, kNone);
  std::vector<uint64_t> column_used(kTrackedChains, 0);
  // Per column, the number its chain's top holds (0: no chain): row c reaches that top
  // exactly when it holds the same number there.
  std::vector<uint32_t> top_through(kTrackedChains, 0);
  TrackedRows rows;
  const uint32_t* prev = rows.scratch[0].data();  // the row just closed
  // A chain begun past the 64 tracked zeroes a column of every row stored (as each is
  // next read): bounded to the work of the pass itself (a wide graph with many rows live
  // would otherwise pay chains x rows: 7 s for GRAIL's human, 38,811 components and 28,588
  // live rows). That is, at most 64 + zeroing / slots chains, the slots being the most
  // rows live; as they are known only at the end, the zeroing is also counted as it comes,
  // against the slots taken so far (which only stops a cover that the bound would stop).
  const uint64_t zeroing = kTrackedChains * (C + dag.targets.size());
  uint64_t zeroed = 0;
  for (size_t c = C; c-- > 0;) {
    const uint64_t e0 = dag.offsets[c], e1 = dag.offsets[c + 1];
    const uint32_t own_slot = sweep.close(dag, c);
    const bool stored = own_slot != kNone;
    if (stored && rows.make_room(own_slot) && !rows.is_scratch(prev))
      prev = rows.slot_row(slots.slot[c + 1]);
    uint32_t* cur = successors_row(dag, c, slots, rows, prev);
    for (uint64_t e = e0; e < e1; ++e) {
      const size_t d = dag.targets[e];
      const uint32_t s = chain_column[cover.chain[d]];
      if (s != kNone) cur[s] = std::max(cur[s], cover.through[d]);
    }
    uint32_t chain = longest_reached_chain(dag, c, cover, top, cur, top_through, column_chain);
    const uint32_t size = sizes.empty() ? 1 : sizes[c];
    if (chain == kNone) {
      if (cover.first.size() >= most_chains) return false;
      if (cover.first.size() >= kTrackedChains) {
        zeroed += sweep.taken().slots;
        if (zeroed > zeroing) return false;
      }
      chain = uint32_t(cover.first.size());
      cover.first.push_back(uint32_t(c));
      top.push_back(uint32_t(c));
      const size_t s = take_column(column_chain, column_used, chain_column, rows, cur);
      column_chain[s] = chain;
      chain_column.push_back(uint32_t(s));
      cover.through[c] = size;
    } else {
      cover.through[c] = cover.through[top[chain]] + size;
      top[chain] = uint32_t(c);
    }
    if (chain_column[chain] != kNone) top_through[chain_column[chain]] = cover.through[c];
    cover.chain[c] = chain;
    if (chain_column[chain] != kNone) column_used[chain_column[chain]] = C - c;
    if (stored) {
      uint32_t* own = rows.slot_row(slots.slot[c]);
      if (cur != own) std::copy(cur, cur + kTrackedChains, own);
      rows.mark_stored(slots.slot[c]);
      cur = own;
    }
    prev = cur;
  }
  if (cover.first.size() > kTrackedChains + zeroing / std::max<size_t>(1, slots.slots))
    return false;
  return true;
}

}  // namespace

std::optional<ChainCover> cover_by_chains(const CsrDag& dag, std::span<const uint32_t> sizes,
                                          SlotSweep& sweep, size_t most_chains) {
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  ChainCover cover;
  detail::resize_huge(cover.chain, C);
  detail::resize_huge(cover.through, C);
  if (!cover_into(dag, sizes, sweep, most_chains,
                  CoverOut{cover.chain.data(), cover.through.data(), cover.first}))
    return std::nullopt;
  return cover;
}

namespace {

// Stretch [a, b) of the ids as a DAG of its own: its rows with only the successors below b
// (the stretches below are covered on other threads), renumbered from 0. Throws
// InternalError unless every edge c -> d of the stretch has c < d < C (the join reads the
// successors beyond it).
CsrDag stretch_dag(const CsrDag& dag, size_t a, size_t b) {
  const size_t C = dag.offsets.size() - 1;
  CsrDag out;
  out.offsets.resize(b - a + 1);
  out.offsets[0] = 0;
  for (size_t c = a; c < b; ++c) {
    uint64_t n = 0;
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const size_t d = dag.targets[e];
      if (d <= c || d >= C)
        throw InternalError("chains: the condensation is not in topological order");
      n += d < b;
    }
    out.offsets[c - a + 1] = out.offsets[c - a] + n;
  }
  out.targets.resize(out.offsets.back());
  uint64_t at = 0;
  for (size_t c = a; c < b; ++c)
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e)
      if (dag.targets[e] < b) out.targets[at++] = vertex_t(dag.targets[e] - a);
  return out;
}

// A stretch's cover (its ids and chains its own) with each chain's top, its last component;
// the join adds, per chain, the joined chain it continues and the vertices below it there.
struct StretchCover {
  size_t begin = 0, end = 0;
  std::vector<uint32_t> first;  // per chain of the stretch, its first component (the stretch's id)
  std::vector<uint32_t> top;    // per chain of the stretch, its last component (the same)
  std::vector<uint32_t> joined, below;
};

// The stretches' chains joined from the lowest stretch (the highest ids) up, as one pass
// would have extended them by a successor that is a top (longest_reached_chain()'s first
// rule), `cover` holding each stretch's own chains and sums; returns the joined chains'
// first components, descending. (Searching 128 components below for a top reached, its
// second rule, joined 3 more chains of 387 on a 1M-commit history in 8 stretches: a
// stretch's chains there are not one pass's.)
std::vector<uint32_t> join_stretches(const CsrDag& dag, const ChainCover& cover,
                                     std::vector<StretchCover>& parts) {
  std::vector<uint32_t> first, top, top_through;  // per joined chain
  std::vector<size_t> begins;
  for (const StretchCover& s : parts) begins.push_back(s.begin);
  auto part_of = [&](size_t d) -> const StretchCover& {
    return parts[size_t(std::upper_bound(begins.begin(), begins.end(), d) - begins.begin()) - 1];
  };
  for (size_t p = parts.size(); p-- > 0;) {
    StretchCover& s = parts[p];
    const size_t K = s.first.size();
    s.joined.resize(K);
    s.below.resize(K);
    for (size_t k = 0; k < K; ++k) {
      const size_t f = s.begin + s.first[k];
      uint32_t onto = kNone, longest = 0;
      for (uint64_t e = dag.offsets[f]; e < dag.offsets[f + 1]; ++e) {
        const size_t d = dag.targets[e];
        if (d < s.end) continue;
        const uint32_t j = part_of(d).joined[cover.chain[d]];
        if (top[j] == d && (onto == kNone || top_through[j] > longest))
          onto = j, longest = top_through[j];
      }
      if (onto == kNone) {
        onto = uint32_t(first.size());
        first.push_back(uint32_t(f));
        top.push_back(0);
        top_through.push_back(0);
        longest = 0;
      }
      s.joined[k] = onto;
      s.below[k] = longest;
      top[onto] = uint32_t(s.begin + s.top[k]);
      top_through[onto] = cover.through[s.begin + s.top[k]] + longest;
    }
  }
  return first;
}

}  // namespace

std::optional<ChainCover> cover_by_chains_in_stretches(const CsrDag& dag,
                                                       std::span<const uint32_t> sizes,
                                                       size_t most_chains, size_t stretches) {
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  const size_t P = std::max<size_t>(1, std::min(stretches, C));
  std::vector<StretchCover> parts(P);
  // Each stretch writes its own chains and sums into its part of the cover's arrays; the
  // join renumbers them there.
  ChainCover out;
  detail::resize_huge(out.chain, C);
  detail::resize_huge(out.through, C);
  std::atomic<bool> stopped{false};
  parallel_chunks(P, 1, [&](size_t p0, size_t p1) {
    for (size_t p = p0; p < p1 && !stopped; ++p) {
      StretchCover& s = parts[p];
      s.begin = C * p / P;
      s.end = C * (p + 1) / P;
      const CsrDag part = stretch_dag(dag, s.begin, s.end);
      SlotSweep sweep(part);
      const CoverOut into{out.chain.data() + s.begin, out.through.data() + s.begin, s.first};
      if (!cover_into(part, sizes.empty() ? sizes : sizes.subspan(s.begin, s.end - s.begin), sweep,
                      most_chains, into)) {
        stopped = true;
        continue;
      }
      s.top.resize(s.first.size());
      for (size_t c = s.end; c-- > s.begin;) s.top[out.chain[c]] = uint32_t(c - s.begin);
    }
  });
  if (stopped) return std::nullopt;
  out.first = join_stretches(dag, out, parts);
  if (out.first.size() > most_chains) return std::nullopt;
  parallel_chunks(P, 1, [&](size_t p0, size_t p1) {
    for (size_t p = p0; p < p1; ++p) {
      const StretchCover& s = parts[p];
      for (size_t c = s.begin; c < s.end; ++c) {
        const uint32_t k = out.chain[c];
        out.chain[c] = s.joined[k];
        out.through[c] += s.below[k];
      }
    }
  });
  return out;
}

namespace {

// One slice's rows over chains [k0, k1): the stored ones with the ends of their set numbers
// (past them the row is zero and not read) and their sums, two scratch rows for rows no
// later row reads back from a slot, and where the row just closed lies.
struct SliceRows {
  std::vector<uint32_t> stored, scratch[2];
  std::vector<uint32_t> stored_end;
  std::vector<uint64_t> stored_sum;
  const uint32_t* prev = nullptr;  // the row just closed, in a slot or a scratch row
  uint32_t prev_end = 0;
  uint64_t prev_sum = 0;
  int free_scratch = 0;  // the scratch row prev is not
};

// Row c where its one successor d's row (src, end src_end, sum src_sum) and d's own number
// make it: in d's place when c takes d's slot (d's last reader, c, is done with it) or d's
// scratch row, else a copy. No maximum and no sum over the row: on a history most rows
// are one commit after its parent. *sum: the row's sum.
void one_successor_row(uint32_t* target, const uint32_t* src, size_t src_end, uint64_t src_sum,
                       size_t end, size_t own, uint32_t own_through, uint64_t* sum) {
  if (target != src) std::copy(src, src + src_end, target);
  std::fill(target + src_end, target + end, 0u);
  *sum = src_sum;
  if (own < end && target[own] < own_through) {
    *sum += own_through - target[own];
    target[own] = own_through;
  }
}

// Row c of several successors into `cur` (c's slot, or a scratch row), over `end` numbers;
// returns its sum. The first successor with numbers here is copied (no zeroing first); the
// last one's maximum also sums what it covers (a pass over the row less for each: merges are
// most of the count's work). The successor whose row `cur` holds (c took its slot as its
// last reader) is taken first, where its copy is no copy: built in a scratch row and copied
// to the slot, 10M commits' stored merges copied 5.8 GB of numbers on 2 slices.
uint64_t merged_row(const CsrDag& dag, size_t c, size_t top, size_t end, const ChainCover& cover,
                    size_t k0, size_t k1, const SweepSlots& s, const SliceRows& rows,
                    uint32_t* cur) {
  const uint64_t e0 = dag.offsets[c], e1 = dag.offsets[c + 1];
  auto row_of = [&](size_t d) {
    return d == c + 1 ? rows.prev : rows.stored.data() + size_t(s.slot[d]) * (k1 - k0);
  };
  size_t reading = 0;   // successors with numbers here (the others' rows are zero)
  uint64_t first = e1;  // the successor whose row is in `cur`, if any
  for (uint64_t e = e0; e < e1; ++e) {
    const size_t d = dag.targets[e];
    if (d > top) continue;
    ++reading;
    if (row_of(d) == cur) first = e;
  }
  if (reading == 0) std::fill(cur, cur + end, 0u);
  uint64_t sum = 0;
  size_t seen = 0, summed_end = 0;  // the last successor's maximum summed cur[0, summed_end)
  auto take = [&](size_t d) {
    const uint32_t* src = row_of(d);
    const size_t src_end = d == c + 1 ? rows.prev_end : rows.stored_end[s.slot[d]];
    ++seen;
    if (seen == 1) {
      if (src != cur) std::copy(src, src + src_end, cur);
      std::fill(cur + src_end, cur + end, 0u);
    } else if (seen < reading) {
      max_words(cur, src, src_end);
    } else {
      sum = max_words_and_sum(cur, src, src_end);
      summed_end = src_end;
    }
    const uint32_t chain = cover.chain[d];
    if (chain >= k0 && chain < k1) {
      uint32_t& own = cur[chain - k0];
      const uint32_t was = own;
      own = std::max(own, cover.through[d]);
      if (chain - k0 < summed_end) sum += own - was;
    }
  };
  if (first < e1) take(dag.targets[first]);
  for (uint64_t e = e0; e < e1; ++e)
    if (e != first && dag.targets[e] <= top) take(dag.targets[e]);
  return sum + sum_words(cur + summed_end, end - summed_end);
}

// Pairs of chains [k0, k1): every row from the slice's first chain's first component (rows
// above it reach none of its chains) down to 0. A chain's number in a row is zero until the
// chain has begun (rows above its first component), so a row's numbers end at the chains
// begun by then.
uint64_t count_slice(const CsrDag& dag, std::span<const uint32_t> sizes, const ChainCover& cover,
                     const SweepSlots& s, size_t k0, size_t k1, SliceRows& rows) {
  const size_t S = k1 - k0, top = cover.first[k0];
  // On huge pages: 10M commits' slices store 14,138 rows of 940 numbers, 53 MB a thread
  // (the process's page faults 80k -> 56k on 2 cores).
  detail::reserve_huge(rows.stored, s.slots * S);
  rows.stored.resize(s.slots * S);
  rows.stored_end.assign(s.slots, 0);
  rows.stored_sum.assign(s.slots, 0);
  rows.scratch[0].assign(S, 0);
  rows.scratch[1].assign(S, 0);
  rows.prev = rows.scratch[0].data();
  rows.prev_end = 0;
  rows.prev_sum = 0;
  rows.free_scratch = 1;
  uint64_t pairs = 0;
  size_t begun = k0;  // chains of the slice begun at or above row c
  auto stored_row = [&](size_t d) { return rows.stored.data() + s.slot[d] * S; };
  for (size_t c = top + 1; c-- > 0;) {
    while (begun < k1 && cover.first[begun] >= c) ++begun;
    const size_t end = begun - k0;
    const uint64_t e0 = dag.offsets[c], e1 = dag.offsets[c + 1];
    const bool stored = s.slot[c] != kNone;
    uint32_t* target = stored ? stored_row(c) : rows.scratch[rows.free_scratch].data();
    const uint32_t* row = target;
    uint64_t sum = 0;
    const size_t d1 = e1 - e0 == 1 ? dag.targets[e0] : 0;
    if (e1 - e0 == 1 && d1 <= top) {
      const bool just_closed = d1 == c + 1;
      const uint32_t* src = just_closed ? rows.prev : stored_row(d1);
      const size_t src_end = just_closed ? rows.prev_end : rows.stored_end[s.slot[d1]];
      const uint64_t src_sum = just_closed ? rows.prev_sum : rows.stored_sum[s.slot[d1]];
      // d's scratch row is c's to change: d's row is read by c alone (else it had a slot).
      if (!stored && (src == rows.scratch[0].data() || src == rows.scratch[1].data()))
        target = const_cast<uint32_t*>(src);
      const uint32_t chain = cover.chain[d1];
      const size_t own = chain >= k0 && chain < k1 ? chain - k0 : end;
      one_successor_row(target, src, src_end, src_sum, end, own, cover.through[d1], &sum);
      row = target;
    } else {
      sum = merged_row(dag, c, top, end, cover, k0, k1, s, rows, target);
    }
    pairs += sizes.empty() ? sum : sum * sizes[c];
    if (stored) {
      rows.stored_end[s.slot[c]] = uint32_t(end);
      rows.stored_sum[s.slot[c]] = sum;
    }
    rows.prev = row;
    rows.prev_end = uint32_t(end);
    rows.prev_sum = sum;
    // The scratch row prev is not, for the next row to build in.
    rows.free_scratch = row == rows.scratch[0].data() ? 1 : 0;
  }
  return pairs;
}

}  // namespace

uint64_t count_closure_by_chains(const CsrDag& dag, std::span<const uint32_t> sizes,
                                 const ChainCover& cover, const SweepSlots& slots,
                                 unsigned threads) {
  const size_t K = cover.chains();
  if (K == 0) return 0;
  // Numbers a slice sweeps: a chain's from its first component down, about first + 1 rows.
  std::vector<uint64_t> upto(K + 1, 0);
  for (size_t k = 0; k < K; ++k) upto[k + 1] = upto[k] + cover.first[k] + 1;
  const uint64_t numbers = upto[K];
  // A sweep under about a millisecond (2^22 numbers) stays on this thread: the pool's start
  // costs more.
  const unsigned T = threads                         ? threads
                     : numbers < (uint64_t{1} << 22) ? 1u
                                                     : std::max(1u, thread_budget());
  // One slice a thread, of equal numbers (the first chains sweep the most rows), each of 16
  // chains at least: every slice visits every row and edge again, a fixed cost that two
  // slices a thread doubled (10M commits: about 0.12 s of CPU a slice, against 0.64 s for
  // all the chains' numbers; 4 slices on 2 threads counted in 0.56 s, 2 in 0.49).
  const size_t P = std::max<size_t>(1, std::min<size_t>(size_t(T), K / 16));
  std::vector<size_t> bound{0};
  for (size_t p = 1; p < P; ++p) {
    const uint64_t want = numbers * p / P;
    const size_t k = size_t(std::lower_bound(upto.begin(), upto.end(), want) - upto.begin());
    if (k > bound.back() && k < K) bound.push_back(k);
  }
  bound.push_back(K);
  const size_t slices = bound.size() - 1;
  auto slice = [&](size_t i, SliceRows& rows) {
    return count_slice(dag, sizes, cover, slots, bound[i], bound[i + 1], rows);
  };
  if (T <= 1 || slices == 1) {
    SliceRows rows;
    uint64_t total = 0;
    for (size_t i = 0; i < slices; ++i) total += slice(i, rows);
    return total;
  }
  tbb::enumerable_thread_specific<SliceRows> rows;
  std::atomic<uint64_t> total{0};
  tbb::parallel_for(size_t{0}, slices, [&](size_t i) { total += slice(i, rows.local()); });
  return total.load();
}

namespace {

using Ids = std::vector<uint32_t, UninitializedAllocator<uint32_t>>;

// Components by generation, highest first, ties in id order (a stable counting sort); gen[c]
// becomes c's new id. Each thread counts and places its own stretch of ids into buckets of
// 2^shift generations, shift the least that keeps the threads' counters within the ids (a
// history has about one generation for two commits: 10M commits 4.6M, so 16 threads take
// buckets of 8); where shift > 0, each bucket is then sorted by its generations' low bits
// on its own, on threads. On 16 threads the one-bucket-a-generation sort had to stay on 2
// (0.043 s of 10M commits, H100 host).
Ids sort_by_generation(Ids& gen, uint32_t highest) {
  const size_t C = gen.size(), G = size_t(highest) + 1;
  // A stretch of 2^18 ids at least (below, one thread: a 200k-commit history's sort on 3
  // took longer, its work a fraction of a millisecond), and at most 128 stretches: with
  // G <= C, buckets of 2^8 generations then always fit (128 (G / 256 + 1) <= C), so a
  // generation's low part is a byte.
  constexpr size_t kLeastStretch = size_t{1} << 18;
  const size_t P = std::clamp<size_t>(std::min<size_t>(thread_budget(), C / kLeastStretch), 1, 128);
  unsigned shift = 0;
  while (P * (((G - 1) >> shift) + 1) > std::max(C, G)) ++shift;
  const size_t B = ((G - 1) >> shift) + 1;  // buckets
  if (shift > 8) throw InternalError("chains: more generations than components");
  const uint32_t low_mask = (uint32_t{1} << shift) - 1;
  Ids at;  // at[p * B + b]: stretch p's ids of bucket b
  detail::resize_huge(at, P * B);
  parallel_chunks(at.size(), size_t{1} << 20, [&](size_t a, size_t b) {
    std::fill(at.begin() + int64_t(a), at.begin() + int64_t(b), 0);
  });
  auto stretch = [&](size_t p, auto&& visit) {
    for (size_t c = C * p / P; c < C * (p + 1) / P; ++c) {
      const uint32_t key = highest - gen[c];
      visit(c, key, at[p * B + (key >> shift)]);
    }
  };
  parallel_chunks(P, 1, [&](size_t p0, size_t p1) {
    for (size_t p = p0; p < p1; ++p) stretch(p, [](size_t, uint32_t, uint32_t& count) { ++count; });
  });
  // Where each bucket begins, for the second pass (none where every bucket is one generation).
  std::vector<uint32_t> bucket_begin(shift ? B + 1 : 0, uint32_t(C));
  uint32_t next = 0;  // bucket by bucket, the stretches in order within each
  for (size_t b = 0; b < B; ++b) {
    if (shift) bucket_begin[b] = next;
    for (size_t p = 0; p < P; ++p) next += std::exchange(at[p * B + b], next);
  }
  Ids order;
  detail::resize_huge(order, C);
  if (shift == 0) {
    parallel_chunks(P, 1, [&](size_t p0, size_t p1) {
      for (size_t p = p0; p < p1; ++p)
        stretch(p, [&](size_t c, uint32_t, uint32_t& place) {
          order[place] = uint32_t(c);
          gen[c] = place++;
        });
    });
    return order;
  }
  // By bucket first (ids ascending within each), then each bucket by its keys' low bits.
  Ids by_bucket;
  detail::resize_huge(by_bucket, C);
  std::vector<uint8_t, UninitializedAllocator<uint8_t>> low;  // each written before read
  detail::resize_huge(low, C);
  parallel_chunks(P, 1, [&](size_t p0, size_t p1) {
    for (size_t p = p0; p < p1; ++p)
      stretch(p, [&](size_t c, uint32_t key, uint32_t& place) {
        by_bucket[place] = uint32_t(c);
        low[place++] = uint8_t(key & low_mask);
      });
  });
  parallel_chunks(B, size_t{1} << 12, [&](size_t b0, size_t b1) {
    std::vector<uint32_t> fill(size_t{1} << shift);
    for (size_t b = b0; b < b1; ++b) {
      std::fill(fill.begin(), fill.end(), 0);
      for (uint32_t i = bucket_begin[b]; i < bucket_begin[b + 1]; ++i) ++fill[low[i]];
      uint32_t place = bucket_begin[b];
      for (uint32_t& f : fill) place += std::exchange(f, place);
      for (uint32_t i = bucket_begin[b]; i < bucket_begin[b + 1]; ++i) {
        const uint32_t c = by_bucket[i], to = fill[low[i]]++;
        order[to] = c;
        gen[c] = to;
      }
    }
  });
  return order;
}

// Offsets from row lengths in place (offsets[i + 1] holds row i's length, offsets[0] 0):
// each chunk's sum on threads, the chunks' bases in order, then each chunk's running sum.
void lengths_to_offsets(std::span<uint64_t> offsets) {
  const size_t n = offsets.size() - 1;
  constexpr size_t kChunk = size_t{1} << 18;
  const size_t chunks = (n + kChunk - 1) / kChunk;
  if (chunks <= 1) {
    for (size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
    return;
  }
  std::vector<uint64_t> base(chunks + 1, 0);
  parallel_chunks(chunks, 1, [&](size_t a, size_t b) {
    for (size_t k = a; k < b; ++k)
      for (size_t i = k * kChunk; i < std::min(n, (k + 1) * kChunk); ++i)
        base[k + 1] += offsets[i + 1];
  });
  for (size_t k = 0; k < chunks; ++k) base[k + 1] += base[k];
  parallel_chunks(chunks, 1, [&](size_t a, size_t b) {
    for (size_t k = a; k < b; ++k) {
      uint64_t sum = base[k];
      for (size_t i = k * kChunk; i < std::min(n, (k + 1) * kChunk); ++i)
        offsets[i + 1] = sum += offsets[i + 1];
    }
  });
}

}  // namespace

// Every array a fresh one on huge pages, first touched on threads: at 10M commits their
// 4 KiB pages' faults were a third of this function's time (2-core, 0.07 of 0.22 s).
RelabelledDag generation_ids(const CsrDag& dag, std::span<const uint32_t> sizes) {
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  // Generation numbers: the longest path down to a sink (git's commit-graph has them).
  Ids gen;  // each written before it is read
  detail::resize_huge(gen, C);
  uint32_t highest = 0;
  for (size_t c = C; c-- > 0;) {
    uint32_t g = 0;
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const vertex_t d = dag.targets[e];
      if (d <= c || d >= C)
        throw InternalError("chains: the condensation is not in topological order");
      g = std::max(g, gen[d] + 1);
    }
    gen[c] = g;
    highest = std::max(highest, g);
  }
  trace("chains: heights");
  const Ids order = sort_by_generation(gen, highest);
  trace("chains: sorted by generation");
  const Ids& id = gen;
  // The rows in the new order, on threads: each new row's length, their sums, then the rows.
  RelabelledDag out;
  detail::resize_huge(out.dag.offsets, C + 1);
  detail::resize_huge(out.dag.targets, dag.targets.size());
  out.dag.offsets[0] = 0;
  constexpr size_t kGrain = size_t{1} << 16;
  parallel_chunks(C, kGrain, [&](size_t a, size_t b) {
    for (size_t i = a; i < b; ++i)
      out.dag.offsets[i + 1] = dag.offsets[order[i] + 1] - dag.offsets[order[i]];
  });
  lengths_to_offsets(out.dag.offsets);
  parallel_chunks(C, kGrain, [&](size_t a, size_t b) {
    for (size_t i = a; i < b; ++i) {
      uint64_t at = out.dag.offsets[i];
      for (uint64_t e = dag.offsets[order[i]]; e < dag.offsets[order[i] + 1]; ++e)
        out.dag.targets[at++] = id[dag.targets[e]];
    }
  });
  if (!sizes.empty()) {
    out.sizes.resize(C);
    parallel_chunks(C, kGrain, [&](size_t a, size_t b) {
      for (size_t i = a; i < b; ++i) out.sizes[i] = sizes[order[i]];
    });
  }
  return out;
}

std::optional<ChainCounting> prepare_chain_count(const CsrDag& dag, std::span<const uint32_t> sizes,
                                                 size_t most_chains, size_t stretches) {
  ChainCounting out;
  out.ids = generation_ids(dag, sizes);
  trace("chains: generation ids");
  const CsrDag& ids = out.ids.dag;
  const size_t C = ids.offsets.size() - 1;
  const size_t P = stretches ? stretches : cover_stretches(C, thread_budget());
  std::optional<ChainCover> cover;
  if (P <= 1) {
    SlotSweep sweep(ids);
    trace("chains: last readers");
    cover = cover_by_chains(ids, out.ids.sizes, sweep, most_chains);
    if (cover) out.slots = std::move(sweep).finish();
  } else {
    // The live rows' pass is serial: on a thread beside the stretches' covers, given up
    // with them.
    std::atomic<bool> stopped{false};
    run_pair(
        [&] {
          out.slots = sweep_slots(ids, &stopped);
          trace("chains: live rows' slots");
        },
        [&] {
          try {
            cover = cover_by_chains_in_stretches(ids, out.ids.sizes, most_chains, P);
          } catch (...) {
            stopped = true;
            throw;
          }
          if (!cover) stopped = true;
          trace("chains: stretches covered");
        });
  }
  trace("chains: covered");
  if (!cover) return std::nullopt;
  out.cover = std::move(*cover);
  return out;
}

uint64_t count_closure_by_chains(const ChainCounting& prepared, unsigned threads) {
  const uint64_t pairs = count_closure_by_chains(prepared.ids.dag, prepared.ids.sizes,
                                                 prepared.cover, prepared.slots, threads);
  trace("chains: counted");
  return pairs;
}

std::optional<uint64_t> count_closure_by_chains(const CsrDag& dag, std::span<const uint32_t> sizes,
                                                size_t most_chains, unsigned threads,
                                                size_t* chains) {
  const std::optional<ChainCounting> prepared = prepare_chain_count(dag, sizes, most_chains);
  if (!prepared) return std::nullopt;
  if (chains) *chains = prepared->cover.chains();
  return count_closure_by_chains(*prepared, threads);
}

}  // namespace closure
