// Graphviz DOT ids for labels that are bytes: always quoted, so no label can be read as a
// keyword, a number, a port or an edge operator; `"` and `\` escaped (so a label ending in
// `\` cannot swallow the closing quote, and Graphviz's label escapes such as `\N` show as
// written); line breaks as `\n` and `\r`. Graphviz reads UTF-8: each byte that is not part
// of a valid UTF-8 sequence, and each other control byte, is written as the text `\xNN`,
// which no label can produce otherwise (its own `\` would be doubled): distinct labels stay
// distinct nodes, as the JSON rule keeps them distinct strings (docs/formats.md).
#pragma once

#include <string>
#include <string_view>

namespace closure {

void append_dot_id(std::string& out, std::string_view label);
std::string dot_id(std::string_view label);

}  // namespace closure
