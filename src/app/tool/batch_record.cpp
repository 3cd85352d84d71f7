// Batch rows and resume records through nlohmann-json, parsed with every field checked.
#include "app/tool/batch_record.hpp"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "closure/io/content_hash.hpp"
#include "closure/io/utf8.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
constexpr auto kReplace = Json::error_handler_t::replace;

Json key_object(const FileKey& k, bool with_mtime) {
  Json o{{"size", k.size}};
  if (with_mtime) o["mtime_ns"] = k.mtime_ns;
  o["hash"] = hash_hex(k.hash);
  return o;
}

// Thrown inside parse_record for any field that is not as written by record_json.
struct Bad {};

// A file name is bytes; JSON strings are UTF-8. A name that is not UTF-8 is written twice:
// readable under `key` (bytes replaced by U+FFFD, which loses them) and exactly, in hex,
// under `key`_hex, which the record is matched by.
std::string hex_bytes(const std::string& name) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : name) hex.append({digits[c >> 4], digits[c & 15]});
  return hex;
}

void put_name(Json& o, const std::string& key, const std::string& name) {
  o[key] = name;
  if (!is_utf8(name)) o[key + "_hex"] = hex_bytes(name);
}

std::string get_name(const Json& o, const std::string& key) {
  const auto hex = o.find(key + "_hex");
  if (hex == o.end()) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_string()) throw Bad{};
    return it->get<std::string>();
  }
  if (!hex->is_string()) throw Bad{};
  const std::string h = hex->get<std::string>();
  if (h.size() % 2) throw Bad{};
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw Bad{};
  };
  std::string out;
  for (size_t i = 0; i < h.size(); i += 2)
    out.push_back(char(nibble(h[i]) * 16 + nibble(h[i + 1])));
  return out;
}

const Json& field(const Json& o, const char* name) {
  auto it = o.find(name);
  if (it == o.end()) throw Bad{};
  return *it;
}
uint64_t get_unsigned(const Json& o, const char* name) {
  const Json& v = field(o, name);
  if (!v.is_number_unsigned()) throw Bad{};
  return v.get<uint64_t>();
}
std::string get_string(const Json& o, const char* name) {
  const Json& v = field(o, name);
  if (!v.is_string()) throw Bad{};
  return v.get<std::string>();
}
bool get_bool(const Json& o, const char* name) {
  const Json& v = field(o, name);
  if (!v.is_boolean()) throw Bad{};
  return v.get<bool>();
}
// The facts of a row whose file failed before its summary are all null (records from
// before that wrote 0 and false: still read, as known). Only a failed row may have them so.
bool facts_are_null(const Json& o, bool failed) {
  size_t nulls = 0;
  for (const char* name : {"vertices", "edges", "components", "dag", "pairs", "method", "device"})
    nulls += field(o, name).is_null();
  if (nulls == 0) return false;
  if (nulls != 7 || !failed) throw Bad{};
  return true;
}
// Exactly `names`, and those of `optional` that are there.
void only_keys(const Json& o, std::initializer_list<const char*> names,
               std::initializer_list<const char*> optional = {}) {
  if (!o.is_object()) throw Bad{};
  size_t present = names.size();
  for (const char* n : optional) present += o.contains(n);
  if (o.size() != present) throw Bad{};
  for (const char* n : names)
    if (!o.contains(n)) throw Bad{};
}
uint64_t parse_hex(const std::string& s) {
  if (s.size() != 16) throw Bad{};
  uint64_t h = 0;
  for (char c : s) {
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) throw Bad{};
    h = h << 4 | uint64_t(d);
  }
  return h;
}
FileKey parse_key(const Json& o, bool with_mtime) {
  if (with_mtime)
    only_keys(o, {"size", "mtime_ns", "hash"});
  else
    only_keys(o, {"size", "hash"});
  FileKey k;
  k.size = get_unsigned(o, "size");
  if (with_mtime) {
    const Json& m = field(o, "mtime_ns");
    if (!m.is_number_integer()) throw Bad{};
    k.mtime_ns = m.get<int64_t>();
  }
  k.hash = parse_hex(get_string(o, "hash"));
  return k;
}

}  // namespace

Json row_object(const BatchRow& r) {
  // A value, or null where the row's facts are unknown (a failed file).
  auto fact = [&r](const auto& v) { return r.facts_known ? Json(v) : Json(nullptr); };
  Json o = Json::object();
  put_name(o, "file", r.file);
  o.update(Json{{"vertices", fact(r.vertices)},
                {"edges", fact(r.edges)},
                {"components", fact(r.components)},
                {"dag", fact(r.dag)},
                {"pairs", fact(r.pairs)},
                {"method", fact(r.method)},
                {"device", fact(r.device)},
                {"seconds", r.seconds},
                {"verify", r.verify},
                {"error", r.error}});
  return o;
}

std::string resolved_input_path(const std::string& file) {
  std::error_code ec;
  const fs::path p = fs::absolute(file, ec);
  if (ec) return file;
  const fs::path folder = fs::canonical(p.parent_path(), ec);
  return ec ? p.lexically_normal().string() : (folder / p.filename()).string();
}

std::string record_json(const BatchRecord& r) {
  Json o{{"schema", kRecordSchema}, {"version", kRecordVersion}};
  const Json row = row_object(r.row);
  for (auto& [k, v] : row.items()) o[k] = v;
  put_name(o, "path", r.path.empty() ? resolved_input_path(r.row.file) : r.path);
  o["input"] = key_object(r.input, true);
  o["options"] = Json::parse(r.options);
  if (r.output) {
    Json out = key_object(*r.output, false);
    put_name(out, "name", r.output_name);
    o["output"] = out;
  } else {
    o["output"] = nullptr;
  }
  return o.dump(-1, ' ', false, kReplace) + "\n";
}

std::optional<BatchRecord> parse_record(std::string_view text) {
  if (text.size() > kMaxRecordBytes) return std::nullopt;
  try {
    const Json o = Json::parse(text);  // throws on anything that is not one JSON value
    only_keys(o,
              {"schema", "version", "file", "vertices", "edges", "components", "dag", "pairs",
               "method", "device", "seconds", "verify", "error", "input", "options", "output"},
              {"file_hex", "path", "path_hex"});
    if (get_string(o, "schema") != kRecordSchema) return std::nullopt;
    if (get_unsigned(o, "version") != uint64_t(kRecordVersion)) return std::nullopt;
    BatchRecord r;
    BatchRow& row = r.row;
    row.file = get_name(o, "file");
    if (o.contains("path")) r.path = get_name(o, "path");
    row.error = get_string(o, "error");
    row.facts_known = !facts_are_null(o, !row.error.empty());
    if (row.facts_known) {
      row.vertices = get_unsigned(o, "vertices");
      row.edges = get_unsigned(o, "edges");
      row.components = get_unsigned(o, "components");
      row.dag = get_bool(o, "dag");
      row.pairs = get_unsigned(o, "pairs");
      row.method = get_string(o, "method");
      row.device = get_string(o, "device");
    }
    const Json& secs = field(o, "seconds");
    if (!secs.is_number() || secs.get<double>() < 0) return std::nullopt;
    row.seconds = secs.get<double>();
    row.verify = get_string(o, "verify");
    static const std::set<std::string> verdicts{"-", "MATCH", "MISMATCH", "INCONCLUSIVE"};
    if (!verdicts.count(row.verify)) return std::nullopt;
    r.input = parse_key(field(o, "input"), true);
    const Json& options = field(o, "options");
    if (!options.is_object()) return std::nullopt;
    r.options = options.dump(-1, ' ', false, kReplace);
    const Json& out = field(o, "output");
    if (!out.is_null()) {
      if (!out.is_object()) return std::nullopt;
      Json key = out;
      r.output_name = get_name(out, "name");
      key.erase("name");
      key.erase("name_hex");
      r.output = parse_key(key, false);
    }
    return r;
  } catch (const Bad&) {
    return std::nullopt;
  } catch (const std::exception&) {  // nlohmann's parse and type errors
    return std::nullopt;
  }
}

std::string batch_json(const std::vector<BatchRow>& rows) {
  std::string out = "[\n";
  for (size_t i = 0; i < rows.size(); ++i)
    out += "  " + row_object(rows[i]).dump(-1, ' ', false, kReplace) +
           (i + 1 < rows.size() ? ",\n" : "\n");
  return out + "]\n";
}

static std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string batch_csv(const std::vector<BatchRow>& rows) {
  // A file name that is not UTF-8 shows U+FFFD, as in summary.json, and its bytes in hex in
  // the last column (empty for every other name): raw bytes made the table unreadable as
  // UTF-8 text, which CSV readers take it for.
  std::string out =
      "file,vertices,edges,components,dag,pairs,method,device,seconds,verify,error,file_hex\n";
  for (const auto& r : rows) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.4f", r.seconds);
    // Empty where the facts are unknown; true/false as in summary.json.
    auto fact = [&r](const std::string& v) { return r.facts_known ? v : std::string(); };
    const bool plain = is_utf8(r.file);
    out += csv_field(plain ? r.file : utf8_replaced(r.file));
    for (const std::string& v :
         {fact(std::to_string(r.vertices)), fact(std::to_string(r.edges)),
          fact(std::to_string(r.components)), fact(r.dag ? "true" : "false"),
          fact(std::to_string(r.pairs)), fact(csv_field(r.method)), fact(csv_field(r.device)),
          std::string(secs), r.verify, csv_field(utf8_replaced(r.error)),
          plain ? std::string() : hex_bytes(r.file)}) {
      out += ',';  // two appends: `"," + v` trips GCC 12's -Wrestrict false positive
      out += v;
    }
    out += '\n';
  }
  return out;
}

}  // namespace closure
