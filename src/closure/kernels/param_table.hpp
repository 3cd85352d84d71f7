// The parameter tables of the kernel families: one row per tunable (key, macro, default,
// allowed values, meaning) renders the build options (which key the program cache),
// to_string, parsing, range checks and equality, as CLBlast's database does with its
// parameter maps. Adding a parameter is one line in its family's table.
//
// A family's table is an X-macro list of rows
//   X(member, "MACRO", default, allowed, "meaning")
// that declares the parameter struct's members (params_struct_members) and the field
// array (ParamTable<P>::fields) from the same line. "MACRO" is "" for launch-only values.
// `allowed` is one of range(lo, hi), powers_of_two(lo, hi), one_of(a, b, c).
// A family whose struct has `P resolved() const` gives derived values (0 = "derived",
// as the kernel's own #define does) before anything is rendered or compared.
#pragma once

#include <span>
#include <stdexcept>
#include <string>

#include "closure/errors.hpp"
#include "closure/kernels/param_text.hpp"

namespace closure {

// The values a parameter accepts.
struct Allowed {
  int lo = 0, hi = 0;
  bool pow2 = false;
  int choices[4] = {0, 0, 0, 0};
  int n_choices = 0;

  bool admits(int v) const {
    if (n_choices > 0) {
      for (int i = 0; i < n_choices; ++i)
        if (choices[i] == v) return true;
      return false;
    }
    return v >= lo && v <= hi && (!pow2 || (v > 0 && (v & (v - 1)) == 0));
  }
  std::string describe() const;  // "1..32", "16/32/64/128", "0/3/4"
};

namespace allowed {
constexpr Allowed range(int lo, int hi) {
  return {lo, hi};
}
constexpr Allowed powers_of_two(int lo, int hi) {
  return {lo, hi, true};
}
constexpr Allowed one_of(int a, int b, int c) {
  return {0, 0, false, {a, b, c, 0}, 3};
}
}  // namespace allowed

template <class P>
struct ParamField {
  const char* key;    // in to_string, parsing, tuning rows: "tile_n"
  const char* macro;  // the kernel's macro ("-DTILE_M=2"); "" for launch-only values
  int P::*member;
  int default_value;  // also the kernel's #ifndef default (tests/test_param_tables.cpp)
  Allowed allowed;
  const char* meaning;
};

// Specialised per family next to its struct: `family` (the tuning database's name for it,
// e.g. "boolean") and `fields`.
template <class P>
struct ParamTable;

#define CLOSURE_PARAM_MEMBER(member, macro, def, allowed_values, meaning) int member = def;
#define CLOSURE_PARAM_FIELD(member, macro, def, allowed_values, meaning) \
  {#member, macro, &Self::member, def, allowed::allowed_values, meaning},
// The table of struct P from its row list: its name in the tuning database and its file.
#define CLOSURE_PARAM_TABLE(P, family_name, file, ROWS)                       \
  template <>                                                                 \
  struct ParamTable<P> {                                                      \
    using Self = P;                                                           \
    static constexpr const char* family = family_name;                        \
    static constexpr const char* kernel_file = file;                          \
    static constexpr ParamField<Self> fields[] = {ROWS(CLOSURE_PARAM_FIELD)}; \
  }

template <class P>
P resolved_params(const P& p) {
  if constexpr (requires { p.resolved(); })
    return p.resolved();
  else
    return p;
}

// Joins item(field, value) over the fields, derived values written out.
template <class P, class Item>
std::string render_params(const P& p, const char* separator, Item&& item) {
  const P r = resolved_params(p);
  std::string out;
  for (const auto& f : ParamTable<P>::fields) {
    const std::string text = item(f, r.*f.member);
    if (!text.empty()) out += (out.empty() ? "" : separator) + text;
  }
  return out;
}

// "key=value,key=value" in table order.
template <class P>
std::string params_to_string(const P& p) {
  return render_params(p, ",", [](const ParamField<P>& f, int v) {
    return std::string(f.key) + "=" + std::to_string(v);
  });
}

// " -DMACRO=value" for every field with a macro.
template <class P>
std::string params_defines(const P& p) {
  // Appends, not "-D" + std::string: GCC 12 warns (-Wrestrict) on that operator+ inlined.
  std::string out = " ";
  out += render_params(p, " ", [](const ParamField<P>& f, int v) {
    std::string define;
    if (!*f.macro) return define;
    define += "-D";
    define += f.macro;
    define += '=';
    define += std::to_string(v);
    return define;
  });
  return out;
}

template <class P>
std::string params_keys() {
  std::string out;
  for (const auto& f : ParamTable<P>::fields) out += (out.empty() ? "" : ", ") + std::string(f.key);
  return out;
}

// Throws UsageError naming every allowed range when a value is outside its own.
template <class P>
void check_param_ranges(const P& p, const std::string& what) {
  for (const auto& f : ParamTable<P>::fields)
    if (!f.allowed.admits(p.*f.member)) {
      std::string ranges;
      for (const auto& g : ParamTable<P>::fields)
        ranges += (ranges.empty() ? "" : ", ") + std::string(g.key) + " " + g.allowed.describe();
      throw UsageError(what + " out of range (" + ranges + ")");
    }
}

// Applies "key=value,..." over `base`; throws UsageError for an unknown key, a missing '=',
// a non-number or a value outside its range (at once, before any device is opened).
template <class P>
P parse_params(const std::string& text, P base) {
  const std::string keys = params_keys<P>();
  parse_key_values(text, keys.c_str(), [&](const std::string& key, int value) {
    for (const auto& f : ParamTable<P>::fields)
      if (key == f.key) {
        base.*f.member = value;
        return true;
      }
    return false;
  });
  if (!text.empty()) check_param_ranges(base, "kernel parameters " + text);
  return base;
}

template <class P>
bool params_equal(const P& a, const P& b) {
  const P x = resolved_params(a), y = resolved_params(b);
  for (const auto& f : ParamTable<P>::fields)
    if (x.*f.member != y.*f.member) return false;
  return true;
}

}  // namespace closure
