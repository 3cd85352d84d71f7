// Method `propagate`: the condensation closed on the OpenCL device by propagation of reach
// rows (kernels/propagate.cl), the rows kept there in column slices.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/graph/graph.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

struct DevicePropagationOptions {
  // Most word-columns (32 target components each) in one slice; 0 = as many as one
  // device allocation holds. Tests force tiny slices with it (CLOSURE_SLICE_WORDS too).
  size_t max_slice_words = 0;
  // Device bytes the rows may take; 0 = 85% of the device's global memory. When the
  // closure is larger, slices are computed one after another (streamed), counted, and
  // copied to the host only if rows_needed (else only the count survives).
  size_t device_budget_bytes = 0;
  // Whether anything will read rows (an output, a verification, queries); when false a
  // closure too large for the device is only counted.
  bool rows_needed = true;
  // The word-columns to compute, [word_begin, word_end) (32 target components a word);
  // word_end = 0: all of them. A distributed run gives each rank its own range; the
  // other columns of the result read as zero.
  uint32_t word_begin = 0, word_end = 0;
  // The sweep kernel: "chained" (the default: blocks of 32 rows split on the host into
  // in-block chains and successors beyond, loaded together), "blocked" (the CSR staged in
  // local memory a block of rows at a time) or "plain", optionally followed by the
  // columns a work-item owns (32, 16 or 8, e.g. "blocked8");
  // CLOSURE_PROPAGATE_KERNEL overrides the default.
  std::string kernel;
};

// A sweep kernel resolved from its name (see DevicePropagationOptions::kernel).
struct PropagateKernel {
  enum Sweep { kChained, kBlocked, kPlain } sweep = kChained;
  unsigned unit_bits = 32;       // columns per work-item
  std::string describe() const;  // "blocked8" form, as --kernels takes it
};
// What the chained sweep reads besides the rows: the condensation split into aligned
// blocks of kRows rows [32k, 32k + 32). masks[c] has bit j set when row c's successor
// 32k + j lies in c's block (j > 0, as c < 32k + j); bit 0 of masks[32k] is set when some
// row c of block k has two or more such successors other than c + 1. Block k's other
// successors d (beyond the block) are items (c - 32k, d): its first kFirst in
// first[kFirst k ..], padded with (kRows, kNone) (the kernel loads them a block ahead),
// the rest in ext_items[ext_offsets[k] .. ext_offsets[k + 1]). Throws
// std::invalid_argument unless every edge c -> d has c < d (topological ids).
struct ChainedBlocks {
  static constexpr size_t kRows = 32;
  static constexpr size_t kFirst = 8;  // kernels/propagate.cl's CHAIN_PREFETCH
  static constexpr uint32_t kNone = 0xffffffffu;
  std::vector<uint32_t> masks;
  std::vector<std::array<uint32_t, 2>> first;
  std::vector<uint64_t> ext_offsets;
  std::vector<std::array<uint32_t, 2>> ext_items;
};
ChainedBlocks chained_blocks(const CsrDag& dag);

// Resolves `name` ("" = CLOSURE_PROPAGATE_KERNEL, else the default); the blocked kernel
// needs work-groups of 32, so a device with smaller ones gets the plain one. Throws
// UsageError naming the valid kernels (the name is a user's: --kernels, the variable).
PropagateKernel resolve_propagate_kernel(const std::string& name, size_t max_work_group);

struct DevicePropagationStats {
  size_t slices = 0, slice_words = 0;
  std::string kernel;
  bool resident = true;          // every slice stays on the device
  double upload_s = 0;           // the condensation's CSR (and sizes) to the device
  double kernel_s = 0;           // propagation kernels, first start to last end (events)
  double compute_s = 0;          // wall: launches, kernels, counting
  double download_s = 0;         // streamed slices copied to the host
  uint64_t kernel_bytes = 0;     // words the propagation reads and writes, times 4
  uint64_t csr_bytes = 0;        // what crossed the bus on the way in
  std::string describe() const;  // "1 column slice of 5.0 GB, resident; kernel ..."
};

// Closes the condensation (ids topological, as condense() numbers them) on rt's device.
// The result is a kDevice Closure whose rows stay on the device while it lives (it keeps
// the context alive); it reads them back only when something walks them.
Closure closure_propagate_device(const SccResult& scc, const CsrDag& dag, ocl::Runtime& rt,
                                 const DevicePropagationOptions& options = {},
                                 DevicePropagationStats* stats = nullptr);
Closure closure_propagate_device(const Graph& g, ocl::Runtime& rt,
                                 const DevicePropagationOptions& options = {},
                                 DevicePropagationStats* stats = nullptr);

// A device-to-device copy of `bytes` on rt's device: (bytes read + bytes written) / s,
// the ceiling the propagation kernel's bandwidth is compared with.
double device_copy_bandwidth(ocl::Runtime& rt, size_t bytes);

}  // namespace closure
