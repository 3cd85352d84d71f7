// `closure reduce FILE -o reduced.txt`: the transitive reduction as "u v" lines in the
// input's labels (definition with cycles: docs/architecture.md); `-o r.dot` draws it as
// Graphviz DOT, and `--condensation -o c.dot` the condensation (components, reduced).
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/byte_sink.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/descendants.hpp"
#include "closure/tool/closure_writer.hpp"
#include "closure/tool/dot_graph.hpp"

namespace closure::cli {

Runner add_reduce_command(CLI::App& app, CommonOptions& common) {
  struct Flags {
    std::string input, output;
    bool json = false, condensation = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = app.add_subcommand(
      "reduce", "Transitive reduction: the fewest edges with the same reachability");
  sub->add_option("graph", flags->input, "Graph file")->required();
  sub->add_option("-o,--output", flags->output,
                  "Edge list to write (- for stdout; the default without --json); .dot or .gv: "
                  "a Graphviz drawing; .gz after it: gzip-compressed");
  sub->add_flag("--condensation", flags->condensation,
                "Draw the condensation instead: a node per strongly connected component "
                "(labelled by its members), its edges reduced (needs -o NAME.dot)");
  sub->add_flag("--json", flags->json,
                "Print a JSON summary on stdout (with the edges unless -o is given)");
  return [flags, &common](Session&) -> int {
    try {
      refuse_output_onto_input(flags->input, flags->output);
      // Only a drawing is chosen by the name; other names keep the edge list they always had.
      bool gzip = false;
      const bool dot = names_dot_output(flags->output, &gzip);
      if (flags->condensation && !dot)
        throw UsageError("--condensation draws Graphviz DOT: give -o NAME.dot (or .gv)");
      const ReadResult read = read_graph(flags->input, input_format(common));
      const Graph& g = read.graph;
      const std::vector<Edge> reduced = reach::transitive_reduction(g);
      const bool to_file = !flags->json || (!flags->output.empty() && flags->output != "-");
      CondensationCounts drawn;
      if (dot) {
        const std::string text = flags->condensation ? dot_of_condensation(g, &drawn)
                                                     : dot_of_edges(g, reduced, "reduction");
        AtomicFile file(flags->output);
        const auto sink = make_sink(file, gzip);
        sink->write(text.data(), text.size());
        sink->finish();
        file.commit();
      } else if (to_file) {
        std::string text;
        for (const auto& [u, v] : reduced) {
          const std::string a = g.label(u), b = g.label(v);
          if (a.find_first_of(" \t\r\n") != std::string::npos ||
              b.find_first_of(" \t\r\n") != std::string::npos)
            throw std::runtime_error("label '" +
                                     (a.find_first_of(" \t\r\n") != std::string::npos ? a : b) +
                                     "' contains whitespace; use --json");
          text.append(a).push_back(' ');
          text.append(b).push_back('\n');
        }
        AtomicFile file(flags->output.empty() ? "-" : flags->output);
        file.write(text);
        file.commit();
      }
      if (flags->json) {
        nlohmann::ordered_json o;
        o["input"] = flags->input;
        o["vertices"] = g.vertex_count();
        o["edges"] = g.edge_count();
        o["reduced_edges"] = reduced.size();
        if (flags->condensation) {
          o["components"] = drawn.components;
          o["condensation_edges"] = drawn.edges;
        }
        if (!to_file) {
          auto& edges = o["reduction"] = nlohmann::ordered_json::array();
          for (const auto& [u, v] : reduced) edges.push_back({g.label(u), g.label(v)});
        } else {
          o["output"] = flags->output;
        }
        std::printf("%s\n", dump_json(o, 2).c_str());
      } else if (!common.quiet && flags->condensation) {
        std::fprintf(stderr,
                     "closure reduce: %zu components and %zu condensation edges drawn to %s\n",
                     drawn.components, drawn.edges, flags->output.c_str());
      } else if (!common.quiet && !flags->output.empty() && flags->output != "-") {
        std::fprintf(stderr, "closure reduce: %zu of %zu edges kept, written to %s\n",
                     reduced.size(), g.edge_count(), flags->output.c_str());
      }
      return kExitOk;
    } catch (const std::exception& e) {
      return report_failure(e);
    }
  };
}

}  // namespace closure::cli
