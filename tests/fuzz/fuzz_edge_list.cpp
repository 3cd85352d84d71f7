// libFuzzer target: the edge-list reader, and its parallel path against its sequential one:
// the input is also read cut into 2..9 chunks of any size (parsed in turn: threads would
// cost more than the parse; the unit test ParallelEdgeList runs them on threads), and the two reads
// must agree on the graph (labels, ids, edges) or on the error (line and message).
#include <cstdlib>
#include <string>

#include "closure/graph/edge_list_chunk.hpp"
#include "fuzz_reader.hpp"

namespace {

std::string outcome(std::string_view text) {
  try {
    const auto r = closure::read_graph_from_string(text, closure::InputFormat::kEdgeList, "e");
    std::string out = std::to_string(r.edge_records);
    for (const std::string& l : r.graph.labels().names()) out += "|" + l;
    for (const auto& [u, v] : r.graph.edges())
      out += " " + std::to_string(u) + ">" + std::to_string(v);
    return out;
  } catch (const closure::InputError& e) {
    return e.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t threads = 2 + data[0] % 8;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  closure::detail::set_edge_list_chunking(0, 1);
  const std::string whole = outcome(text);
  closure::detail::set_edge_list_chunking(1, threads, false);
  const std::string cut = outcome(text);
  closure::detail::set_edge_list_chunking(0, 0);
  if (whole != cut) std::abort();  // the parallel reader disagrees with the sequential one
  return 0;
}
