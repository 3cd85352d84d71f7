// Writing a closure: edge list in the input's labels, Matrix Market, JSON, or a binary
// bit matrix (docs/formats.md), atomically, after checking the size against a limit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "closure/algorithms/closure.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

enum class OutputFormat { kEdges, kMatrixMarket, kJson, kBinary };
OutputFormat parse_output_format(std::string_view name);  // edges, matrix-market, json, binary
std::string_view output_format_name(OutputFormat f);

// Bytes the output will take (exact for binary, a close estimate for text formats).
uint64_t estimate_output_bytes(const Graph& g, const Closure& c, OutputFormat f, bool reflexive);

// Called now and then while writing with the share of vertices written (0..1).
using WriteProgress = std::function<void(double)>;

// Writes the closure to `path` ("-" = standard output) through a temporary file.
void write_closure(const std::string& path, const Graph& g, const Closure& c, OutputFormat f,
                   bool reflexive, const WriteProgress& progress = {});

// The binary format's magic, first 8 bytes of the file.
inline constexpr char kBinaryMagic[8] = {'C', 'L', 'O', 'S', 'B', 'I', 'T', '1'};

}  // namespace closure
