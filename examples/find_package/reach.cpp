// The public API of docs/cpp.md, one include: read a graph, find vertices by label, close
// it and ask the closure, then ask a reachability index the same questions without it.
#include <closure/closure.hpp>
#include <cstdio>
#include <optional>

int main() {
  // make -> compile -> link, and a cycle: test <-> link.
  const closure::Graph g =
      closure::read_graph_from_string("make compile\ncompile link\nlink test\ntest link\n",
                                      closure::InputFormat::kEdgeList)
          .graph;
  const std::optional<closure::vertex_t> make = g.find("make"), test = g.find("test");
  if (!make || !test || g.find("deploy")) return 1;

  closure::Session session;
  const closure::Closure c = session.close(g);
  std::printf("closure: make reaches test: %s; test reaches make: %s; %llu pairs\n",
              c.reaches(*make, *test) ? "yes" : "no", c.reaches(*test, *make) ? "yes" : "no",
              static_cast<unsigned long long>(c.pair_count()));

  // The index answers the same without the closure's quadratic space.
  const closure::reach::ReachIndex index(closure::reach::build_index(g));
  closure::reach::Querier ask(index);
  std::printf("index: make reaches test: %s; test reaches make: %s\n",
              ask.reaches(*index.find("make"), *index.find("test")) ? "yes" : "no",
              ask.reaches(*index.find("test"), *index.find("make")) ? "yes" : "no");
  return 0;
}
