// GraphFacts: what a run found out about one graph and its closure, shared by the run's
// summary (RunSummary) and a batch row (BatchRow), so that one assignment carries them over
// and both name them alike (vertices, edges, components: docs/formats.md).
#pragma once

#include <cstdint>
#include <string>

namespace closure {

struct GraphFacts {
  uint64_t vertices = 0, edges = 0, components = 0;
  bool dag = false;
  uint64_t pairs = 0;
  std::string method, device;
};

}  // namespace closure
