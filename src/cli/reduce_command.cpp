// `closure reduce FILE -o reduced.txt`: the transitive reduction (definition with cycles:
// docs/architecture.md) written by the closure's writers, in the format -o names (`r.dot`
// draws it as Graphviz DOT); `--condensation -o c.dot` draws the condensation instead.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/tool/closure_writer.hpp"
#include "app/tool/dot_graph.hpp"
#include "cli/commands.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/byte_sink.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/descendants.hpp"

namespace closure::cli {

Runner add_reduce_command(CLI::App& command, CommonOptions& common) {
  struct Flags {
    std::string input, output, output_format;
    bool json = false, condensation = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = &command;
  sub->add_option("graph", flags->input, "Graph file")->required();
  sub->add_option("-o,--output", flags->output,
                  "File to write the reduction to (- for stdout; the default without --json), "
                  "in the format its extension names, as `closure run -o` writes a closure: "
                  ".mtx, .json, .bin, .csv/.tsv, .dot/.gv a Graphviz drawing, anything else an "
                  "edge list; .gz on top compresses");
  add_output_format_option(*sub, flags->output_format);
  sub->add_flag("--condensation", flags->condensation,
                "Draw the condensation instead: a node per strongly connected component "
                "(labelled by its members), its edges reduced (needs -o NAME.dot)");
  sub->add_flag("--json", flags->json,
                "Print a JSON summary on stdout (with the edges unless -o is given)");
  return [flags, &common](Session&) -> int {
    try {
      refuse_output_target(flags->input, flags->output);
      const bool to_file = !flags->json || (!flags->output.empty() && flags->output != "-");
      refuse_json_beside_output(flags->json, flags->output, "reduction");
      // The one rule of -o: the name (or --output-format) picks the format, as for run.
      const OutputSpec spec =
          requested_output_spec(flags->output.empty() ? "-" : flags->output, flags->output_format);
      if (flags->condensation && !spec.dot)
        throw UsageError("--condensation draws Graphviz DOT: give -o NAME.dot (or .gv)");
      RunSummary summary;
      const ReadResult read = read_command_input(common, flags->input, flags->output, summary);
      const Graph& g = read.graph;
      const std::vector<Edge> reduced = reach::transitive_reduction(g);
      CondensationCounts drawn;
      if (flags->condensation) {
        const std::string text = dot_of_condensation(g, &drawn);
        AtomicFile file(flags->output);
        const auto sink = make_sink(file, spec.gzip);
        sink->write(text.data(), text.size());
        sink->finish();
        file.commit();
      } else if (to_file) {
        write_pairs(flags->output.empty() ? "-" : flags->output, g,
                    EdgeRows(g.vertex_count(), reduced, "reduction"), spec);
      }
      if (flags->json) {
        nlohmann::ordered_json o;
        o["input"] = flags->input;
        o["vertices"] = g.vertex_count();
        o["edges"] = g.edge_count();
        o["reduced_edges"] = reduced.size();
        if (flags->condensation) {
          o["components"] = drawn.components;
          o["reduced_condensation_edges"] = drawn.edges;  // as reduced_edges: drawn, reduced
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
