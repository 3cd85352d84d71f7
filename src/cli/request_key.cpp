// The text MPI ranks compare before running (app/distributed/request_agreement.hpp): the
// subcommand and every option given to it, as parsed, in the order CLI11 defines them.
#include "cli/commands.hpp"

namespace closure::cli {

std::string request_key(const CLI::App& sub) {
  std::string key = sub.get_name();
  for (const CLI::Option* opt : sub.get_options()) {
    // The graph's path may differ between ranks (the graph is compared by its hash).
    if (opt->count() == 0 || opt->get_name() == "graph") continue;
    key += ' ';
    key += opt->get_name();
    const auto& values = opt->results();
    for (size_t i = 0; i < values.size(); ++i) key += (i ? "," : "=") + values[i];
  }
  return key;
}

}  // namespace closure::cli
