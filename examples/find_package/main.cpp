// Closes a small graph with the installed closure library and prints its pairs:
// a -> b -> c -> b (a cycle through b and c) and c -> d.
#include <closure/closure.hpp>
#include <cstdio>

int main() {
  const closure::ReadResult input =
      closure::read_graph_from_string("a b\nb c\nc b\nc d\n", closure::InputFormat::kEdgeList);
  const closure::Graph& g = input.graph;
  closure::Session session;  // the device and threads as the CLI chooses them
  closure::ComputeReport report;
  const closure::Closure c = session.close(g, {}, &report);
  std::printf("closure %s: %zu vertices, %llu pairs, method %s\n", CLOSURE_VERSION,
              g.vertex_count(), static_cast<unsigned long long>(c.pair_count()),
              std::string(closure::method_name(report.method)).c_str());
  for (const auto& [u, v] : c.pairs())
    std::printf("%s %s\n", g.label(u).c_str(), g.label(v).c_str());
  return 0;
}
