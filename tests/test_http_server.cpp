// The HTTP transport of `closure serve` (src/serve/http_server.hpp) against a client of raw
// POSIX sockets, so that each test can send exactly the bytes it means (half a request
// line, garbage, an oversized header) and no read waits longer than a few seconds.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "closure/errors.hpp"
#include "serve/http_server.hpp"

namespace closure::serve {
namespace {

namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

constexpr int kSocketTimeoutSeconds = 3;

struct Reply {
  int status = 0;
  std::string body;
  std::string content_type;
  std::string server;
  bool keep_alive = false;
};

// One client connection; every read gives up after kSocketTimeoutSeconds.
class Client {
 public:
  explicit Client(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    timeval timeout{kSocketTimeoutSeconds, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0)
      throw std::runtime_error("connect failed");
  }
  ~Client() { ::close(fd_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  void send(const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("send failed");
      sent += static_cast<size_t>(n);
    }
  }

  // The next response, or nothing if the connection closed or went quiet first. A response
  // to HEAD has a Content-Length but no body.
  std::optional<Reply> read(bool head = false) {
    http::response_parser<http::string_body> parser;
    parser.eager(true);
    parser.skip(head);
    for (;;) {
      if (pending_.size() > 0) {
        boost::beast::error_code ec;
        const size_t used = parser.put(pending_.data(), ec);
        pending_.consume(used);
        if (ec && ec != http::error::need_more) return std::nullopt;
        if (parser.is_done()) break;
        if (used > 0 && pending_.size() > 0) continue;
      }
      char chunk[4096];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) return std::nullopt;
      auto space = pending_.prepare(static_cast<size_t>(n));
      std::memcpy(space.data(), chunk, static_cast<size_t>(n));
      pending_.commit(static_cast<size_t>(n));
    }
    const auto& message = parser.get();
    return Reply{static_cast<int>(message.result_int()), message.body(),
                 std::string(message[http::field::content_type]),
                 std::string(message[http::field::server]), message.keep_alive()};
  }

  // True when the server closes the connection (EOF or reset) without sending anything.
  bool closed_silently() {
    char byte;
    const ssize_t n = ::recv(fd_, &byte, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

 private:
  int fd_ = -1;
  boost::beast::flat_buffer pending_;
};

std::string get(const std::string& target, const std::string& extra_headers = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: test\r\n" + extra_headers + "\r\n";
}

std::string post(const std::string& target, const std::string& body) {
  return "POST " + target + " HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\n" +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

HttpResponse echo(const HttpRequest& request) {
  const nlohmann::json body = {{"method", request.method},
                               {"target", request.target},
                               {"body", request.body},
                               {"content_type", request.content_type}};
  return {200, "application/json", body.dump()};
}

nlohmann::json json_of(const Reply& reply) {
  return nlohmann::json::parse(reply.body);
}

ServerLimits small_limits() {
  ServerLimits limits;
  limits.threads = 2;
  return limits;
}

// A server on 127.0.0.1, any port, running on its own thread until the end of the test.
class RunningServer {
 public:
  explicit RunningServer(ServerLimits limits = small_limits(), Handler handler = echo)
      : server_("127.0.0.1", 0, limits, std::move(handler), counters) {
    finished_ = returned_.get_future();
    thread_ = std::thread([this] {
      server_.run();
      returned_.set_value();
    });
  }
  ~RunningServer() {
    server_.stop();
    if (!run_returned(std::chrono::seconds(10))) {
      ADD_FAILURE() << "run() did not return after stop()";
      std::abort();  // a hung server must end the test binary, not hang it
    }
    thread_.join();
  }

  uint16_t port() const { return server_.port(); }
  void stop() { server_.stop(); }
  bool run_returned(std::chrono::milliseconds within) {
    return finished_.wait_for(within) == std::future_status::ready;
  }

  TransportCounters counters;

 private:
  HttpServer server_;
  std::promise<void> returned_;
  std::future<void> finished_;
  std::thread thread_;
};

// Counters that change after the client has its answer (a close the server notices later).
bool eventually(const std::function<bool()>& condition) {
  const auto end = Clock::now() + std::chrono::seconds(kSocketTimeoutSeconds);
  while (Clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

TEST(HttpServer, AnswersGetAndPost) {
  RunningServer server;
  Client client(server.port());
  client.send(get("/hello?x=1"));
  auto reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->content_type, "application/json");
  EXPECT_EQ(reply->server, "closure");
  EXPECT_TRUE(reply->keep_alive);
  EXPECT_EQ(json_of(*reply)["method"], "GET");
  EXPECT_EQ(json_of(*reply)["target"], "/hello?x=1");

  client.send(post("/query", "a b\nc d\n"));
  reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(json_of(*reply)["method"], "POST");
  EXPECT_EQ(json_of(*reply)["body"], "a b\nc d\n");
  EXPECT_EQ(json_of(*reply)["content_type"], "text/plain");
  EXPECT_EQ(server.counters.requests, 2u);
}

TEST(HttpServer, KeepsOneConnectionAliveForThreeRequests) {
  RunningServer server;
  Client client(server.port());
  for (int i = 0; i < 3; ++i) {
    client.send(get("/r" + std::to_string(i)));
    const auto reply = client.read();
    ASSERT_TRUE(reply) << "request " << i;
    EXPECT_EQ(json_of(*reply)["target"], "/r" + std::to_string(i));
  }
  EXPECT_EQ(server.counters.connections_accepted, 1u);
  EXPECT_EQ(server.counters.requests, 3u);
}

TEST(HttpServer, AnswersPipelinedRequestsInOrder) {
  RunningServer server;
  Client client(server.port());
  client.send(get("/a") + post("/b", "body") + get("/c", "Connection: close\r\n"));
  for (const char* target : {"/a", "/b", "/c"}) {
    const auto reply = client.read();
    ASSERT_TRUE(reply) << target;
    EXPECT_EQ(json_of(*reply)["target"], target);
  }
  EXPECT_TRUE(client.closed_silently());
}

TEST(HttpServer, ServesManyClientsAtOnce) {
  RunningServer server;
  constexpr int kClients = 8, kRequests = 25;
  std::atomic<int> answered{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c)
    clients.emplace_back([&, c] {
      Client client(server.port());
      for (int i = 0; i < kRequests; ++i) {
        const std::string body(static_cast<size_t>(c * 100 + i), 'z');
        client.send(post("/c" + std::to_string(c), body));
        const auto reply = client.read();
        if (reply && reply->status == 200 && json_of(*reply)["body"] == body) ++answered;
      }
    });
  for (auto& thread : clients) thread.join();
  EXPECT_EQ(answered, kClients * kRequests);
  EXPECT_EQ(server.counters.connections_accepted, static_cast<uint64_t>(kClients));
}

TEST(HttpServer, AnswersHeadWithoutBodyAndHttp10WithClose) {
  RunningServer server;
  {
    Client client(server.port());
    client.send("HEAD /h HTTP/1.1\r\nHost: test\r\n\r\n");
    const auto reply = client.read(/*head=*/true);
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 200);
    EXPECT_TRUE(reply->body.empty());
    client.send(get("/after-head"));
    const auto next = client.read();
    ASSERT_TRUE(next);
    EXPECT_EQ(json_of(*next)["target"], "/after-head");
  }
  Client client(server.port());
  client.send("GET /old HTTP/1.0\r\n\r\n");
  const auto reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_FALSE(reply->keep_alive);
  EXPECT_TRUE(client.closed_silently());
}

TEST(HttpServer, SendsContinueBeforeTheBody) {
  RunningServer server;
  Client client(server.port());
  client.send(
      "POST /big HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  const auto interim = client.read();
  ASSERT_TRUE(interim);
  EXPECT_EQ(interim->status, 100);
  client.send("12345");
  const auto reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(json_of(*reply)["body"], "12345");
}

TEST(HttpServer, HeaderOverTheLimitIs431) {
  ServerLimits limits = small_limits();
  limits.max_header_bytes = 1024;
  RunningServer server(limits);
  Client client(server.port());
  client.send(get("/", "X-Filler: " + std::string(4096, 'x') + "\r\n"));
  const auto reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 431);
  EXPECT_FALSE(reply->keep_alive);
  EXPECT_EQ(json_of(*reply)["error"], "request header fields too large");
  EXPECT_EQ(json_of(*reply)["status"], 431);
  EXPECT_EQ(server.counters.header_too_large, 1u);
  EXPECT_EQ(server.counters.requests, 0u);
  EXPECT_TRUE(client.closed_silently());
}

TEST(HttpServer, BodyOverTheLimitIs413) {
  ServerLimits limits = small_limits();
  limits.max_body_bytes = 1024;
  RunningServer server(limits);
  Client client(server.port());
  client.send(post("/", std::string(64 * 1024, 'b')));
  const auto reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 413);
  EXPECT_EQ(server.counters.body_too_large, 1u);
  EXPECT_TRUE(client.closed_silently());
}

TEST(HttpServer, GarbageIs400) {
  RunningServer server;
  Client client(server.port());
  client.send("NOT HTTP\r\n\r\n");
  const auto reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 400);
  EXPECT_EQ(json_of(*reply)["status"], 400);
  EXPECT_EQ(server.counters.bad_requests, 1u);
  EXPECT_TRUE(client.closed_silently());
}

TEST(HttpServer, HandlerFailuresAreAnsweredAndTheServerGoesOn) {
  RunningServer server(small_limits(), [](const HttpRequest& request) -> HttpResponse {
    if (request.target == "/throw") throw std::runtime_error("bad \"label\" \xff here");
    if (request.target == "/oom") throw std::bad_alloc();
    if (request.target == "/weird") return {42, "text/plain", ""};
    return echo(request);
  });
  {
    Client client(server.port());
    client.send(get("/throw"));
    const auto reply = client.read();
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 500);
    // Quotes escaped, the invalid byte replaced: the body is still JSON.
    EXPECT_EQ(json_of(*reply)["error"], "internal error: bad \"label\" \xef\xbf\xbd here");
    client.send(get("/oom"));
    const auto oom = client.read();
    ASSERT_TRUE(oom);
    EXPECT_EQ(oom->status, 503);
    EXPECT_EQ(json_of(*oom)["error"], "out of memory");
    client.send(get("/weird"));
    const auto weird = client.read();
    ASSERT_TRUE(weird);
    EXPECT_EQ(weird->status, 500);
  }
  Client client(server.port());
  client.send(get("/fine"));
  const auto reply = client.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(server.counters.handler_errors, 3u);
}

TEST(HttpServer, ConnectionsOverTheLimitGet503) {
  ServerLimits limits = small_limits();
  limits.max_connections = 2;
  RunningServer server(limits);
  auto first = std::make_unique<Client>(server.port());
  Client second(server.port());
  for (Client* client : {first.get(), &second}) {  // both surely accepted and served
    client->send(get("/"));
    ASSERT_TRUE(client->read());
  }
  Client third(server.port());
  const auto refused = third.read();
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 503);
  EXPECT_EQ(json_of(*refused)["error"], "too many connections");
  EXPECT_TRUE(third.closed_silently());
  EXPECT_EQ(server.counters.connections_refused, 1u);
  EXPECT_EQ(server.counters.connections_open, 2u);

  first.reset();  // a freed place is served again
  ASSERT_TRUE(eventually([&] { return server.counters.connections_open == 1; }));
  Client fourth(server.port());
  fourth.send(get("/again"));
  const auto reply = fourth.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
}

TEST(HttpServer, SlowRequestTimesOutWith408) {
  ServerLimits limits = small_limits();
  limits.header_timeout_s = 0.3;
  RunningServer server(limits);
  Client client(server.port());
  const auto start = Clock::now();
  client.send("GET /slo");
  const auto reply = client.read();
  const auto waited = Clock::now() - start;
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 408);
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  EXPECT_LT(waited, std::chrono::seconds(2));
  EXPECT_EQ(server.counters.timeouts, 1u);
  EXPECT_TRUE(client.closed_silently());
}

TEST(HttpServer, IdleKeepAliveConnectionIsClosedSilently) {
  ServerLimits limits = small_limits();
  limits.idle_timeout_s = 0.3;
  RunningServer server(limits);
  Client client(server.port());
  client.send(get("/"));
  ASSERT_TRUE(client.read());
  const auto start = Clock::now();
  EXPECT_TRUE(client.closed_silently());
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(eventually([&] { return server.counters.timeouts == 1; }));
}

TEST(HttpServer, StopAnswersTheRequestInFlightThenRunReturns) {
  std::promise<void> entered;
  auto entered_future = entered.get_future();
  RunningServer server(small_limits(), [&](const HttpRequest& request) {
    if (request.target == "/slow") {
      entered.set_value();
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    return echo(request);
  });
  Client idle(server.port());
  idle.send(get("/"));
  ASSERT_TRUE(idle.read());
  Client busy(server.port());
  busy.send(get("/slow"));
  ASSERT_EQ(entered_future.wait_for(std::chrono::seconds(kSocketTimeoutSeconds)),
            std::future_status::ready);
  server.stop();
  const auto reply = busy.read();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  EXPECT_FALSE(reply->keep_alive);
  EXPECT_TRUE(idle.closed_silently());
  EXPECT_TRUE(server.run_returned(std::chrono::seconds(5)));
  EXPECT_THROW(Client late(server.port()), std::runtime_error);  // nobody listens now
}

TEST(HttpServer, StopBeforeRunAndTwiceIsHarmless) {
  TransportCounters counters;
  HttpServer server("127.0.0.1", 0, small_limits(), echo, counters);
  server.stop();
  server.stop();
  auto returned = std::async(std::launch::async, [&] { server.run(); });
  if (returned.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    ADD_FAILURE() << "run() did not return after stop()";
    std::abort();  // the future's destructor would wait for ever
  }
}

TEST(HttpServer, RefusesBadAddressesTakenPortsAndBadLimits) {
  TransportCounters counters;
  EXPECT_THROW(HttpServer("not an address!", 0, small_limits(), echo, counters), UsageError);
  HttpServer first("127.0.0.1", 0, small_limits(), echo, counters);
  try {
    HttpServer second("127.0.0.1", first.port(), small_limits(), echo, counters);
    FAIL() << "a taken port was bound twice";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("in use"), std::string::npos) << e.what();
  }
  ServerLimits limits = small_limits();
  limits.header_timeout_s = 0;
  EXPECT_THROW(HttpServer("127.0.0.1", 0, limits, echo, counters), UsageError);
  EXPECT_EQ(first.address(), "127.0.0.1");
}

}  // namespace
}  // namespace closure::serve
