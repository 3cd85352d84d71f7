// OpenCL's functions, each a call through a table filled when first called
// (opencl_library.hpp).
#include "closure/ocl/opencl_library.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <tuple>
#include <type_traits>

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <string>
#include <string_view>

#include "closure/config.hpp"

namespace closure::ocl {
namespace {

std::atomic<bool> opened{false};

// What an entry answers where the library or the function is missing: as a loader that
// finds no platform. Functions returning an object report it through their last
// parameter, errcode_ret, where it is a cl_int*.
template <class F>
struct Missing;
template <class R, class... A>
struct Missing<R(CL_API_CALL*)(A...)> {
  static R CL_API_CALL call(A... args) {
    if constexpr (std::is_pointer_v<R>) {
      if constexpr (sizeof...(A) > 0) {
        using Last = std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>;
        if constexpr (std::is_same_v<Last, cl_int*>) {
          cl_int* errcode_ret = std::get<sizeof...(A) - 1>(std::forward_as_tuple(args...));
          if (errcode_ret) *errcode_ret = CL_PLATFORM_NOT_FOUND_KHR;
        }
      }
      return nullptr;
    } else {
      ((void)args, ...);
      return CL_PLATFORM_NOT_FOUND_KHR;
    }
  }
};

struct Table {
#define CLOSURE_CL_ENTRY(R, name, params, args) \
  decltype(&::name) name = &Missing<decltype(&::name)>::call;
#include "closure/ocl/opencl_entries.inc"
#undef CLOSURE_CL_ENTRY
  bool loaded = false;  // the library opened
};

Table table_from(const char* soname) {
  Table t;
  if (std::string_view(soname) == "off") return t;
  // RTLD_LOCAL: the loader's names stay out of the process's scope, where they would meet
  // these definitions of the same names.
  void* lib = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return t;
  t.loaded = true;
#define CLOSURE_CL_ENTRY(R, name, params, args) \
  if (void* f = ::dlsym(lib, #name)) t.name = reinterpret_cast<decltype(t.name)>(f);
#include "closure/ocl/opencl_entries.inc"
#undef CLOSURE_CL_ENTRY
  return t;
}

// The named library's dlopen failure, set once by table()'s first call (before `opened`).
std::string named_failure;

const Table& table() {
  static const Table t = [] {
    const std::string named = config::text(config::kOpenclLibrary);
    Table loaded = table_from(named.empty() ? "libOpenCL.so.1" : named.c_str());
    if (!named.empty() && named != "off" && !loaded.loaded) {
      const char* why = ::dlerror();
      named_failure = std::string(config::kOpenclLibrary) + "=" + named + ": " +
                      (why ? why : "cannot be opened");
    }
    opened.store(true);
    return loaded;
  }();
  return t;
}

}  // namespace

bool opencl_library_opened() {
  return opened.load();
}

std::string opencl_library_failure() {
  return opened.load() ? named_failure : std::string();
}

namespace detail {

int platform_count_through(const char* soname, unsigned* platforms) {
  cl_uint n = 0;
  const cl_int status = table_from(soname).clGetPlatformIDs(0, nullptr, &n);
  *platforms = n;
  return status;
}

}  // namespace detail
}  // namespace closure::ocl

// The definitions the program's OpenCL calls bind to. Hidden: they never interpose on a
// loader that another part of a process (a program linking this library and OpenCL) uses.
#define CLOSURE_CL_ENTRY(R, name, params, args)                                             \
  extern "C" __attribute__((visibility("hidden"))) CL_API_ENTRY R CL_API_CALL name params { \
    return closure::ocl::table().name args;                                                 \
  }
#include "closure/ocl/opencl_entries.inc"
#undef CLOSURE_CL_ENTRY
