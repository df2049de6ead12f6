// The `adlang` executable: the subcommands of cli/subcommands.hpp, each calling a command
// function of the driver (driver/commands.hpp). Built twice: the lean adlang (ADLANG_LEAN) and
// adlang-full (cli/full_build.hpp).
#include <CLI/CLI.hpp>
#include <string_view>

#ifdef ADLANG_LEAN
#include "cli/full_build.hpp"
#endif
#include "cli/resource_options.hpp"
#include "cli/subcommands.hpp"
#include "support/exit_codes.hpp"

int main(int argc, char** argv) {
  using namespace adlang;
#ifdef ADLANG_LEAN
  // A command that needs a library the lean adlang does not link runs in adlang-full.
  cli::hand_over_if_needed(argc, argv);
#endif
  CLI::App app{
      "adlang: the differentiable programming language of Abadi & Plotkin (POPL 2020).\n"
      "Exit codes: 0 success, 1 undefined (bottom), 2 usage, 3 syntax/type error, "
      "4 check failed, 5 internal error, 6 a partition's MPI process died."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "adlang 0.1.0");

  // The subcommands to register: every one, but in the lean adlang only the one its first
  // argument names (cli/full_build.hpp hands everything else over to adlang-full). Their
  // options are most of the lean adlang's start-up (docs/performance.md, "Start-up"); the
  // parse and its messages are the same, since CLI11 takes no other subcommand after one.
  auto wanted = [&]([[maybe_unused]] std::string_view name) {
#ifdef ADLANG_LEAN
    return argc > 1 && name == argv[1];
#else
    return true;
#endif
  };
  // Set by the subcommand that runs, during app.parse().
  int exit_code = -1;
  // The memory and time budgets (docs/robustness.md); only one subcommand parses.
  ResourceOptions budget;
  for (const cli::Subcommand& s : cli::subcommands()) {
    if (!wanted(s.name)) continue;
    s.add(app, exit_code);
    if (s.budget != cli::BudgetFlags::None)
      add_resource_options(*app.get_subcommand(std::string(s.name)), budget,
                           s.budget == cli::BudgetFlags::MemoryAndTimeout);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  return exit_code >= 0 ? exit_code : kExitOk;
}
