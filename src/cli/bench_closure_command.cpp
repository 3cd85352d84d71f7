// `closure bench closure`: the host methods' table. Per graph: the product methods (auto by
// default), sparse, the classic peer and Boost.Graph, each in its own process with a
// memory cap; then totals.
#include <cstdio>
#include <map>
#include <memory>

#include "app/tool/batch.hpp"
#include "bench/calibration.hpp"
#include "bench/closure_bench.hpp"
#include "bench/generators.hpp"
#include "cli/commands.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/kernels/host_tuning.hpp"
#include "closure/kernels/tuning_database.hpp"

namespace closure::cli {
namespace {

struct ClosureBenchFlags {
  std::vector<std::string> paths, generated, methods{"auto"};
  std::string device;
  double scale = 1.0, memory_cap_gb = 12;
  int repeat = 3;
  bool no_boost = false, no_classic = false, predict = false, calibrate = false, save = false;
};

// --calibrate: the factors fitted to the host rows; --save keeps them as this processor's
// "host" row of the tuning overlay, which every later Session applies.
void calibrate_from(const std::vector<PredictedBenchRow>& rows, bool save) {
  const CalibrationFit fit = fit_host_calibration(rows, current_host_calibration());
  if (fit.fitted == 0)
    throw UsageError(
        "--calibrate: no host method took 0.1 ms (kCalibrationFloorS) or more on "
        "the graphs named: nothing to fit (name larger graphs)");
  std::printf("calibration: %s\n", describe_fit(fit).c_str());
  if (!save) return;
  const ocl::DeviceInfo cpu = host_processor();
  TuningRow row{kHostTuningFamily, TuningRow::Level::kDevice, cpu.name,
                format_host_calibration(fit.calibration), ""};
  if (cpu.name.empty()) row.level = TuningRow::Level::kDefault;
  const std::string path =
      save_tuning_row(row, "closure bench closure --calibrate: " + describe_fit(fit));
  set_current_host_calibration(fit.calibration);
  std::printf("saved to %s\n", path.c_str());
}

// --predict: per graph the methods auto compares, predicted beside measured; then how many
// predictions fell within 2x of the measured time.
void run_bench_predicted(const ClosureBenchFlags& flags, const HostClosureBenchOptions& o,
                         const std::vector<std::pair<std::string, const Graph*>>& graphs) {
  const auto [present, gpu] = device_in_child(flags.device);
  // The predictions auto would make here: with this machine's calibration, if saved.
  apply_tuned_host_calibration();
  int within = 0, compared = 0;
  std::vector<PredictedBenchRow> all;
  for (const auto& [name, g] : graphs) {
    const auto rows = bench_predicted(name, *g, o, present, gpu);
    std::fputs(format_predicted_bench(rows).c_str(), stdout);
    std::fflush(stdout);
    for (const auto& r : rows)
      if (r.ratio() > 0) ++compared, within += r.ratio() >= 0.5 && r.ratio() <= 2;
    all.insert(all.end(), rows.begin(), rows.end());
  }
  std::printf("\n%d of %d predictions within 2x of the measured time (%s)\n", within, compared,
              !present ? "no OpenCL device: host methods only"
              : gpu    ? "the device is a GPU"
                       : "the device is not a GPU: propagate not modelled");
  if (flags.calibrate) calibrate_from(all, flags.save);
}

// Totals over the graphs on which every method finished.
void print_totals(const std::vector<HostClosureBenchRow>& all,
                  const std::vector<std::string>& methods) {
  std::map<std::string, std::map<std::string, const HostClosureBenchRow*>> by_graph;
  for (const auto& r : all) by_graph[r.graph][r.method] = &r;
  std::map<std::string, double> total;
  std::map<std::string, int> count;
  for (const auto& [graph, rows] : by_graph)
    for (const auto& [method, row] : rows)
      if (row->ok()) total[method] += row->seconds, ++count[method];
  std::printf("\ntotals (seconds, over the graphs where the method finished):\n");
  for (const auto& [method, seconds] : total)
    std::printf("  %-10s %10.4f s over %d graphs\n", method.c_str(), seconds, count[method]);
  for (const auto& m : methods)
    if (total.count(m) && total.count("classic") && count[m] == count["classic"])
      std::printf("  %s vs classic: %.1fx faster in total\n", m.c_str(),
                  total["classic"] / total[m]);
}

void run_bench_closure(const ClosureBenchFlags& flags) {
  if (flags.save && tuning_overlay_path().empty())  // refused before the runs, not after
    throw UsageError(std::string("--save: no tuning overlay file: ") + kTuningEnv +
                     "=off and no HOME");
  // Checked as every command does, in a child: the methods run in children, and a GPU
  // driver loaded here would not survive their fork.
  if (!flags.device.empty())
    as_usage_error("--device", [&] {
      check_device_in_child(flags.device);
      return 0;
    });
  HostClosureBenchOptions o;
  o.repeats = flags.repeat;
  o.memory_cap_bytes = uint64_t(flags.memory_cap_gb * double(1ull << 30));
  o.run_boost = !flags.no_boost;
  o.run_classic = !flags.no_classic;
  o.product_methods = flags.methods;
  o.device = flags.device;
  if (flags.predict || flags.calibrate) {
    std::vector<std::pair<std::string, Graph>> owned;
    if (!flags.paths.empty())
      for (const auto& file : collect_batch_files(flags.paths))
        owned.emplace_back(file.substr(file.find_last_of('/') + 1), read_graph(file).graph);
    if (flags.calibrate && flags.paths.empty() && flags.generated.empty())
      throw UsageError(
          "--calibrate: name the graphs to fit to (files, folders or --generated): "
          "graphs of the kind auto will meet here");
    for (const auto& spec : expand_generated_specs(flags.generated)) {
      NamedGraph ng = generated_graph(spec, flags.scale);
      owned.emplace_back(ng.name, std::move(ng.graph));
    }
    std::vector<std::pair<std::string, const Graph*>> graphs;
    for (const auto& [name, g] : owned) graphs.emplace_back(name, &g);
    run_bench_predicted(flags, o, graphs);
    return;
  }
  std::vector<HostClosureBenchRow> all;
  auto run = [&](const std::string& name, const Graph& g) {
    auto rows = bench_host_closure(name, g, o);
    std::fputs(format_host_closure_bench(rows).c_str(), stdout);
    std::fflush(stdout);
    all.insert(all.end(), rows.begin(), rows.end());
  };
  if (!flags.paths.empty())
    for (const auto& file : collect_batch_files(flags.paths)) {
      std::string name = file.substr(file.find_last_of('/') + 1);
      run(name, read_graph(file).graph);
    }
  for (const auto& spec : expand_generated_specs(flags.generated)) {
    const NamedGraph ng = generated_graph(spec, flags.scale);
    run(ng.name, ng.graph);
  }
  print_totals(all, flags.methods);
}

}  // namespace

void add_bench_closure_command(CLI::App& bench) {
  auto flags = std::make_shared<ClosureBenchFlags>();
  auto* sub = bench.add_subcommand(
      "closure", "Closure methods vs the classic bitset method vs Boost.Graph, per graph");
  sub->add_option("paths", flags->paths, "Graph files or folders (e.g. tests/data/grail)");
  // The names come from the generators' table: help and parser cannot drift apart.
  sub->add_option("--generated", flags->generated,
                  "Generated graphs: all, or names from: " + issue4_graph_help() +
                      "; or random-dag:N:M (N, M may end in k, M, G)")
      ->delimiter(',')
      ->check(usage_checked(check_generated_spec, "GRAPH"));
  sub->add_option(
         "--scale", flags->scale,
         "Multiply the generated graphs' n and m by this factor (0.1: a tenth of their stated "
         "sizes)")
      ->check(CLI::Range(1e-6, 100.0))  // one Range: PositiveNumber's message prints DBL_MAX
      ->capture_default_str();
  sub->add_option("--methods", flags->methods, "compute_closure methods to time besides sparse")
      ->delimiter(',')
      ->check(CLI::IsMember(method_names()))
      ->capture_default_str();
  add_device_option(*sub, flags->device);
  sub->add_option("--memory-cap", flags->memory_cap_gb, "GB each method may use; above it: refused")
      ->check(CLI::Range(1e-3, 1e6))
      ->capture_default_str();
  sub->add_option("--repeat", flags->repeat,
                  "Runs per method (median; runs of under a millisecond in all: up to 16)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_flag("--no-boost", flags->no_boost, "Skip Boost.Graph");
  sub->add_flag("--no-classic", flags->no_classic, "Skip the classic method");
  sub->add_flag("--predict", flags->predict,
                "Time the methods auto compares (sparse, columns, propagate on a device) and auto, "
                "each beside the cost model's prediction");
  sub->add_flag("--calibrate", flags->calibrate,
                "As --predict, then fit this machine's factors on the model's host terms to the "
                "host rows of the graphs named (the kind auto will meet) and print them");
  sub->add_flag("--save", flags->save,
                "With --calibrate: keep the factors as this processor's 'host' row of the tuning "
                "overlay (CLOSURE_TUNING, default ~/.cache/closure/tuning.txt); auto uses them")
      ->needs("--calibrate");
  sub->callback([flags] { run_bench_closure(*flags); });
}

}  // namespace closure::cli
