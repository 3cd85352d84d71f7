// `closure reach FILE u`: the vertices u reaches (--ancestors: those reaching u), in the
// input's labels, one per line; --count for the number only; --json for both.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/graph/text_scan.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/descendants.hpp"

namespace closure::cli {

Runner add_reach_command(CLI::App& command, CommonOptions& common) {
  struct Flags {
    std::string input, vertex;
    bool ancestors = false, count = false, json = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = &command;
  sub->add_option("graph", flags->input, "Graph file")->required();
  sub->add_option("u", flags->vertex, "Vertex label")->required();
  sub->add_flag("--ancestors", flags->ancestors, "List the vertices that reach u instead");
  sub->add_flag("--count", flags->count, "Print only how many there are");
  sub->add_flag("--json", flags->json, "Print a JSON object on stdout");
  return [flags, &common](Session&) -> int {
    try {
      RunSummary summary;
      const ReadResult read = read_command_input(common, flags->input, "", summary);
      const Graph& g = read.graph;
      vertex_t u = 0;
      bool found = false;
      for (vertex_t v = 0; v < g.vertex_count() && !found; ++v)
        if (g.label(v) == text::unescape_label(flags->vertex)) u = v, found = true;
      if (!found) throw InputError(flags->input, 0, "unknown vertex '" + flags->vertex + "'");
      const std::vector<vertex_t> list =
          flags->ancestors ? reach::ancestors(g, u) : reach::descendants(g, u);
      if (flags->json) {
        nlohmann::ordered_json o;
        o["vertex"] = g.label(u);  // the label itself, as "vertices" and query --json give it
        o["direction"] = flags->ancestors ? "ancestors" : "descendants";
        o["count"] = list.size();
        if (!flags->count) {
          auto& labels = o["vertices"] = nlohmann::ordered_json::array();
          for (vertex_t v : list) labels.push_back(g.label(v));
        }
        std::printf("%s\n", dump_json(o, 2).c_str());
      } else if (flags->count) {
        std::printf("%zu\n", list.size());
      } else {
        std::string out;
        for (vertex_t v : list) {
          // One label per line: a label holding a line break would read as two, an empty
          // or blank one as a blank line, which no reader takes for a label.
          const std::string& label = g.label(v);
          if (label.find_first_of("\r\n") != std::string::npos ||
              std::all_of(label.begin(), label.end(), text::is_space))
            throw UsageError("vertex label '" + label +
                             "' is blank or holds a line break, which one label per line "
                             "cannot show; use --json (labels as JSON strings) or --count");
          // As an edge list writes it, so that a line given back to query or reach names
          // the same vertex (\\#x, not #x).
          text::append_escaped_label(out, label).push_back('\n');
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
      }
      return kExitOk;
    } catch (const std::exception& e) {
      return report_failure(e);
    }
  };
}

}  // namespace closure::cli
