#include "closure/device_facts.hpp"

namespace closure {

std::string DeviceFacts::describe() const {
  return name + " (" + platform + ", " +
         (is_gpu   ? "GPU"
          : is_cpu ? "CPU"
                   : "accelerator") +
         ", " + std::to_string(compute_units) + " compute units)";
}

}  // namespace closure
