// One HTTP/1.1 connection: a small state machine on the connection's strand.
//   awaiting   waiting for a request's first bytes (idle timeout; silent close)
//   reading    header, then body, each under its own header_timeout_s deadline (408)
//   answering  the handler runs, then the answer is written (idle_timeout_s to write it)
//   closing    output shut down, input drained for a moment, then closed
#include "serve/http_connection.hpp"

#include <boost/asio/post.hpp>
#include <chrono>
#include <exception>
#include <new>
#include <string>
#include <utility>

namespace closure::serve {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

// After the last answer we stop sending but go on reading, and discarding, this long:
// closing a socket with unread input makes the kernel send a reset, which can destroy an
// answer (a 413 or 431 above all: the client is still sending) before the client reads it.
constexpr double kLingerSeconds = 1;
constexpr size_t kReadChunkBytes = 4096;

std::chrono::steady_clock::duration to_duration(double seconds) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}

// A header value without the blanks around it.
beast::string_view text_trim(beast::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_parse_error(const beast::error_code& ec) {
  return ec.category() == http::make_error_code(http::error::bad_method).category();
}

// The client went away (or we closed it): nothing left to answer.
bool is_disconnect(const beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == asio::error::operation_aborted || ec == beast::error::timeout;
}

// The handler's answer, or the error answer its failure stands for.
HttpResponse call_handler(const Handler& handler, const HttpRequest& request,
                          TransportCounters& counters) {
  HttpResponse response;
  try {
    response = handler(request);
  } catch (const std::bad_alloc&) {
    ++counters.handler_errors;
    return error_response(503, "out of memory");
  } catch (const std::exception& e) {
    ++counters.handler_errors;
    return error_response(500, std::string("internal error: ") + e.what());
  } catch (...) {
    ++counters.handler_errors;
    return error_response(500, "internal error: unknown exception");
  }
  // 1xx answers would change the protocol's state; beyond 599 is not HTTP.
  if (response.status < 200 || response.status > 599) {
    ++counters.handler_errors;
    return error_response(
        500, "internal error: the handler answered status " + std::to_string(response.status));
  }
  return response;
}

}  // namespace

void ServerState::add(const std::shared_ptr<HttpConnection>& connection) {
  std::lock_guard lock(mutex_);
  connections_.emplace(connection->id(), connection);
}

void ServerState::remove(uint64_t id) {
  std::lock_guard lock(mutex_);
  connections_.erase(id);
}

std::vector<std::shared_ptr<HttpConnection>> ServerState::live() {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<HttpConnection>> result;
  for (const auto& [id, weak] : connections_)
    if (auto connection = weak.lock()) result.push_back(std::move(connection));
  return result;
}

HttpConnection::HttpConnection(asio::ip::tcp::socket socket, std::shared_ptr<ServerState> state,
                               bool served)
    : stream_(std::move(socket)),
      deadline_(stream_.get_executor()),
      state_(std::move(state)),
      served_(served),
      id_(state_->next_id()) {
  // Counted here, on the acceptor's strand, so the next accept already sees this one.
  if (served_) {
    ++state_->open;
    ++state_->counters.connections_open;
  }
}

HttpConnection::~HttpConnection() {
  if (served_) {
    state_->remove(id_);
    --state_->open;
    --state_->counters.connections_open;
  }
}

void HttpConnection::start() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    self->await_request(self->state_->limits.header_timeout_s);
  });
}

void HttpConnection::start_refused() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    self->send(error_response(503, "too many connections"), 11, false, false);
  });
}

void HttpConnection::shutdown() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    // The pending read ends with operation_aborted and the connection closes; in any
    // other phase the answer goes out with Connection: close (send reads `stopping`).
    if (self->phase_ == Phase::kAwaiting) self->stream_.cancel();
  });
}

void HttpConnection::await_request(double timeout_s) {
  if (state_->stopping) return linger_close();
  phase_ = Phase::kAwaiting;
  parser_.emplace();
  parser_->header_limit(static_cast<uint32_t>(state_->limits.max_header_bytes));
  parser_->body_limit(static_cast<uint64_t>(state_->limits.max_body_bytes));
  if (buffer_.size() > 0) return read_header();  // a pipelined request is already here
  // Until the first byte, a timeout is an idle connection's (tcp_stream closes it).
  stream_.expires_after(to_duration(timeout_s));
  stream_.async_read_some(
      buffer_.prepare(kReadChunkBytes),
      beast::bind_front_handler(&HttpConnection::on_first_bytes, shared_from_this()));
}

void HttpConnection::on_first_bytes(beast::error_code ec, size_t n) {
  if (ec) {
    if (ec == beast::error::timeout) ++state_->counters.timeouts;
    stream_.close();
    return;
  }
  buffer_.commit(n);
  read_header();
}

void HttpConnection::read_header() {
  phase_ = Phase::kReading;
  stream_.expires_never();
  arm_deadline(state_->limits.header_timeout_s);
  http::async_read_header(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, size_t) { self->on_header(ec); });
}

void HttpConnection::on_header(beast::error_code ec) {
  if (ec) return fail_read(ec);
  disarm_deadline();
  const auto& header = parser_->get();
  // A transfer coding other than chunked alone ("gzip", "identity", "chunked, chunked",
  // "gzip, chunked") leaves the body's end unknown, or to a coding not read here: 400 and
  // close (RFC 9112, 6.3), else the body would be read as the next request.
  if (header.count(http::field::transfer_encoding) != 0 &&
      !(parser_->chunked() && header.count(http::field::transfer_encoding) == 1 &&
        beast::iequals(text_trim(header[http::field::transfer_encoding]), "chunked"))) {
    ++state_->counters.bad_requests;
    return send(error_response(400, "bad request: only the chunked transfer coding is read"), 11,
                false, false);
  }
  if (parser_->is_done()) return answer(parser_->release());
  // curl and others wait (about a second) for this before sending a large body.
  if (beast::iequals(header[http::field::expect], "100-continue")) {
    continue_.emplace(http::status::continue_, header.version());
    stream_.expires_after(to_duration(state_->limits.idle_timeout_s));
    http::async_write(stream_, *continue_,
                      [self = shared_from_this()](beast::error_code ec, size_t) {
                        if (ec) return self->stream_.close();
                        self->read_body();
                      });
    return;
  }
  read_body();
}

void HttpConnection::read_body() {
  stream_.expires_never();
  arm_deadline(state_->limits.header_timeout_s);
  http::async_read(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, size_t) { self->on_body(ec); });
}

void HttpConnection::on_body(beast::error_code ec) {
  if (ec) return fail_read(ec);
  disarm_deadline();
  answer(parser_->release());
}

void HttpConnection::fail_read(beast::error_code ec) {
  const bool expired = deadline_expired_;
  disarm_deadline();
  TransportCounters& counters = state_->counters;
  if (expired) {
    ++counters.timeouts;
    return send(error_response(408, "request timeout"), 11, false, false);
  }
  if (ec == http::error::header_limit) {
    ++counters.header_too_large;
    return send(error_response(431, "request header fields too large"), 11, false, false);
  }
  if (ec == http::error::body_limit) {
    ++counters.body_too_large;
    return send(error_response(413, "payload too large"), 11, false, false);
  }
  if (is_disconnect(ec) || !is_parse_error(ec)) return stream_.close();
  ++counters.bad_requests;
  send(error_response(400, "bad request: " + ec.message()), 11, false, false);
}

void HttpConnection::answer(Request request) {
  phase_ = Phase::kAnswering;
  ++state_->counters.requests;
  HttpRequest in{std::string(request.method_string()), std::string(request.target()),
                 std::move(request.body()), std::string(request[http::field::content_type])};
  send(call_handler(state_->handler, in, state_->counters), request.version(), request.keep_alive(),
       request.method() == http::verb::head);
}

void HttpConnection::send(HttpResponse response, unsigned version, bool keep_alive, bool head) {
  phase_ = Phase::kAnswering;
  keep_alive = keep_alive && !state_->stopping;
  auto& message = response_.emplace();
  message.version(version);
  message.result(static_cast<unsigned>(response.status));
  message.set(http::field::server, "closure");
  // 204 and 304 have no body by definition; HEAD gets the length of the body it skips.
  if (response.status != 204 && response.status != 304) {
    if (!response.content_type.empty())
      message.set(http::field::content_type, response.content_type);
    message.content_length(response.body.size());
    if (!head) message.body() = std::move(response.body);
  }
  message.keep_alive(keep_alive);
  stream_.expires_after(to_duration(state_->limits.idle_timeout_s));
  http::async_write(stream_, message,
                    [self = shared_from_this(), keep_alive](beast::error_code ec, size_t) {
                      self->on_sent(ec, keep_alive);
                    });
}

void HttpConnection::on_sent(beast::error_code ec, bool keep_alive) {
  response_.reset();
  if (ec) return stream_.close();
  if (!keep_alive) return linger_close();
  await_request(state_->limits.idle_timeout_s);
}

void HttpConnection::linger_close() {
  phase_ = Phase::kClosing;
  beast::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  stream_.expires_after(to_duration(kLingerSeconds));
  buffer_.clear();
  drain();
}

void HttpConnection::drain() {
  // Never committed: each read reuses the same bytes of the buffer.
  stream_.async_read_some(buffer_.prepare(kReadChunkBytes),
                          [self = shared_from_this()](beast::error_code ec, size_t) {
                            if (ec) return self->stream_.close();
                            self->drain();
                          });
}

// tcp_stream's own expiry closes the socket, which leaves no way to answer 408; this timer
// only cancels the read, and the generation keeps a late expiry from cancelling whatever
// operation came after the read it was meant for.
void HttpConnection::arm_deadline(double seconds) {
  deadline_expired_ = false;
  const uint64_t generation = ++deadline_generation_;
  deadline_.expires_after(to_duration(seconds));
  deadline_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
    if (ec || generation != self->deadline_generation_) return;
    self->deadline_expired_ = true;
    self->stream_.cancel();
  });
}

void HttpConnection::disarm_deadline() {
  ++deadline_generation_;
  deadline_expired_ = false;
  deadline_.cancel();
}

}  // namespace closure::serve
