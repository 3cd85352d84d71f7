// Where an OpenCL process's start-up goes (issues 8, 26): platforms, context, program from
// source or from a saved binary, first launch, a big buffer; each step timed, and the
// process's end seen from outside, ended by returning from main, by _exit, or by _exit
// with the teardown handed to a child (src/app/process/teardown_handoff.cpp). On the GPU
// machine (shared/DEVICE.md; tools/gpu-startup-phases.sh runs it):
//   source tools/gpu-env.sh && g++ -O2 -std=c++20 -Isrc tools/opencl_startup_probe.cpp \
//       src/app/process/teardown_handoff.cpp -o /tmp/probe -lOpenCL && /tmp/probe source \
//       && /tmp/probe binary kernels/propagate.cl 0 handoff
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <time.h>
#include <unistd.h>

#include <CL/opencl.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/process/teardown_handoff.hpp"
static double now() {
  timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
static double t_last;
static void mark(const char* what) {
  double t = now();
  std::printf("%-40s %8.4f s  (abs %.4f)\n", what, t - t_last, t);
  t_last = now();
}
int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "source";
  const char* src_path = argc > 2 ? argv[2] : "kernels/propagate.cl";
  size_t alloc = argc > 3 ? std::stoull(argv[3]) : 0;
  const std::string ending = argc > 4 ? argv[4] : "return";  // return, _exit or handoff
  t_last = now();
  std::printf("start abs %.4f\n", t_last);
  std::vector<cl::Platform> ps;
  cl::Platform::get(&ps);
  mark("clGetPlatformIDs");
  cl::Device gpu;
  bool found = false;
  for (auto& p : ps) {
    std::vector<cl::Device> ds;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &ds);
    } catch (...) {
    }
    std::string name = p.getInfo<CL_PLATFORM_NAME>();
    for (auto& d : ds) {
      d.getInfo<CL_DEVICE_NAME>();
      if (d.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) {
        gpu = d;
        found = true;
      }
    }
    std::string label = "getDevices " + name;
    mark(label.c_str());
  }
  if (!found) {
    std::puts("no gpu");
    return 1;
  }
  cl::Context ctx(gpu);
  mark("context");
  cl::CommandQueue q(ctx, gpu, CL_QUEUE_PROFILING_ENABLE);
  mark("queue");
  cl::Program prog;
  if (mode == "source") {
    std::ifstream f(src_path);
    std::stringstream ss;
    ss << f.rdbuf();
    prog = cl::Program(ctx, ss.str());
    prog.build({gpu}, "-Ikernels");  // propagate.cl includes gpuword.cl
    mark("build from source");
    auto bins = prog.getInfo<CL_PROGRAM_BINARIES>();
    std::ofstream o("/tmp/probe.bin", std::ios::binary);
    o.write((const char*)bins[0].data(), bins[0].size());
    mark("save binary");
  } else {
    std::ifstream f("/tmp/probe.bin", std::ios::binary);
    std::vector<unsigned char> b((std::istreambuf_iterator<char>(f)), {});
    prog = cl::Program(ctx, {gpu}, cl::Program::Binaries{b});
    mark("create from binary");
    prog.build({gpu}, "-Ikernels");
    mark("build binary");
  }
  cl::Kernel k(prog, "sum_counts");
  mark("create kernel");
  cl::Buffer small(ctx, CL_MEM_READ_WRITE, 1024);
  q.enqueueFillBuffer(small, cl_ulong{0}, 0, 1024);
  k.setArg(0, small);
  k.setArg(1, cl_uint(16));
  k.setArg(2, small);
  k.setArg(3, cl::Local(256 * 8));
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(256), cl::NDRange(256));
  q.finish();
  mark("first launch");
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(256), cl::NDRange(256));
  q.finish();
  mark("second launch");
  if (alloc) {
    cl::Buffer big(ctx, CL_MEM_READ_WRITE, alloc);
    mark("big buffer create");
    q.enqueueFillBuffer(big, cl_uint{0}, 0, alloc);
    q.finish();
    mark("big buffer fill");
    { cl::Buffer tmp = big; }
    big = cl::Buffer();
    mark("big buffer release");
  }
  // The threads the drivers left, and where each waits in the kernel: an exit waits for
  // every one of them to die.
  for (const auto& t : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(t.path() / "comm"), wchan(t.path() / "wchan");
    std::string c, w;
    std::getline(comm, c);
    std::getline(wchan, w);
    std::printf("thread %-20s waits in %s\n", c.c_str(), w.c_str());
  }
  mark("end of main");
  std::fflush(stdout);
  if (ending == "_exit") ::_exit(0);
  if (ending == "handoff") closure::exit_handing_off_teardown(0);
  return 0;
}
