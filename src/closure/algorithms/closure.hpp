// Closure: the strict transitive closure of a graph, held as vertex -> component plus
// component-level reach (a dense BitMatrix or sorted sparse lists), behind one API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "closure/bitmatrix.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

// Semantics (DESIGN.md): (u,v) is in the closure iff a path of >= 1 edges leads from u
// to v; so (v,v) iff v lies on a cycle or has a self-loop. `reflexive` arguments add
// every (v,v) on top.
//
// Storage: vertices are grouped into "components": usually the strongly connected
// components, but any grouping works in which every member of a group has the same
// successors, and a group either is cyclic (its members all reach each other, itself
// included) or holds exactly one vertex. Component ids need not be topological.
// Component reach R(c,d), c != d, says c reaches d; whether c reaches itself is the
// cyclic flag alone (the diagonal of a dense R is ignored, so a GPU closure of the
// condensed DAG, whose diagonal is zero, can be handed over as it is).
//
// Three representations of R, with the same answers:
//   kDense:  a BitMatrix (component_count x component_count), either WordOrder, any
//            padding -- what the GPU methods and the dense host methods produce.
//   kSparse: per component a sorted list of reached components (CSR).
//   kRagged: per component a run [run_begin, run_end) of reached components plus a
//            bitset over only the words where its other reached components lie -- what
//            the sparse propagation method produces. It pays when the closure is small
//            next to C*C/8 bytes (human_dag: 122 KB of words instead of 188 MB) and when
//            reach sets are long intervals (a 1,000,000-vertex chain: no words at all,
//            where a dense matrix needs 125 GB).

// One row of a ragged reach: reached components = [run_begin, run_end) plus the set bits
// of words[0 .. word_count), word i covering columns 32*(word_lo+i) .. +31. The run and
// the bits must be disjoint; bits beyond the last column must be zero.
struct RaggedRow {
  const word_t* words = nullptr;
  uint32_t word_lo = 0, word_count = 0;
  uint32_t run_begin = 0, run_end = 0;
};
struct RaggedReach {
  std::vector<RaggedRow> rows;          // one per component
  std::shared_ptr<const void> storage;  // owns every row's words (shared by copies)
};

class Closure {
 public:
  enum class Representation { kDense, kSparse, kRagged };

  Closure() = default;

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

  size_t vertex_count() const { return component_of_.size(); }
  size_t component_count() const { return cyclic_.size(); }
  Representation representation() const { return rep_; }

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
    return {members_.data() + member_offsets_[c], members_.data() + member_offsets_[c + 1]};
  }
  // Whether component c reaches component d (c == d: the cyclic flag).
  bool component_reaches(vertex_t c, vertex_t d) const;
  // The components c reaches, ascending, c itself included iff cyclic (out is cleared).
  void component_successors(vertex_t c, std::vector<vertex_t>& out) const;
  // The dense reach matrix (kDense only; nullptr otherwise).
  const BitMatrix* dense_reach() const {
    return rep_ == Representation::kDense ? &dense_ : nullptr;
  }
  // Bytes held by this object (maps, flags and reach).
  size_t memory_bytes() const;

  // Logical equality: same vertex count and the same pairs, whatever the grouping and
  // representation (cheap when both share the component map).
  bool operator==(const Closure& other) const;

 private:
  void finish();  // validates the grouping, builds members_, counts pairs

  std::vector<vertex_t> component_of_;
  std::vector<uint8_t> cyclic_;
  std::vector<vertex_t> member_offsets_;  // component_count + 1
  std::vector<vertex_t> members_;         // vertices grouped by component, ascending within
  Representation rep_ = Representation::kSparse;
  BitMatrix dense_;
  std::vector<uint64_t> sparse_offsets_{0};
  std::vector<vertex_t> sparse_targets_;
  RaggedReach ragged_;
  uint64_t pairs_ = 0;
  uint64_t self_pairs_ = 0;      // vertices v with (v,v) in the strict closure
  bool vertex_ordered_ = false;  // components are ascending runs of vertex ids
};

// The closure from a full n x n reach matrix over vertices (the square method on the
// whole graph): R(v,v) is v's self-reach, as the strict closure defines it.
// The rvalue overload takes the matrix over instead of copying it (n = 100,000: 1.25 GB).
Closure from_full_matrix(const BitMatrix& reach);
Closure from_full_matrix(BitMatrix&& reach);

}  // namespace closure
