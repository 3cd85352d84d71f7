// JSON text for outputs whose strings are bytes (labels, file names): the one rule for text
// that is not UTF-8. Valid UTF-8 is written as it is; each byte that is not part of a valid
// UTF-8 sequence is written as the escape \udcNN (0xNN the byte), the lone surrogate that
// Python's surrogateescape (PEP 383) uses: two distinct labels stay two distinct strings,
// `json.loads` in Python gives exactly what os.fsdecode gives for those bytes, and
// s.encode("utf-8", "surrogateescape") gives the bytes back. (U+FFFD, which nlohmann's
// "replace" writes, would make two labels one.)
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace closure {

// `bytes` as a JSON string literal, quotes included.
void append_json_string(std::string& out, std::string_view bytes);
std::string json_string(std::string_view bytes);

// j as nlohmann's dump(indent) writes it, except that strings follow the rule above
// instead of failing (or being replaced) on bytes that are not UTF-8.
std::string dump_json(const nlohmann::ordered_json& j, int indent = -1);

}  // namespace closure
