// The budget options of the subcommands, --max-memory and --timeout (support/resource_budget.hpp,
// docs/robustness.md).
#pragma once

#include <string>

#include "support/resource_budget.hpp"

namespace CLI {
class App;  // <CLI/CLI.hpp>, included by the files that add options: it is heavy to compile
}  // namespace CLI

namespace adlang {

struct ResourceOptions {
  std::string max_memory = "25%";  // a size (512M, 4G) or a share of physical memory; 0: none
  double timeout = 0;              // seconds; 0: no time budget
};

// Adds --max-memory and --timeout to `cmd` (when `with_timeout`), and starts the process's
// budgets from `o` as soon as `cmd`'s options are parsed (before its callback runs). Commands
// without the options (fmt, pyrewrite) still get the default memory budget.
void add_resource_options(CLI::App& cmd, ResourceOptions& o, bool with_timeout = true);

// The limits `o` asks for. Throws std::invalid_argument for a malformed --max-memory.
BudgetLimits budget_limits(const ResourceOptions& o);

}  // namespace adlang
