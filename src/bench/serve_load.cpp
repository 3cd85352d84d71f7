// The load client behind `closure bench serve`: Boost.Beast's synchronous HTTP client, one
// blocking keep-alive connection per thread, latencies in a log-linear histogram per thread
// and kind (about 1.6 % resolution), merged at the end.
#include "bench/serve_load.hpp"

#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/io/json_text.hpp"

namespace closure {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kKindNames[kServeRequestKinds] = {"pairs", "batch", "descendants",
                                                        "ancestors", "edges"};
constexpr double kPortFileWaitSeconds = 30;  // for --start: the child to listen
constexpr double kStopWaitSeconds = 30;      // for --start: the child to fold and exit
constexpr double kGraceSeconds = 10;         // past the time bound: answers in flight, then cut off
constexpr unsigned kMostConnectFailures = 20;  // in a row, then the worker gives up

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Latencies in nanoseconds: exact below 128, then 64 buckets per power of two.
class LatencyBuckets {
 public:
  static constexpr unsigned kSub = 64, kExact = 128, kTopExponent = 47;  // 2^47 ns: 39 hours
  LatencyBuckets() : counts_(kExact + (kTopExponent - 6) * kSub, 0) {}

  void add(uint64_t ns) {
    ++counts_[index_of(ns)];
    ++total_;
    max_ = std::max(max_, ns);
    sum_ += double(ns);
  }
  void merge(const LatencyBuckets& o) {
    for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
    total_ += o.total_;
    max_ = std::max(max_, o.max_);
    sum_ += o.sum_;
  }
  // The q-quantile in microseconds (a bucket's middle, at most the largest value seen).
  double quantile_us(double q) const {
    if (total_ == 0) return 0;
    const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(total_))));
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) return double(std::min<uint64_t>(middle_of(i), max_)) / 1e3;
    }
    return double(max_) / 1e3;
  }
  double max_us() const { return double(max_) / 1e3; }
  double mean_us() const { return total_ ? sum_ / double(total_) / 1e3 : 0; }

 private:
  static size_t index_of(uint64_t ns) {
    if (ns < kExact) return size_t(ns);
    ns = std::min<uint64_t>(ns, (uint64_t(1) << kTopExponent) - 1);
    const unsigned e = 63u - unsigned(__builtin_clzll(ns));  // 7..46
    const unsigned shift = e - 6;
    return kExact + size_t(e - 7) * kSub + size_t((ns >> shift) - kSub);
  }
  static uint64_t middle_of(size_t i) {
    if (i < kExact) return i;
    const unsigned e = unsigned((i - kExact) / kSub) + 7, shift = e - 6;
    const uint64_t low = (kSub + (i - kExact) % kSub) << shift;
    return low + ((uint64_t(1) << shift) >> 1);
  }

  std::vector<uint64_t> counts_;
  uint64_t total_ = 0, max_ = 0;
  double sum_ = 0;
};

// Percent-encodes all but RFC 3986's unreserved characters, for a query parameter.
std::string url_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += char(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// One keep-alive HTTP/1.1 connection, used by one thread; cut() may be called from another
// (the watchdog) to end a request that hangs.
class Client {
 public:
  Client(const std::vector<tcp::endpoint>& endpoints, std::string host)
      : endpoints_(endpoints), host_(std::move(host)), socket_(io_) {}

  bool is_open() const { return connected_; }

  bool connect(beast::error_code& ec) {
    close();
    for (const tcp::endpoint& ep : endpoints_) {
      {
        std::lock_guard lock(m_);
        if (cut_) {
          ec = asio::error::operation_aborted;
          return false;
        }
        socket_.open(ep.protocol(), ec);
        if (ec) continue;
      }
      socket_.connect(ep, ec);
      if (!ec) {
        socket_.set_option(tcp::no_delay(true), ec);
        ec = {};
        connected_ = true;
        buffer_.clear();
        return true;
      }
      close();
    }
    return false;
  }

  void close() {
    std::lock_guard lock(m_);
    beast::error_code ignored;
    if (socket_.is_open()) socket_.close(ignored);
    connected_ = false;
  }

  // Stops this connection for good: a blocked read or write returns at once.
  void cut() {
    std::lock_guard lock(m_);
    cut_ = true;
    if (socket_.is_open()) ::shutdown(socket_.native_handle(), SHUT_RDWR);
  }

  // Sends one request; the answer's status, or 0 when no answer came (ec says why: the
  // connection is closed then). body_out, if given, receives the answer's body.
  int exchange(http::verb method, const std::string& target, const std::string& body,
               std::string* body_out, beast::error_code& ec) {
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, host_);
    req.set(http::field::user_agent, "closure-bench-serve");
    if (method == http::verb::post) {
      req.set(http::field::content_type, "application/json");
      req.body() = body;
      req.prepare_payload();
    }
    http::write(socket_, req, ec);
    if (ec) {
      close();
      return 0;
    }
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t(1) << 30);
    http::read(socket_, buffer_, parser, ec);
    if (ec) {
      close();
      return 0;
    }
    auto res = parser.release();
    const int status = int(res.result_int());
    if (!res.keep_alive()) close();
    if (body_out) *body_out = std::move(res.body());
    return status;
  }

 private:
  const std::vector<tcp::endpoint>& endpoints_;
  std::string host_;
  asio::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
  bool connected_ = false;
  std::mutex m_;  // socket open and close against cut()
  bool cut_ = false;
};

// What the requests ask about: labels from a file, or the decimals 0..n-1.
struct LabelSource {
  std::vector<std::string> labels;
  uint64_t identity = 0;  // > 0: the labels are 0..identity-1

  size_t size() const { return identity ? size_t(identity) : labels.size(); }
  std::string draw(std::mt19937_64& rng) const {
    if (identity) return std::to_string(rng() % identity);
    return labels[size_t(rng() % labels.size())];
  }
};

std::vector<std::string> read_labels(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw InputError(path, 0, std::string("cannot read the labels: ") + std::strerror(errno));
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    const size_t a = line.find_first_not_of(" \t\r");
    if (a == std::string::npos) continue;
    const size_t b = line.find_last_not_of(" \t\r");
    out.push_back(line.substr(a, b - a + 1));
  }
  if (in.bad()) throw InputError(path, 0, "cannot read the labels");
  if (out.empty()) throw InputError(path, 0, "no labels (one label per line expected)");
  return out;
}

std::string pairs_json(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out = "[";
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i) out += ',';
    out += '[';
    append_json_string(out, pairs[i].first);
    out += ',';
    append_json_string(out, pairs[i].second);
    out += ']';
  }
  out += ']';
  return out;
}

// Cuts a client's connection if the scope is still running after `seconds`: the requests
// of the main thread (/facts, the probe, /metrics) are bounded too.
class Watchdog {
 public:
  Watchdog(Client& client, double seconds)
      : thread_([this, &client, seconds] {
          std::unique_lock lock(m_);
          if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds),
                            [this] { return done_; })) {
            fired_ = true;
            client.cut();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  bool fired() {
    std::lock_guard lock(m_);
    return fired_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false, fired_ = false;
  std::thread thread_;
};

constexpr double kControlSeconds = 10;  // a request of the main thread, connect included

std::vector<tcp::endpoint> loopback_endpoints(const ServeUrl& url) {
  asio::io_context io;
  tcp::resolver resolver(io);
  beast::error_code ec;
  const auto results =
      resolver.resolve(url.host, std::to_string(url.port), tcp::resolver::numeric_service, ec);
  std::vector<tcp::endpoint> out;
  if (!ec)
    for (const auto& r : results)
      if (r.endpoint().address().is_loopback()) out.push_back(r.endpoint());
  if (out.empty())
    throw UsageError("bench serve drives a local service only: " + url.host +
                     " does not resolve to a loopback address");
  return out;
}

// A GET or POST from the main thread, where anything but a 2xx answer is a failure.
std::string fetch(Client& client, const ServeUrl& url, http::verb method, const std::string& target,
                  const std::string& body = {}) {
  Watchdog watchdog(client, kControlSeconds);
  const std::string late = "no answer within " + std::to_string(int(kControlSeconds)) + " s";
  beast::error_code ec;
  if (!client.is_open() && !client.connect(ec))
    throw ResourceError("cannot connect to " + url.text + ": " +
                        (watchdog.fired() ? late : ec.message()) +
                        " (is `closure serve` running there?)");
  std::string answer;
  const int status = client.exchange(method, target, body, &answer, ec);
  if (status == 0)
    throw ResourceError(url.text + target + ": " +
                        (watchdog.fired() ? late : "no answer: " + ec.message()));
  if (status < 200 || status > 299)
    throw ResourceError(url.text + target + ": answered " + std::to_string(status) + ": " +
                        answer.substr(0, 300));
  return answer;
}

// The labels to ask about: --labels, or the identity labels /facts and a probe show.
LabelSource learn_labels(const ServeLoadOptions& o, Client& client, const ServeUrl& url,
                         ServeLoadReport& report) {
  LabelSource source;
  const auto facts =
      nlohmann::json::parse(fetch(client, url, http::verb::get, "/facts"), nullptr, false);
  if (facts.is_object()) report.vertices = facts.value("vertices", uint64_t(0));
  if (!o.labels_file.empty()) {
    source.labels = read_labels(o.labels_file);
    report.labels_from = o.labels_file;
    return source;
  }
  uint64_t n = facts.is_object() ? facts.value("base_vertices", uint64_t(0)) : 0;
  if (n == 0) n = report.vertices;
  if (n == 0)
    throw UsageError("the service at " + url.text +
                     " reports no vertices; give --labels FILE (one label per line)");
  // Identity labels are the decimals 0..n-1: ask about the first, the last and 62 others.
  std::mt19937_64 rng(o.seed);
  std::vector<std::pair<std::string, std::string>> probe{{"0", std::to_string(n - 1)}};
  for (int i = 0; i < 31; ++i)
    probe.emplace_back(std::to_string(rng() % n), std::to_string(rng() % n));
  const auto answer = nlohmann::json::parse(
      fetch(client, url, http::verb::post, "/reaches", pairs_json(probe)), nullptr, false);
  if (!answer.is_object() || !answer.contains("unknown") || !answer["unknown"].is_array() ||
      !answer["unknown"].empty())
    throw UsageError("the service at " + url.text + " does not name its " + std::to_string(n) +
                     " vertices 0.." + std::to_string(n - 1) +
                     " (identity labels); give --labels FILE (one label per line)");
  source.identity = n;
  report.labels_from = "identity labels 0.." + std::to_string(n - 1) + ", from GET /facts";
  return source;
}

// The server's request-duration histogram of one endpoint from /metrics: (upper bound in
// seconds, cumulative count) per bucket, +Inf last (as infinity).
using ServerBuckets = std::vector<std::pair<double, uint64_t>>;
ServerBuckets server_buckets(const std::string& text, const std::string& endpoint) {
  ServerBuckets out;
  const std::string key =
      "closure_request_duration_seconds_bucket{endpoint=\"" + endpoint + "\",le=\"";
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
    const char* le = text.c_str() + at + key.size();
    const double bound = std::strncmp(le, "+Inf", 4) == 0 ? HUGE_VAL : std::strtod(le, nullptr);
    const size_t space = text.find("} ", at);
    if (space == std::string::npos) break;
    out.emplace_back(bound, std::strtoull(text.c_str() + space + 2, nullptr, 10));
  }
  return out;
}

// The q-quantile in microseconds of what the server saw between two readings of /metrics,
// interpolated within a bucket as the server's own gauge does; nullopt without requests.
std::optional<double> server_quantile_us(const ServerBuckets& before, const ServerBuckets& after,
                                         double q) {
  if (after.empty() || (!before.empty() && before.size() != after.size())) return std::nullopt;
  auto delta = [&](size_t i) { return after[i].second - (before.empty() ? 0 : before[i].second); };
  const uint64_t total = delta(after.size() - 1);
  if (total == 0) return std::nullopt;
  const double want = q * double(total);
  uint64_t seen = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    const uint64_t upto = delta(i), here = upto - seen;
    if (double(upto) >= want && here > 0) {
      const double lo = i == 0 ? 0 : after[i - 1].first;
      const double hi = std::isinf(after[i].first) ? lo : after[i].first;
      return 1e6 * (lo + (hi - lo) * ((want - double(seen)) / double(here)));
    }
    seen = upto;
  }
  return std::nullopt;
}

// The server's quantiles of reaches and reaches_batch over the load alone: the difference of
// /metrics read before and after it.
void read_server_metrics(const std::string& before, const std::string& after, ServeLoadReport& r) {
  for (const char* endpoint : {"reaches", "reaches_batch"}) {
    const ServerBuckets b = server_buckets(before, endpoint), a = server_buckets(after, endpoint);
    const bool batch = std::string(endpoint) == "reaches_batch";
    (batch ? r.server_p50_batch_us : r.server_p50_reaches_us) = server_quantile_us(b, a, 0.5);
    (batch ? r.server_p99_batch_us : r.server_p99_reaches_us) = server_quantile_us(b, a, 0.99);
  }
}

// `closure serve INDEX --port 0 --port-file F -q` as a child; stopped (SIGTERM, then
// SIGKILL) by stop() or, on an error, by the destructor.
class ServeChild {
 public:
  ServeChild(const std::string& binary, const std::vector<std::string>& args) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0)
      throw ResourceError(std::string("cannot start closure serve: ") + std::strerror(errno));
    if (pid_ == 0) {
      // Only async-signal-safe calls until exec. The table goes to our stdout: the
      // service's output, if any, to stderr. It ends if we do.
      ::dup2(2, 1);
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent) ::_exit(127);
      ::execv(binary.c_str(), argv.data());
      ::_exit(127);
    }
  }
  ~ServeChild() {
    if (pid_ > 0) stop(5);
  }
  ServeChild(const ServeChild&) = delete;
  ServeChild& operator=(const ServeChild&) = delete;

  // Exited already? Then its description, and the status in *status.
  std::optional<std::string> exited(int* status) {
    int ws = 0;
    const pid_t r = ::waitpid(pid_, &ws, WNOHANG);
    if (r != pid_) return std::nullopt;
    pid_ = -1;
    return describe(ws, status);
  }

  // SIGTERM, up to wait_s for it to exit, then SIGKILL.
  std::string stop(double wait_s, int* status = nullptr) {
    if (pid_ <= 0) return "not running";
    ::kill(pid_, SIGTERM);
    const auto t0 = Clock::now();
    int ws = 0;
    for (;;) {
      const pid_t r = ::waitpid(pid_, &ws, WNOHANG);
      if (r == pid_) break;
      if (r < 0) {
        pid_ = -1;
        return "lost (waitpid failed)";
      }
      if (seconds_since(t0) > wait_s) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &ws, 0);
        pid_ = -1;
        char note[96];
        std::snprintf(note, sizeof note, "did not stop within %.0f s of SIGTERM: killed", wait_s);
        if (status) *status = -1;
        return note;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
    return describe(ws, status);
  }

 private:
  static std::string describe(int ws, int* status) {
    if (WIFEXITED(ws)) {
      if (status) *status = WEXITSTATUS(ws);
      return "exit status " + std::to_string(WEXITSTATUS(ws));
    }
    if (status) *status = -1;
    if (WIFSIGNALED(ws)) return std::string("killed by signal ") + std::to_string(WTERMSIG(ws));
    return "ended (status " + std::to_string(ws) + ")";
  }
  pid_t pid_ = -1;
};

// A folder of our own in the temporary folder, removed with everything in it.
class TempFolder {
 public:
  TempFolder() {
    std::error_code ec;  // temp_directory_path reads TMPDIR (as the standard library does)
    const auto base = std::filesystem::temp_directory_path(ec);
    std::string pattern =
        (ec ? std::string("/tmp") : base.string()) + "/closure-bench-serve-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw ResourceError("cannot make a temporary folder " + pattern + ": " +
                          std::strerror(errno));
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct WorkerResult {
  std::array<LatencyBuckets, kServeRequestKinds> latency;
  std::array<ServeKindReport, kServeRequestKinds> counts{};
  uint64_t connects = 0, connect_failures = 0;
  Clock::time_point last_answer{};
  std::string note;
};

struct Shared {
  const ServeLoadOptions* o = nullptr;
  const LabelSource* labels = nullptr;
  std::atomic<uint64_t> issued{0};
  std::atomic<bool> stop{false};
  Clock::time_point t0{}, deadline{};
};

// Run when every connection is open, before any request: the clock starts.
struct StartClock {
  Shared* s;
  double bound;
  void operator()() noexcept {
    s->t0 = Clock::now();
    s->deadline =
        s->t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(bound));
  }
};

// One request of the mix; what the answer is counted against.
struct Request {
  http::verb method = http::verb::get;
  std::string target;
  uint64_t pairs_asked = 0;
};

// The kind of the next request, drawn by the mix's weights.
size_t pick_kind(std::mt19937_64& rng, const ServeMix& mix, uint64_t mix_total) {
  uint64_t pick = rng() % mix_total;
  size_t kind = 0;
  while (pick >= mix[kind]) pick -= mix[kind++];
  return kind;
}

// A request of the given kind with labels drawn from the source; a POST's body goes into
// `body`, which a GET leaves as it was (the connection's last body, sent as before).
Request make_request(size_t kind, const Shared& s, unsigned thread, std::mt19937_64& rng,
                     uint64_t& appended, std::vector<std::pair<std::string, std::string>>& pairs,
                     std::string& body) {
  const ServeLoadOptions& o = *s.o;
  Request r;
  switch (ServeRequestKind(kind)) {
    case ServeRequestKind::kPairs: {
      const std::string u = s.labels->draw(rng), v = s.labels->draw(rng);
      r.target = "/reaches?from=" + url_encode(u) + "&to=" + url_encode(v);
      r.pairs_asked = 1;
      break;
    }
    case ServeRequestKind::kBatch:
      pairs.clear();
      for (size_t i = 0; i < o.batch; ++i) {
        std::string u = s.labels->draw(rng);
        pairs.emplace_back(std::move(u), s.labels->draw(rng));
      }
      r.method = http::verb::post;
      r.target = "/reaches";
      body = pairs_json(pairs);
      r.pairs_asked = o.batch;
      break;
    case ServeRequestKind::kDescendants:
    case ServeRequestKind::kAncestors:
      r.target = std::string(kind == size_t(ServeRequestKind::kDescendants) ? "/descendants"
                                                                            : "/ancestors") +
                 "?of=" + url_encode(s.labels->draw(rng)) + "&limit=" + std::to_string(o.limit);
      break;
    case ServeRequestKind::kEdges:
      // A fresh vertex onto an existing one: the commit pattern, which never rebuilds.
      pairs.assign(1, {"bench-" + std::to_string(o.seed) + "-" + std::to_string(thread) + "-" +
                           std::to_string(appended++),
                       s.labels->draw(rng)});
      r.method = http::verb::post;
      r.target = "/edges";
      body = pairs_json(pairs);
      break;
    default:
      break;
  }
  return r;
}

// One exchange's outcome into the worker's counts, latencies and first note.
void record_answer(const Shared& s, size_t kind, const Request& r, int status, Clock::duration took,
                   const std::string& answer, const beast::error_code& ec, WorkerResult& out) {
  ServeKindReport& c = out.counts[kind];
  ++c.requests;
  if (status != 0)  // latencies of answers (a request cut off has none)
    out.latency[kind].add(
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(took).count()));
  if (status >= 200 && status <= 299) {
    c.pair_answers += r.pairs_asked;
    return;
  }
  ++c.errors;
  if (status != 0 && out.note.empty())
    out.note = std::string(kKindNames[kind]) + " answered " + std::to_string(status) + ": " +
               answer.substr(0, 200);
  if (status == 0) {
    ++c.transport_errors;
    if (out.note.empty() && !s.stop.load())
      out.note = std::string("a ") + kKindNames[kind] + " request got no answer: " + ec.message();
  }
}

// What reconnect() decided: go on with a request, try to connect again, or stop.
enum class Reconnect { kOpen, kRetry, kGiveUp };

// A closed connection opened again, with a pause after a failure and a limit on failures
// in a row (counted in failures_in_a_row, which an open connection resets).
Reconnect reconnect(Client& client, WorkerResult& out, unsigned& failures_in_a_row,
                    beast::error_code& ec) {
  if (!client.is_open()) {
    if (!client.connect(ec)) {
      ++out.connect_failures;
      if (++failures_in_a_row >= kMostConnectFailures) {
        out.note = "a connection gave up after " + std::to_string(failures_in_a_row) +
                   " failed connects: " + ec.message();
        return Reconnect::kGiveUp;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return Reconnect::kRetry;
    }
    ++out.connects;
  }
  failures_in_a_row = 0;
  return Reconnect::kOpen;
}

// One connection's loop: requests of the mix until the time bound, the request count or
// a stop.
void run_worker(Shared& s, unsigned thread, Client& client, WorkerResult& out,
                std::barrier<StartClock>& start) {
  const ServeLoadOptions& o = *s.o;
  std::seed_seq seq{uint64_t(o.seed), uint64_t(thread) + 1};
  std::mt19937_64 rng(seq);
  uint64_t mix_total = 0;
  for (unsigned w : o.mix) mix_total += w;
  beast::error_code ec;
  if (client.connect(ec))
    ++out.connects;
  else
    ++out.connect_failures;
  start.arrive_and_wait();  // the clock starts when every connection is open
  unsigned failures_in_a_row = 0;
  uint64_t appended = 0;
  std::string body, answer;
  std::vector<std::pair<std::string, std::string>> pairs;
  while (!s.stop.load(std::memory_order_relaxed) && Clock::now() < s.deadline) {
    const Reconnect rc = reconnect(client, out, failures_in_a_row, ec);
    if (rc == Reconnect::kGiveUp) break;
    if (rc == Reconnect::kRetry) continue;
    if (o.requests && s.issued.fetch_add(1, std::memory_order_relaxed) >= o.requests) break;
    // The kind, then the request.
    const size_t kind = pick_kind(rng, o.mix, mix_total);
    const Request r = make_request(kind, s, thread, rng, appended, pairs, body);
    const auto t = Clock::now();
    const int status = client.exchange(r.method, r.target, body, &answer, ec);
    const auto done = Clock::now();
    out.last_answer = done;
    record_answer(s, kind, r, status, done - t, answer, ec, out);
  }
  client.close();
}

void fill_quantiles(ServeKindReport& r, const LatencyBuckets& b) {
  r.p50_us = b.quantile_us(0.5);
  r.p90_us = b.quantile_us(0.9);
  r.p99_us = b.quantile_us(0.99);
  r.max_us = b.max_us();
  r.mean_us = b.mean_us();
}

// The connections' threads, started together and bounded: past the time bound (and a
// grace for answers in flight, and the connects), every connection is cut, which ends any
// request still waiting for its answer. Apart from drive so the bound reads on its own.
void run_connections(const ServeLoadOptions& o, const std::vector<tcp::endpoint>& endpoints,
                     const std::string& host_header, Shared& s, std::vector<WorkerResult>& results,
                     ServeLoadReport& report) {
  const double bound = o.seconds > 0 ? o.seconds : kServeLoadMostSeconds;
  std::vector<std::unique_ptr<Client>> clients;
  for (unsigned i = 0; i < o.connections; ++i)
    clients.push_back(std::make_unique<Client>(endpoints, host_header));
  std::barrier<StartClock> start(o.connections, StartClock{&s, bound});
  std::mutex m;
  std::condition_variable cv;
  unsigned finished = 0;
  const auto launched = Clock::now();
  std::vector<std::thread> threads;
  threads.reserve(o.connections);
  for (unsigned i = 0; i < o.connections; ++i)
    threads.emplace_back([&, i] {
      run_worker(s, i, *clients[i], results[i], start);
      std::lock_guard lock(m);
      ++finished;
      cv.notify_all();
    });
  {
    std::unique_lock lock(m);
    const auto cutoff = launched + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(bound + kGraceSeconds));
    if (!cv.wait_until(lock, cutoff, [&] { return finished == o.connections; })) {
      s.stop = true;
      for (auto& c : clients) c->cut();
      report.notes.push_back("requests still unanswered " + std::to_string(int(kGraceSeconds)) +
                             " s past the time bound were cut off");
    }
  }
  for (auto& t : threads) t.join();
}

// The workers' counts and latencies merged per kind and in total, their notes (at most 8,
// no repeats) and the seconds from the start to the last answer.
void merge_results(const std::vector<WorkerResult>& results, Clock::time_point t0,
                   ServeLoadReport& report) {
  Clock::time_point end = t0;
  LatencyBuckets all;
  for (size_t k = 0; k < kServeRequestKinds; ++k) {
    LatencyBuckets merged;
    ServeKindReport& r = report.kinds[k];
    for (const WorkerResult& w : results) {
      merged.merge(w.latency[k]);
      r.requests += w.counts[k].requests;
      r.errors += w.counts[k].errors;
      r.transport_errors += w.counts[k].transport_errors;
      r.pair_answers += w.counts[k].pair_answers;
    }
    fill_quantiles(r, merged);
    all.merge(merged);
    report.total.requests += r.requests;
    report.total.errors += r.errors;
    report.total.transport_errors += r.transport_errors;
    report.total.pair_answers += r.pair_answers;
  }
  fill_quantiles(report.total, all);
  for (const WorkerResult& w : results) {
    end = std::max(end, w.last_answer);
    report.connects += w.connects;
    report.connect_failures += w.connect_failures;
    if (!w.note.empty() && report.notes.size() < 8 &&
        std::find(report.notes.begin(), report.notes.end(), w.note) == report.notes.end())
      report.notes.push_back(w.note);
  }
  report.seconds = std::chrono::duration<double>(end - t0).count();
}

// The load against a running service: labels and /metrics first, the connections, then
// /metrics again for the server's own quantiles over the load.
ServeLoadReport drive(const ServeLoadOptions& o, const ServeUrl& url) {
  ServeLoadReport report;
  report.url = url.text;
  report.connections = o.connections;
  const std::vector<tcp::endpoint> endpoints = loopback_endpoints(url);
  const std::string host =
      url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
  const std::string host_header = host + ":" + std::to_string(url.port);
  Client control(endpoints, host_header);
  const LabelSource labels = learn_labels(o, control, url, report);
  std::string metrics_before;
  try {
    metrics_before = fetch(control, url, http::verb::get, "/metrics");
  } catch (const std::exception& e) {
    report.notes.push_back(std::string("GET /metrics before the load: ") + e.what());
  }
  control.close();
  report.labels = labels.size();

  Shared s;
  s.o = &o;
  s.labels = &labels;
  std::vector<WorkerResult> results(o.connections);
  run_connections(o, endpoints, host_header, s, results, report);
  merge_results(results, s.t0, report);
  if (report.total.requests == 0 && report.connects == 0)
    throw ResourceError("cannot connect to " + url.text + " from any of the " +
                        std::to_string(o.connections) + " connections" +
                        (report.notes.empty() ? "" : ": " + report.notes.front()));
  try {
    Client after(endpoints, host_header);
    if (!metrics_before.empty())
      read_server_metrics(metrics_before, fetch(after, url, http::verb::get, "/metrics"), report);
  } catch (const std::exception& e) {
    report.notes.push_back(std::string("GET /metrics after the load: ") + e.what());
  }
  return report;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

const char* serve_request_kind_name(ServeRequestKind kind) {
  return kKindNames[size_t(kind)];
}

ServeMix parse_serve_mix(const std::string& text) {
  ServeMix mix{};
  const std::string valid = "pairs, batch, descendants, ancestors, edges";
  std::stringstream in(text);
  std::string item;
  bool any = false;
  while (std::getline(in, item, ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw UsageError("'" + item + "' is not KIND=WEIGHT (kinds: " + valid + ")");
    const std::string name = item.substr(0, eq), weight = item.substr(eq + 1);
    size_t k = 0;
    while (k < kServeRequestKinds && name != kKindNames[k]) ++k;
    if (k == kServeRequestKinds)
      throw UsageError("unknown request kind '" + name + "' (kinds: " + valid + ")");
    if (weight.empty() || weight.size() > 6 ||
        weight.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError("the weight of " + name + " must be a whole number 0..999999, not '" +
                       weight + "'");
    mix[k] = unsigned(std::stoul(weight));
    any = any || mix[k] > 0;
  }
  if (!any) throw UsageError("no request kind has a positive weight in '" + text + "'");
  return mix;
}

void check_serve_mix(const std::string& text) {
  (void)parse_serve_mix(text);
}

ServeUrl parse_serve_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0)
    throw UsageError("--url must be http://HOST:PORT, not '" + url + "'");
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.find('/') != std::string::npos)
    throw UsageError("--url takes no path (http://HOST:PORT), not '" + url + "'");
  ServeUrl out;
  std::string port;
  if (!rest.empty() && rest[0] == '[') {
    const size_t close = rest.find(']');
    if (close == std::string::npos) throw UsageError("--url: unclosed '[' in '" + url + "'");
    out.host = rest.substr(1, close - 1);
    const std::string tail = rest.substr(close + 1);
    if (!tail.empty() && tail[0] != ':') throw UsageError("--url: bad port in '" + url + "'");
    if (!tail.empty()) port = tail.substr(1);
  } else {
    const size_t colon = rest.rfind(':');
    if (colon != std::string::npos && rest.find(':') != colon)
      out.host = rest;  // a bare IPv6 address, no port
    else if (colon != std::string::npos) {
      out.host = rest.substr(0, colon);
      port = rest.substr(colon + 1);
    } else {
      out.host = rest;
    }
  }
  if (out.host != "127.0.0.1" && out.host != "::1" && out.host != "localhost")
    throw UsageError(
        "bench serve drives a local service only (127.0.0.1, ::1 or localhost), "
        "not '" +
        out.host + "'");
  if (!port.empty()) {
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(port) == 0 || std::stoul(port) > 65535)
      throw UsageError("--url: bad port '" + port + "' in '" + url + "'");
    out.port = uint16_t(std::stoul(port));
  }
  out.text = "http://" + (out.host == "::1" ? "[::1]" : out.host) + ":" + std::to_string(out.port);
  return out;
}

void check_serve_load_options(const ServeLoadOptions& o) {
  if (o.url.empty() == o.start_index.empty())
    throw UsageError("bench serve needs one of --url (a running service) or --start INDEX");
  if (!o.url.empty()) (void)parse_serve_url(o.url);
  if (!(o.seconds >= 0) || o.seconds > kServeLoadMostSeconds)
    throw UsageError("--seconds must be 0..600 (a bounded benchmark)");
  if (o.seconds == 0 && o.requests == 0)
    throw UsageError("--seconds 0 leaves the load unbounded: give --requests N, or --seconds");
  if (o.connections == 0 || o.connections > 4096) throw UsageError("--connections must be 1..4096");
  if (o.batch == 0) throw UsageError("--batch must be at least 1");
  uint64_t total = 0;
  for (unsigned w : o.mix) total += w;
  if (total == 0) throw UsageError("--mix: no request kind has a positive weight");
}

ServeLoadReport run_serve_load(const ServeLoadOptions& o) {
  check_serve_load_options(o);
  if (o.start_index.empty()) return drive(o, parse_serve_url(o.url));

  // --start: the service is ours, on a copy of the index when the load appends to it.
  namespace fs = std::filesystem;
  if (!fs::exists(o.start_index))
    throw InputError(o.start_index, 0, "no such file (the index to serve)");
  TempFolder tmp;
  const bool appends = o.mix[size_t(ServeRequestKind::kEdges)] > 0;
  std::string served = o.start_index;
  if (appends) {
    served = tmp.path() + "/" + fs::path(o.start_index).filename().string();
    std::error_code ec;
    fs::copy_file(o.start_index, served, ec);
    if (!ec && fs::exists(o.start_index + ".journal"))
      fs::copy_file(o.start_index + ".journal", served + ".journal", ec);
    if (ec)
      throw ResourceError("cannot copy " + o.start_index + " to " + tmp.path() + ": " +
                          ec.message());
  }
  const std::string port_file = tmp.path() + "/port";
  std::vector<std::string> args{"serve",
                                served,
                                "--port",
                                "0",
                                "--port-file",
                                port_file,
                                "-q",
                                "--max-connections",
                                std::to_string(std::max(256u, o.connections + 16))};
  if (!appends) args.push_back("--read-only");  // nothing beside the user's file
  ServeChild child(o.serve_binary, args);
  const auto t0 = Clock::now();
  unsigned port = 0;
  while (port == 0) {
    int status = -1;
    if (auto how = child.exited(&status))
      throw Error(status == 2   ? ErrorKind::kUsage
                  : status == 3 ? ErrorKind::kInput
                                : ErrorKind::kResource,
                  "closure serve " + o.start_index + " ended before listening (" + *how + ")");
    std::ifstream in(port_file);
    if (in && (in >> port) && port > 0 && port < 65536) break;
    port = 0;
    if (seconds_since(t0) > kPortFileWaitSeconds)
      throw ResourceError("closure serve " + o.start_index + " did not listen within " +
                          std::to_string(int(kPortFileWaitSeconds)) + " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!o.quiet)
    std::fprintf(stderr, "bench serve: started closure serve %s on port %u (%.2f s)%s\n",
                 o.start_index.c_str(), port, seconds_since(t0),
                 appends ? ", on a copy (the load appends)" : ", read-only");
  ServeLoadReport report = drive(o, parse_serve_url("http://127.0.0.1:" + std::to_string(port)));
  report.server_exit = child.stop(kStopWaitSeconds, &report.server_exit_status);
  return report;
}

std::string format_serve_load_table(const ServeLoadReport& r) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "bench serve: %s, %u connections, %.2f s, %zu labels (%s)\n",
                r.url.c_str(), r.connections, r.seconds, r.labels, r.labels_from.c_str());
  out += line;
  std::snprintf(line, sizeof line, "%-12s %10s %8s %10s %12s %9s %9s %9s %9s\n", "kind", "requests",
                "errors", "req/s", "pairs/s", "p50 us", "p90 us", "p99 us", "max us");
  out += line;
  const double secs = r.seconds > 0 ? r.seconds : 1e-9;
  auto row = [&](const char* name, const ServeKindReport& k) {
    std::snprintf(line, sizeof line, "%-12s %10llu %8llu %10.0f %12.0f %9.0f %9.0f %9.0f %9.0f\n",
                  name, (unsigned long long)k.requests, (unsigned long long)k.errors,
                  double(k.requests) / secs, double(k.pair_answers) / secs, k.p50_us, k.p90_us,
                  k.p99_us, k.max_us);
    out += line;
  };
  for (size_t k = 0; k < kServeRequestKinds; ++k)
    if (r.kinds[k].requests > 0) row(kKindNames[k], r.kinds[k]);
  row("total", r.total);
  if (r.total.transport_errors)
    out += "of the errors, " + std::to_string(r.total.transport_errors) +
           " requests got no answer (connection closed or reset)\n";
  if (r.connect_failures)
    out += std::to_string(r.connect_failures) + " connects failed, " + std::to_string(r.connects) +
           " succeeded\n";
  if (r.server_p99_reaches_us || r.server_p99_batch_us) {
    out += "server-side (GET /metrics, this run):";
    if (r.server_p99_reaches_us)
      out += " reaches p50 " + fixed(r.server_p50_reaches_us.value_or(0), 0) + " us, p99 " +
             fixed(*r.server_p99_reaches_us, 0) + " us;";
    if (r.server_p99_batch_us)
      out += " reaches_batch p50 " + fixed(r.server_p50_batch_us.value_or(0), 0) + " us, p99 " +
             fixed(*r.server_p99_batch_us, 0) + " us";
    if (out.back() == ';') out.pop_back();
    out += "\n";
  }
  if (!r.server_exit.empty()) out += "closure serve (started by bench): " + r.server_exit + "\n";
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  return out;
}

std::string format_serve_load_json(const ServeLoadReport& r) {
  using nlohmann::ordered_json;
  const double secs = r.seconds > 0 ? r.seconds : 1e-9;
  auto kind_json = [&](const ServeKindReport& k) {
    ordered_json j;
    j["requests"] = k.requests;
    j["errors"] = k.errors;
    j["transport_errors"] = k.transport_errors;
    j["requests_per_s"] = double(k.requests) / secs;
    j["pair_answers"] = k.pair_answers;
    j["pair_answers_per_s"] = double(k.pair_answers) / secs;
    j["latency_us"] = {{"p50", k.p50_us},
                       {"p90", k.p90_us},
                       {"p99", k.p99_us},
                       {"max", k.max_us},
                       {"mean", k.mean_us}};
    return j;
  };
  ordered_json j;
  j["url"] = r.url;
  j["connections"] = r.connections;
  j["seconds"] = r.seconds;
  j["labels"] = r.labels;
  j["labels_from"] = r.labels_from;
  j["vertices"] = r.vertices;
  ordered_json kinds = ordered_json::object();
  for (size_t k = 0; k < kServeRequestKinds; ++k)
    if (r.kinds[k].requests > 0) kinds[kKindNames[k]] = kind_json(r.kinds[k]);
  j["kinds"] = kinds;
  j["total"] = kind_json(r.total);
  j["connects"] = r.connects;
  j["connect_failures"] = r.connect_failures;
  ordered_json server = ordered_json::object();
  auto put = [&](const char* key, const std::optional<double>& v) {
    if (v) server[key] = *v;
  };
  put("reaches_p50_us", r.server_p50_reaches_us);
  put("reaches_p99_us", r.server_p99_reaches_us);
  put("reaches_batch_p50_us", r.server_p50_batch_us);
  put("reaches_batch_p99_us", r.server_p99_batch_us);
  j["server_metrics"] = server;
  if (!r.server_exit.empty()) {
    j["server_exit"] = r.server_exit;
    j["server_exit_status"] = r.server_exit_status;
  }
  j["notes"] = r.notes;
  return dump_json(j, 2) + "\n";
}

}  // namespace closure
