// Names for OpenCL status codes, and the error message layout.
#include "closure/ocl/error.hpp"

#include <CL/cl.h>

namespace closure::ocl {

std::string error_name(int code) {
  switch (code) {
#define CLOSURE_CL_CODE(x) \
  case x:                  \
    return #x;
    CLOSURE_CL_CODE(CL_SUCCESS)
    CLOSURE_CL_CODE(CL_DEVICE_NOT_FOUND)
    CLOSURE_CL_CODE(CL_DEVICE_NOT_AVAILABLE)
    CLOSURE_CL_CODE(CL_COMPILER_NOT_AVAILABLE)
    CLOSURE_CL_CODE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CLOSURE_CL_CODE(CL_OUT_OF_RESOURCES)
    CLOSURE_CL_CODE(CL_OUT_OF_HOST_MEMORY)
    CLOSURE_CL_CODE(CL_PROFILING_INFO_NOT_AVAILABLE)
    CLOSURE_CL_CODE(CL_MEM_COPY_OVERLAP)
    CLOSURE_CL_CODE(CL_BUILD_PROGRAM_FAILURE)
    CLOSURE_CL_CODE(CL_MAP_FAILURE)
    CLOSURE_CL_CODE(CL_INVALID_VALUE)
    CLOSURE_CL_CODE(CL_INVALID_DEVICE_TYPE)
    CLOSURE_CL_CODE(CL_INVALID_PLATFORM)
    CLOSURE_CL_CODE(CL_INVALID_DEVICE)
    CLOSURE_CL_CODE(CL_INVALID_CONTEXT)
    CLOSURE_CL_CODE(CL_INVALID_COMMAND_QUEUE)
    CLOSURE_CL_CODE(CL_INVALID_MEM_OBJECT)
    CLOSURE_CL_CODE(CL_INVALID_BINARY)
    CLOSURE_CL_CODE(CL_INVALID_BUILD_OPTIONS)
    CLOSURE_CL_CODE(CL_INVALID_PROGRAM)
    CLOSURE_CL_CODE(CL_INVALID_PROGRAM_EXECUTABLE)
    CLOSURE_CL_CODE(CL_INVALID_KERNEL_NAME)
    CLOSURE_CL_CODE(CL_INVALID_KERNEL)
    CLOSURE_CL_CODE(CL_INVALID_ARG_INDEX)
    CLOSURE_CL_CODE(CL_INVALID_ARG_VALUE)
    CLOSURE_CL_CODE(CL_INVALID_ARG_SIZE)
    CLOSURE_CL_CODE(CL_INVALID_KERNEL_ARGS)
    CLOSURE_CL_CODE(CL_INVALID_WORK_DIMENSION)
    CLOSURE_CL_CODE(CL_INVALID_WORK_GROUP_SIZE)
    CLOSURE_CL_CODE(CL_INVALID_WORK_ITEM_SIZE)
    CLOSURE_CL_CODE(CL_INVALID_GLOBAL_OFFSET)
    CLOSURE_CL_CODE(CL_INVALID_EVENT)
    CLOSURE_CL_CODE(CL_INVALID_OPERATION)
    CLOSURE_CL_CODE(CL_INVALID_BUFFER_SIZE)
    CLOSURE_CL_CODE(CL_INVALID_GLOBAL_WORK_SIZE)
#undef CLOSURE_CL_CODE
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "OpenCL error " + std::to_string(code);
  }
}

static std::string compose(const std::string& call, int code, const std::string& log,
                           const std::string& options) {
  std::string msg = call + " failed (" + error_name(code) + ")";
  if (!options.empty()) msg += "\nbuild options: " + options;
  if (!log.empty()) msg += "\nbuild log:\n" + log;
  return msg;
}

Error::Error(std::string call, int code, std::string build_log, std::string options)
    : DeviceError(compose(call, code, build_log, options)),
      call_(std::move(call)),
      code_(code),
      build_log_(std::move(build_log)) {}

}  // namespace closure::ocl
