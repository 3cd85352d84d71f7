// The device propagation's closure rows as Closure sees them: kept in their column
// slices on the device (queries answered there, rows downloaded on first use), or,
// streamed, already on the host or only counted.
#pragma once

#include <CL/opencl.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/kernels/device_slice.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

class DeviceRows final : public ResidentReach {
 public:
  // Resident: the rows stay in `slices`. program: the sweep's, which holds query_pairs
  // (null when there are no slices).
  DeviceRows(ocl::Runtime& rt, cl::Program program, size_t components,
             std::vector<DeviceSlice> slices, uint64_t cross_pairs, std::string where);
  // Streamed: the rows were copied to the host slice by slice (or, not kept, only counted).
  DeviceRows(size_t components, BitMatrix host, bool kept, uint64_t cross_pairs, std::string where);

  size_t component_count() const override { return components_; }
  uint64_t cross_pairs() const override { return cross_pairs_; }
  std::string describe() const override { return where_; }
  size_t host_bytes() const override;
  bool reaches(vertex_t c, vertex_t d) const override;
  void reaches_many(std::span<const std::pair<vertex_t, vertex_t>> pairs,
                    std::span<uint8_t> out) const override;
  BitMatrix host_columns(uint32_t word_begin, uint32_t word_end) const override;
  const BitMatrix& host_rows() const override;

 private:
  const BitMatrix* host_if_present() const;
  const DeviceSlice& slice_of(vertex_t d) const;
  // Answers the pairs at `where` whose column lies in s by one query_pairs launch.
  void query_slice(const DeviceSlice& s, std::span<const std::pair<vertex_t, vertex_t>> pairs,
                   const std::vector<size_t>& where, std::span<uint8_t> out) const;

  mutable cl::Context context_;
  mutable cl::CommandQueue queue_;
  cl::Program program_;
  size_t components_;
  std::vector<DeviceSlice> slices_;
  uint64_t cross_pairs_;
  std::string where_;
  mutable std::mutex mutex_;
  mutable cl::Kernel query_;
  mutable BitMatrix host_;
  mutable bool downloaded_ = false;
  bool counted_only_ = false;
};

}  // namespace closure
