// The bytes a rank sends rank 0 with its column slice (a distributed run's only large
// message), and their checked decoding: a peer's message is input like any file.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "app/distributed/column_slices.hpp"

namespace closure {

// Header: magic "CLSLICE1", components (u64), range begin and end (u32 each), cross
// pairs (u64), row words that follow (u64); then the rows, little-endian words.
inline constexpr char kSliceMagic[8] = {'C', 'L', 'S', 'L', 'I', 'C', 'E', '1'};
inline constexpr size_t kSliceHeaderBytes = 40;

std::vector<uint8_t> encode_slice(const ColumnSlice& slice);
// The slice in `bytes`, which must be exactly what encode_slice makes of a slice of
// `components` rows over `expected` with its rows; InternalError naming the fault
// otherwise (never reads outside `bytes`).
ColumnSlice decode_slice(std::span<const uint8_t> bytes, size_t components, WordRange expected);

}  // namespace closure
