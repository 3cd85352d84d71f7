// The per-thread work meter behind WorkMeterScope.
#include "closure/util/work_meter.hpp"

namespace closure {
namespace {
thread_local WorkMeter* current_meter = nullptr;
}  // namespace

WorkMeter* current_work_meter() {
  return current_meter;
}

WorkMeterScope::WorkMeterScope(WorkMeter* meter) : previous_(current_meter) {
  current_meter = meter;
}

WorkMeterScope::~WorkMeterScope() {
  current_meter = previous_;
}

}  // namespace closure
