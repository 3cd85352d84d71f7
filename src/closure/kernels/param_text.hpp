// Parsing "key=value,key=value" parameter lists (CLOSURE_BOOL_PARAMS, --kernel-params,
// --tuned-params ..., the tuning overlay's rows, the host calibration's factors), one way for
// every family.
#pragma once

#include <functional>
#include <string>

namespace closure {

// Applies each "key=value" of `text` through `set(key, value text)`, which returns false for
// an unknown key; `what` names a key in messages ("kernel parameter"), `keys` lists the known
// ones. Throws UsageError for an empty item (a stray comma: a typo, never meant), a missing
// '=', or an unknown key.
void parse_key_texts(const std::string& text, const char* what, const char* keys,
                     const std::function<bool(const std::string&, const std::string&)>& set);
// The same with integer values; a value that is not one is a UsageError too.
void parse_key_values(const std::string& text, const char* keys,
                      const std::function<bool(const std::string&, int)>& set);

}  // namespace closure
