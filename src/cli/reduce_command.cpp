// `closure reduce FILE -o reduced.txt`: the transitive reduction as "u v" lines in the
// input's labels (definition with cycles: docs/architecture.md).
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/descendants.hpp"

namespace closure::cli {

Runner add_reduce_command(CLI::App& app, CommonOptions& common) {
  struct Flags {
    std::string input, output;
    bool json = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = app.add_subcommand(
      "reduce", "Transitive reduction: the fewest edges with the same reachability");
  sub->add_option("graph", flags->input, "Graph file")->required();
  sub->add_option("-o,--output", flags->output,
                  "Edge list to write (- for stdout; the default without --json)");
  sub->add_flag("--json", flags->json,
                "Print a JSON summary on stdout (with the edges unless -o is given)");
  return [flags, &common](Session&) -> int {
    try {
      refuse_output_onto_input(flags->input, flags->output);
      const ReadResult read = read_graph(flags->input, input_format(common));
      const Graph& g = read.graph;
      const std::vector<Edge> reduced = reach::transitive_reduction(g);
      const bool to_file = !flags->json || (!flags->output.empty() && flags->output != "-");
      if (to_file) {
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
        if (!to_file) {
          auto& edges = o["reduction"] = nlohmann::ordered_json::array();
          for (const auto& [u, v] : reduced) edges.push_back({g.label(u), g.label(v)});
        } else {
          o["output"] = flags->output;
        }
        std::printf("%s\n", dump_json(o, 2).c_str());
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
