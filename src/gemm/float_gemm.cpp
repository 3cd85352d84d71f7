// Float GEMM launches: geometry from the parameter sets, shapes and buffer sizes checked
// before launching.
#include "gemm/float_gemm.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "closure/errors.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/ocl/error.hpp"
#include "gemm/gemm_tables.hpp"

namespace closure {

// Sets a kernel's arguments in order.
template <class... Args>
static void set_args(cl::Kernel& k, const Args&... args) {
  cl_uint index = 0;
  (k.setArg(index++, args), ...);
}

static constexpr const char* kGemmFile = "float_gemm.cl";
static constexpr const char* kBookFile = "book_mmul.cl";

const char* variant_name(GemmVariant v) {
  switch (v) {
    case GemmVariant::kMyGemm1:
      return "myGEMM1";
    case GemmVariant::kMyGemm1b:
      return "myGEMM1b";
    case GemmVariant::kMyGemm2:
      return "myGEMM2";
    case GemmVariant::kMatrixMulKernel:
      return "MatrixMulKernel";
    case GemmVariant::kMmulElement:
      return "mmul_element";
    case GemmVariant::kMmulRow:
      return "mmul_row";
    case GemmVariant::kMmulRowPrivate:
      return "mmul_row_private";
    case GemmVariant::kMmulRowPrivateLocal:
      return "mmul_row_private_local";
    case GemmVariant::kMyGemmTuned:
      return "myGEMM_tuned";
  }
  return "?";
}

StorageOrder variant_order(GemmVariant v) {
  switch (v) {
    case GemmVariant::kMyGemm1:
    case GemmVariant::kMyGemm1b:
    case GemmVariant::kMyGemm2:
    case GemmVariant::kMyGemmTuned:
      return StorageOrder::kColumnMajor;
    default:
      return StorageOrder::kRowMajor;
  }
}

static bool is_book(GemmVariant v) {
  return v >= GemmVariant::kMmulElement && v <= GemmVariant::kMmulRowPrivateLocal;
}

// The work-group size a kernel is launched with, for the per-kernel check below (0: left
// to the implementation).
static size_t group_items(GemmVariant v, const FloatGemmParams& g, const BookMmulParams& b) {
  switch (v) {
    case GemmVariant::kMyGemm1:
    case GemmVariant::kMyGemm1b:
      return size_t(g.group) * g.group;
    case GemmVariant::kMyGemm2:
      return size_t(g.ts) * g.ts;
    case GemmVariant::kMatrixMulKernel:
      return size_t(g.tile_width) * g.tile_width;
    case GemmVariant::kMmulElement:
      return 0;
    default:
      return size_t(b.row_group);
  }
}

FloatKernels::FloatKernels(ocl::Runtime& runtime, FloatGemmParams gemm, BookMmulParams book,
                           std::optional<SgemmTunedParams> tuned)
    : runtime_(runtime), gemm_(gemm), book_(book) {
  use_gemm_tables();
  gemm_.validate(runtime_.device());
  book_.validate(runtime_.device());
  const SgemmTunedParams t = tuned ? *tuned : sgemm_tuned_params_for(runtime_.device());
  t.validate(runtime_.device());
  add_ = runtime_.kernel(kGemmFile, gemm_.build_options(), "myAdd");
  for (GemmVariant v : kGemmVariants) {
    if (v == GemmVariant::kMyGemmTuned) {  // its own class: padding steps, its own checks
      tuned_ = std::make_unique<SgemmTuned>(runtime_, t);
      kernels_.emplace_back();
      continue;
    }
    kernels_.push_back(is_book(v)
                           ? runtime_.kernel(kBookFile, book_.build_options(), variant_name(v))
                           : runtime_.kernel(kGemmFile, gemm_.build_options(), variant_name(v)));
    // The device-wide limit was checked before compiling; a compiled kernel may allow less
    // (registers, private memory), which only the driver knows now.
    const size_t items = group_items(v, gemm_, book_);
    const size_t allowed = ocl::checked("querying the kernel work-group size", [&] {
      return kernels_.back().getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime_.device().device);
    });
    if (items > allowed)
      throw DeviceError(std::string(variant_name(v)) + " with " + gemm_.to_string() + "," +
                        book_.to_string() + " needs work-groups of " + std::to_string(items) +
                        " work-items; compiled for " + runtime_.device().name + " it allows " +
                        std::to_string(allowed));
  }
}

cl::Kernel& FloatKernels::kernel(GemmVariant v) {
  return kernels_.at(size_t(v));
}

static void check_buffer(const cl::Buffer& buffer, size_t count, const char* what) {
  const size_t bytes = buffer.getInfo<CL_MEM_SIZE>();
  if (bytes < count * sizeof(float))
    throw InternalError(std::string(what) + " holds " + std::to_string(bytes) +
                        " bytes; the shape needs " + std::to_string(count * sizeof(float)));
}

cl::Event FloatKernels::multiply(GemmVariant v, GemmShape s, const cl::Buffer& a,
                                 const cl::Buffer& b, const cl::Buffer& c) {
  if (v == GemmVariant::kMyGemmTuned) return tuned_->multiply(s, a, b, c).last();
  s.validate();
  check_buffer(a, s.a_count(), "buffer A");
  check_buffer(b, s.b_count(), "buffer B");
  check_buffer(c, s.c_count(), "buffer C");
  const std::string what = std::string("launching ") + variant_name(v);
  return ocl::checked(what.c_str(), [&] {
    cl::Kernel& k = kernel(v);
    cl::NDRange global, local = cl::NullRange;
    const cl_int m = cl_int(s.m), kk = cl_int(s.k), n = cl_int(s.n);
    switch (v) {
      case GemmVariant::kMyGemm1:
      case GemmVariant::kMyGemm1b:
      case GemmVariant::kMyGemm2:
        set_args(k, m, n, kk, a, b, c);
        if (v == GemmVariant::kMyGemm2) {
          global = gemm_.gemm2_global(s.m, s.n);
          local = gemm_.gemm2_local();
        } else {
          // myGEMM1b walks C's columns along dimension 0.
          global = v == GemmVariant::kMyGemm1 ? gemm_.simple_global(s.m, s.n)
                                              : gemm_.simple_global(s.n, s.m);
          local = gemm_.simple_local();
        }
        break;
      case GemmVariant::kMatrixMulKernel:
        set_args(k, a, b, c, m, kk, n);
        global = gemm_.tiled_global(s.m, s.n);
        local = gemm_.tiled_local();
        break;
      default:  // the book's: (Mdim, Ndim, Pdim) = (n, m, k)
        set_args(k, n, m, kk, a, b, c);
        if (v == GemmVariant::kMmulElement) {
          global = book_.element_global(s.m, s.n);
        } else {
          global = book_.row_global(s.m);
          local = book_.row_local();
        }
        break;
    }
    cl::Event e;
    runtime_.queue().enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &e);
    return e;
  });
}

cl::Event FloatKernels::add(size_t m, size_t n, const cl::Buffer& a, const cl::Buffer& b,
                            const cl::Buffer& c) {
  GemmShape{m, 1, n}.validate();
  check_buffer(a, m * n, "buffer A");
  check_buffer(b, m * n, "buffer B");
  check_buffer(c, m * n, "buffer C");
  return ocl::checked("launching myAdd", [&] {
    add_.setArg(0, cl_int(m));
    add_.setArg(1, cl_int(n));
    add_.setArg(2, cl_int(0));
    add_.setArg(3, a);
    add_.setArg(4, b);
    add_.setArg(5, c);
    cl::Event e;
    runtime_.queue().enqueueNDRangeKernel(add_, cl::NullRange, gemm_.simple_global(m, n),
                                          gemm_.simple_local(), nullptr, &e);
    return e;
  });
}

cl::Buffer FloatKernels::upload(const std::vector<float>& x) {
  return ocl::checked("uploading a float matrix", [&] {
    // A zero-sized buffer is invalid in OpenCL; an empty vector gets one float.
    const size_t bytes = std::max<size_t>(x.size(), 1) * sizeof(float);
    cl::Buffer buffer(runtime_.context(), CL_MEM_READ_WRITE, bytes);
    if (!x.empty())
      runtime_.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, x.size() * sizeof(float), x.data());
    return buffer;
  });
}

std::vector<float> FloatKernels::download(const cl::Buffer& buffer, size_t count) {
  std::vector<float> x(count);
  ocl::checked("downloading a float matrix", [&] {
    runtime_.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(float), x.data());
    return 0;
  });
  return x;
}

std::vector<float> FloatKernels::multiply(GemmVariant v, GemmShape s, const std::vector<float>& a,
                                          const std::vector<float>& b) {
  if (a.size() != s.a_count() || b.size() != s.b_count())
    throw InternalError(std::string(variant_name(v)) + ": operand sizes do not match the shape");
  const cl::Buffer da = upload(a), db = upload(b), dc = upload(std::vector<float>(s.c_count()));
  multiply(v, s, da, db, dc);
  return download(dc, s.c_count());
}

std::vector<float> FloatKernels::add(size_t m, size_t n, const std::vector<float>& a,
                                     const std::vector<float>& b) {
  if (a.size() != m * n || b.size() != m * n)
    throw InternalError("myAdd: operand sizes do not match the shape");
  const cl::Buffer da = upload(a), db = upload(b), dc = upload(std::vector<float>(m * n));
  add(m, n, da, db, dc);
  return download(dc, m * n);
}

}  // namespace closure
