// Helpers of the reader tests (test_graph_io.cpp, test_graph_hardening.cpp): a graph's
// labels and labelled edges as strings, and files in a fresh temporary folder.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/graph.hpp"

namespace closure::testing {

using Strings = std::vector<std::string>;

inline Strings labels_of(const Graph& g) {
  Strings out;
  for (vertex_t v = 0; v < g.vertex_count(); ++v) out.push_back(g.label(v));
  return out;
}

// Edges as "u v" in the input's labels, sorted, so expectations read like the input.
inline Strings labelled_edges(const Graph& g) {
  Strings out;
  for (const auto& [u, v] : g.edges()) out.push_back(g.label(u) + " " + g.label(v));
  std::sort(out.begin(), out.end());
  return out;
}

// Files in a fresh temporary folder, removed with the object.
class TempDir {
 public:
  TempDir() {
    dir_ = std::filesystem::temp_directory_path() /
           ("closure_readers_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, std::string_view content) const {
    const std::string p = path(name);
    std::ofstream(p, std::ios::binary).write(content.data(), std::streamsize(content.size()));
    return p;
  }
  // `content` gzip-compressed into the file `name` (one member, zlib's gzwrite).
  std::string write_gz(const std::string& name, std::string_view content) const {
    const std::string p = path(name);
    gzFile f = gzopen(p.c_str(), "wb");
    EXPECT_NE(f, nullptr);
    EXPECT_EQ(gzwrite(f, content.data(), static_cast<unsigned>(content.size())),
              static_cast<int>(content.size()));
    gzclose(f);
    return p;
  }
  // `content` as one gzip member in memory (deflate with the gzip wrapper).
  static std::string gzip(std::string_view content) {
    uLongf size = compressBound(uLong(content.size())) + 64;
    std::string out(size, '\0');
    z_stream zs{};
    deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(content.data()));
    zs.avail_in = static_cast<uInt>(content.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace closure::testing
