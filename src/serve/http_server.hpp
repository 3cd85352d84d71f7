// The HTTP/1.1 transport of `closure serve`: binds, accepts, parses requests with Beast,
// enforces the limits that keep a long-lived service alive under bad or slow clients, and
// hands each well-formed request to one Handler. What the requests mean lives elsewhere.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace closure::serve {

struct HttpRequest {
  std::string method;  // as sent: "GET", "POST", ...
  std::string target;  // path and query, undecoded
  std::string body;
  std::string content_type;  // empty when the request has none
};

struct HttpResponse {
  int status = 200;  // 200..599; anything else is answered as a handler error (500)
  std::string content_type = "application/json";
  std::string body;
};

// Called on an io thread for every well-formed request, from several threads at once when
// threads > 1. May throw: std::bad_alloc becomes 503, any other exception 500, both with a
// JSON error body and counted in handler_errors; the connection and the process go on.
using Handler = std::function<HttpResponse(const HttpRequest&)>;

struct ServerLimits {
  size_t max_header_bytes = 8 * 1024;  // request line + headers; over it: 431
  size_t max_body_bytes = 16u << 20;   // over it: 413
  unsigned max_connections = 256;      // connections served at once; over it: 503, then close
  // A client slower than this to send a request's header, or (after the header) its body,
  // is answered 408 and closed (slowloris). A new connection must start its first request
  // within this time too, or it is closed silently.
  double header_timeout_s = 10;
  // A keep-alive connection idle this long between requests is closed silently; also the
  // time a client may take to read one response.
  double idle_timeout_s = 60;
  unsigned threads = 0;  // io threads; 0 = hardware_threads()
};

// What the service reports at /metrics. connections_accepted counts every TCP connection
// accepted, refused ones included; connections_open those being served now (refused ones
// never are). Each timeout (408, idle or never started) counts once in timeouts.
struct TransportCounters {
  std::atomic<uint64_t> connections_accepted{0}, connections_open{0}, connections_refused{0},
      requests{0}, bad_requests{0} /*400 malformed*/, header_too_large{0}, body_too_large{0},
      timeouts{0}, handler_errors{0};
};

// The JSON error body every error answer carries: {"error":MESSAGE,"status":STATUS}, the
// message escaped (invalid UTF-8 replaced), for handlers that answer errors the same way.
HttpResponse error_response(int status, std::string_view message);

class HttpServer {
 public:
  // Binds and listens now. address is a numeric IPv4/IPv6 address or a host name; port 0
  // takes any free port. Throws UsageError for an address that cannot be used or for
  // limits out of range, ResourceError when the port is taken or cannot be bound. The
  // handler and counters must outlive the server.
  HttpServer(const std::string& address, uint16_t port, ServerLimits limits, Handler handler,
             TransportCounters& counters);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  uint16_t port() const;  // the bound port
  std::string address() const;

  // Runs the io threads (this one among them) until stop(); returns once every connection
  // is closed, requests in flight answered first. Call once.
  void run();

  // Stops accepting, lets requests in flight finish (answered with Connection: close),
  // closes idle connections; then run() returns. Safe from any thread, from an
  // asio::signal_set handler, twice, or before run(). Not from a raw signal handler (it
  // takes a lock): such a handler should set a flag that a thread turns into stop().
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace closure::serve
