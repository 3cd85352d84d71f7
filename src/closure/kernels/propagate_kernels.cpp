// Propagation launches: geometry from PropagateParams and the slices, inputs uploaded
// once, counts reduced on the device.
#include "closure/kernels/propagate_kernels.hpp"

#include <algorithm>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/kernels/chained_blocks.hpp"

namespace closure {

PropagateKernels::PropagateKernels(ocl::Runtime& runtime, PropagateParams params)
    : runtime_(runtime), params_(params) {
  params_.validate();
  if (params_.needs_groups_of_32() && runtime_.device().max_work_group < 32)
    throw DeviceError("propagate: the " + params_.describe() + " sweep needs work-groups of 32");
  local_ = runtime_.device().max_work_group >= 32 ? 32 : 1;
  total_ = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, sizeof(cl_ulong));
  runtime_.queue().enqueueFillBuffer(total_, cl_ulong{0}, 0, sizeof(cl_ulong));
}

uint64_t PropagateKernels::upload_csr(const CsrDag& dag, const std::vector<uint32_t>& sizes) {
  cl::Context& ctx = runtime_.context();
  cl::CommandQueue& queue = runtime_.queue();
  const size_t C = dag.offsets.size() - 1;
  components_ = cl_uint(C);
  slice_rows_ = C;
  // The kernels read 64-bit offsets: the host's are those already, uploaded as they are.
  static_assert(sizeof(dag.offsets[0]) == sizeof(cl_ulong));
  offsets_ = cl::Buffer(ctx, CL_MEM_READ_ONLY, dag.offsets.size() * sizeof(cl_ulong));
  queue.enqueueWriteBuffer(offsets_, CL_FALSE, 0, dag.offsets.size() * sizeof(cl_ulong),
                           dag.offsets.data());
  targets_ =
      cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(dag.targets.size(), 1) * sizeof(uint32_t));
  if (!dag.targets.empty())
    queue.enqueueWriteBuffer(targets_, CL_FALSE, 0, dag.targets.size() * sizeof(uint32_t),
                             dag.targets.data());
  const bool weighted = params_.weighted != 0;
  sizes_ = cl::Buffer(ctx, CL_MEM_READ_ONLY, weighted ? C * sizeof(uint32_t) : 4);
  if (weighted) queue.enqueueWriteBuffer(sizes_, CL_FALSE, 0, C * sizeof(uint32_t), sizes.data());
  queue.finish();
  return dag.offsets.size() * 8 + dag.targets.size() * 4 + (weighted ? C * 4 : 0);
}

uint64_t PropagateKernels::upload_chained_blocks(const ChainedBlocks& blocks,
                                                 const LiveRowSlots& live) {
  if (params_.sweep != PropagateParams::kChained) return 0;
  auto upload = [&](const void* data, size_t bytes) {
    cl::Buffer b(runtime_.context(), CL_MEM_READ_ONLY, std::max<size_t>(bytes, 8));
    if (bytes) runtime_.queue().enqueueWriteBuffer(b, CL_FALSE, 0, bytes, data);
    return b;
  };
  masks_ = upload(blocks.masks.data(), blocks.masks.size() * sizeof(uint32_t));
  first_ = upload(blocks.first.data(), blocks.first.size() * sizeof(blocks.first[0]));
  ext_offsets_ = upload(blocks.ext_offsets.data(), blocks.ext_offsets.size() * sizeof(uint64_t));
  ext_items_ =
      upload(blocks.ext_items.data(), blocks.ext_items.size() * sizeof(blocks.ext_items[0]));
  uint64_t slot_bytes = 0;
  if (params_.live_rows) {
    if (live.slot.size() != size_t(components_))
      throw InternalError("propagate: live rows' slots for another graph");
    slot_bytes = live.slot.size() * sizeof(uint32_t);
    slots_ = upload(live.slot.data(), slot_bytes);
    slice_rows_ = std::max<size_t>(live.slots, 1);
  } else {
    slots_ = upload(nullptr, 0);
  }
  runtime_.queue().finish();
  return blocks.bytes() + slot_bytes;
}

void PropagateKernels::set_sweep_args(const std::vector<DeviceSlice>& slices, size_t full_units,
                                      const cl::Buffer& partial) {
  const size_t count = slices.size();
  cl_uint arg = 0;
  if (params_.sweep == PropagateParams::kChained) {
    sweep_.setArg(arg++, masks_);
    sweep_.setArg(arg++, first_);
    sweep_.setArg(arg++, ext_offsets_);
    sweep_.setArg(arg++, ext_items_);
    sweep_.setArg(arg++, slots_);
  } else {
    sweep_.setArg(arg++, offsets_);
    sweep_.setArg(arg++, targets_);
  }
  for (size_t i = 0; i < kSlicesPerLaunch; ++i)  // unused pointers repeat the first
    sweep_.setArg(arg++, slices[i < count ? i : 0].rows);
  sweep_.setArg(arg++, components_);
  sweep_.setArg(arg++, cl_uint(slices[0].word_begin * params_.units_per_word()));
  sweep_.setArg(arg++, cl_uint(full_units));
  sweep_.setArg(arg++, cl_uint(count));
  sweep_.setArg(arg++, cl_uint(size_t(slices.back().words) * params_.units_per_word()));
  sweep_.setArg(arg++, sizes_);
  sweep_.setArg(arg++, partial);
}

cl::Event PropagateKernels::sweep(const std::vector<DeviceSlice>& slices) {
  if (slices.empty() || slices.size() > kSlicesPerLaunch)
    throw InternalError("propagate: a sweep takes 1 to 4 slices");
  if (!sweep_()) {
    // One program for the sweep and sum_counts: other options would compile the file again.
    sweep_ = runtime_.kernel(kFile, params_.build_options(), params_.entry_point());
    sum_ = runtime_.kernel(kFile, params_.build_options(), "sum_counts");
  }
  const size_t count = slices.size();
  const size_t full_units = size_t(slices[0].words) * params_.units_per_word();
  const size_t groups_per_slice = ceil_div(full_units, local_);
  cl::Buffer partial(runtime_.context(), CL_MEM_READ_WRITE, count * full_units * sizeof(cl_ulong));
  runtime_.queue().enqueueFillBuffer(partial, cl_ulong{0}, 0,
                                     count * full_units * sizeof(cl_ulong));
  set_sweep_args(slices, full_units, partial);
  cl::Event ev;
  runtime_.queue().enqueueNDRangeKernel(sweep_, cl::NullRange,
                                        cl::NDRange(count * groups_per_slice * local_),
                                        cl::NDRange(local_), nullptr, &ev);
  sum_counts(partial, count * full_units);
  return ev;
}

void PropagateKernels::sum_counts(const cl::Buffer& partial, size_t count) {
  // One work-group of the largest power of two the device allows, up to 256.
  const size_t group = std::min<size_t>(256, std::max<size_t>(1, runtime_.device().max_work_group));
  size_t pow2 = 1;
  while (pow2 * 2 <= group) pow2 *= 2;
  sum_.setArg(0, partial);
  sum_.setArg(1, cl_uint(count));
  sum_.setArg(2, total_);
  sum_.setArg(3, cl::Local(pow2 * sizeof(cl_ulong)));
  runtime_.queue().enqueueNDRangeKernel(sum_, cl::NullRange, cl::NDRange(pow2), cl::NDRange(pow2));
}

uint64_t PropagateKernels::cross_pairs() {
  cl_ulong total = 0;
  runtime_.queue().enqueueReadBuffer(total_, CL_TRUE, 0, sizeof total, &total);
  return total;
}

}  // namespace closure
