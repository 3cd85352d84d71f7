// The batch's file-name filter, on fnmatch(3).
#include "app/tool/batch_filter.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace closure {

const std::vector<std::string>& default_graph_patterns() {
  // Mirrors detect_format's table (read_graph.cpp) and docs/formats.md; test_batch_filter.cpp
  // checks that each non-edge-list extension here is one detect_format recognises.
  static const std::vector<std::string> patterns = [] {
    std::vector<std::string> p;
    for (const char* ext : {"txt", "edges", "el", "edgelist", "snap", "gra", "dimacs", "gr", "max",
                            "col", "mtx", "mm", "dot", "gv", "csv", "tsv"}) {
      p.push_back(std::string("*.") + ext);
      p.push_back(std::string("*.") + ext + ".gz");
    }
    return p;
  }();
  return patterns;
}

bool NameFilter::accepts(const std::string& filename, const std::string& relative) const {
  const std::string& path = relative.empty() ? filename : relative;
  auto any = [&](const std::vector<std::string>& patterns, int flags) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
      if (p.find('/') != std::string::npos)
        return ::fnmatch(p.c_str(), path.c_str(), flags | FNM_PATHNAME) == 0;
      return ::fnmatch(p.c_str(), filename.c_str(), flags) == 0;
    });
  };
  if (any(exclude, 0)) return false;
  return include.empty() ? any(default_graph_patterns(), FNM_CASEFOLD) : any(include, 0);
}

}  // namespace closure
