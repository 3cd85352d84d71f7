// The living index's upper layer and its file section.
#include "closure/reach/index_layer.hpp"

#include <algorithm>
#include <cstring>

#include "closure/reach/index_file.hpp"

namespace closure::reach {
namespace {

constexpr uint64_t pad8(uint64_t x) {
  return (x + 7) & ~uint64_t{7};
}

void put64(std::string& out, uint64_t x) {
  out.append(reinterpret_cast<const char*>(&x), 8);
}

}  // namespace

std::optional<vertex_t> IndexLayer::find(std::string_view label) const {
  const auto it = ids.find(label);
  if (it == ids.end()) return std::nullopt;
  return it->second;
}

vertex_t IndexLayer::add_vertex(std::string label) {
  const auto v = vertex_t(base_vertices + names.size());
  ids.emplace(label, v);
  names.push_back(std::move(label));
  successors.emplace_back();
  return v;
}

bool IndexLayer::add_edge(vertex_t u, vertex_t v) {
  auto& row = successors[u - base_vertices];
  // Rows are short (a commit's parents, a release's dependencies): a scan beats a set.
  if (std::find(row.begin(), row.end(), v) != row.end()) return false;
  row.push_back(v);
  ++edges;
  return true;
}

std::string encode_layer(const IndexLayer& layer) {
  std::string out;
  if (layer.empty()) return out;
  uint64_t label_bytes = 0;
  for (const auto& s : layer.names) label_bytes += s.size();
  put64(out, layer.names.size());
  put64(out, layer.edges);
  put64(out, label_bytes);
  put64(out, 0);
  uint64_t at = 0;
  put64(out, at);
  for (const auto& s : layer.names) put64(out, at += s.size());
  for (size_t i = 0; i < layer.successors.size(); ++i)
    for (vertex_t v : layer.successors[i]) {
      const uint32_t pair[2] = {uint32_t(layer.base_vertices + i), v};
      out.append(reinterpret_cast<const char*>(pair), 8);
    }
  for (const auto& s : layer.names) out += s;
  out.resize(pad8(out.size()), '\0');
  return out;
}

IndexLayer decode_layer(const unsigned char* bytes, uint64_t size, uint64_t base_vertices,
                        const std::string& file) {
  auto fail = [&](const std::string& what) {
    return IndexFileError(file, "damaged index file: " + what);
  };
  IndexLayer layer;
  layer.base_vertices = base_vertices;
  if (size == 0) return layer;
  uint64_t head[4];
  if (size < sizeof head) throw fail("truncated layer");
  std::memcpy(head, bytes, sizeof head);
  const uint64_t k = head[0], m = head[1], label_bytes = head[2];
  // Bounded before any sum, so none below overflows.
  if (k == 0 || k >= UINT32_MAX - base_vertices || m >= UINT32_MAX ||
      label_bytes > (uint64_t{1} << 48) || head[3] != 0)
    throw fail("impossible layer sizes");
  const uint64_t offsets_at = sizeof head, pairs_at = offsets_at + (k + 1) * 8,
                 names_at = pairs_at + pad8(m * 8);
  if (names_at + pad8(label_bytes) != size) throw fail("the layer's sizes disagree");
  std::vector<uint64_t> offsets(k + 1);
  std::memcpy(offsets.data(), bytes + offsets_at, (k + 1) * 8);
  if (offsets[0] != 0 || offsets[k] != label_bytes) throw fail("bad layer label offsets");
  const char* names = reinterpret_cast<const char*>(bytes + names_at);
  for (uint64_t i = 0; i < k; ++i) {
    // Ascending and within the names (a forged checksum must not send a read past them).
    if (offsets[i] > offsets[i + 1] || offsets[i + 1] > label_bytes)
      throw fail("bad layer label offsets");
    std::string name(names + offsets[i], offsets[i + 1] - offsets[i]);
    if (name.empty() || layer.find(name)) throw fail("a layer label is empty or repeated");
    layer.add_vertex(std::move(name));
  }
  const uint64_t n = base_vertices + k;
  for (uint64_t e = 0; e < m; ++e) {
    uint32_t pair[2];
    std::memcpy(pair, bytes + pairs_at + 8 * e, 8);
    // Every layer edge leaves a layer vertex: what keeps the base's answers exact.
    if (pair[0] < base_vertices || pair[0] >= n || pair[1] >= n ||
        !layer.add_edge(pair[0], pair[1]))
      throw fail("bad layer edge");
  }
  return layer;
}

}  // namespace closure::reach
