// myGEMM_tuned launches: padding to whole tiles where needed, then one unguarded kernel.
#include "gemm/sgemm_tuned.hpp"

#include <stdexcept>
#include <string>

#include "closure/errors.hpp"
#include "closure/ocl/error.hpp"
#include "gemm/gemm_tables.hpp"

namespace closure {

static constexpr const char* kTunedFile = "sgemm_tuned.cl";

double SgemmTunedRun::gemm_seconds() const {
  return ocl::event_seconds(gemm);
}

double SgemmTunedRun::pad_seconds() const {
  double s = 0;
  for (const auto& e : pads) s += ocl::event_seconds(e);
  for (const auto& e : unpads) s += ocl::event_seconds(e);
  return s;
}

SgemmTuned::SgemmTuned(ocl::Runtime& runtime, SgemmTunedParams params)
    : runtime_(runtime), params_(params) {
  use_gemm_tables();
  params_.validate(runtime_.device());
  const std::string options = params_.build_options();
  gemm_ = runtime_.kernel(kTunedFile, options, "myGEMM_tuned");
  pad_ = runtime_.kernel(kTunedFile, options, "sgemm_pad");
  unpad_ = runtime_.kernel(kTunedFile, options, "sgemm_unpad");
  // The device-wide limit was checked before compiling; the compiled kernel may allow
  // fewer work-items (registers: WPTM*WPTN accumulators each), which only the driver knows.
  const size_t allowed = ocl::checked("querying the kernel work-group size", [&] {
    return gemm_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime_.device().device);
  });
  if (params_.group_items() > allowed)
    throw DeviceError("myGEMM_tuned with " + params_.to_string() + " needs work-groups of " +
                      std::to_string(params_.group_items()) + " work-items; compiled for " +
                      runtime_.device().name + " it allows " + std::to_string(allowed));
}

static void check_buffer(const cl::Buffer& buffer, size_t count, const char* what) {
  const size_t bytes = buffer.getInfo<CL_MEM_SIZE>();
  if (bytes < count * sizeof(float))
    throw InternalError(std::string(what) + " holds " + std::to_string(bytes) +
                        " bytes; the shape needs " + std::to_string(count * sizeof(float)));
}

cl::Buffer& SgemmTuned::scratch(int slot, size_t floats) {
  if (scratch_floats_[slot] < floats) {
    scratch_[slot] = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, floats * sizeof(float));
    scratch_floats_[slot] = floats;
  }
  return scratch_[slot];
}

// 16 x 16 copy groups (coalesced along dimension 0, the rows), halved until the device
// allows them.
cl::NDRange SgemmTuned::copy_local() const {
  size_t edge = 16;
  while (edge > 1 && edge * edge > runtime_.device().max_work_group) edge /= 2;
  return {edge, edge};
}

static size_t round_up(size_t x, size_t m) {
  return (x + m - 1) / m * m;
}

cl::Event SgemmTuned::pad(const cl::Buffer& src, size_t rows, size_t cols, const cl::Buffer& dst,
                          size_t prows, size_t pcols) {
  pad_.setArg(0, cl_int(rows));
  pad_.setArg(1, cl_int(cols));
  pad_.setArg(2, src);
  pad_.setArg(3, cl_int(prows));
  pad_.setArg(4, cl_int(pcols));
  pad_.setArg(5, dst);
  const cl::NDRange local = copy_local();
  cl::Event e;
  runtime_.queue().enqueueNDRangeKernel(pad_, cl::NullRange,
                                        {round_up(prows, local[0]), round_up(pcols, local[1])},
                                        local, nullptr, &e);
  return e;
}

SgemmTunedRun SgemmTuned::multiply(GemmShape s, const cl::Buffer& a, const cl::Buffer& b,
                                   const cl::Buffer& c) {
  s.validate();
  check_buffer(a, s.a_count(), "buffer A");
  check_buffer(b, s.b_count(), "buffer B");
  check_buffer(c, s.c_count(), "buffer C");
  const GemmShape p = params_.padded(s);
  p.validate();  // the kernel indexes the padded matrices with int
  return ocl::checked("launching myGEMM_tuned", [&] {
    SgemmTunedRun run;
    // Only the operands with a ragged dimension are copied: at n = 8192 and 128 x 128
    // tiles nothing is, and the product runs on the caller's buffers.
    const bool pad_a = p.m != s.m || p.k != s.k;
    const bool pad_b = p.k != s.k || p.n != s.n;
    const bool pad_c = p.m != s.m || p.n != s.n;
    const cl::Buffer* da = &a;
    const cl::Buffer* db = &b;
    const cl::Buffer* dc = &c;
    if (pad_a) {
      da = &scratch(0, p.a_count());
      run.pads.push_back(pad(a, s.m, s.k, *da, p.m, p.k));
    }
    if (pad_b) {
      db = &scratch(1, p.b_count());
      run.pads.push_back(pad(b, s.k, s.n, *db, p.k, p.n));
    }
    if (pad_c) dc = &scratch(2, p.c_count());

    gemm_.setArg(0, cl_int(p.m));
    gemm_.setArg(1, cl_int(p.n));
    gemm_.setArg(2, cl_int(p.k));
    gemm_.setArg(3, *da);
    gemm_.setArg(4, *db);
    gemm_.setArg(5, *dc);
    runtime_.queue().enqueueNDRangeKernel(gemm_, cl::NullRange, params_.global_size(p),
                                          params_.local_size(), nullptr, &run.gemm);

    if (pad_c) {
      unpad_.setArg(0, cl_int(s.m));
      unpad_.setArg(1, cl_int(s.n));
      unpad_.setArg(2, *dc);
      unpad_.setArg(3, cl_int(p.m));
      unpad_.setArg(4, c);
      const cl::NDRange local = copy_local();
      cl::Event e;
      runtime_.queue().enqueueNDRangeKernel(unpad_, cl::NullRange,
                                            {round_up(s.m, local[0]), round_up(s.n, local[1])},
                                            local, nullptr, &e);
      run.unpads.push_back(e);
    }
    return run;
  });
}

}  // namespace closure
