// `closure index FILE -o FILE.idx`: builds the reachability index and writes it (atomically).
// `closure index --append G.idx NEW -o G2.idx`: adds NEW's edges to a living index
// (reach/living_index.hpp) and writes base + layer, or a rebuilt base with --merge.
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/reach_index.hpp"
#include "closure/util/input_registry.hpp"
#include "serve/journal.hpp"

namespace closure::cli {
namespace {

template <class Flags>
int append_to_index(const Flags& flags, const CommonOptions& common) {
  using Clock = std::chrono::steady_clock;
  refuse_output_target(flags.input, flags.output);
  auto t0 = Clock::now();
  reach::LivingIndex index = reach::load_living_index(flags.append);
  forget_input(flags.append.c_str());  // read whole: -o may replace it (atomically)
  const double load_s = std::chrono::duration<double>(Clock::now() - t0).count();
  RunSummary summary;
  const ReadResult read = read_command_input(common, flags.input, flags.output, summary);
  const double parse_s = summary.parse_s;
  const Graph& g = read.graph;
  // Every label first, in the graph's order (its first appearance in the file), so that new
  // vertices are numbered as a rebuild from both files, or Python's add_edges, numbers them.
  std::vector<std::string> labels(g.vertex_count());
  for (vertex_t u = 0; u < g.vertex_count(); ++u) labels[u] = g.label(u);
  std::vector<std::pair<std::string, std::string>> edges;
  edges.reserve(g.edge_count());
  for (vertex_t u = 0; u < g.vertex_count(); ++u)
    for (vertex_t v : g.successors(u)) edges.emplace_back(labels[u], labels[v]);
  reach::AppendOptions options;
  // A rebuild keeps the index's supportive components unless --supportive says otherwise.
  if (flags.supportive_given) options.build.supportive = flags.supportive;
  t0 = Clock::now();
  const uint64_t vertices_before = index.vertex_count();
  index.add_vertices(labels);
  reach::AppendReport report = index.add_edges(edges, options);
  if (flags.merge && !index.layer().empty()) {
    index.merge(options.build);
    report.rebuilt = true;
    report.why_rebuilt = "--merge";
  }
  const double append_s = std::chrono::duration<double>(Clock::now() - t0).count();
  t0 = Clock::now();
  const uint64_t bytes = index.write(flags.output);
  const double write_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const uint64_t added = index.vertex_count() - vertices_before;
  if (flags.json) {
    nlohmann::ordered_json o;
    o["index"] = flags.append;
    o["input"] = flags.input;
    o["output"] = flags.output;
    o["edges_given"] = report.edges_given;
    o["new_vertices"] = added;
    o["already_implied"] = report.already_implied;
    o["rebuilt"] = report.rebuilt;
    o["why_rebuilt"] = report.why_rebuilt;
    o["vertices"] = index.vertex_count();
    o["layer_vertices"] = index.layer().vertex_count();
    o["layer_edges"] = index.layer().edges;
    o["bytes"] = bytes;
    o["load_s"] = load_s;
    o["parse_s"] = parse_s;
    o["append_s"] = append_s;
    o["write_s"] = write_s;
    std::printf("%s\n", dump_json(o, 2).c_str());
  }
  if (!common.quiet)
    std::fprintf(
        stderr,
        "closure index: appended %llu edges (%llu new vertices) in %.3f s, %s; %s: "
        "%llu vertices, %llu bytes\n",
        (unsigned long long)report.edges_given, (unsigned long long)added, append_s,
        report.rebuilt
            ? (std::string("rebuilt (") + report.why_rebuilt + ")").c_str()
            : (std::to_string(index.layer().vertex_count()) + " vertices in the layer").c_str(),
        flags.output.c_str(), (unsigned long long)index.vertex_count(), (unsigned long long)bytes);
  return kExitOk;
}

}  // namespace

Runner add_index_command(CLI::App& command, CommonOptions& common) {
  struct Flags {
    std::string input, output, append;
    uint32_t supportive = reach::kMaxSupportive;
    bool supportive_given = false;
    bool json = false, merge = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = &command;
  sub->add_option("graph", flags->input,
                  "Graph file (with --append: the edges to add, in any input format)")
      ->required();
  sub->add_option("-o,--output", flags->output,
                  "Index file to write (with --append it may be the index itself: replaced "
                  "atomically)")
      ->required();
  sub->add_option("--append", flags->append,
                  "Add the graph's edges to this index file (new vertices by label) instead of "
                  "building one; answers equal an index rebuilt from both graphs");
  sub->add_flag("--merge", flags->merge,
                "With --append: fold the appended layer into a rebuilt base before writing");
  auto* supportive =
      sub->add_option("--supportive", flags->supportive,
                      "Supportive components with exact reachability bits (0-32; with --append: "
                      "a rebuild's, by default the index's own)")
          ->check(CLI::Range(0u, reach::kMaxSupportive))
          ->capture_default_str();
  sub->add_flag("--json", flags->json, "Print the summary as JSON on stdout");
  return [flags, supportive, &common](Session&) -> int {
    flags->supportive_given = supportive->count() > 0;
    try {
      if (flags->merge && flags->append.empty())
        throw UsageError("--merge needs --append INDEX (a fresh index has no layer)");
      // Written over an index a `closure serve` holds, its next fold would undo this.
      serve::refuse_if_served(flags->output);
      if (!flags->append.empty()) return append_to_index(*flags, common);
      using Clock = std::chrono::steady_clock;
      RunSummary summary;  // the read stage refuses a bad -o before reading
      const ReadResult read = read_command_input(common, flags->input, flags->output, summary);
      const double parse_s = summary.parse_s;
      reach::BuildOptions options;
      options.supportive = flags->supportive;
      reach::BuildReport report;
      const reach::IndexData data = reach::build_index(read.graph, options, &report);
      auto t0 = Clock::now();
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
