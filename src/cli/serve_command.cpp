// `closure serve INDEX`: the long-lived query service (src/serve/). Signals: SIGTERM or
// SIGINT finish the requests in flight, fold the journal into the index and exit 0; SIGHUP
// reloads the index file (replaced by another process) with the journal replayed onto it.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <memory>
#include <thread>

#include "cli/commands.hpp"
#include "closure/io/atomic_file.hpp"
#include "serve/http_server.hpp"
#include "serve/service.hpp"

namespace closure::cli {
namespace {

struct ServeFlags {
  std::string input, address = "127.0.0.1", port_file;
  uint16_t port = 7377;
  unsigned max_connections = 256;
  size_t max_body = 16u << 20, max_pairs = 1'000'000;
  double header_timeout = 10, idle_timeout = 60;
  uint64_t fold_after = 64u << 20;
  bool read_only = false;
};

// Writes the bound port where a script (or a test) waits for it, atomically.
void write_port_file(const std::string& path, uint16_t port) {
  AtomicFile file(path);
  file.write(std::to_string(port) + "\n");
  file.commit();
}

// The requests handled, and apart those refused before they could be (400, 408, 413, 431:
// /metrics counts each kind); both had been one "requests" that left these out.
void print_stop_line(const serve::TransportCounters& t) {
  const unsigned long long refused =
      t.bad_requests + t.timeouts + t.header_too_large + t.body_too_large;
  std::fprintf(stderr, "closure serve: stopped after %llu request%s",
               (unsigned long long)t.requests, t.requests == 1 ? "" : "s");
  if (refused > 0)
    std::fprintf(stderr, " and %llu refused unread (malformed, too large or too slow)", refused);
  std::fputc('\n', stderr);
}

int serve(const ServeFlags& flags, const CommonOptions& common, Session& session) {
  // The signals go to one thread that waits for them (sigwait), never to a handler that
  // interrupts a server thread: blocked here, before any thread starts, so all inherit it.
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) sigaddset(&signals, s);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  // A file-size limit (ulimit -f) reached by the journal is an error to answer (507), not
  // the end of the process: main() ignores SIGXFSZ for every command.

  serve::ServiceOptions options;
  options.source = flags.input;
  options.read = read_options(common);
  options.appends = !flags.read_only;
  options.max_pairs = flags.max_pairs;
  options.fold_after_bytes = flags.fold_after;
  serve::Service service(options);
  serve::ServerLimits limits;
  limits.max_connections = flags.max_connections;
  limits.max_body_bytes = flags.max_body;
  limits.header_timeout_s = flags.header_timeout;
  limits.idle_timeout_s = flags.idle_timeout;
  limits.threads = session.threads();
  serve::HttpServer server(
      flags.address, flags.port, limits,
      [&service](const serve::HttpRequest& r) { return service.handle(r); }, service.transport());
  if (!flags.port_file.empty()) write_port_file(flags.port_file, server.port());
  const auto snapshot = service.snapshot();
  // Said even with -q: bytes were removed from the journal on disk.
  if (service.torn_tail_bytes())
    std::fprintf(stderr,
                 "closure serve: %s.journal: cut off an unfinished last record of %llu bytes (a "
                 "crash while it was written, before it was acknowledged)\n",
                 flags.input.c_str(), (unsigned long long)service.torn_tail_bytes());
  if (!common.quiet) {
    std::fprintf(stderr,
                 "closure serve: %s: %llu vertices (%llu in the layer)%s; listening on "
                 "http://%s:%u\n",
                 flags.input.c_str(), (unsigned long long)snapshot->index.vertex_count(),
                 (unsigned long long)snapshot->index.layer().vertex_count(),
                 service.replayed_records() ? (", " + std::to_string(service.replayed_records()) +
                                               " journal records replayed")
                                                  .c_str()
                                            : "",
                 server.address().c_str(), unsigned(server.port()));
    if (flags.address != "127.0.0.1" && flags.address != "::1" && flags.address != "localhost")
      std::fprintf(stderr,
                   "closure serve: %s is reachable from other machines, and the service has "
                   "no authentication\n",
                   flags.address.c_str());
  }
  std::thread waiter([&] {
    for (;;) {
      int sig = 0;
      if (sigwait(&signals, &sig) != 0) continue;
      if (sig == SIGHUP) {
        std::string why;
        const bool ok = service.reload(&why);
        if (!common.quiet)
          std::fprintf(stderr, "closure serve: reload %s%s\n",
                       ok ? "done" : "failed: ", ok ? "" : why.c_str());
        continue;
      }
      server.stop();
      return;  // SIGUSR1: run() ended on its own
    }
  });
  server.run();
  pthread_kill(waiter.native_handle(), SIGUSR1);
  waiter.join();
  service.fold();  // every acknowledged append into the index file, the journal emptied
  if (!common.quiet) print_stop_line(service.transport());
  return kExitOk;
}

}  // namespace

Runner add_serve_command(CLI::App& command, CommonOptions& common) {
  auto flags = std::make_shared<ServeFlags>();
  auto* sub = &command;
  sub->add_option("index", flags->input,
                  "Index file (closure index G -o G.idx), or a graph file to index at start "
                  "(then read-only)")
      ->required();
  sub->add_option("--address", flags->address,
                  "Address to listen on (loopback by default; the service has no "
                  "authentication)")
      ->capture_default_str();
  sub->add_option("--port", flags->port, "TCP port (0: any free port)")->capture_default_str();
  sub->add_option("--port-file", flags->port_file,
                  "Write the bound port to this file once listening");
  sub->add_flag("--read-only", flags->read_only, "Refuse appends (POST /edges); no journal");
  sub->add_option("--max-connections", flags->max_connections,
                  "Connections served at once; more are answered 503")
      ->check(CLI::Range(1u, 100000u))
      ->capture_default_str();
  sub->add_option("--max-body", flags->max_body, "Largest request body in bytes (413 beyond)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 30))
      ->capture_default_str();
  sub->add_option("--max-pairs", flags->max_pairs, "Most pairs in one request")
      ->check(CLI::Range(size_t{1}, size_t{100'000'000}))
      ->capture_default_str();
  sub->add_option("--header-timeout", flags->header_timeout,
                  "Seconds a client may take to send a request (408 beyond)")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  sub->add_option("--idle-timeout", flags->idle_timeout,
                  "Seconds a keep-alive connection may stay idle")
      ->check(CLI::Range(0.01, 86400.0))
      ->capture_default_str();
  sub->add_option("--fold-after", flags->fold_after,
                  "Journal bytes after which it is folded into the index file")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))
      ->capture_default_str();
  return [flags, &common](Session& session) -> int {
    try {
      return serve(*flags, common, session);
    } catch (const std::exception& e) {
      return report_failure(e);
    }
  };
}

}  // namespace closure::cli
