// One HTTP/1.1 connection of the server: reads requests under the header and body
// deadlines, calls the handler, writes the answers, keeps the connection alive or closes
// it. Internal to src/serve; the server owns the ServerState every connection shares.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "serve/http_server.hpp"

namespace closure::serve {

class HttpConnection;

// What the server and its connections share. Connections hold it by shared_ptr, so it
// lives until the last of them is gone, whatever the order of teardown.
struct ServerState {
  ServerState(ServerLimits limits, Handler handler, TransportCounters& counters)
      : limits(limits), handler(std::move(handler)), counters(counters) {}

  const ServerLimits limits;
  const Handler handler;
  TransportCounters& counters;
  std::atomic<bool> stopping{false};
  std::atomic<unsigned> open{0};  // served connections, against limits.max_connections

  // The live served connections, so that stop() can reach the idle ones.
  void add(const std::shared_ptr<HttpConnection>& connection);
  void remove(uint64_t id);
  std::vector<std::shared_ptr<HttpConnection>> live();
  uint64_t next_id() { return next_id_.fetch_add(1); }

 private:
  std::mutex mutex_;
  std::map<uint64_t, std::weak_ptr<HttpConnection>> connections_;
  std::atomic<uint64_t> next_id_{0};
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  // The socket's executor must be a strand of its own: every handler of this connection
  // runs on it, so its members need no lock.
  HttpConnection(boost::asio::ip::tcp::socket socket, std::shared_ptr<ServerState> state,
                 bool served);
  ~HttpConnection();

  uint64_t id() const { return id_; }
  void start();          // serve requests until the connection closes
  void start_refused();  // answer 503 (too many connections) and close
  void shutdown();       // from any thread: close now if idle, else after the current answer

 private:
  enum class Phase { kAwaiting, kReading, kAnswering, kClosing };
  using Request = boost::beast::http::request<boost::beast::http::string_body>;

  void await_request(double timeout_s);
  void on_first_bytes(boost::beast::error_code ec, size_t n);
  void read_header();
  void on_header(boost::beast::error_code ec);
  void read_body();
  void on_body(boost::beast::error_code ec);
  void fail_read(boost::beast::error_code ec);
  void answer(Request request);
  void send(HttpResponse response, unsigned version, bool keep_alive, bool head);
  void on_sent(boost::beast::error_code ec, bool keep_alive);
  void linger_close();
  void drain();
  void arm_deadline(double seconds);
  void disarm_deadline();

  boost::beast::tcp_stream stream_;
  boost::asio::steady_timer deadline_;  // the request's read deadline (see arm_deadline)
  std::shared_ptr<ServerState> state_;
  const bool served_;
  const uint64_t id_;
  Phase phase_ = Phase::kAwaiting;
  uint64_t deadline_generation_ = 0;
  bool deadline_expired_ = false;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  std::optional<boost::beast::http::response<boost::beast::http::empty_body>> continue_;
  std::optional<boost::beast::http::response<boost::beast::http::string_body>> response_;
};

}  // namespace closure::serve
