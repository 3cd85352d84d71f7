// Propagation sweep variants: their names, build options and checks.
#include "closure/kernels/propagate_params.hpp"

#include <stdexcept>

#include "closure/errors.hpp"

namespace closure {
namespace {

constexpr const char* kSweepNames[] = {"chained", "blocked", "plain"};
constexpr const char* kInOrder = "-inorder";
constexpr const char* kEntryPoints[] = {"propagate_columns_chained", "propagate_columns_blocked",
                                        "propagate_columns"};

}  // namespace

const char* PropagateParams::entry_point() const {
  return kEntryPoints[sweep];
}

std::string PropagateParams::build_options() const {
  // params_defines starts with the space that separates it from options before it.
  return params_defines(*this).substr(1);
}

std::string PropagateParams::describe() const {
  return kSweepNames[sweep] + (unit_bits == 32 ? std::string() : std::to_string(unit_bits)) +
         (longest_first ? "" : kInOrder);
}

void PropagateParams::validate() const {
  check_param_ranges(*this, "propagation kernel parameters " + to_string());
  if (live_rows && sweep != kChained)
    throw UsageError("propagation kernel parameters " + to_string() +
                     ": live rows are the chained sweep's");
}

PropagateParams parse_propagate_kernel(const std::string& name) {
  std::string n = name.empty() ? kSweepNames[PropagateParams::kChained] : name;
  const std::string in_order = kInOrder;
  const bool longest_first =
      !(n.size() > in_order.size() &&
        n.compare(n.size() - in_order.size(), in_order.size(), in_order) == 0);
  if (!longest_first) n.resize(n.size() - in_order.size());
  const size_t digits = n.find_first_of("0123456789");
  const std::string base = n.substr(0, digits);
  const std::string bits = digits == std::string::npos ? "32" : n.substr(digits);
  PropagateParams p;
  int sweep = -1;
  for (int s = 0; s < 3; ++s)
    if (base == kSweepNames[s]) sweep = s;
  if (sweep < 0 || (bits != "32" && bits != "16" && bits != "8"))
    throw UsageError("propagate: unknown kernel '" + n +
                     "' (chained, blocked or plain, optionally followed by 16 or 8: "
                     "the columns a work-item owns, and by -inorder: work-groups started in "
                     "column order)");
  p.sweep = sweep;
  p.longest_first = longest_first ? 1 : 0;
  p.unit_bits = std::stoi(bits);
  return p;
}

PropagateParams resolve_propagate_kernel(const std::string& name, size_t max_work_group) {
  PropagateParams p = parse_propagate_kernel(name);
  if (max_work_group < 32) p.sweep = PropagateParams::kPlain;
  return p;
}

}  // namespace closure
