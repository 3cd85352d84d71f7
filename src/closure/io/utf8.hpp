// UTF-8 validity, byte by byte: what the text outputs that cannot hold arbitrary bytes
// (JSON, Graphviz DOT) need to tell valid sequences from bytes to escape.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace closure {

// Length of the valid UTF-8 sequence at s[i] (1-4), or 0 when the byte starts none
// (overlong forms, surrogates and code points past U+10FFFF are not valid).
size_t utf8_sequence(std::string_view s, size_t i);
// Whether all of `s` is valid UTF-8.
bool is_utf8(std::string_view s);

// `s` with each byte that starts no valid sequence replaced by U+FFFD: readable, not
// reversible (for tables that name files; records keep the bytes beside, in hex).
std::string utf8_replaced(std::string_view s);

}  // namespace closure
