// libFuzzer target: the edge list closure writes for any graph a reader accepts reads back,
// with the format detected as it would be for a .txt file, as the same labelled edges
// (docs/formats.md, "Escapes": the marker line where the first edge alone would read as
// another format, a header row or a CSV row). A graph with a label an edge list cannot hold
// is refused by the writer (UsageError), never written.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>

#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "fuzz_reader.hpp"
#include "fuzz_writer.hpp"

namespace {

std::set<std::pair<std::string, std::string>> labelled(const closure::Graph& g) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& [u, v] : g.edges()) out.emplace(g.label(u), g.label(v));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::optional<closure::ReadResult> r = closure::fuzz::read_any(data, size);
  if (!r) return 0;
  const closure::Graph& g = r->graph;
  if (g.edge_count() == 0) return 0;  // an edge list of no edges is an empty file
  std::string text;
  try {
    text = closure::fuzz::edges_written(g, {closure::OutputFormat::kEdges, false});
  } catch (const closure::UsageError&) {
    return 0;  // a label with a blank: refused before writing
  }
  closure::ReadResult back;
  try {
    back = closure::read_graph_from_string(text, closure::InputFormat::kAuto, "fuzz.txt");
  } catch (const closure::InputError&) {
    std::abort();  // closure's own edge list must read back
  }
  if (labelled(back.graph) != labelled(g)) std::abort();
  return 0;
}
