// Parsing "key=value,key=value" parameter overrides (CLOSURE_BOOL_PARAMS, --kernel-params,
// --tuned-params ...), one way for every kernel family.
#pragma once

#include <functional>
#include <string>

namespace closure {

// Applies each "key=value" of `text` (integer values) through `set(key, value)`, which
// returns false for an unknown key; `keys` lists the known ones for the message. Throws
// std::invalid_argument for a missing '=', a non-number, or an unknown key.
void parse_key_values(const std::string& text, const char* keys,
                      const std::function<bool(const std::string&, int)>& set);

}  // namespace closure
