// A reachability index over the SCC condensation: answers "does u reach v?" without the
// closure, in linear space. Per component it keeps two DFS forests (forward and backward)
// with PReaCH/GRAIL intervals, BFL Bloom filters and the bits of up to 32 O'Reach
// "supportive" components; what those filters cannot decide goes to a pruned DFS over the
// condensation that applies the same filters at every step.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "closure/graph/graph.hpp"
#include "closure/reach/name_table.hpp"

namespace closure::reach {

// The per-component label, 48 bytes: one or two cache lines per endpoint of a query.
// Components are numbered in a topological order (Kahn's for a DAG, else Tarjan's; see
// scc.hpp), which is itself a first filter: c reaches d (c != d) only if c < d.
struct ComponentLabel {
  // Forward DFS forest over successors: post-order number, the first post number of the
  // tree subtree (so the subtree is [tree_low, post]) and the smallest post number
  // reachable at all (GRAIL: everything c reaches has a post number in [reach_low, post)).
  uint32_t post_f, tree_low_f, reach_low_f;
  // The same on the reverse graph (over predecessors).
  uint32_t post_b, tree_low_b, reach_low_b;
  uint32_t sup_fwd;  // bit i: supportive component i reaches this one (or is it)
  uint32_t sup_bwd;  // bit i: this component reaches supportive component i (or is it)
  // BFL Bloom filters (Su et al., TKDE 2017): bit h(x) for every ancestor x (bloom_in) or
  // descendant x (bloom_out) of c, c included, where h hashes runs of consecutive post
  // numbers (backward, resp. forward DFS) to one of 63 bits, since a reach set is mostly
  // a few runs of a DFS order. c reaches d only if in(c) is within in(d) and out(d)
  // within out(c).
  uint64_t bloom_in;   // bit 63: the component is cyclic (not part of the filter)
  uint64_t bloom_out;  // bit 63: zero
};
static_assert(sizeof(ComponentLabel) == 48);

inline constexpr uint64_t kCyclicBit = uint64_t{1} << 63;
inline constexpr uint32_t kBloomBits = 63;
inline constexpr uint64_t kBloomMask = kCyclicBit - 1;
inline constexpr uint32_t kMaxSupportive = 32;

// Per vertex, what most answers need, so that a query decides them from two independent
// reads (one cache line each) instead of a vertex -> component -> label chain. Each test of
// the order, the intervals' "no" cuts and the tree intervals' "yes" cuts compares one field
// of u with one of v; the key stores each such field once as a source (src, read when the
// vertex is u) and once as a target (dst, read when it is v), offset and negated so that
// every test reads "dst[i] > src[i]" (signed) in lane i: one SIMD comparison per half.
//   lane 0: order against order (order = 2 x the component in topological order + its
//           cyclic bit, biased to sign): c reaches d != c only if order(c) < order(d);
//   lane 1: -post_f against -post_f (v below u in the forward DFS order);
//   lane 2: reach_low_f - 1 against post_f (v within u's forward GRAIL range);
//   lane 3: post_b against post_b (u below v in the backward DFS order);
//     lanes 0-3 must all hold, else the answer is no, or, inside one component, its cyclic
//     bit (a pair inside one component reaches iff the component is cyclic);
//   lane 4: tree_low_f - 1 against post_f (v in u's forward tree interval: yes);
//   lane 5: -post_b against 1 - tree_low_b (u in v's backward tree interval: yes);
//   lane 6: sup_bwd against sup_fwd, not compared but ANDed (a supportive component
//           between: yes);
//   lane 7: order - cyclic bit against order: with lane 0 failing, holds exactly when u and
//           v share a cyclic component.
// Built from the labels when a ReachIndex is made (never stored in a file), for fewer than
// 2^30 components (kMaxKeyedComponents, so that every value fits its signed lane); a larger
// index has none and queries take the chain.
struct alignas(64) VertexKey {
  int32_t src[8];
  int32_t dst[8];
  uint32_t order() const { return uint32_t(dst[0]) ^ 0x80000000u; }
  uint32_t comp() const { return order() >> 1; }
  bool cyclic() const { return (order() & 1) != 0; }
};
static_assert(sizeof(VertexKey) == 64);

// The part of a vertex's key that the supportive test asked first reads (lane 6): 8 bytes
// where the key has 64, so that a small index's keys of this kind stay in the first-level
// cache, and a vertex's is found by a scaled index, with no multiply. It needs no order:
// where u's component reaches (or is) supportive component s and s reaches (or is) v's,
// either u's component is v's (then both are s, cyclic unless u = v, a vertex's component
// having more than one vertex only on a cycle) or u reaches v. So u != v and a shared bit
// say yes. (On a forged file whose cyclic bits lie, this can differ from reaches_many(): its
// own answers only, as documented there.)
struct SupportiveKey {
  int32_t sup_bwd;  // src[6]: the supportive components this vertex reaches
  int32_t sup_fwd;  // dst[6]: the supportive components that reach it
};
static_assert(sizeof(SupportiveKey) == 8);
inline constexpr uint64_t kMaxKeyedComponents = uint64_t{1} << 30;

// Vertex v's key from its component c = component_of[v] and c's label (c < 2^30). Each lane
// is computed unsigned and kept as int32 (modulo 2^32): a valid index's numbers are below
// 2^30 and never wrap; a forged file's may, which costs its own answers, nothing else.
inline VertexKey make_key(uint32_t c, const ComponentLabel& l) {
  const uint32_t cyclic = (l.bloom_in & kCyclicBit) != 0;
  const uint32_t order = (2 * c + cyclic) ^ 0x80000000u;
  auto lane = [](uint32_t x) { return int32_t(x); };
  return {{lane(order), lane(0u - l.post_f), lane(l.reach_low_f - 1), lane(l.post_b),
           lane(l.tree_low_f - 1), lane(0u - l.post_b), lane(l.sup_bwd), lane(order - cyclic)},
          {lane(order), lane(0u - l.post_f), lane(l.post_f), lane(l.post_b), lane(l.post_f),
           lane(1u - l.tree_low_b), lane(l.sup_fwd), lane(order)}};
}

// Bit i set where dst[i] > src[i] (lane 6 is meaningless), u's source against v's target
// (VertexKey); key_lanes_plain() is the same without SIMD (the fallback, and the tests'
// reference).
inline uint32_t key_lanes_plain(const VertexKey& u, const VertexKey& v) {
  uint32_t lanes = 0;
  for (int i = 0; i < 8; ++i) lanes |= uint32_t(v.dst[i] > u.src[i]) << i;
  return lanes;
}
inline uint32_t key_lanes(const VertexKey& u, const VertexKey& v) {
#if defined(__SSE2__)
  const __m128i s0 = _mm_load_si128(reinterpret_cast<const __m128i*>(u.src));
  const __m128i s1 = _mm_load_si128(reinterpret_cast<const __m128i*>(u.src + 4));
  const __m128i d0 = _mm_load_si128(reinterpret_cast<const __m128i*>(v.dst));
  const __m128i d1 = _mm_load_si128(reinterpret_cast<const __m128i*>(v.dst + 4));
  // Both halves' comparisons packed to bytes: one bit per lane.
  const __m128i lanes = _mm_packs_epi32(_mm_cmpgt_epi32(d0, s0), _mm_cmpgt_epi32(d1, s1));
  return uint32_t(_mm_movemask_epi8(_mm_packs_epi16(lanes, _mm_setzero_si128())));
#else
  return key_lanes_plain(u, v);
#endif
}

// What two keys say about a pair, by its lanes (bits 0-7, key_lanes()) and whether a
// supportive component lies between (bit 8): the answer (0 or 1), or kKeyOpen when the keys
// leave it open (then the labels' other filters and the search decide). One load instead of a
// branch per test: on a mix of pairs (random ones, or positive ones that half fall inside a
// cyclic component) a branch per test is a coin toss.
inline constexpr uint32_t kKeyOpen = 2;
inline constexpr auto kKeyVerdicts = [] {
  std::array<uint8_t, 512> t{};
  for (uint32_t i = 0; i < 512; ++i) {
    const bool maybe = (i & 0xF) == 0xF, yes = (i & 0x130) != 0;
    const bool same_cyclic = (i & 0x81) == 0x80;
    t[i] = uint8_t((maybe & !yes) ? kKeyOpen : (maybe | same_cyclic));
  }
  return t;
}();

// Where every array of an index lives: in memory after a build, or in the anonymous memory
// an index file was read into (index_file.hpp: files are never mapped).
struct IndexView {
  uint64_t vertices = 0, components = 0, edges = 0;
  uint32_t supportive = 0;
  const uint32_t* component_of = nullptr;  // vertices
  const ComponentLabel* labels = nullptr;  // components
  const uint32_t* offsets = nullptr;       // components + 1: condensation successors
  const uint32_t* targets = nullptr;       // edges, each row ascending, every target > row
  // Vertex names. identity_labels: vertex v is called decimal v and nothing is stored.
  bool identity_labels = true;
  const uint64_t* label_offsets = nullptr;  // vertices + 1, into label_bytes
  const char* label_bytes = nullptr;
  uint64_t label_byte_count = 0;
  const uint64_t* name_slots = nullptr;  // name_slot_count(vertices) slots (name_table.hpp)
  uint64_t name_seed = 0;
  // A living index's layer section as the file holds it (index_layer.hpp), checked for
  // size only; decode_layer reads it.
  const unsigned char* layer = nullptr;
  uint64_t layer_bytes = 0;
};

// The arrays of a freshly built index.
struct IndexData {
  uint64_t vertices = 0;
  uint32_t supportive = 0;
  std::vector<uint32_t> component_of;
  std::vector<ComponentLabel> labels;
  std::vector<uint32_t> offsets, targets;
  bool identity_labels = true;
  std::vector<uint64_t> label_offsets;
  std::string label_bytes;
  uint64_t name_seed = 0;
  std::vector<uint64_t> name_slots;
  IndexView view() const;
};

struct BuildOptions {
  uint32_t supportive = kMaxSupportive;  // 0..kMaxSupportive
  bool threads = true;                   // forward and backward halves on two threads
};

struct BuildReport {
  double scc_s = 0, condense_s = 0, labels_s = 0, names_s = 0, total_s = 0;
};

// Builds the index of g. Throws std::length_error past 2^32 - 1 condensation edges.
IndexData build_index(const Graph& g, const BuildOptions& options = {},
                      BuildReport* report = nullptr);

// The vertex that `size` decimal digits of value `value` name in an index of numbered
// vertices (identity_labels), or ~0: canonical decimals only, as the readers treat "007"
// and "7" as different names; at most 10 digits (so `value` did not overflow).
inline vertex_t numbered_digits_vertex(size_t size, char first, uint64_t value, uint64_t vertices) {
  if (size == 0 || size > 10 || (size > 1 && first == '0') || value >= vertices)
    return ~vertex_t{0};
  return vertex_t(value);
}

// The vertex a label names in an index of numbered vertices, or ~0. No overflow check a
// digit (std::from_chars' was most of a look-up on `query --pairs`' numbered lines): past
// 10 digits the value is not used. Inline: pair lines read ids with the rule above.
inline vertex_t numbered_vertex(std::string_view label, uint64_t vertices) {
  uint64_t x = 0;
  for (const char ch : label) {
    const unsigned digit = unsigned(static_cast<unsigned char>(ch)) - unsigned('0');
    if (digit > 9) return ~vertex_t{0};
    x = x * 10 + digit;
  }
  return numbered_digits_vertex(label.size(), label.empty() ? '0' : label[0], x, vertices);
}

// A loaded or built index; the view stays valid as long as this object lives.
class ReachIndex {
 public:
  explicit ReachIndex(IndexData data);
  // Takes ownership of the anonymous mapping the file was read into (munmap on destruction).
  ReachIndex(const IndexView& view, void* mapping, size_t mapping_bytes);
  ~ReachIndex();
  ReachIndex(const ReachIndex&) = delete;
  ReachIndex& operator=(const ReachIndex&) = delete;

  const IndexView& view() const { return view_; }
  uint64_t vertex_count() const { return view_.vertices; }
  // The vertex an input label names, or nullopt.
  std::optional<vertex_t> find(std::string_view label) const;
  // The name table (labels not the identity only), for lookups that prefetch.
  NameTable names() const;
  std::string label(vertex_t v) const;
  // Bytes of the structures a query touches besides the graph (labels + component_of).
  uint64_t label_bytes() const;
  // Bytes of the condensation kept for the search.
  uint64_t graph_bytes() const;
  // keys()[v] for every vertex v (VertexKey), or nullptr for an index of kMaxKeyedComponents
  // components or more.
  const VertexKey* keys() const { return keys_.get(); }
  // supportive_keys()[v]: keys()[v]'s lane 6 (nullptr where keys() is), made by the
  // first call, from any thread, once: a querier asks for them only after many lone calls
  // answered by a supportive component, so a process asking one question never pays for
  // them (8 bytes a vertex of fresh pages; at 12, made with the keys, they had cost 2 ms of a
  // 23-ms query on GRAIL human).
  const SupportiveKey* supportive_keys() const;
  // Frees the keys: queries then take the vertex -> component -> label chain, as on an index
  // too large for keys (for tests of that path).
  void drop_keys() { keys_.reset(); }

 private:
  void make_keys();
  std::optional<IndexData> owned_;
  IndexView view_;
  std::unique_ptr<VertexKey[]> keys_;  // not zeroed first: every entry is written once
  mutable std::once_flag supportive_once_;
  mutable std::unique_ptr<SupportiveKey[]> supportive_keys_;
  void* mapping_ = nullptr;
  size_t mapping_bytes_ = 0;
};

// How queries were decided, for the "answered without search" share. A Querier counts the
// searches, and the queries of reaches_many() and reaches_component() (not those of
// reaches(), whose loops would wait on the count); the other counts come from
// Querier::tally(), which bench index calls outside its timing.
// supportive_first: the pairs of reaches_many() answered by the supportive test asked first
// (in the blocks it takes that loop), counted by the Querier like its searches.
struct QueryStats {
  uint64_t queries = 0, same_component = 0, negative_cut = 0, positive_cut = 0, supportive = 0,
           bloom = 0, searched = 0, search_visits = 0, supportive_first = 0;
  uint64_t without_search() const { return queries - searched; }
  QueryStats& operator+=(const QueryStats& s) {
    queries += s.queries, same_component += s.same_component, negative_cut += s.negative_cut;
    positive_cut += s.positive_cut, supportive += s.supportive, bloom += s.bloom;
    searched += s.searched, search_visits += s.search_visits;
    supportive_first += s.supportive_first;
    return *this;
  }
};

// What the labels alone say about component c reaching component d, c < d.
enum class Cut : uint8_t { kNo, kYes, kUnknown };
inline Cut label_cut(const ComponentLabel& a, const ComponentLabel& b) {
  // Negative cuts first (most random pairs are unreachable): d's post numbers outside c's
  // GRAIL ranges, forward or backward.
  if (b.post_f >= a.post_f || b.post_f < a.reach_low_f || a.post_b >= b.post_b ||
      a.post_b < b.reach_low_b)
    return Cut::kNo;
  if (b.post_f >= a.tree_low_f || a.post_b >= b.tree_low_b) return Cut::kYes;  // tree
  if (a.sup_bwd & b.sup_fwd) return Cut::kYes;  // through a supportive component
  if ((a.sup_fwd & ~b.sup_fwd) | (b.sup_bwd & ~a.sup_bwd)) return Cut::kNo;
  if (((a.bloom_in & ~b.bloom_in) | (b.bloom_out & ~a.bloom_out)) & kBloomMask) return Cut::kNo;
  return Cut::kUnknown;
}

// Answers queries on one index; one per thread (it owns the search's scratch space: a
// visited stamp per component and a stack, allocated by the first search).
class Querier {
 public:
  explicit Querier(const ReachIndex& index);
  // Strict semantics: u reaches u only when u lies on a cycle (a self-loop counts).
  bool reaches(vertex_t u, vertex_t v) { return reaches_lone(u, v); }
  bool reaches_component(uint32_t cu, uint32_t cv) {
    ++stats_.queries;
    return answer(cu, cv);
  }
  // out[i] = reaches(us[i], vs[i]) for i < n (every id below the vertex count). Answers the
  // same as one call per pair on a valid index (a forged file's contradictory tests may be
  // read in another order), but on an index whose keys outgrow the cache asks for each
  // pair's two keys several pairs ahead, so the independent queries' cache misses overlap
  // (on large indexes most of a lone query's time is waiting for those two random reads),
  // and where a block of pairs is nearly all answered by a supportive component, asks that
  // test first in the next block.
  void reaches_many(const vertex_t* us, const vertex_t* vs, size_t n, bool* out);
  const QueryStats& stats() const { return stats_; }
  // Whether lone calls ask the supportive test first now (reaches_lone()), and whether they
  // read it from the SupportiveKey.
  bool lone_supportive_first() const { return lone_path_ == LonePath::kSupportiveFirst; }
  bool lone_reads_supportive_keys() const { return supportive_keys_ != nullptr; }
  void reset_stats() { stats_ = {}; }
  void add_stats(const QueryStats& s) { stats_ += s; }
  // Adds to `into` which test decides reaches(u, v) (a search counted as searched, its
  // visits not); answers nothing and counts nothing here.
  void tally(vertex_t u, vertex_t v, QueryStats& into) const;

 private:
  // The constant-time tests inline: the component ids (numbered in a topological order: c
  // reaches d != c only if c < d; the same component: yes iff cyclic), the labels' interval
  // cuts, then the other filters; only then the search, out of line.
  bool answer(uint32_t cu, uint32_t cv) {
    const ComponentLabel& a = labels_[cu];
    const ComponentLabel& b = labels_[cv];
    // Combined without branches: most pairs are answered no, by whichever test, so the one
    // branch below is predictable where a branch per test would not be (the order test
    // alone is a coin toss on random pairs). For c == d every negative test holds.
    const bool no = (cu >= cv) | (b.post_f >= a.post_f) | (b.post_f < a.reach_low_f) |
                    (a.post_b >= b.post_b) | (a.post_b < b.reach_low_b);
    if (no) return (cu == cv) & ((a.bloom_in & kCyclicBit) != 0);
    // The positive cuts, likewise: a tree interval, or a supportive component between.
    const bool yes =
        (b.post_f >= a.tree_low_f) | (a.post_b >= b.tree_low_b) | ((a.sup_bwd & b.sup_fwd) != 0);
    if (yes) return true;
    const Cut cut = label_cut(a, b);
    if (cut != Cut::kUnknown) return cut == Cut::kYes;
    return search(cu, cv);
  }
  // reaches() from the two vertices' keys, no indirection on the likely paths: all of the
  // keys' tests at once (two SIMD comparisons, the supportive bits' AND), their verdict from
  // kKeyVerdicts, one branch. Only what they leave open reads the labels (after_keys).
  bool reaches_keyed(vertex_t u, vertex_t v) {
    const VertexKey& a = keys_[u];
    const VertexKey& b = keys_[v];
    return decide(a, b, key_lanes(a, b) | supportive_bit(a, b));
  }
  // A lone call learns as reaches_many()'s blocks do, from the calls before it: where at least 15
  // of 16 sampled calls were answered by a supportive component with u's before v's (positive
  // pairs on graphs with hubs), the calls after ask that test first, from the 8-byte
  // SupportiveKey (where a sample then counts as answered so by that key's test: two vertices of
  // the supportive component itself too), and go back to every test at once where 2 of 16 samples
  // missed, or 16 misses came in fewer than 16 times as many calls (by the samples' count: either
  // alone is blind to pairs that are all sampled, or none). The SupportiveKey is made once as
  // many calls so answered have been sampled as the index has vertices (about 64 calls a vertex):
  // it costs about 30 ns a vertex (fresh pages) and saves 0.4-0.5 ns a call (kegg's 29 KB stay in
  // the first-level cache where its 64-byte keys' 231 KB do not; from those, asking the test
  // first gained nothing). One call in 64 is sampled, by the pair (u + v = 63 modulo 64: never a
  // self-pair, which u ^ v would always take; a hash's multiply cost random pairs 0.4 ns), so no
  // counter is written on every call: a counter in memory made every call wait for the last one's
  // store (random pairs 2.5 -> 3.5 ns on kegg). One byte says which path a call takes: one
  // comparison leads to every test at once, and a sampled call asking the supportive test first
  // is answered out of line, so the likely paths hold no more than they answer with.
  bool reaches_lone(vertex_t u, vertex_t v) {
    const bool sampled = ((u + v + 1) & 63) == 0;
    if (lone_path_ != LonePath::kAllTests) {
      if (lone_path_ == LonePath::kNoKeys) [[unlikely]]
        return answer(comp_[u], comp_[v]);
      if (sampled) [[unlikely]]
        return reaches_sampled_asked_first(u, v);
      if (supportive_yes(u, v, supportive_keys_[u], supportive_keys_[v])) [[likely]]
        return true;
      lone_missed();
      return reaches_keyed(u, v);
    }
    const VertexKey& a = keys_[u];
    const VertexKey& b = keys_[v];
    const uint32_t tests = key_lanes(a, b) | supportive_bit(a, b);
    if (sampled) [[unlikely]]
      lone_sample(supportive_yes(tests));
    return decide(a, b, tests);
  }
  bool reaches_sampled_asked_first(vertex_t u, vertex_t v);
  void lone_sample(bool supportive);
  void lone_sample_asked_first(bool supportive);
  void lone_missed();
  // Bit 8 (kKeyVerdicts' index) where a supportive component lies between.
  static uint32_t supportive_bit(const VertexKey& a, const VertexKey& b) {
    return uint32_t((a.src[6] & b.dst[6]) != 0) << 8;
  }
  // The answer from the keys' tests (bits 0-7 the lanes, bit 8 supportive_bit()).
  bool decide(const VertexKey& a, const VertexKey& b, uint32_t tests) {
    const uint32_t verdict = kKeyVerdicts[tests];
    if (verdict > 1) [[unlikely]]  // kKeyOpen; what passes is the answer as it is
      return after_keys(a.comp(), b.comp());
    return verdict;
  }
  // Whether the tests say yes by a supportive component between, u's component before v's
  // (lane 0, the order): then u reaches v through it, whatever the other tests say.
  static bool supportive_yes(uint32_t tests) { return (tests & 0x101) == 0x101; }
  static bool supportive_yes(const VertexKey& a, const VertexKey& b) {
    return ((a.src[6] & b.dst[6]) != 0) & (b.dst[0] > a.src[0]);
  }
  // u and v with their SupportiveKeys a and b (SupportiveKey: why u != v suffices).
  static bool supportive_yes(vertex_t u, vertex_t v, const SupportiveKey& a,
                             const SupportiveKey& b) {
    return ((a.sup_bwd & b.sup_fwd) != 0) & (u != v);
  }
  // reaches_many()'s pairs [i, e), each first asked supportive_yes() and only then the keys'
  // other tests; returns how many it answered so.
  size_t keyed_supportive_first(const vertex_t* us, const vertex_t* vs, size_t i, size_t e,
                                size_t n, bool* out, size_t ahead);
  // The same with every test at once (reaches_keyed()), keys requested `ahead` pairs ahead
  // (0: none); returns how many of its first kSupportiveSample pairs supportive_yes() would
  // have answered (counting every pair cost random pairs 0.4 ns of 3).
  static constexpr size_t kSupportiveSample = 64;
  size_t keyed_all_tests(const vertex_t* us, const vertex_t* vs, size_t i, size_t e, size_t n,
                         bool* out, size_t ahead);
  // answer() for cu < cv that the keys' tests leave: the backward GRAIL test, the labels'
  // other filters, the search (out of line: rare, and the inline path stays short).
  bool after_keys(uint32_t cu, uint32_t cv);
  bool search(uint32_t cu, uint32_t cv);
  const ReachIndex& index_;
  const IndexView& view_;
  const uint32_t* comp_;
  const VertexKey* keys_;
  const SupportiveKey* supportive_keys_ = nullptr;  // once lone calls have asked for them
  const ComponentLabel* labels_;
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
  std::vector<uint32_t> stack_;
  QueryStats stats_;
  // reaches_lone()'s sampled calls and their supportive answers (a window of 16), and,
  // asking that test first, its misses and the calls sampled since they were counted.
  uint32_t lone_sampled_ = 0, lone_hits_ = 0, lone_misses_ = 0;
  uint64_t lone_sampled_since_misses_ = 0;
  uint64_t lone_supportive_samples_ = 0;  // in all, in windows answered so (before the keys)
  enum class LonePath : uint8_t { kAllTests, kSupportiveFirst, kNoKeys };
  LonePath lone_path_ = LonePath::kNoKeys;
};

}  // namespace closure::reach
