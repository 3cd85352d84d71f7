// The method registry's table and the lookups made from it.
#include "closure/engine/methods.hpp"

#include <array>

#include "closure/engine/method_runs.hpp"
#include "closure/errors.hpp"

namespace closure {
namespace {

constexpr std::array kRegistry{
    MethodEntry{Method::kAuto, "auto",
                "chooses sparse or propagate from the graph's size, its sampled closure and "
                "the device, and says why",
                false, nullptr},
    MethodEntry{Method::kSparse, "sparse",
                "SCC condensation, then reverse-topological propagation on host threads", false,
                run_sparse},
    MethodEntry{Method::kPropagate, "propagate",
                "SCC condensation, then the same propagation on the OpenCL device (sparse "
                "without one)",
                true, run_propagate},
    MethodEntry{Method::kRecursive, "recursive",
                "SCC condensation, then the blocked recursive closure of its matrix", true,
                run_condensed_dense},
    MethodEntry{Method::kCondense, "condense",
                "SCC condensation, then triangular repeated squaring of its matrix", true,
                run_condensed_dense},
    MethodEntry{Method::kSquare, "square",
                "the seed method, repeated squaring of the whole matrix (triangular for DAGs)",
                true, run_square},
};

}  // namespace

std::span<const MethodEntry> method_registry() {
  return kRegistry;
}

const MethodEntry& method_entry(Method m) {
  for (const auto& e : kRegistry)
    if (e.method == m) return e;
  throw InternalError("a method missing from the registry");
}

std::string_view method_name(Method m) {
  return method_entry(m).name;
}

std::vector<std::string> method_names() {
  std::vector<std::string> out;
  for (const auto& e : kRegistry) out.emplace_back(e.name);
  return out;
}

Method parse_method(std::string_view name) {
  for (const auto& e : kRegistry)
    if (e.name == name) return e.method;
  std::string names;
  for (const auto& e : kRegistry) names += (names.empty() ? "" : ", ") + std::string(e.name);
  throw UsageError("unknown method '" + std::string(name) + "' (" + names + ")");
}

std::string method_help() {
  std::string out;
  for (const auto& e : kRegistry)
    out += "  " + std::string(e.name) + ": " + std::string(e.summary) + "\n";
  return out;
}

}  // namespace closure
