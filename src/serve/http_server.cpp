// The listening side of the HTTP transport: binding, the accept loop, the io threads and
// the orderly stop. Each accepted connection gets a strand of its own (http_connection).
#include "serve/http_server.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "serve/http_connection.hpp"

namespace closure::serve {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

HttpResponse error_response(int status, std::string_view message) {
  const nlohmann::json body = {{"error", std::string(message)}, {"status", status}};
  // Messages quote labels and paths from the request: never let bad UTF-8 throw here.
  return {status, "application/json",
          body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

namespace {

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const std::string host = endpoint.address().to_string();
  const std::string port = std::to_string(endpoint.port());
  return endpoint.address().is_v6() ? "[" + host + "]:" + port : host + ":" + port;
}

void check_limits(const ServerLimits& limits) {
  auto seconds_ok = [](double s) { return s > 0 && s <= 1e7; };  // false for NaN too
  if (limits.max_header_bytes == 0 ||
      limits.max_header_bytes > std::numeric_limits<uint32_t>::max())
    throw UsageError("serve: the header limit must be between 1 byte and 4 GiB");
  if (limits.max_connections == 0)
    throw UsageError("serve: the connection limit must be at least 1");
  if (!seconds_ok(limits.header_timeout_s) || !seconds_ok(limits.idle_timeout_s))
    throw UsageError("serve: timeouts must be positive numbers of seconds");
}

tcp::endpoint resolve(asio::io_context& io, const std::string& address, uint16_t port) {
  error_code ec;
  const auto ip = asio::ip::make_address(address, ec);
  if (!ec) return {ip, port};
  tcp::resolver resolver(io);
  const auto results = resolver.resolve(
      address, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || results.empty())
    throw UsageError("serve: cannot listen on '" + address +
                     "': " + (ec ? ec.message() : "no such address"));
  return results.begin()->endpoint();
}

}  // namespace

struct HttpServer::Impl {
  Impl(ServerLimits limits, Handler handler, TransportCounters& counters)
      : state(std::make_shared<ServerState>(limits, std::move(handler), counters)),
        acceptor(asio::make_strand(io)),
        retry(acceptor.get_executor()) {}

  void bind(const std::string& address, uint16_t port);
  void accept();
  void on_accept(error_code ec, tcp::socket socket);
  void close_all();
  void run_io();

  // Declared in this order so that the io_context, and with it every connection's
  // pending handler, goes before the state they share.
  std::shared_ptr<ServerState> state;
  asio::io_context io;
  tcp::acceptor acceptor;  // on a strand: accept, stop and retries never overlap
  asio::steady_timer retry;
  tcp::endpoint endpoint;
  std::atomic<bool> stop_requested{false};
};

void HttpServer::Impl::bind(const std::string& address, uint16_t port) {
  endpoint = resolve(io, address, port);
  const std::string where = endpoint_text(endpoint);
  error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (ec) throw ResourceError("serve: cannot open a socket for " + where + ": " + ec.message());
  // A restarted service must not wait for the old one's connections in TIME_WAIT.
  acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  acceptor.bind(endpoint, ec);
  if (ec == asio::error::address_in_use)
    throw ResourceError("serve: cannot listen on " + where +
                        ": the port is in use by another process");
  if (ec == boost::system::errc::address_not_available)
    throw UsageError("serve: cannot listen on " + where + ": not an address of this machine");
  if (ec) throw ResourceError("serve: cannot listen on " + where + ": " + ec.message());
  acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw ResourceError("serve: cannot listen on " + where + ": " + ec.message());
  endpoint = acceptor.local_endpoint();
}

void HttpServer::Impl::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](error_code ec, tcp::socket socket) {
    on_accept(ec, std::move(socket));
  });
}

void HttpServer::Impl::on_accept(error_code ec, tcp::socket socket) {
  if (!acceptor.is_open()) return;  // stopped
  if (ec) {
    // Out of descriptors or buffers: retrying at once would spin, giving up would deafen
    // the service for good.
    retry.expires_after(std::chrono::milliseconds(50));
    retry.async_wait([this](error_code wait_ec) {
      if (!wait_ec && acceptor.is_open()) accept();
    });
    return;
  }
  try {
    ++state->counters.connections_accepted;
    const bool served = state->open < state->limits.max_connections;
    auto connection = std::make_shared<HttpConnection>(std::move(socket), state, served);
    if (served) {
      state->add(connection);
      connection->start();
    } else {
      ++state->counters.connections_refused;
      connection->start_refused();
    }
  } catch (const std::exception&) {
    // No memory for this connection: it is dropped (its socket closes), the loop goes on.
  }
  accept();
}

void HttpServer::Impl::close_all() {
  error_code ignored;
  acceptor.close(ignored);
  retry.cancel();
  for (const auto& connection : state->live()) connection->shutdown();
}

void HttpServer::Impl::run_io() {
  for (;;) {
    try {
      io.run();
      return;
    } catch (...) {
      // Only memory exhaustion gets out of a handler (request errors are all answered);
      // the connection it belonged to is gone, the others go on.
    }
  }
}

HttpServer::HttpServer(const std::string& address, uint16_t port, ServerLimits limits,
                       Handler handler, TransportCounters& counters) {
  check_limits(limits);
  if (limits.threads == 0) limits.threads = hardware_threads();
  impl_ = std::make_unique<Impl>(limits, std::move(handler), counters);
  impl_->bind(address, port);
}

HttpServer::~HttpServer() = default;

uint16_t HttpServer::port() const {
  return impl_->endpoint.port();
}

std::string HttpServer::address() const {
  return impl_->endpoint.address().to_string();
}

void HttpServer::run() {
  Impl* impl = impl_.get();
  asio::post(impl->acceptor.get_executor(), [impl] {
    if (!impl->state->stopping) impl->accept();
  });
  std::vector<std::thread> threads;
  try {
    for (unsigned i = 1; i < impl->state->limits.threads; ++i)
      threads.emplace_back([impl] { impl->run_io(); });
  } catch (...) {
    stop();
    impl->run_io();
    for (auto& thread : threads) thread.join();
    throw;
  }
  impl->run_io();
  for (auto& thread : threads) thread.join();
}

void HttpServer::stop() {
  if (impl_->stop_requested.exchange(true)) return;
  impl_->state->stopping = true;
  asio::post(impl_->acceptor.get_executor(), [impl = impl_.get()] { impl->close_all(); });
}

}  // namespace closure::serve
