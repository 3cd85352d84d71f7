// Host side of the propagation kernels (kernels/propagate.cl): the program of one
// PropagateParams, the condensation uploaded once for every slice, sweeps over column
// slices with their pair counts summed on the device, so only 8 bytes come back.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <vector>

#include "closure/graph/csr_dag.hpp"
#include "closure/kernels/chained_blocks.hpp"
#include "closure/kernels/device_slice.hpp"
#include "closure/kernels/propagate_params.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

class PropagateKernels {
 public:
  // Slices one sweep takes at once (the kernels' SLICE_ARGS): one slice does not fill
  // the GPU, and launches on separate queues ran one after another on the H200.
  static constexpr size_t kSlicesPerLaunch = 4;
  static constexpr const char* kFile = "propagate.cl";

  // Checks params; the program is built at the first sweep.
  PropagateKernels(ocl::Runtime& runtime, PropagateParams params);

  const PropagateParams& params() const { return params_; }
  // The sweep's program, which also holds query_pairs.
  cl::Program& program() { return runtime_.program(kFile, params_.build_options()); }

  // The condensation's CSR and, when params().weighted, its component sizes (sizes[c]:
  // the vertices of component c): all that crosses the bus on the way in. Returns the
  // bytes moved.
  uint64_t upload_csr(const CsrDag& dag, const std::vector<uint32_t>& sizes);
  // The chained sweep's split of the CSR (chained_blocks(dag)), and with params().live_rows
  // the rows' slots (live_row_slots(blocks)); nothing for the other sweeps. Returns the
  // bytes moved.
  uint64_t upload_chained_blocks(const ChainedBlocks& blocks, const LiveRowSlots& live);
  // With live_rows, the rows a slice holds (the most live at once), once uploaded; else
  // every component's.
  size_t slice_rows() const { return slice_rows_; }

  // Sweeps 1 to kSlicesPerLaunch consecutive slices, all of slices[0].words words but the
  // last, and adds their pairs to the device's total. Returns the sweep's (profiled) event.
  cl::Event sweep(const std::vector<DeviceSlice>& slices);
  // Sum over the slices swept of size(c) * size(d) for every d in R(c): waits for them.
  uint64_t cross_pairs();

 private:
  void set_sweep_args(const std::vector<DeviceSlice>& slices, size_t full_units,
                      const cl::Buffer& partial);
  void sum_counts(const cl::Buffer& partial, size_t count);

  ocl::Runtime& runtime_;
  PropagateParams params_;
  size_t local_ = 1;  // work-items a group
  cl_uint components_ = 0;
  cl::Buffer offsets_, targets_, sizes_;
  size_t slice_rows_ = 0;
  cl::Buffer masks_, first_, ext_offsets_, ext_items_, slots_;
  cl::Buffer total_;
  cl::Kernel sweep_, sum_;
};

}  // namespace closure
