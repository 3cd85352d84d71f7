// Kernel source lookup: the development folder first, then the embedded copies.
#include "closure/ocl/kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "closure/config.hpp"
#include "closure/embedded_kernels.hpp"

namespace closure::ocl {

std::string kernel_source(const std::string& file) {
  if (const std::string dir = config::text(kKernelPathEnv); !dir.empty()) {
    std::ifstream in(std::string(dir) + "/" + file);
    if (!in)
      throw std::runtime_error(std::string(kKernelPathEnv) + "=" + dir + ": cannot read " + file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  for (const auto& [name, text] : embedded::kKernels)
    if (name == file) return std::string(text);
  throw std::runtime_error("no kernel source named " + file);
}

}  // namespace closure::ocl
