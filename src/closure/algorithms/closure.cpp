// Closure: construction, validation, pair counting and queries over every representation.
#include "closure/algorithms/closure.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/popcount.hpp"
#include "closure/util/huge_pages.hpp"

namespace closure {

namespace {

// Calls f(d) for every set column d of row r of a dense matrix, ascending. Works on
// either word order so GPU matrices need no conversion.
template <typename F>
void for_each_in_row(const BitMatrix& m, size_t r, F&& f) {
  m.for_each_in_row(r, [&](size_t d) { f(vertex_t(d)); });
}

// Popcount of every row, skipping nothing; walks memory in storage order.
std::vector<uint64_t> row_popcounts(const BitMatrix& m) {
  std::vector<uint64_t> counts(m.rows(), 0);
  const size_t words = m.words_per_row();
  if (m.order() == WordOrder::kRowMajor) {
    for (size_t r = 0; r < m.rows(); ++r) counts[r] = popcount_words(m.row_ptr(r), words);
  } else {
    for (size_t w = 0; w < words; ++w)
      add_popcounts(m.data() + w * m.rows_padded(), m.rows(), counts.data());
  }
  return counts;
}

// What a row's pair count needs besides the row: weight(c) = the vertices in the
// components c reaches, c itself excluded, so the components' sizes, and the components
// of more than one vertex ("big"), which a popcount counts as one vertex each.
class RowWeights {
 public:
  // No offsets (a closure of single-vertex components): every size is 1.
  RowWeights(const std::vector<vertex_t>& member_offsets, size_t components)
      : offsets_(member_offsets.empty() ? nullptr : member_offsets.data()),
        components_(components) {
    if (offsets_)
      for (size_t c = 0; c < components_; ++c)
        if (size_of(c) > 1) big_.push_back(vertex_t(c));
    few_big_ = big_.size() <= 64;
    if (!few_big_) {
      big_bits_.assign(words_for_bits(components_), 0);
      for (vertex_t d : big_) big_bits_[word_of(d)] |= bit_mask(d);
    }
  }
  size_t components() const { return components_; }
  uint64_t size_of(size_t c) const { return offsets_ ? offsets_[c + 1] - offsets_[c] : 1; }
  bool any_big() const { return !big_.empty(); }
  bool few_big() const { return few_big_; }

  // A bitset row's weight: its popcount, the few big components corrected by a bit test,
  // unless there are so many that walking the bits is cheaper.
  template <class Popcount, class Test, class ForEach>
  uint64_t of_bits(size_t c, Popcount&& popcount, Test&& test, ForEach&& for_each) const {
    uint64_t weight = 0;
    if (few_big_) {
      weight = popcount() - (test(c) ? 1 : 0);
      for (vertex_t d : big_)
        if (d != c && test(d)) weight += size_of(d) - 1;
    } else {
      for_each([&](vertex_t d) {
        if (d != c) weight += size_of(d);
      });
    }
    return weight;
  }

  // A window of a bitset row: its popcount, and the big components' other members, found by
  // walking only the bits the row shares with the mask of big components (walking every
  // bit was a third of a road network's sparse run: 1.25G pairs, 5,900 big components).
  uint64_t of_window(size_t c, const BitWindow& bits) const {
    uint64_t weight = popcount_words(bits.words, bits.word_count);
    if (few_big_) {
      for (vertex_t d : big_)
        if (bits.test(d)) weight += size_of(d) - 1;
    } else {
      for (size_t i = 0; i < bits.word_count; ++i)
        for (word_t b = bits.words[i] & big_bits_[bits.word_lo + i]; b; b &= b - 1)
          weight += size_of(32 * (bits.word_lo + i) + size_t(std::countr_zero(b))) - 1;
    }
    return bits.test(c) ? weight - size_of(c) : weight;
  }

 private:
  const vertex_t* offsets_;
  size_t components_;
  std::vector<vertex_t> big_;
  std::vector<word_t> big_bits_;  // big_ as a bitset, where there are many
  bool few_big_ = true;
};

// Each row's weight, to add(c, weight), for each representation.
template <class Add>
void sparse_weights(const SparseReach& sparse, const RowWeights& w, Add&& add) {
  for (size_t c = 0; c < w.components(); ++c) {
    uint64_t weight = 0;
    for (uint64_t i = sparse.offsets[c]; i < sparse.offsets[c + 1]; ++i)
      if (sparse.targets[i] != c) weight += w.size_of(sparse.targets[i]);
    add(c, weight);
  }
}

template <class Add>
void ragged_weights(const RaggedReach& ragged, const RowWeights& w, Add&& add) {
  const size_t comps = w.components();
  std::vector<uint64_t> prefix;  // prefix[c] = vertices in components < c
  if (w.any_big()) {
    prefix.assign(comps + 1, 0);
    for (size_t c = 0; c < comps; ++c) prefix[c + 1] = prefix[c] + w.size_of(c);
  }
  for (size_t c = 0; c < comps; ++c) {
    const RaggedRow& r = ragged.rows[c];
    uint64_t weight =
        !w.any_big() ? r.run_end - r.run_begin : prefix[r.run_end] - prefix[r.run_begin];
    if (c >= r.run_begin && c < r.run_end) weight -= w.size_of(c);
    if (r.id_count > 0) {
      const auto ids = r.id_list();
      auto test = [&](size_t d) { return std::binary_search(ids.begin(), ids.end(), d); };
      auto popcount = [&] { return uint64_t(ids.size()); };
      auto for_each = [&](auto&& f) {
        for (vertex_t d : ids) f(d);
      };
      weight += w.of_bits(c, popcount, test, for_each);
    } else {
      weight += w.of_window(c, BitWindow{r.words, r.word_lo, r.word_count});
    }
    add(c, weight);
  }
}

template <class Add>
void dense_weights(const BitMatrix& dense, const RowWeights& w, Add&& add) {
  const size_t comps = w.components();
  if (!w.few_big() && dense.order() == WordOrder::kColumnMajor) {
    // Many multi-vertex components in a device-layout matrix: walking each row's bits
    // would stride through memory, so sum the sizes word-column by word-column instead.
    std::vector<uint64_t> weight(comps, 0);
    for (size_t word = 0; word < dense.words_per_row(); ++word) {
      const word_t* col = dense.data() + word * dense.rows_padded();
      for (size_t r = 0; r < comps; ++r)
        for_each_set_bit(col + r, word, 1, [&](size_t d) {
          if (d != r) weight[r] += w.size_of(d);
        });
    }
    for (size_t c = 0; c < comps; ++c) add(c, weight[c]);
    return;
  }
  std::vector<uint64_t> counts;
  if (w.few_big()) counts = row_popcounts(dense);
  for (size_t c = 0; c < comps; ++c) {
    auto test = [&](size_t d) { return dense.get(c, d); };
    auto popcount = [&] { return counts[c]; };
    auto for_each = [&](auto&& f) { for_each_in_row(dense, c, f); };
    add(c, w.of_bits(c, popcount, test, for_each));
  }
}

}  // namespace

Closure Closure::from_dense(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                            BitMatrix component_reach) {
  if (component_reach.rows() != cyclic.size() || component_reach.cols() != cyclic.size())
    throw UsageError("Closure: reach matrix is " + std::to_string(component_reach.rows()) + " x " +
                     std::to_string(component_reach.cols()) + ", expected " +
                     std::to_string(cyclic.size()) + " square");
  return assemble(std::move(component_of), std::move(cyclic), std::move(component_reach));
}

Closure Closure::from_sparse(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                             std::vector<uint64_t> offsets, std::vector<vertex_t> targets) {
  if (offsets.size() != cyclic.size() + 1 || offsets.front() != 0 ||
      offsets.back() != targets.size())
    throw UsageError("Closure: sparse offsets do not match components/targets");
  for (size_t c = 0; c < cyclic.size(); ++c) {
    if (offsets[c] > offsets[c + 1]) throw UsageError("Closure: sparse offsets decrease");
    for (uint64_t i = offsets[c]; i < offsets[c + 1]; ++i) {
      if (targets[i] >= cyclic.size()) throw UsageError("Closure: sparse target out of range");
      // Queries binary-search the rows.
      if (i > offsets[c] && targets[i] <= targets[i - 1])
        throw UsageError("Closure: sparse row " + std::to_string(c) + " is not strictly ascending");
    }
  }
  return assemble(std::move(component_of), std::move(cyclic),
                  SparseReach{std::move(offsets), std::move(targets)});
}

Closure Closure::from_ragged(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                             RaggedReach reach) {
  const size_t comps = cyclic.size();
  if (reach.rows.size() != comps)
    throw UsageError("Closure: ragged reach has " + std::to_string(reach.rows.size()) +
                     " rows, expected " + std::to_string(comps));
  const size_t words = words_for_bits(comps);
  for (const RaggedRow& r : reach.rows) {
    if (r.run_begin > r.run_end || r.run_end > comps || size_t(r.word_lo) + r.word_count > words)
      throw UsageError("Closure: ragged row out of range");
    if (r.word_count > 0 && r.word_lo + r.word_count == words &&
        (r.words[r.word_count - 1] & ~tail_mask(comps)) != 0)
      throw UsageError("Closure: ragged row has bits beyond the last component");
    if (r.id_count > 0 && r.word_count > 0)
      throw UsageError("Closure: ragged row has both words and ids");
    const auto ids = r.id_list();
    for (size_t i = 0; i < ids.size(); ++i)
      if (ids[i] >= comps || (i > 0 && ids[i] <= ids[i - 1]) ||
          (ids[i] >= r.run_begin && ids[i] < r.run_end))
        throw UsageError(
            "Closure: ragged row's ids are out of range, not ascending or inside its run");
  }
  return assemble(std::move(component_of), std::move(cyclic), std::move(reach));
}

Closure Closure::from_resident(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                               DeviceReach reach) {
  if (!reach || reach->component_count() != cyclic.size())
    throw UsageError("Closure: resident reach does not match the components");
  return assemble(std::move(component_of), std::move(cyclic), std::move(reach));
}

Closure Closure::assemble(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                          Reach reach) {
  Closure c;
  c.component_of_ = std::move(component_of);
  c.cyclic_ = std::move(cyclic);
  c.reach_ = std::move(reach);
  c.finish();
  return c;
}

namespace {

// Every component one vertex: `component_of` must be a permutation, and the members are its
// inverse (no offsets: members(c) is members[c] alone). Checked and inverted in parallel
// chunks (a 10M-commit history: 0.23 s serially, most of it the inverse's scattered
// writes). false when it is not a permutation (the general path then says why).
bool invert_permutation(const std::vector<vertex_t>& component_of, std::vector<vertex_t>& members,
                        bool& ordered) {
  const size_t n = component_of.size();
  constexpr vertex_t kUnset = ~vertex_t{0};
  members = detail::huge_filled<vertex_t>(n, kUnset);
  std::atomic<bool> in_range{true}, ascending{true};
  parallel_chunks(n, size_t{1} << 16, [&](size_t b, size_t e) {
    bool ok = true, up = true;
    for (size_t v = b; v < e; ++v) {
      const vertex_t c = component_of[v];
      if (c >= n) {
        ok = false;
        continue;
      }
      up = up && c == v;
      members[c] = vertex_t(v);
    }
    if (!ok) in_range = false;
    if (!up) ascending = false;
  });
  if (!in_range) return false;
  std::atomic<bool> bijective{true};
  parallel_chunks(n, size_t{1} << 16, [&](size_t b, size_t e) {
    for (size_t c = b; c < e; ++c)
      if (members[c] == kUnset || component_of[members[c]] != c) {
        bijective = false;
        return;
      }
  });
  if (!bijective) return false;
  ordered = ascending;
  return true;
}

}  // namespace

void Closure::finish() {
  const size_t n = component_of_.size();
  const size_t comps = cyclic_.size();
  if (comps == n && n > 0 && invert_permutation(component_of_, members_, vertex_ordered_)) {
    member_offsets_.clear();
    count_pairs();
    return;
  }
  member_offsets_.assign(comps + 1, 0);
  vertex_ordered_ = true;
  for (size_t v = 0; v < n; ++v) {
    const vertex_t c = component_of_[v];
    if (c >= comps)
      throw UsageError("Closure: vertex " + std::to_string(v) + " in component " +
                       std::to_string(c) + " of " + std::to_string(comps));
    ++member_offsets_[c + 1];
    if (v > 0 && c < component_of_[v - 1]) vertex_ordered_ = false;
  }
  for (size_t c = 0; c < comps; ++c) {
    if (!cyclic_[c] && member_offsets_[c + 1] > 1)
      throw UsageError("Closure: acyclic component " + std::to_string(c) + " has " +
                       std::to_string(member_offsets_[c + 1]) + " vertices");
    member_offsets_[c + 1] += member_offsets_[c];
  }
  members_.resize(n);
  {
    std::vector<vertex_t> fill(member_offsets_.begin(), member_offsets_.end() - 1);
    for (size_t v = 0; v < n; ++v) members_[fill[component_of_[v]]++] = vertex_t(v);
  }
  count_pairs();
}

void Closure::count_pairs() {
  const RowWeights weights(member_offsets_, cyclic_.size());
  pairs_ = 0;
  self_pairs_ = 0;
  auto add_row = [&](size_t c, uint64_t weight) {
    const uint64_t s = weights.size_of(c);
    if (cyclic_[c]) {
      pairs_ += s * s;
      self_pairs_ += s;
    }
    pairs_ += s * weight;
  };
  if (const DeviceReach* device = std::get_if<DeviceReach>(&reach_)) {
    // The rows were counted where they are; only the components' own pairs remain (with
    // single-vertex components, one a cyclic one: a self-loop).
    if (member_offsets_.empty()) {
      self_pairs_ =
          uint64_t(cyclic_.size() - size_t(std::count(cyclic_.begin(), cyclic_.end(), 0)));
      pairs_ = self_pairs_;
    } else {
      for (size_t c = 0; c < cyclic_.size(); ++c) add_row(c, 0);
    }
    pairs_ += (*device)->cross_pairs();
  } else if (const SparseReach* sparse = std::get_if<SparseReach>(&reach_)) {
    sparse_weights(*sparse, weights, add_row);
  } else if (const RaggedReach* ragged = std::get_if<RaggedReach>(&reach_)) {
    ragged_weights(*ragged, weights, add_row);
  } else {
    dense_weights(std::get<BitMatrix>(reach_), weights, add_row);
  }
}

const BitMatrix* Closure::host_matrix() const {
  if (const BitMatrix* m = std::get_if<BitMatrix>(&reach_)) return m;
  if (const DeviceReach* d = std::get_if<DeviceReach>(&reach_)) return &(*d)->host_rows();
  return nullptr;
}

void Closure::reaches_many(std::span<const std::pair<vertex_t, vertex_t>> pairs,
                           std::span<uint8_t> out) const {
  if (out.size() != pairs.size()) throw UsageError("Closure::reaches_many: output size differs");
  const ResidentReach* device = resident_reach();
  if (!device) {
    for (size_t i = 0; i < pairs.size(); ++i) out[i] = reaches(pairs[i].first, pairs[i].second);
    return;
  }
  // Same-component pairs are the cyclic flag; the others go to the device in one batch.
  std::vector<std::pair<vertex_t, vertex_t>> asked;
  std::vector<size_t> where;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const vertex_t c = component_of_[pairs[i].first], d = component_of_[pairs[i].second];
    if (c == d) {
      out[i] = cyclic_[c];
    } else {
      asked.emplace_back(c, d);
      where.push_back(i);
    }
  }
  std::vector<uint8_t> answers(asked.size());
  device->reaches_many(asked, answers);
  for (size_t k = 0; k < where.size(); ++k) out[where[k]] = answers[k];
}

bool Closure::component_reaches(vertex_t c, vertex_t d) const {
  if (c == d) return cyclic_[c] != 0;
  if (const BitMatrix* dense = std::get_if<BitMatrix>(&reach_)) return dense->get(c, d);
  if (const DeviceReach* device = std::get_if<DeviceReach>(&reach_))
    return (*device)->reaches(c, d);
  if (const RaggedReach* ragged = std::get_if<RaggedReach>(&reach_)) {
    const RaggedRow& r = ragged->rows[c];
    if (d >= r.run_begin && d < r.run_end) return true;
    if (r.id_count > 0) return std::binary_search(r.ids, r.ids + r.id_count, d);
    return BitWindow{r.words, r.word_lo, r.word_count}.test(d);
  }
  const SparseReach& sparse = std::get<SparseReach>(reach_);
  const auto first = sparse.targets.begin() + sparse.offsets[c];
  const auto last = sparse.targets.begin() + sparse.offsets[c + 1];
  return std::binary_search(first, last, d);
}

Closure& Closure::operator=(Closure&& other) noexcept {
  if (this == &other) return *this;
  component_of_ = std::exchange(other.component_of_, {});
  cyclic_ = std::exchange(other.cyclic_, {});
  member_offsets_ = std::exchange(other.member_offsets_, {});
  members_ = std::exchange(other.members_, {});
  reach_ = std::exchange(other.reach_, Reach{SparseReach{}});
  pairs_ = std::exchange(other.pairs_, 0);
  self_pairs_ = std::exchange(other.self_pairs_, 0);
  vertex_ordered_ = std::exchange(other.vertex_ordered_, false);
  return *this;
}

namespace {
// A library caller's id past the closure: a UsageError, not a read past the map.
void check_vertex(vertex_t v, size_t n) {
  if (v >= n)
    throw UsageError("vertex " + std::to_string(v) + " is out of range: the closure has " +
                     std::to_string(n) + " vertices");
}
}  // namespace

bool Closure::reaches(vertex_t u, vertex_t v) const {
  check_vertex(u, vertex_count());
  check_vertex(v, vertex_count());
  return component_reaches(component_of_[u], component_of_[v]);
}

void Closure::component_successors(vertex_t c, std::vector<vertex_t>& out) const {
  out.clear();
  if (const BitMatrix* dense = host_matrix()) {
    for_each_in_row(*dense, c, [&](vertex_t d) {
      if (d != c) out.push_back(d);
    });
  } else if (const RaggedReach* ragged = std::get_if<RaggedReach>(&reach_)) {
    // Bits below the run, the run, bits above it: ascending without a sort.
    const RaggedRow& r = ragged->rows[c];
    bool run_done = false;
    auto scattered = [&](vertex_t d) {
      if (!run_done && d >= r.run_begin) {
        for (vertex_t e = r.run_begin; e < r.run_end; ++e) out.push_back(e);
        run_done = true;
      }
      out.push_back(d);
    };
    if (r.id_count > 0)
      for (vertex_t d : r.id_list()) scattered(d);
    else
      BitWindow{r.words, r.word_lo, r.word_count}.for_each(
          [&](size_t bit) { scattered(vertex_t(bit)); });
    if (!run_done)
      for (vertex_t e = r.run_begin; e < r.run_end; ++e) out.push_back(e);
    // c inside its own run is ignored here and re-added below iff cyclic.
    if (c >= r.run_begin && c < r.run_end)
      out.erase(std::lower_bound(out.begin(), out.end(), c));
    else if (auto it = std::lower_bound(out.begin(), out.end(), c); it != out.end() && *it == c)
      out.erase(it);
  } else {
    const SparseReach& sparse = std::get<SparseReach>(reach_);
    for (uint64_t i = sparse.offsets[c]; i < sparse.offsets[c + 1]; ++i)
      if (sparse.targets[i] != c) out.push_back(sparse.targets[i]);
  }
  if (cyclic_[c]) out.insert(std::lower_bound(out.begin(), out.end(), c), c);
}

void Closure::successors(vertex_t u, std::vector<vertex_t>& out, bool reflexive) const {
  check_vertex(u, vertex_count());
  const vertex_t c = component_of_[u];
  std::vector<vertex_t> comps;
  component_successors(c, comps);
  // Reflexive adds only (u,u): an acyclic component is u alone, a cyclic one is listed.
  if (reflexive && !cyclic_[c]) comps.insert(std::lower_bound(comps.begin(), comps.end(), c), c);
  out.clear();
  for (vertex_t d : comps) {
    const auto m = members(d);
    out.insert(out.end(), m.begin(), m.end());
  }
  if (vertex_ordered_ || out.size() < 2) return;
  // Component ids are not in vertex order (topological ids): sort, or when the row is a
  // sizeable share of all vertices, scatter into a bitmap and read it back in order.
  const size_t n = vertex_count();
  if (out.size() * 32 < n) {
    std::sort(out.begin(), out.end());
    return;
  }
  std::vector<word_t> bitmap(words_for_bits(n), 0);
  for (vertex_t v : out) set_bit(bitmap.data(), v);
  out.clear();
  for_each_set_bit(bitmap.data(), 0, bitmap.size(), [&](size_t v) { out.push_back(vertex_t(v)); });
}

std::vector<Edge> Closure::pairs(bool reflexive) const {
  std::vector<Edge> out;
  out.reserve(pair_count(reflexive));
  std::vector<vertex_t> succ;
  for (vertex_t u = 0; u < vertex_count(); ++u) {
    successors(u, succ, reflexive);
    for (vertex_t v : succ) out.emplace_back(u, v);
  }
  return out;
}

size_t Closure::memory_bytes() const {
  struct Bytes {
    size_t operator()(const BitMatrix& m) const { return m.bytes(); }
    size_t operator()(const SparseReach& s) const {
      return s.offsets.capacity() * sizeof(uint64_t) + s.targets.capacity() * sizeof(vertex_t);
    }
    size_t operator()(const RaggedReach& r) const {
      size_t b = r.rows.capacity() * sizeof(RaggedRow);
      for (const RaggedRow& row : r.rows)
        b += size_t(row.word_count) * sizeof(word_t) + size_t(row.id_count) * sizeof(vertex_t);
      return b;
    }
    size_t operator()(const DeviceReach& d) const { return d->host_bytes(); }
  };
  return component_of_.capacity() * sizeof(vertex_t) + cyclic_.capacity() +
         member_offsets_.capacity() * sizeof(vertex_t) + members_.capacity() * sizeof(vertex_t) +
         std::visit(Bytes{}, reach_);
}

bool Closure::operator==(const Closure& other) const {
  if (vertex_count() != other.vertex_count() || pairs_ != other.pairs_ ||
      self_pairs_ != other.self_pairs_)
    return false;
  std::vector<vertex_t> a, b;
  if (component_of_ == other.component_of_ && cyclic_ == other.cyclic_) {
    for (vertex_t c = 0; c < component_count(); ++c) {
      component_successors(c, a);
      other.component_successors(c, b);
      if (a != b) return false;
    }
    return true;
  }
  for (vertex_t u = 0; u < vertex_count(); ++u) {
    successors(u, a);
    other.successors(u, b);
    if (a != b) return false;
  }
  return true;
}

Closure from_full_matrix(const BitMatrix& reach) {
  return from_full_matrix(BitMatrix(reach));
}

Closure from_full_matrix(BitMatrix&& reach) {
  if (reach.rows() != reach.cols())
    throw UsageError("from_full_matrix: reach matrix is not square");
  const size_t n = reach.rows();
  std::vector<vertex_t> identity(n);
  std::vector<uint8_t> cyclic(n);
  for (size_t v = 0; v < n; ++v) {
    identity[v] = vertex_t(v);
    cyclic[v] = reach.get(v, v) ? 1 : 0;
  }
  return Closure::from_dense(std::move(identity), std::move(cyclic), std::move(reach));
}

}  // namespace closure
