// Shared step of the writers' round-trip fuzz targets: a graph's edges written as `spec`
// says into a string, to be read back by the target.
#pragma once

#include <string>

#include "app/tool/closure_writer.hpp"
#include "closure/io/byte_sink.hpp"

namespace closure::fuzz {

// Throws UsageError where a label cannot be written in that format, as the writer does.
inline std::string edges_written(const Graph& g, const OutputSpec& spec) {
  StringSink sink;
  write_pairs(sink, g, EdgeRows(g.vertex_count(), g.edges(), "g"), spec);
  return sink.text;
}

}  // namespace closure::fuzz
