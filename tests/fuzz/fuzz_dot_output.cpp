// libFuzzer target: the DOT drawing of any graph a reader accepts reads back, through the DOT
// reader, as the same graph: as many vertices in the same order, the same edges, and the
// same labels wherever DOT keeps them as they are (no '\', line break or byte written \xNN;
// io/dot_text.hpp). A label that broke out of its quotes would change the graph.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "closure/graph/read_graph.hpp"
#include "fuzz_reader.hpp"
#include "fuzz_writer.hpp"

namespace {

bool kept_as_is(const std::string& label) {
  for (unsigned char c : label)
    if (c == '\\' || c < 0x20 || c >= 0x7f) return false;  // escaped, or maybe not UTF-8
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::optional<closure::ReadResult> r = closure::fuzz::read_any(data, size);
  if (!r) return 0;
  const closure::Graph& g = r->graph;
  const auto edges = g.edges();
  const std::string text = closure::fuzz::edges_written(g, closure::OutputSpec{.dot = true});
  closure::ReadResult back;
  try {
    back = closure::read_graph_from_string(text, closure::InputFormat::kDot, "fuzz.dot");
  } catch (const closure::InputError&) {
    std::abort();  // closure's own drawing must parse
  }
  if (back.graph.vertex_count() != g.vertex_count() || back.graph.edges() != edges) std::abort();
  for (closure::vertex_t v = 0; v < g.vertex_count(); ++v)
    if (kept_as_is(g.label(v)) && back.graph.label(v) != g.label(v)) std::abort();
  return 0;
}
