// Building the reachability index and answering queries with it.
#include "closure/reach/reach_index.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "closure/algorithms/scc.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/util/huge_pages.hpp"

namespace closure::reach {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Post-order numbers of an iterative DFS forest over the rows of (offsets, targets),
// started from `roots` in the order given; tree_low[c] = the first post number of c's
// subtree, so the subtree is exactly the post numbers [tree_low[c], post[c]].
//
// Each component descends first into its unvisited successor of highest `height` (the
// longest path onward), then into the rest in row order. The long chains then become tree
// spines and their subtrees hold what they reach: on a commit history the first-parent
// line is followed to the root before any topic branch, so a main-line commit's interval
// contains its whole past, where row order let the branches claim it first and left
// queries to searches of tens of thousands of components (measured at 10M commits).
void dfs_forest(size_t count, const uint32_t* offsets, const uint32_t* targets,
                const std::vector<uint32_t>& height, const std::vector<uint32_t>& roots,
                std::vector<uint32_t>& post, std::vector<uint32_t>& tree_low) {
  constexpr uint32_t kUnseen = UINT32_MAX, kNoEdge = UINT32_MAX;
  post = detail::huge_filled<uint32_t>(count, kUnseen);
  tree_low = detail::huge_filled<uint32_t>(count, 0);
  struct Frame {
    uint32_t node, next, end, first, skip;  // first: the edge to take before the others
  };
  std::vector<Frame> stack;
  uint32_t counter = 0;
  auto push = [&](uint32_t w) {
    post[w] = kUnseen - 1;  // seen, not finished
    tree_low[w] = counter;
    // One scan finds the highest successor; its loads are independent, so their cache
    // misses overlap, and the DFS later finds those lines cached.
    uint32_t best = kNoEdge, best_height = 0;
    for (uint32_t i = offsets[w], e = offsets[w + 1]; i < e; ++i) {
      const uint32_t t = targets[i];
      if (post[t] == kUnseen && (best == kNoEdge || height[t] > best_height)) {
        best = i;
        best_height = height[t];
      }
    }
    stack.push_back({w, offsets[w], offsets[w + 1], best, best});
  };
  for (uint32_t r : roots) {
    if (post[r] != kUnseen) continue;
    push(r);
    while (!stack.empty()) {
      Frame& f = stack.back();
      uint32_t i = kNoEdge;
      if (f.first != kNoEdge) {
        i = f.first;
        f.first = kNoEdge;
      } else {
        if (f.next == f.skip) ++f.next;
        if (f.next < f.end) i = f.next++;
      }
      if (i != kNoEdge) {
        const uint32_t w = targets[i];
        if (post[w] == kUnseen) push(w);  // invalidates f
      } else {
        post[f.node] = counter++;
        stack.pop_back();
      }
    }
  }
}

// Roots for a forest: the components with no incoming rows by descending height, so the
// longest chain is the first tree's spine. The condensation is a DAG, so every component
// is reached from one of them.
std::vector<uint32_t> roots_by_height(size_t count, const std::vector<uint32_t>& height,
                                      const std::vector<uint8_t>& has_pred) {
  std::vector<uint32_t> roots;
  for (uint32_t c = 0; c < count; ++c)
    if (!has_pred[c]) roots.push_back(c);
  std::stable_sort(roots.begin(), roots.end(),
                   [&](uint32_t a, uint32_t b) { return height[a] > height[b]; });
  return roots;
}

// Reverse CSR of a DAG whose rows are ascending: predecessors of each row come out
// ascending too (filled by walking sources in ascending order).
void reverse_csr(size_t count, const std::vector<uint32_t>& offsets,
                 const std::vector<uint32_t>& targets, std::vector<uint32_t>& roff,
                 std::vector<uint32_t>& rtar) {
  roff = detail::huge_filled<uint32_t>(count + 1, 0);
  for (uint32_t t : targets) ++roff[t + 1];
  for (size_t c = 0; c < count; ++c) roff[c + 1] += roff[c];
  rtar = detail::huge_filled<uint32_t>(targets.size(), 0);
  // roff[t] serves as row t's write cursor, which leaves it at row t + 1's start; shifting
  // the array back by one restores it (no second n-sized array).
  for (uint32_t c = 0; c < count; ++c)
    for (uint32_t i = offsets[c]; i < offsets[c + 1]; ++i) rtar[roff[targets[i]]++] = c;
  for (size_t c = count; c > 0; --c) roff[c] = roff[c - 1];
  roff[0] = 0;
}

bool labels_are_identity(const Graph& g) {
  return g.labels().identity();
}

}  // namespace

IndexView IndexData::view() const {
  IndexView v;
  v.vertices = vertices;
  v.components = labels.size();
  v.edges = targets.size();
  v.supportive = supportive;
  v.component_of = component_of.data();
  v.labels = labels.data();
  v.offsets = offsets.data();
  v.targets = targets.data();
  v.identity_labels = identity_labels;
  if (!identity_labels) {
    v.label_offsets = label_offsets.data();
    v.label_bytes = label_bytes.data();
    v.label_byte_count = label_bytes.size();
    v.name_slots = name_slots.data();
    v.name_seed = name_seed;
  }
  return v;
}

namespace {

// The components and the condensation's CSR, moved into `out`; split out so build_index reads
// as its four stages. Returns the per-component cyclic flags, which the labels need last.
std::vector<uint8_t> condense_into(const Graph& g, IndexData& out, BuildReport& r) {
  auto t0 = std::chrono::steady_clock::now();
  Condensation condensed = condense(g);
  SccResult scc = std::move(condensed.scc);
  CsrDag csr = std::move(condensed.dag);
  r.scc_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  {
    if (csr.targets.size() >= UINT32_MAX)
      throw ResourceError(
          "the condensation has more than 2^32 - 1 edges; the index "
          "stores 32-bit edge offsets");
    detail::reserve_huge(out.offsets, csr.offsets.size());
    out.offsets.assign(csr.offsets.begin(), csr.offsets.end());
    out.targets = std::move(csr.targets);
    csr = {};
  }
  out.component_of = std::move(scc.component_of);
  r.condense_s = seconds_since(t0);
  return std::move(scc.cyclic);
}

// The two DFS forests (post numbers and subtree starts), one per direction; split out of
// build_index so the two halves can run on two threads without sharing state.
struct Forests {
  std::vector<uint32_t> roff, rtar;  // the reverse CSR, built by the backward half
  std::vector<uint32_t> post_f, low_f, post_b, low_b;
};

// Forward half: heights (longest path to a sink), then the DFS from the sources.
void forward_forest(size_t C, const uint32_t* off, const uint32_t* tar, Forests& f) {
  std::vector<uint32_t> height = detail::huge_filled<uint32_t>(C, 0);
  std::vector<uint8_t> has_pred = detail::huge_filled<uint8_t>(C, 0);
  for (size_t k = C; k-- > 0;) {
    uint32_t h = 0;
    for (uint32_t i = off[k]; i < off[k + 1]; ++i) {
      h = std::max(h, height[tar[i]] + 1);
      has_pred[tar[i]] = 1;
    }
    height[k] = h;
  }
  dfs_forest(C, off, tar, height, roots_by_height(C, height, has_pred), f.post_f, f.low_f);
}

// Backward half: the reverse graph, its heights (longest path from a source) and its
// forest from the sinks.
void backward_forest(size_t C, const IndexData& out, Forests& f) {
  reverse_csr(C, out.offsets, out.targets, f.roff, f.rtar);
  const std::vector<uint32_t>& roff = f.roff;
  const std::vector<uint32_t>& rtar = f.rtar;
  std::vector<uint32_t> depth = detail::huge_filled<uint32_t>(C, 0);
  std::vector<uint8_t> has_succ = detail::huge_filled<uint8_t>(C, 0);
  for (uint32_t c = 0; c < C; ++c) {
    uint32_t d = 0;
    for (uint32_t i = roff[c]; i < roff[c + 1]; ++i) {
      d = std::max(d, depth[rtar[i]] + 1);
      has_succ[rtar[i]] = 1;
    }
    depth[c] = d;
  }
  dfs_forest(C, roff.data(), rtar.data(), depth, roots_by_height(C, depth, has_succ), f.post_b,
             f.low_b);
}

// Both forests, on two threads when the graph is large enough to pay for the second one.
void build_forests(const BuildOptions& options, const IndexData& out, Forests& f) {
  const size_t C = out.labels.size();
  const uint32_t* off = out.offsets.data();
  const uint32_t* tar = out.targets.data();
  auto forward = [&] { forward_forest(C, off, tar, f); };
  auto backward = [&] { backward_forest(C, out, f); };
  if (options.threads && C > 100000) {
    run_pair(backward, forward);
  } else {
    forward();
    backward();
  }
}

// Seeds the supportive components' exact bits; kept apart from the Bloom seeds because it
// is the one place that ranks components.
// Supportive components are the highest (in+1)(out+1) degree products, O'Reach's choice
// (weighting by depth changed nothing measurable on random DAGs, where reach sets are
// small and no hub decides many pairs; the Bloom bits are what decide there).
void seed_supportive(IndexData& out, const Forests& f) {
  if (out.supportive == 0) return;
  const size_t C = out.labels.size();
  const uint32_t* off = out.offsets.data();
  const std::vector<uint32_t>& roff = f.roff;
  ComponentLabel* L = out.labels.data();
  // The top k by one pass with a k-entry list (k <= 32): no sort of all C components.
  const uint32_t k = out.supportive;
  std::vector<std::pair<double, uint32_t>> top;  // best first; ties: smaller id first
  top.reserve(k + 1);
  for (uint32_t c = 0; c < C; ++c) {
    const double score = double(off[c + 1] - off[c] + 1) * double(roff[c + 1] - roff[c] + 1);
    if (top.size() == k && score <= top.back().first) continue;
    auto at = std::upper_bound(top.begin(), top.end(), score,
                               [](double s, const auto& e) { return s > e.first; });
    top.insert(at, {score, c});
    if (top.size() > k) top.pop_back();
  }
  for (uint32_t i = 0; i < k; ++i) {
    L[top[i].second].sup_fwd = uint32_t{1} << i;
    L[top[i].second].sup_bwd = uint32_t{1} << i;
  }
}

// Copies the forests' numbers into the labels and seeds each component's own Bloom bits;
// separate from the passes that spread them, which need every seed in place first.
void seed_intervals_and_bloom(IndexData& out, const Forests& f) {
  const size_t C = out.labels.size();
  ComponentLabel* L = out.labels.data();
  // Runs of about C/1000 post numbers share a bit (BFL hashes DFS intervals, not vertices:
  // a reach set then covers few runs); measured on a random 1M-vertex DAG, runs of 100 to
  // 1000 decided the same share, single vertices (no runs) and 5000 fewer.
  const uint64_t run = std::max<uint64_t>(1, C / (uint64_t{kBloomBits} * 16));
  auto bloom_bit = [run](uint32_t post) {
    uint64_t x = (post / run + 1) * 0x9E3779B97F4A7C15ull;
    return uint64_t{1} << ((x >> 32) % kBloomBits);
  };
  for (uint32_t c = 0; c < C; ++c) {
    L[c].post_f = f.post_f[c];
    L[c].tree_low_f = f.low_f[c];
    L[c].post_b = f.post_b[c];
    L[c].tree_low_b = f.low_b[c];
    L[c].bloom_in = bloom_bit(f.post_b[c]);
    L[c].bloom_out = bloom_bit(f.post_f[c]);
  }
}

// Ascending (topological) pass: what flows from predecessors (backward reach_low,
// ancestors' Bloom bits, supportive components reaching c).
void flow_from_predecessors(IndexData& out, const Forests& f) {
  const size_t C = out.labels.size();
  ComponentLabel* L = out.labels.data();
  const std::vector<uint32_t>& roff = f.roff;
  const std::vector<uint32_t>& rtar = f.rtar;
  for (uint32_t c = 0; c < C; ++c) {
    ComponentLabel& a = L[c];
    uint32_t rl = a.post_b, sf = a.sup_fwd;
    uint64_t in = a.bloom_in;
    for (uint32_t i = roff[c]; i < roff[c + 1]; ++i) {
      const ComponentLabel& p = L[rtar[i]];
      rl = std::min(rl, p.reach_low_b);
      in |= p.bloom_in;
      sf |= p.sup_fwd;
    }
    a.reach_low_b = rl;
    a.bloom_in = in;
    a.sup_fwd = sf;
  }
}

// Descending pass: what flows from successors (the mirror of flow_from_predecessors).
void flow_from_successors(IndexData& out) {
  const size_t C = out.labels.size();
  ComponentLabel* L = out.labels.data();
  const uint32_t* off = out.offsets.data();
  const uint32_t* tar = out.targets.data();
  for (size_t k = C; k-- > 0;) {
    ComponentLabel& a = L[k];
    uint32_t rl = a.post_f, sb = a.sup_bwd;
    uint64_t o = a.bloom_out;
    for (uint32_t i = off[k]; i < off[k + 1]; ++i) {
      const ComponentLabel& b = L[tar[i]];
      rl = std::min(rl, b.reach_low_f);
      o |= b.bloom_out;
      sb |= b.sup_bwd;
    }
    a.reach_low_f = rl;
    a.bloom_out = o;
    a.sup_bwd = sb;
  }
}

// Every component's label from the condensation in `out`; the labels stage of build_index.
void build_labels(const BuildOptions& options, const std::vector<uint8_t>& cyclic, IndexData& out) {
  const size_t C = cyclic.size();
  out.labels = detail::huge_filled<ComponentLabel>(C, ComponentLabel{});
  out.supportive =
      std::min<uint32_t>(out.supportive, uint32_t(std::min<size_t>(C, kMaxSupportive)));
  Forests f;
  build_forests(options, out, f);
  // Seeds: the supportive components' exact bits, then every component's Bloom bits.
  seed_supportive(out, f);
  seed_intervals_and_bloom(out, f);
  flow_from_predecessors(out, f);
  flow_from_successors(out);
  // The cyclic flag last, so that it never flowed along with the Bloom bits.
  ComponentLabel* L = out.labels.data();
  for (uint32_t c = 0; c < C; ++c)
    if (cyclic[c]) L[c].bloom_in |= kCyclicBit;
}

// Names: nothing when vertex v is called "v"; else the bytes, their offsets and a hash
// table stored with them (name_table.hpp), so a mapped file needs nothing built at load.
void store_names(const Graph& g, IndexData& out) {
  out.identity_labels = labels_are_identity(g);
  if (out.identity_labels) return;
  const VertexLabels& names = g.labels();
  out.label_offsets.resize(names.size() + 1);
  for (size_t v = 0; v < names.size(); ++v) {
    out.label_offsets[v] = out.label_bytes.size();
    names.append(v, out.label_bytes);
  }
  out.label_offsets[names.size()] = out.label_bytes.size();
  out.name_seed = name_seed(out.label_bytes);
  out.name_slots = build_name_slots(out.label_offsets.data(), out.label_bytes.data(), names.size(),
                                    out.name_seed);
}

}  // namespace

IndexData build_index(const Graph& g, const BuildOptions& options, BuildReport* report) {
  const auto t_start = std::chrono::steady_clock::now();
  BuildReport r;
  IndexData out;
  out.vertices = g.vertex_count();
  out.supportive = std::min<uint32_t>(options.supportive, kMaxSupportive);

  const std::vector<uint8_t> cyclic = condense_into(g, out, r);

  auto t0 = std::chrono::steady_clock::now();
  build_labels(options, cyclic, out);
  r.labels_s = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  store_names(g, out);
  r.names_s = seconds_since(t0);
  r.total_s = seconds_since(t_start);
  if (report) *report = r;
  return out;
}

ReachIndex::ReachIndex(IndexData data) : owned_(std::move(data)) {
  view_ = owned_->view();
  make_keys();
}

ReachIndex::ReachIndex(const IndexView& view, void* mapping, size_t mapping_bytes)
    : view_(view), mapping_(mapping), mapping_bytes_(mapping_bytes) {
  make_keys();
}

void ReachIndex::make_keys() {
  if (view_.components >= kMaxKeyedComponents) return;  // the order would not fit
  keys_.reset(new VertexKey[view_.vertices]);
  // Huge pages: in a virtual machine each 4 KiB page's first touch was most of the gather.
  detail::advise_huge_pages(keys_.get(), view_.vertices * sizeof(VertexKey));
  const uint32_t* comp = view_.component_of;
  const ComponentLabel* L = view_.labels;
  auto gather = [&](size_t first, size_t last) {
    for (size_t v = first; v < last; ++v) {
      // A gather over the labels: requested ahead, their misses overlap.
      if (v + 16 < last) __builtin_prefetch(L + comp[v + 16]);
      const ComponentLabel& l = L[comp[v]];
      keys_[v] = make_key(comp[v], l);
    }
  };
  // On threads only when the gather outweighs starting them (a query on a small index
  // would otherwise wait for the thread pool).
  if (view_.vertices < (size_t{1} << 18))
    gather(0, view_.vertices);
  else
    parallel_chunks(view_.vertices, size_t{1} << 16, gather);
}

const SupportiveKey* ReachIndex::supportive_keys() const {
  if (!keys_) return nullptr;
  std::call_once(supportive_once_, [&] {
    const size_t n = view_.vertices;
    supportive_keys_.reset(new SupportiveKey[n]);
    detail::advise_huge_pages(supportive_keys_.get(), n * sizeof(SupportiveKey));
    for (size_t v = 0; v < n; ++v) supportive_keys_[v] = {keys_[v].src[6], keys_[v].dst[6]};
  });
  return supportive_keys_.get();
}

ReachIndex::~ReachIndex() {
  if (mapping_) ::munmap(mapping_, mapping_bytes_);
}

std::optional<vertex_t> ReachIndex::find(std::string_view label) const {
  if (view_.identity_labels) {
    const vertex_t v = numbered_vertex(label, view_.vertices);
    if (v == ~vertex_t{0}) return std::nullopt;
    return v;
  }
  return names().find(label);
}

NameTable ReachIndex::names() const {
  NameTable t;
  if (view_.identity_labels) return t;
  t.slots = view_.name_slots;
  t.slot_count = name_slot_count(view_.vertices);
  t.seed = view_.name_seed;
  t.label_offsets = view_.label_offsets;
  t.label_bytes = view_.label_bytes;
  return t;
}

std::string ReachIndex::label(vertex_t v) const {
  if (view_.identity_labels) return std::to_string(v);
  return std::string(view_.label_bytes + view_.label_offsets[v],
                     view_.label_offsets[v + 1] - view_.label_offsets[v]);
}

uint64_t ReachIndex::label_bytes() const {
  return view_.components * sizeof(ComponentLabel) + view_.vertices * 4;
}

uint64_t ReachIndex::graph_bytes() const {
  return (view_.components + 1) * 4 + view_.edges * 4;
}

Querier::Querier(const ReachIndex& index)
    : index_(index),
      view_(index.view()),
      comp_(index.view().component_of),
      keys_(index.keys()),
      labels_(index.view().labels),
      lone_path_(keys_ ? LonePath::kAllTests : LonePath::kNoKeys) {}

void Querier::lone_sample(bool supportive) {
  lone_hits_ += supportive;
  if (++lone_sampled_ < 16) return;
  if (lone_hits_ >= 15) {
    lone_supportive_samples_ += lone_sampled_;
    if (!supportive_keys_ && lone_supportive_samples_ >= view_.vertices)
      supportive_keys_ = index_.supportive_keys();
    if (supportive_keys_) lone_path_ = LonePath::kSupportiveFirst;
    lone_misses_ = 0, lone_sampled_since_misses_ = 0;
  }
  lone_sampled_ = lone_hits_ = 0;
}

void Querier::lone_sample_asked_first(bool supportive) {
  ++lone_sampled_since_misses_;
  lone_hits_ += supportive;
  if (++lone_sampled_ < 16) return;
  if (lone_hits_ < 15) lone_path_ = LonePath::kAllTests;
  lone_sampled_ = lone_hits_ = 0;
}

bool Querier::reaches_sampled_asked_first(vertex_t u, vertex_t v) {
  const bool yes = supportive_yes(u, v, supportive_keys_[u], supportive_keys_[v]);
  lone_sample_asked_first(yes);
  if (yes) return true;
  lone_missed();
  return reaches_keyed(u, v);
}

void Querier::lone_missed() {
  if (++lone_misses_ < 16) return;
  // 16 misses in about 64 x the calls sampled: more than 1 in 16 of them, every test again.
  if (lone_misses_ > lone_sampled_since_misses_ * 4) {
    lone_path_ = LonePath::kAllTests;
    lone_sampled_ = lone_hits_ = 0;
  }
  lone_misses_ = 0, lone_sampled_since_misses_ = 0;
}

bool Querier::after_keys(uint32_t cu, uint32_t cv) {
  const ComponentLabel& a = labels_[cu];
  const ComponentLabel& b = labels_[cv];
  if (a.post_b < b.reach_low_b) return false;
  const Cut cut = label_cut(a, b);
  if (cut != Cut::kUnknown) return cut == Cut::kYes;
  return search(cu, cv);
}

void Querier::reaches_many(const vertex_t* us, const vertex_t* vs, size_t n, bool* out) {
  stats_.queries += n;
  if (!keys_) {
    for (size_t i = 0; i < n; ++i) out[i] = answer(comp_[us[i]], comp_[vs[i]]);
    return;
  }
  // Keys that stay in the first-level cache keep nothing waiting: requests would only cost
  // instructions. (Keys in the second level still gain from them: measured against O'Reach,
  // tools/oreach_harness.cpp, on the GRAIL graphs of 3,700-6,800 vertices.) Past it, the
  // vertices' keys are requested kAhead pairs ahead, so that independent queries' misses
  // overlap: on large indexes most of a lone query's time is waiting for those two reads.
  constexpr size_t kAhead = 16;
  const size_t ahead = view_.vertices * sizeof(VertexKey) <= (size_t{32} << 10) ? 0 : kAhead;
  // In blocks: where nearly all of a block's pairs were answered by a supportive component
  // (positive pairs on graphs with hubs), the next asks that first and skips the rest of
  // the tests, branching once a pair; elsewhere every test at once, without a branch that a
  // mix of pairs would mispredict.
  constexpr size_t kBlock = 1024;
  bool supportive_first = false;
  for (size_t i = 0; i < n; i += kBlock) {
    const size_t e = std::min(n, i + kBlock);
    if (supportive_first) {
      const size_t hits = keyed_supportive_first(us, vs, i, e, n, out, ahead);
      stats_.supportive_first += hits;
      supportive_first = hits * 16 >= (e - i) * 15;
    } else {
      const size_t hits = keyed_all_tests(us, vs, i, e, n, out, ahead);
      supportive_first = hits * 16 >= std::min(e - i, kSupportiveSample) * 15;
    }
  }
}

// The batch's loops start on a cache line: with identical code, where they started against
// the front end's 64-byte windows moved a batch by 10-20% (the dense cyclic graph's positive
// pairs 1.6-1.7 or 1.9-2.2 ns as unrelated code moved, tools/oreach_harness.cpp).
[[gnu::aligned(64)]] size_t Querier::keyed_supportive_first(const vertex_t* us, const vertex_t* vs,
                                                            size_t i, size_t e, size_t n, bool* out,
                                                            size_t ahead) {
  size_t hits = 0;
  for (; i < e; ++i) {
    if (ahead && i + ahead < n) {
      __builtin_prefetch(keys_ + us[i + ahead]);
      __builtin_prefetch(keys_ + vs[i + ahead]);
    }
    // (From the 64-byte keys, requested ahead: from the SupportiveKey, a batch of kegg's
    // positive pairs took 1.4 ns against 1.2-1.3.)
    if (supportive_yes(keys_[us[i]], keys_[vs[i]])) {
      out[i] = true;
      ++hits;
    } else {
      out[i] = reaches_keyed(us[i], vs[i]);
    }
  }
  return hits;
}

[[gnu::aligned(64)]] size_t Querier::keyed_all_tests(const vertex_t* us, const vertex_t* vs,
                                                     size_t i, size_t e, size_t n, bool* out,
                                                     size_t ahead) {
  // (The requests are written out in each loop: GCC 12 drops a __builtin_prefetch in a
  // lambda called there.)
  size_t hits = 0;
  for (const size_t sampled = std::min(e, i + kSupportiveSample); i < sampled; ++i) {
    if (ahead && i + ahead < n) {
      __builtin_prefetch(keys_ + us[i + ahead]);
      __builtin_prefetch(keys_ + vs[i + ahead]);
    }
    const VertexKey& a = keys_[us[i]];
    const VertexKey& b = keys_[vs[i]];
    const uint32_t tests = key_lanes(a, b) | supportive_bit(a, b);
    hits += supportive_yes(tests);
    out[i] = decide(a, b, tests);
  }
  if (ahead)
    for (const size_t requested = std::min(e, n > ahead ? n - ahead : 0); i < requested; ++i) {
      __builtin_prefetch(keys_ + us[i + ahead]);
      __builtin_prefetch(keys_ + vs[i + ahead]);
      out[i] = reaches_keyed(us[i], vs[i]);
    }
  for (; i < e; ++i) out[i] = reaches_keyed(us[i], vs[i]);
  return hits;
}

void Querier::tally(vertex_t u, vertex_t v, QueryStats& into) const {
  const uint32_t cu = comp_[u], cv = comp_[v];
  ++into.queries;
  if (cu == cv) {
    ++into.same_component;
    return;
  }
  if (cu > cv) {
    ++into.negative_cut;
    return;
  }
  const ComponentLabel& a = labels_[cu];
  const ComponentLabel& b = labels_[cv];
  const Cut cut = label_cut(a, b);
  if (cut == Cut::kUnknown) {
    ++into.searched;
  } else if (b.post_f >= a.post_f || b.post_f < a.reach_low_f || a.post_b >= b.post_b ||
             a.post_b < b.reach_low_b) {
    ++into.negative_cut;
  } else if (b.post_f >= a.tree_low_f || a.post_b >= b.tree_low_b) {
    ++into.positive_cut;
  } else if (cut == Cut::kYes || ((a.sup_fwd & ~b.sup_fwd) | (b.sup_bwd & ~a.sup_bwd))) {
    ++into.supportive;
  } else {
    ++into.bloom;
  }
}

// A search over the condensation from cu; a successor is dropped as soon as the labels say it
// cannot reach cv, and the search ends as soon as they say one does.
bool Querier::search(uint32_t cu, uint32_t cv) {
  // The stamps are made by the first search: most batches need none, and a querier made
  // per call (Python's reaches_many) then pays nothing per component.
  if (stamp_.empty()) stamp_.assign(view_.components, 0);
  if (++epoch_ == 0) {  // the stamps wrapped: clear once every 2^32 searches
    std::fill(stamp_.begin(), stamp_.end(), 0);
    epoch_ = 1;
  }
  ++stats_.searched;
  const ComponentLabel* L = labels_;
  const uint32_t* off = view_.offsets;
  const uint32_t* tar = view_.targets;
  // Breadth-first: a reachable target is usually near u, and BFS meets it after fewer
  // vertices than a DFS that dives into a deep branch first (measured on random DAGs).
  stack_.clear();
  stack_.push_back(cu);
  stamp_[cu] = epoch_;
  uint64_t visits = 0;
  bool found = false;
  for (size_t head = 0; head < stack_.size() && !found; ++head) {
    const uint32_t x = stack_[head];
    ++visits;
    // The next queued component's row bounds, and this row's labels and stamps, are
    // requested before any is used: their cache misses overlap instead of following one
    // another (the search is bound by memory latency, not by the filters' arithmetic).
    if (head + 2 < stack_.size()) __builtin_prefetch(off + stack_[head + 2]);
    if (head + 1 < stack_.size()) __builtin_prefetch(tar + off[stack_[head + 1]]);
    const uint32_t first = off[x], e = off[x + 1];
    for (uint32_t i = first; i < e; ++i) {
      const uint32_t w = tar[i];
      if (w > cv) break;
      __builtin_prefetch(L + w);
      __builtin_prefetch(&stamp_[w]);
    }
    for (uint32_t i = first; i < e; ++i) {
      const uint32_t w = tar[i];
      if (w > cv) break;  // rows ascend; nothing beyond cv in topological order reaches it
      if (w == cv) {
        found = true;
        break;
      }
      if (stamp_[w] == epoch_) continue;
      stamp_[w] = epoch_;
      const Cut cut = label_cut(L[w], L[cv]);
      if (cut == Cut::kYes) {
        found = true;
        break;
      }
      if (cut == Cut::kUnknown) stack_.push_back(w);
    }
  }
  stats_.search_visits += visits;
  return found;
}

}  // namespace closure::reach
