// Which files found in a batch's folders are graphs to read: --include / --exclude glob
// patterns (fnmatch on the file name), by default the extensions the reader knows, so that
// notes.md or a README beside the graphs is not read as an edge list and reported ok.
#pragma once

#include <string>
#include <vector>

namespace closure {

// The default --include: every extension detect_format (closure/graph/read_graph.hpp) maps
// to a format, the edge list's usual ones (.txt, .edges, .el, .edgelist, .snap: the edge
// list itself is the fallback for any name), each also with .gz. Matched case aside, as
// the reader matches extensions.
const std::vector<std::string>& default_graph_patterns();

struct NameFilter {
  std::vector<std::string> include;  // empty: default_graph_patterns()
  std::vector<std::string> exclude;  // any match leaves the file out, whatever include says
  // Whether a file named `filename` is read, found at `relative` below the folder the batch
  // was given (`sub/b.txt`; the name alone for a file directly in it). A pattern with a '/'
  // is matched against `relative` (`--exclude 'sub/*'` leaves a subfolder out; `*` does not
  // cross a '/'), any other against the name. Patterns given are matched as written
  // (fnmatch: `*` also matches a leading dot).
  bool accepts(const std::string& filename, const std::string& relative = "") const;
};

}  // namespace closure
