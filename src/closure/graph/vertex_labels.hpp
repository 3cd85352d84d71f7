// VertexLabels: the input's label of every vertex, kept as the input gave them. A file of
// integer labels keeps the integers (8 bytes a vertex) and spells a label only when one is
// asked for: as strings, a 10M-commit history's labels took 305 MB of fresh pages and ten
// million conversions before the closure began, for a count that prints none of them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "closure/util/uninitialized_allocator.hpp"

namespace closure {

class VertexLabels {
 public:
  using Numbers = std::vector<uint64_t, UninitializedAllocator<uint64_t>>;

  // No labels of the input's own: vertex v is called "v".
  VertexLabels() = default;
  // Names, in vertex order (implicit: a list of strings is what most callers have).
  VertexLabels(std::vector<std::string> names) : labels_(std::move(names)) {}  // NOLINT
  VertexLabels(std::initializer_list<std::string> names)                       // NOLINT
      : labels_(std::vector<std::string>(names)) {}
  // Integer labels, in vertex order: label v is std::to_string(numbers[v]), so only
  // canonical decimals (no sign, no leading zeros) may be kept as numbers.
  static VertexLabels from_numbers(Numbers numbers);

  // How many vertices carry labels: 0 when they are "0".."n-1".
  size_t size() const;
  bool empty() const { return size() == 0; }
  bool numeric() const { return std::holds_alternative<Numbers>(labels_); }
  // The integers where the labels are kept as numbers (numeric()), else nullptr.
  const Numbers* numbers() const { return std::get_if<Numbers>(&labels_); }

  // Label v (v < size()).
  std::string operator[](size_t v) const;
  // Appends label v to `out`, without a string of its own.
  void append(size_t v, std::string& out) const;
  // Whether label v is `text`, without spelling it where the labels are names.
  bool equals(size_t v, std::string_view text) const;
  // The first vertex labelled `text`, by a scan (O(size())).
  std::optional<size_t> find(std::string_view text) const;
  // Whether vertex v is called "v" for every v (also when empty()).
  bool identity() const;

  // The same labels as names, whatever the form they are kept in.
  std::vector<std::string> names() const;
  bool operator==(const VertexLabels& other) const;

 private:
  std::variant<std::vector<std::string>, Numbers> labels_;
};

}  // namespace closure
