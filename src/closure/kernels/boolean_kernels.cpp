// Boolean kernel launches: geometry from BooleanParams, shapes checked before launching.
#include "closure/kernels/boolean_kernels.hpp"

#include <climits>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/ocl/error.hpp"

namespace closure {

// The kernels index words with 32-bit ints: refuse what they cannot address, rather than
// let an index wrap.
static void check_indexable(const DeviceBitMatrix& m) {
  if (m.word_count() > size_t(INT32_MAX))
    throw DeviceError("a " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                      " matrix has more than 2^31 words, more than the device kernels "
                      "can index");
}

static constexpr const char* kProductFile = "boolean_mul.cl";
static constexpr const char* kUtilFile = "boolean_util.cl";

BooleanKernels::BooleanKernels(ocl::Runtime& runtime, BooleanParams params)
    : runtime_(runtime), params_(params) {
  params_.validate(runtime_.device());
  cubic_ = runtime_.kernel(kProductFile, params_.build_options(), "clcubic_mul");
  utri_ = runtime_.kernel(kProductFile, params_.build_options(), "clutri_mul");
  differ_ = runtime_.kernel(kUtilFile, "-cl-std=CL1.2", "words_differ");
  flag_ = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, sizeof(cl_int));
}

DeviceBitMatrix BooleanKernels::allocate(size_t rows, size_t cols) {
  DeviceBitMatrix m = DeviceBitMatrix::shaped(rows, cols, params_.padding());
  check_indexable(m);
  ocl::checked("allocating a device matrix", [&] {
    m.buffer = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, m.bytes());
    runtime_.queue().enqueueFillBuffer(m.buffer, word_t{0}, 0, m.bytes());
    return 0;
  });
  return m;
}

DeviceBitMatrix BooleanKernels::upload(const BitMatrix& host) {
  const bool fits = host.padding() == params_.padding() && host.order() == WordOrder::kColumnMajor;
  const BitMatrix padded = fits ? BitMatrix() : host.repadded(params_.padding());
  const BitMatrix& src = fits ? host : padded;
  DeviceBitMatrix m = DeviceBitMatrix::like(src);
  check_indexable(m);
  ocl::checked("uploading a matrix", [&] {
    m.buffer = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, m.bytes());
    runtime_.queue().enqueueWriteBuffer(m.buffer, CL_TRUE, 0, m.bytes(), src.data());
    return 0;
  });
  return m;
}

BitMatrix BooleanKernels::download(const DeviceBitMatrix& m) {
  BitMatrix host(m.rows, m.cols, params_.padding());
  ocl::checked("downloading a matrix", [&] {
    runtime_.queue().enqueueReadBuffer(m.buffer, CL_TRUE, 0, m.bytes(), host.data());
    return 0;
  });
  return host;
}

void BooleanKernels::copy(DeviceBitMatrix& dst, const DeviceBitMatrix& src) {
  if (dst.bytes() != src.bytes()) throw InternalError("BooleanKernels::copy: sizes differ");
  ocl::checked("copying a device matrix", [&] {
    runtime_.queue().enqueueCopyBuffer(src.buffer, dst.buffer, 0, 0, src.bytes());
    return 0;
  });
}

void BooleanKernels::check_shapes(const DeviceBitMatrix& c, const DeviceBitMatrix& a,
                                  const DeviceBitMatrix& b, const char* what) const {
  if (a.cols != b.rows || c.rows != a.rows || c.cols != b.cols ||
      b.rows_padded != a.padded_cols() || c.rows_padded != a.rows_padded ||
      c.words_padded != b.words_padded)
    throw InternalError(std::string(what) + ": operand shapes do not agree");
}

cl::Event BooleanKernels::cubic_mul(DeviceBitMatrix& c, const DeviceBitMatrix& a,
                                    const DeviceBitMatrix& b) {
  check_shapes(c, a, b, "cubic_mul");
  ocl::checked("launching clcubic_mul", [&] { return cubic_.setArg(4, cl_int(a.padded_cols())); });
  return launch(cubic_, "launching clcubic_mul", c, a, b);
}

cl::Event BooleanKernels::utri_mul(DeviceBitMatrix& c, const DeviceBitMatrix& a,
                                   const DeviceBitMatrix& b) {
  check_shapes(c, a, b, "utri_mul");
  if (a.rows != a.cols || b.rows != b.cols)
    throw InternalError("utri_mul: operands must be square");
  return launch(utri_, "launching clutri_mul", c, a, b);
}

// Both products take (C, A, B, A_nrows, ...) and one work-item per TILE_M x TILE_W words.
cl::Event BooleanKernels::launch(cl::Kernel& kernel, const char* what, DeviceBitMatrix& c,
                                 const DeviceBitMatrix& a, const DeviceBitMatrix& b) {
  const size_t tm = params_.tile_m, tw = params_.words_per_item();
  return ocl::checked(what, [&] {
    kernel.setArg(0, c.buffer);
    kernel.setArg(1, a.buffer);
    kernel.setArg(2, b.buffer);
    kernel.setArg(3, cl_int(a.rows_padded));
    cl::Event e;
    runtime_.queue().enqueueNDRangeKernel(kernel, cl::NullRange,
                                          cl::NDRange(c.rows_padded / tm, c.words_padded / tw),
                                          params_.local_size(), nullptr, &e);
    return e;
  });
}

bool BooleanKernels::differ(const DeviceBitMatrix& a, const DeviceBitMatrix& b) {
  if (a.word_count() != b.word_count()) return true;
  return ocl::checked("comparing device matrices", [&] {
    auto& q = runtime_.queue();
    q.enqueueFillBuffer(flag_, cl_int{0}, 0, sizeof(cl_int));
    differ_.setArg(0, a.buffer);
    differ_.setArg(1, b.buffer);
    differ_.setArg(2, flag_);
    differ_.setArg(3, cl_int(a.word_count()));
    q.enqueueNDRangeKernel(differ_, cl::NullRange, cl::NDRange(round_up(a.word_count(), 256)),
                           cl::NullRange);
    cl_int flag = 0;
    q.enqueueReadBuffer(flag_, CL_TRUE, 0, sizeof flag, &flag);
    return flag != 0;
  });
}

}  // namespace closure
