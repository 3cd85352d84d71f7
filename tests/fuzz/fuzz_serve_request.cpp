// libFuzzer target for the service's own request layer (HTTP itself is Beast's): any
// method, target and body must get an answer of 200..599 from Service::handle, never a
// crash or an exception; pairs that parse are then appended to an in-memory living index,
// whose answers must stay consistent. Input: byte 0 picks the method and content type,
// then the target up to the first newline, then the body.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "closure/reach/index_file.hpp"
#include "closure/reach/living_index.hpp"
#include "serve/request_text.hpp"
#include "serve/service.hpp"

namespace {

// One read-only service over a small named graph's index, made once per process.
closure::serve::Service& service() {
  static std::unique_ptr<closure::serve::Service> s = [] {
    const std::string path = "/tmp/closure_fuzz_serve_" + std::to_string(::getpid()) + ".idx";
    const closure::Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {3, 4}}, {"a", "b", "c", "d", "e f"});
    closure::reach::write_index(path, closure::reach::build_index(g));
    closure::serve::ServiceOptions options;
    options.source = path;
    options.appends = false;
    auto made = std::make_unique<closure::serve::Service>(options);
    ::unlink(path.c_str());
    return made;
  }();
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const methods[] = {"GET", "POST", "PUT", "HEAD"};
  static const char* const types[] = {"application/json", "text/plain", ""};
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t nl = bytes.find('\n');
  closure::serve::HttpRequest r;
  r.method = methods[data[0] % 4];
  r.content_type = types[(data[0] / 4) % 3];
  r.target = bytes.substr(0, nl);
  r.body = nl == std::string::npos ? "" : bytes.substr(nl + 1);
  const closure::serve::HttpResponse a = service().handle(r);
  if (a.status < 200 || a.status > 599) std::abort();
  // Pairs that parse go into a living index: answers must stay those of its own walks.
  try {
    const auto pairs = closure::serve::parse_pairs(r.body, r.content_type, 64);
    auto base = std::make_shared<const closure::reach::ReachIndex>(
        closure::reach::build_index(closure::Graph(3, {{0, 1}, {1, 2}}, {"a", "b", "c"})));
    closure::reach::LivingIndex index(base);
    closure::reach::AppendOptions options;
    options.merge_minimum = 8;
    index.add_edges(pairs, options);
    closure::reach::LivingQuerier q(index);
    for (closure::vertex_t u = 0; u < index.vertex_count(); ++u) {
      const auto down = q.descendants(u);
      for (closure::vertex_t v : down)
        if (!q.reaches(u, v)) std::abort();
    }
  } catch (const closure::UsageError&) {
  }
  return 0;
}
