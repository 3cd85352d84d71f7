// Kernel source lookup: the development folder first, then the embedded copies; shared
// headers inlined.
#include "closure/ocl/kernel_source.hpp"

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "closure/config.hpp"
#include "closure/embedded_kernels.hpp"
#include "closure/errors.hpp"

namespace closure::ocl {
namespace {

std::mutex tables_mutex;
std::vector<KernelTable>& added_tables() {
  static std::vector<KernelTable> tables;
  return tables;
}

std::optional<std::string_view> embedded_text(const std::string& file) {
  for (const auto& [name, text] : embedded::kKernels)
    if (name == file) return text;
  std::lock_guard lock(tables_mutex);
  for (KernelTable table : added_tables())
    for (const auto& [name, text] : table)
      if (name == file) return text;
  return std::nullopt;
}

std::string file_text(const std::string& file) {
  if (const std::string dir = config::text(kKernelPathEnv); !dir.empty()) {
    std::ifstream in(std::string(dir) + "/" + file);
    if (!in) throw ResourceError(std::string(kKernelPathEnv) + "=" + dir + ": cannot read " + file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  if (const std::optional<std::string_view> text = embedded_text(file)) return std::string(*text);
  throw InternalError("no kernel source named " + file);
}

// `text` with every line `#include "name.cl"` replaced by that file's text (once per
// program: the headers have no include guards, which would read as tunables to
// tests/test_param_tables.cpp).
std::string inline_includes(const std::string& text, std::set<std::string>& included) {
  static const std::string kDirective = "#include \"";
  std::string out;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end + 1;
    const size_t close = text.find('"', pos + kDirective.size());
    if (text.compare(pos, kDirective.size(), kDirective) == 0 && close < end) {
      const std::string name =
          text.substr(pos + kDirective.size(), close - pos - kDirective.size());
      if (included.insert(name).second) out += inline_includes(file_text(name), included);
    } else {
      out.append(text, pos, end - pos);
    }
    pos = end;
  }
  return out;
}

}  // namespace

std::string kernel_source(const std::string& file) {
  std::set<std::string> included{file};
  return inline_includes(file_text(file), included);
}

void add_kernel_table(KernelTable table) {
  std::lock_guard lock(tables_mutex);
  for (KernelTable added : added_tables())
    if (added.data() == table.data()) return;
  added_tables().push_back(table);
}

}  // namespace closure::ocl
