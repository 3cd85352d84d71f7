// Method `propagate`: the condensation closed on the OpenCL device by propagation of reach
// rows (kernels/propagate.cl), the rows kept there in column slices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/graph/graph.hpp"
#include "closure/kernels/chained_blocks.hpp"
#include "closure/kernels/propagate_params.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

struct DevicePropagationOptions {
  // Most word-columns (32 target components each) in one slice; 0 = as many as one
  // device allocation holds. Tests force tiny slices with it (bench propagate too).
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
  // The sweep variant by name (parse_propagate_kernel: "chained", the default, "blocked"
  // or "plain", optionally followed by the columns a work-item owns, e.g. "blocked8"), for
  // tests and measurements (bench propagate --kernels).
  std::string kernel;
};

struct DevicePropagationStats {
  size_t slices = 0, slice_words = 0;
  std::string kernel;
  bool resident = true;          // every slice stays on the device
  size_t live_rows = 0;          // only counted: the rows a slice held (0: every row)
  double upload_s = 0;           // the condensation's CSR (and sizes) to the device
  double kernel_s = 0;           // propagation kernels, first start to last end (events)
  double compute_s = 0;          // wall: launches, kernels, counting
  double download_s = 0;         // streamed slices copied to the host
  uint64_t kernel_bytes = 0;     // words the propagation reads and writes, times 4
  uint64_t csr_bytes = 0;        // what crossed the bus on the way in
  std::string describe() const;  // "1 column slice of 5.0 GB, resident; kernel ..."
};

// The device propagation's work that needs no device: the components' sizes, the chained
// sweep's blocks and, when only counting, the rows' slots. Made before the device is
// waited for, it overlaps the device's opening (auto and propagate do so).
struct PropagationPrep {
  PropagateParams params;  // the sweep for a device whose work-groups hold 32 (any GPU)
  std::vector<uint32_t> sizes;
  ChainedBlocks blocks;  // empty unless the sweep is chained
  LiveRowSlots live;     // empty unless params.live_rows
};
PropagationPrep prepare_device_propagation(const SccResult& scc, const CsrDag& dag,
                                           const DevicePropagationOptions& options);

// Closes the condensation (ids topological, as condense() numbers them) on rt's device.
// The result is a kDevice Closure whose rows stay on the device while it lives (it keeps
// the context alive); it reads them back only when something walks them. `prep`, when
// made for a sweep other than the one the device runs, is made again.
Closure closure_propagate_device(const SccResult& scc, const CsrDag& dag, ocl::Runtime& rt,
                                 const DevicePropagationOptions& options = {},
                                 DevicePropagationStats* stats = nullptr,
                                 const PropagationPrep* prep = nullptr);
Closure closure_propagate_device(const Graph& g, ocl::Runtime& rt,
                                 const DevicePropagationOptions& options = {},
                                 DevicePropagationStats* stats = nullptr);

// A device-to-device copy of `bytes` on rt's device: (bytes read + bytes written) / s,
// the ceiling the propagation kernel's bandwidth is compared with.
double device_copy_bandwidth(ocl::Runtime& rt, size_t bytes);

}  // namespace closure
