// OpenCL, loaded when first called. The program is not linked against libOpenCL.so.1: each
// OpenCL function it calls is defined in opencl_library.cpp as a call through a table that
// the first call fills, opening the ICD loader then (libOpenCL.so.1, or the library
// CLOSURE_OPENCL_LIBRARY names; "off": none). A run on the host
// never maps the loader (about 0.15 ms of a 3.3 ms process on a 7k-edge graph, 2-core:
// docs/benchmarks-startup.md, "A process's fixed cost"), and a machine without it runs on the host:
// every call then answers as a loader with no platform does (CL_PLATFORM_NOT_FOUND_KHR).
// The functions are listed in opencl_entries.inc (tools/gen-opencl-entries.py writes it).
#pragma once

#include <string>

namespace closure::ocl {

// Whether this process made its first OpenCL call, which opens the loader (it then stays
// open) or finds it missing.
bool opencl_library_opened();

// Where CLOSURE_OPENCL_LIBRARY named a library that could not be opened (a mistyped path),
// "CLOSURE_OPENCL_LIBRARY=PATH: WHY" for the note that the host computes instead; else "".
// Read after the first OpenCL call.
std::string opencl_library_failure();

namespace detail {

// What clGetPlatformIDs answers through a table filled from the library `soname` (one
// that cannot be opened, or "off", leaves every entry answering CL_PLATFORM_NOT_FOUND_KHR),
// with *platforms the count it reports. For the tests: the process's own table is filled
// once.
int platform_count_through(const char* soname, unsigned* platforms);

}  // namespace detail
}  // namespace closure::ocl
