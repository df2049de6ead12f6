// Every subcommand of `adlang`, once: its name, whether the lean adlang runs it itself
// (cli/full_build.hpp), which budget flags it takes (docs/robustness.md), and the function that
// adds its flags to the parser. cli/main.cpp registers from this table, and the lean adlang's
// hand-over (cli/full_build_handover.cpp) reads its `lean` column: adding a subcommand is one
// row here and its register function.
#pragma once

#include <span>
#include <string_view>

namespace CLI {
class App;  // <CLI/CLI.hpp>
}  // namespace CLI

namespace adlang::cli {

// Adds the subcommand's flags to `app`; when it runs (during app.parse()) it sets `exit_code`.
using AddSubcommand = void (*)(CLI::App& app, int& exit_code);

enum class BudgetFlags {
  None,              // the command has neither (its own limits, or it serves)
  MemoryOnly,        // --max-memory (the default memory budget applies without it)
  MemoryAndTimeout,  // --max-memory and --timeout
};

struct Subcommand {
  std::string_view name;
  bool lean;  // run by the lean adlang unless its arguments need a library it lacks
  BudgetFlags budget;
  AddSubcommand add;
};

// In the order of `adlang --help`. In the lean adlang, the rows of subcommands it never runs
// (the Jupyter kernel, serve) are left out, and it hands them over to adlang-full.
std::span<const Subcommand> subcommands();

}  // namespace adlang::cli
