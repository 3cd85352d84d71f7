// `closure index FILE -o FILE.idx`: builds the reachability index and writes it (atomically).
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure::cli {

Runner add_index_command(CLI::App& app, CommonOptions& common) {
  struct Flags {
    std::string input, output;
    uint32_t supportive = reach::kMaxSupportive;
    bool json = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = app.add_subcommand(
      "index", "Build a reachability index file for fast queries (closure query FILE.idx u v)");
  sub->add_option("graph", flags->input, "Graph file")->required();
  sub->add_option("-o,--output", flags->output, "Index file to write")->required();
  sub->add_option("--supportive", flags->supportive,
                  "Supportive components with exact reachability bits (0-32)")
      ->check(CLI::Range(0u, reach::kMaxSupportive))
      ->capture_default_str();
  sub->add_flag("--json", flags->json, "Print the summary as JSON on stdout");
  return [flags, &common](Session&) -> int {
    try {
      using Clock = std::chrono::steady_clock;
      auto t0 = Clock::now();
      refuse_output_onto_input(flags->input, flags->output);
      const ReadResult read = read_graph(flags->input, input_format(common));
      const double parse_s = std::chrono::duration<double>(Clock::now() - t0).count();
      reach::BuildOptions options;
      options.supportive = flags->supportive;
      reach::BuildReport report;
      const reach::IndexData data = reach::build_index(read.graph, options, &report);
      t0 = Clock::now();
      const uint64_t bytes = reach::write_index(flags->output, data);
      const double write_s = std::chrono::duration<double>(Clock::now() - t0).count();
      const size_t n = read.graph.vertex_count();
      if (flags->json) {
        nlohmann::ordered_json o;
        o["input"] = flags->input;
        o["output"] = flags->output;
        o["vertices"] = n;
        o["edges"] = read.graph.edge_count();
        o["components"] = data.labels.size();
        o["condensation_edges"] = data.targets.size();
        o["supportive"] = data.supportive;
        o["bytes"] = bytes;
        o["bytes_per_vertex"] = n ? double(bytes) / double(n) : 0.0;
        o["parse_s"] = parse_s;
        o["build_s"] = report.total_s;
        o["write_s"] = write_s;
        std::printf("%s\n", dump_json(o, 2).c_str());
      }
      if (!common.quiet)
        std::fprintf(stderr,
                     "closure index: %zu vertices, %zu edges, %zu components; built in "
                     "%.3f s; %s: %llu bytes (%.1f per vertex)\n",
                     n, read.graph.edge_count(), data.labels.size(), report.total_s,
                     flags->output.c_str(), (unsigned long long)bytes,
                     n ? double(bytes) / double(n) : 0.0);
      return kExitOk;
    } catch (const std::exception& e) {
      return report_failure(e);
    }
  };
}

}  // namespace closure::cli
