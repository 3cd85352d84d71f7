// Closure: the strict transitive closure of a graph, held as vertex -> component plus
// component-level reach (a std::variant of its representations), behind one API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "closure/bitmatrix.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

// Semantics (docs/architecture.md, "Semantics"): (u,v) is in the closure iff a path of
// >= 1 edges leads from u to v; so (v,v) iff v lies on a cycle or has a self-loop.
// `reflexive` arguments add every (v,v) on top.
//
// Storage: vertices are grouped into "components": usually the strongly connected
// components, but any grouping works in which every member of a group has the same
// successors, and a group either is cyclic (its members all reach each other, itself
// included) or holds exactly one vertex. Component ids need not be topological.
// Component reach R(c,d), c != d, says c reaches d; whether c reaches itself is the
// cyclic flag alone (the diagonal of a dense R is ignored, so a GPU closure of the
// condensed DAG, whose diagonal is zero, can be handed over as it is).
//
// Four representations of R, with the same answers:
//   kDense:  a BitMatrix (component_count x component_count), either WordOrder, any
//            padding -- what the GPU methods and the dense host methods produce.
//   kSparse: per component a sorted list of reached components (CSR).
//   kRagged: per component a run [run_begin, run_end) of reached components plus a
//            bitset over only the words where its other reached components lie, or,
//            where those few are scattered over many words, a sorted list of them -- what
//            the sparse propagation method produces. It pays when the closure is small
//            next to C*C/8 bytes (human_dag: 122 KB of words instead of 188 MB) and when
//            reach sets are long intervals (a 1,000,000-vertex chain: no words at all,
//            where a dense matrix needs 125 GB).
//   kDevice: rows held where they were computed (an OpenCL device's memory, possibly in
//            column slices), behind ResidentReach: pairs counted there, single
//            queries answered there, rows downloaded only when something walks them.

// One row of a ragged reach: reached components = [run_begin, run_end) plus the set bits
// of words[0 .. word_count), word i covering columns 32*(word_lo+i) .. +31, plus the
// components ids[0 .. id_count) (strictly ascending). A row uses words or ids, not both:
// ids where its scattered components are few next to the words they span (a yago row:
// ten components over a hundred words). The run, the bits and the ids must be disjoint;
// bits beyond the last column must be zero.
struct RaggedRow {
  const word_t* words = nullptr;
  const vertex_t* ids = nullptr;
  uint32_t word_lo = 0, word_count = 0;
  uint32_t id_count = 0;
  uint32_t run_begin = 0, run_end = 0;
  std::span<const vertex_t> id_list() const { return {ids, id_count}; }
};
struct RaggedReach {
  std::vector<RaggedRow> rows;          // one per component
  std::shared_ptr<const void> storage;  // owns every row's words (shared by copies)
};

// Sorted lists: the successors of c are targets[offsets[c] .. offsets[c+1]).
struct SparseReach {
  std::vector<uint64_t> offsets{0};
  std::vector<vertex_t> targets;
};

// Reach rows that live outside host memory (src/closure/engine/device_propagation.*
// implements it on an OpenCL device); Closure needs only these answers from it.
class ResidentReach {
 public:
  virtual ~ResidentReach() = default;
  virtual size_t component_count() const = 0;
  // Sum over c of size(c) * (sum of size(d) over d in R(c), d != c): the pairs between
  // different components, counted where the rows are (sizes as given when computed).
  virtual uint64_t cross_pairs() const = 0;
  // R(c,d) for c != d, answered where the rows are.
  virtual bool reaches(vertex_t c, vertex_t d) const = 0;
  // R(c_i, d_i) for every pair at once (c_i != d_i); out gets one 0/1 per pair.
  virtual void reaches_many(std::span<const std::pair<vertex_t, vertex_t>> pairs,
                            std::span<uint8_t> out) const = 0;
  // The rows as a host matrix (row-major), downloaded on first use and kept.
  virtual const BitMatrix& host_rows() const = 0;
  // Only word-columns [word_begin, word_end) of every row, as a row-major
  // component_count x 32*(word_end - word_begin) matrix, copied to the host now and not
  // kept: what a distributed run's rank sends, without a whole matrix on its host.
  virtual BitMatrix host_columns(uint32_t word_begin, uint32_t word_end) const = 0;
  // Bytes held on the host by this object (the downloaded rows, once they are).
  virtual size_t host_bytes() const = 0;
  // Where and how the rows are held ("NVIDIA H200, 1 slice of 5.0 GB").
  virtual std::string describe() const = 0;
};
using DeviceReach = std::shared_ptr<const ResidentReach>;

class Closure {
 public:
  // The index of each alternative in Reach, in this order.
  enum class Representation { kDense, kSparse, kRagged, kDevice };
  using Reach = std::variant<BitMatrix, SparseReach, RaggedReach, DeviceReach>;

  Closure() = default;
  Closure(const Closure&) = default;
  Closure& operator=(const Closure&) = default;
  // A moved-from closure is empty, as Closure() is (its pair counts too).
  Closure(Closure&& other) noexcept { *this = std::move(other); }
  Closure& operator=(Closure&& other) noexcept;

  // From a component map, cyclic flags (one per component, nonzero = cyclic) and a dense
  // component_count x component_count reach matrix. Throws std::invalid_argument on
  // inconsistent sizes, a component id out of range, or an acyclic group of size > 1.
  static Closure from_dense(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                            BitMatrix component_reach);
  // From sorted, duplicate-free lists of reached components: the successors of c are
  // targets[offsets[c] .. offsets[c+1]); c itself, if listed, is ignored (cyclic decides).
  static Closure from_sparse(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                             std::vector<uint64_t> offsets, std::vector<vertex_t> targets);
  // From ragged rows (see RaggedRow); c itself in its own row is ignored (cyclic decides).
  static Closure from_ragged(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                             RaggedReach reach);
  // From rows held elsewhere (see ResidentReach); its cross_pairs() must have been
  // counted with this grouping's component sizes.
  static Closure from_resident(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                               DeviceReach reach);

  size_t vertex_count() const { return component_of_.size(); }
  size_t component_count() const { return cyclic_.size(); }
  Representation representation() const { return Representation(reach_.index()); }

  // Both ids below vertex_count(), else UsageError (as successors()).
  bool reaches(vertex_t u, vertex_t v) const;
  // Number of pairs (u,v) in the closure; with reflexive, every (v,v) counts once.
  uint64_t pair_count(bool reflexive = false) const {
    return reflexive ? pairs_ + vertex_count() - self_pairs_ : pairs_;
  }
  // The vertices u reaches, ascending (out is cleared first).
  void successors(vertex_t u, std::vector<vertex_t>& out, bool reflexive = false) const;
  // Every pair, sorted by (u, v). For tests and small graphs: it materialises them all.
  std::vector<Edge> pairs(bool reflexive = false) const;

  // Component level, for callers that want to avoid expanding (writers, the CLI summary).
  vertex_t component_of(vertex_t v) const { return component_of_[v]; }
  const std::vector<vertex_t>& component_map() const { return component_of_; }
  bool component_cyclic(vertex_t c) const { return cyclic_[c] != 0; }
  // Vertices of component c, ascending.
  std::span<const vertex_t> members(vertex_t c) const {
    if (member_offsets_.empty()) return {members_.data() + c, 1};  // one vertex each
    return {members_.data() + member_offsets_[c], members_.data() + member_offsets_[c + 1]};
  }
  // Whether component c reaches component d (c == d: the cyclic flag).
  bool component_reaches(vertex_t c, vertex_t d) const;
  // The components c reaches, ascending, c itself included iff cyclic (out is cleared).
  void component_successors(vertex_t c, std::vector<vertex_t>& out) const;
  // Calls f(d) for the same components in no particular order, building no list: the
  // cheapest walk of a row, for callers that bucket what they get (closure_csr).
  template <class F>
  void for_each_component_successor(vertex_t c, F&& f) const;
  // Fetches rows held elsewhere (a device closure's, downloaded once) before several
  // threads walk rows: a pool thread that met the download's lock while the holder waited
  // for the pool could deadlock.
  void prepare_rows() const { host_matrix(); }
  const RaggedReach* ragged_reach() const { return std::get_if<RaggedReach>(&reach_); }
  // The resident rows (kDevice only; nullptr otherwise).
  const ResidentReach* resident_reach() const {
    const DeviceReach* d = std::get_if<DeviceReach>(&reach_);
    return d ? d->get() : nullptr;
  }
  // Many vertex pairs at once: out[i] = reaches(pairs[i]); on a device closure one
  // launch answers them all, without downloading rows.
  void reaches_many(std::span<const std::pair<vertex_t, vertex_t>> pairs,
                    std::span<uint8_t> out) const;
  // Bytes held by this object (maps, flags and reach).
  size_t memory_bytes() const;

  // Logical equality: same vertex count and the same pairs, whatever the grouping and
  // representation (cheap when both share the component map).
  bool operator==(const Closure& other) const;

 private:
  // The factories' common tail: takes the parts, then finish().
  static Closure assemble(std::vector<vertex_t> component_of, std::vector<uint8_t> cyclic,
                          Reach reach);
  void finish();       // validates the grouping, builds members_, counts pairs
  void count_pairs();  // pairs_ and self_pairs_ from the representation
  // The rows a walk reads: a dense or device closure's rows as a host matrix.
  const BitMatrix* host_matrix() const;

  std::vector<vertex_t> component_of_;
  std::vector<uint8_t> cyclic_;
  std::vector<vertex_t> member_offsets_;  // component_count + 1; empty: one vertex each
  std::vector<vertex_t> members_;         // vertices grouped by component, ascending within
  Reach reach_{SparseReach{}};
  uint64_t pairs_ = 0;
  uint64_t self_pairs_ = 0;      // vertices v with (v,v) in the strict closure
  bool vertex_ordered_ = false;  // components are ascending runs of vertex ids
};

template <class F>
void Closure::for_each_component_successor(vertex_t c, F&& f) const {
  if (cyclic_[c]) f(c);
  if (const RaggedReach* ragged = std::get_if<RaggedReach>(&reach_)) {
    const RaggedRow& r = ragged->rows[c];
    for (vertex_t d = r.run_begin; d < r.run_end; ++d)
      if (d != c) f(d);
    if (r.id_count > 0) {
      for (const vertex_t d : r.id_list())
        if (d != c) f(d);
    } else {
      for_each_set_bit(r.words, r.word_lo, r.word_count, [&](size_t d) {
        if (d != c) f(vertex_t(d));
      });
    }
  } else if (const SparseReach* sparse = std::get_if<SparseReach>(&reach_)) {
    for (uint64_t i = sparse->offsets[c]; i < sparse->offsets[c + 1]; ++i)
      if (sparse->targets[i] != c) f(sparse->targets[i]);
  } else {
    host_matrix()->for_each_in_row(c, [&](size_t d) {
      if (d != c) f(vertex_t(d));
    });
  }
}

// The closure from a full n x n reach matrix over vertices (the square method on the
// whole graph): R(v,v) is v's self-reach, as the strict closure defines it.
// The rvalue overload takes the matrix over instead of copying it (n = 100,000: 1.25 GB).
Closure from_full_matrix(const BitMatrix& reach);
Closure from_full_matrix(BitMatrix&& reach);

}  // namespace closure
