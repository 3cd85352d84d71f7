// Byte counts given on the command line (--max-output, --verify-memory): a whole number
// with an optional unit, parsed strictly. "1000000", "10G" (decimal: k/K, M, G, T are
// powers of 1000), "10GiB" (binary: Ki, Mi, Gi, Ti are powers of 1024), a trailing "B"
// allowed ("10GB"). Negative numbers, fractions, junk and values above 2^64 - 1 throw
// UsageError: a guard must never be switched off by a typo.
#pragma once

#include <cstdint>
#include <string_view>

namespace closure {

uint64_t parse_byte_size(std::string_view text);

}  // namespace closure
