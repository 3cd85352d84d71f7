// Shared body of the reader fuzz targets: parse the input in one format; an InputError is the
// expected answer to bad input, anything else (another exception, a crash, a leak, undefined
// behaviour, a huge allocation, a hang) is a bug libFuzzer reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "closure/graph/read_graph.hpp"

namespace closure::fuzz {

inline void read_as(const uint8_t* data, size_t size, InputFormat format,
                    const char* name = "fuzz") {
  try {
    const ReadResult r = read_graph_from_string(
        std::string_view(reinterpret_cast<const char*>(data), size), format, name);
    // Touch the result so the whole graph is checked, not just built.
    volatile size_t sink = r.graph.vertex_count() + r.graph.edge_count() + r.edge_records;
    (void)sink;
  } catch (const InputError&) {
  }
}

// The graph any reader accepts in the input (the format detected), or none: the writers'
// round-trip targets start from it.
inline std::optional<ReadResult> read_any(const uint8_t* data, size_t size) {
  try {
    return read_graph_from_string(std::string_view(reinterpret_cast<const char*>(data), size),
                                  InputFormat::kAuto, "fuzz");
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace closure::fuzz
