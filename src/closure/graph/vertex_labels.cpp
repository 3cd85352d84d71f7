// Labels kept as the input gave them (vertex_labels.hpp).
#include "closure/graph/vertex_labels.hpp"

#include <charconv>

namespace closure {
namespace {

// The decimal spelling of x, in `buf` (20 digits at most).
std::string_view spell(uint64_t x, char (&buf)[24]) {
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return {buf, size_t(r.ptr - buf)};
}

}  // namespace

VertexLabels VertexLabels::from_numbers(Numbers numbers) {
  VertexLabels out;
  out.labels_ = std::move(numbers);
  return out;
}

size_t VertexLabels::size() const {
  return std::visit([](const auto& v) { return v.size(); }, labels_);
}

std::string VertexLabels::operator[](size_t v) const {
  if (const auto* names = std::get_if<std::vector<std::string>>(&labels_)) return (*names)[v];
  char buf[24];
  return std::string(spell(std::get<Numbers>(labels_)[v], buf));
}

void VertexLabels::append(size_t v, std::string& out) const {
  if (const auto* names = std::get_if<std::vector<std::string>>(&labels_)) {
    out += (*names)[v];
    return;
  }
  char buf[24];
  out += spell(std::get<Numbers>(labels_)[v], buf);
}

bool VertexLabels::equals(size_t v, std::string_view text) const {
  if (const auto* names = std::get_if<std::vector<std::string>>(&labels_))
    return (*names)[v] == text;
  char buf[24];
  return spell(std::get<Numbers>(labels_)[v], buf) == text;
}

std::optional<size_t> VertexLabels::find(std::string_view text) const {
  if (const auto* names = std::get_if<std::vector<std::string>>(&labels_)) {
    for (size_t v = 0; v < names->size(); ++v)
      if ((*names)[v] == text) return v;
    return std::nullopt;
  }
  // A number's label is its canonical spelling: parse once, compare numbers.
  uint64_t x = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, x);
  char buf[24];
  if (error != std::errc() || stop != end || spell(x, buf) != text) return std::nullopt;
  const Numbers& numbers = std::get<Numbers>(labels_);
  for (size_t v = 0; v < numbers.size(); ++v)
    if (numbers[v] == x) return v;
  return std::nullopt;
}

bool VertexLabels::identity() const {
  if (const auto* numbers = std::get_if<Numbers>(&labels_)) {
    for (size_t v = 0; v < numbers->size(); ++v)
      if ((*numbers)[v] != v) return false;
    return true;
  }
  const auto& names = std::get<std::vector<std::string>>(labels_);
  char buf[24];
  for (size_t v = 0; v < names.size(); ++v)
    if (spell(v, buf) != names[v]) return false;
  return true;
}

std::vector<std::string> VertexLabels::names() const {
  if (const auto* names = std::get_if<std::vector<std::string>>(&labels_)) return *names;
  std::vector<std::string> out;
  out.reserve(size());
  for (size_t v = 0; v < size(); ++v) out.push_back((*this)[v]);
  return out;
}

bool VertexLabels::operator==(const VertexLabels& other) const {
  if (size() != other.size()) return false;
  if (labels_.index() == other.labels_.index()) return labels_ == other.labels_;
  for (size_t v = 0; v < size(); ++v)
    if ((*this)[v] != other[v]) return false;
  return true;
}

}  // namespace closure
