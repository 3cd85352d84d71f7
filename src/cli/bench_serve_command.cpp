// `closure bench serve`: a bounded load on a local `closure serve` (bench/serve_load.hpp),
// one table row per request kind (or --json).
#include <cstdio>
#include <memory>

#include "bench/serve_load.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"

namespace closure::cli {

void add_bench_serve_command(CLI::App& bench) {
  struct Flags {
    ServeLoadOptions o;
    std::string mix = "pairs=70,batch=20,descendants=5,edges=5";
    bool from_facts = false, json = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = bench.add_subcommand(
      "serve",
      "Load on a local `closure serve`: requests/s, pair answers/s and client-side latency "
      "per request kind, over N keep-alive connections for a bounded time");
  auto* url = sub->add_option("--url", flags->o.url,
                              "The running service, http://127.0.0.1:PORT (loopback only: "
                              "127.0.0.1, ::1 or localhost)");
  auto* start =
      sub->add_option("--start", flags->o.start_index,
                      "Start `closure serve INDEX --port 0` for the run and stop it after (on a "
                      "temporary copy of INDEX when --mix appends edges)");
  url->excludes(start);
  sub->add_option("--connections", flags->o.connections, "Keep-alive connections, one thread each")
      ->check(CLI::Range(1u, 4096u))
      ->capture_default_str();
  auto* seconds = sub->add_option("--seconds", flags->o.seconds,
                                  "Time bound, at most 600 (default 5; without it, --requests "
                                  "alone bounds the run, within 600 s; 0: --requests alone)")
                      ->check(CLI::Range(0.0, kServeLoadMostSeconds));
  sub->add_option("--requests", flags->o.requests,
                  "Bound on the requests of all connections together (0: none)")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40));
  sub->add_option("--mix", flags->mix,
                  "Weights of the request kinds: pairs (GET /reaches), batch (POST /reaches), "
                  "descendants, ancestors (GET, limit=--limit), edges (POST /edges: a fresh "
                  "vertex onto an existing one)")
      ->check(usage_checked(check_serve_mix, "MIX"))
      ->capture_default_str();
  sub->add_option("--batch", flags->o.batch, "Pairs per batch request")
      ->check(CLI::Range(size_t{1}, size_t{1'000'000}))
      ->capture_default_str();
  sub->add_option("--limit", flags->o.limit, "limit= of descendants and ancestors requests")
      ->check(CLI::Range(size_t{0}, size_t{10'000'000}))
      ->capture_default_str();
  auto* labels = sub->add_option("--labels", flags->o.labels_file,
                                 "Labels to ask about, one per line (default: --from-facts)");
  sub->add_flag("--from-facts", flags->from_facts,
                "Learn the vertex count from GET /facts and ask about random decimals 0..n-1 "
                "(indexes with identity labels only; the default)")
      ->excludes(labels);
  sub->add_option("--seed", flags->o.seed, "Seed of the random labels and kinds (repeatable runs)")
      ->check(unsigned_decimal())
      ->capture_default_str();
  sub->add_flag("--json", flags->json, "The figures as JSON");
  sub->add_flag("-q,--quiet", flags->o.quiet, "No progress lines on stderr");
  sub->footer(kExitStatusHelp);
  sub->callback([flags, seconds] {
    ServeLoadOptions o = flags->o;
    o.mix = parse_serve_mix(flags->mix);
    // --requests alone bounds the run (within the 600 s cap); otherwise 5 s by default.
    if (seconds->count() == 0 && o.requests > 0) o.seconds = 0;
    check_serve_load_options(o);
    const ServeLoadReport report = run_serve_load(o);
    std::fputs(flags->json ? format_serve_load_json(report).c_str()
                           : format_serve_load_table(report).c_str(),
               stdout);
    std::fflush(stdout);
    if (!o.start_index.empty() && report.server_exit_status != 0)
      throw ResourceError("closure serve " + o.start_index +
                          " (started by bench serve): " + report.server_exit);
  });
}

}  // namespace closure::cli
