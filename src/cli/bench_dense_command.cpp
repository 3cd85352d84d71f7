// `closure bench dense`: recursive closure vs repeated squaring vs one full product.
#include <cstdio>
#include <memory>

#include "bench/bool_bench.hpp"
#include "bench/dense_bench.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "closure/engine/square.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/ocl/device.hpp"

namespace closure::cli {

void add_bench_dense_command(CLI::App& bench) {
  struct Flags {
    std::string device;
    std::vector<size_t> sizes{4096};
    double degree = 8;
    int repeat = 3;
    size_t base = kRecursiveBaseBits;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = bench.add_subcommand(
      "dense", "Dense closure of a random DAG: recursive vs squaring vs one product");
  add_device_option(*sub, flags->device);
  // Orders as bench bool bounds them; past memory the benchmark refuses with sizes named.
  sub->add_option("--n", flags->sizes, "Matrix orders")
      ->delimiter(',')
      ->check(CLI::Range(size_t{1}, kMaxBoolBenchN))
      ->capture_default_str();
  sub->add_option("--degree", flags->degree, "Average out-degree of the random DAG")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  sub->add_option("--repeat", flags->repeat, "Timed runs (median)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_option("--base", flags->base,
                  "Recursive closure: blocks of at most this many bits are squared")
      ->check(CLI::Range(size_t{1}, kMaxBoolBenchN))
      ->capture_default_str();
  sub->callback([flags] {
    Session session(device_session_options(flags->device));  // it chooses and opens the device
    ocl::Runtime* const rt = as_usage_error("--device", [&] { return session.runtime(); });
    const BooleanParams params = rt ? tuned_boolean_params(rt->device()) : BooleanParams{};
    std::printf("device: %s, params %s\n", rt ? rt->device().describe().c_str() : "host",
                params.to_string().c_str());
    std::printf("%7s %-40s %10s %9s %12s %14s\n", "n", "what", "seconds", "products", "x product",
                "Bool MAC/s*");
    for (size_t n : flags->sizes) {
      const DenseBenchResult r =
          bench_dense_closure(rt, params, n, flags->degree, flags->repeat, flags->base);
      for (const auto& row : r.rows)
        std::printf("%7zu %-40s %10.4f %9d %12.2f %14.3g\n", n, row.what.c_str(), row.seconds,
                    row.products, row.ratio_to_product,
                    double(n) * double(n) * double(n) / row.seconds);
      std::printf("%7zu closure density %.3f, %.1f edges/vertex, recursive == squaring: %s\n", n,
                  r.closure_density, r.edges_per_vertex, r.identical ? "yes" : "NO");
    }
    std::printf("* n^3 / seconds: full-square-equivalent Boolean MACs per second\n");
  });
}

}  // namespace closure::cli
