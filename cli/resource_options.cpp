#include "cli/resource_options.hpp"

#include <CLI/CLI.hpp>

namespace adlang {

BudgetLimits budget_limits(const ResourceOptions& o) {
  BudgetLimits l;
  l.max_memory_bytes = o.max_memory == "0" ? 0 : parse_memory_size(o.max_memory);
  l.timeout_seconds = o.timeout;
  return l;
}

void add_resource_options(CLI::App& cmd, ResourceOptions& o, bool with_timeout) {
  cmd.add_option("--max-memory", o.max_memory,
                 "memory budget: a size (512M, 4G) or a share of physical memory (25%); "
                 "0: none. Exceeding it is reported as undefined")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            if (s == "0") return "";
            try {
              parse_memory_size(s);
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
            return "";
          },
          "SIZE"))
      ->default_str(o.max_memory);
  if (with_timeout) {
    cmd.add_option("--timeout", o.timeout,
                   "time budget in seconds (0: none); running longer is reported as undefined")
        ->check(CLI::Range(0.0, 1e9))
        ->capture_default_str();
  }
  cmd.parse_complete_callback([&o] { start_resource_budget(budget_limits(o)); });
}

}  // namespace adlang
