// The playground's one entry point (docs/playground.md): a command of the CLI run on a
// program's text, with the options the page offers, and what the CLI would have printed.
#pragma once

#include <cstdint>
#include <string>

#include "checker/runner.hpp"

namespace adlang {

struct PlaygroundResult {
  std::string out;  // standard output
  std::string err;  // standard error (diagnostics)
  int exit_code = 0;
  // What failed, by the name the session's result gives it (driver/error_kind.hpp:
  // CompileError, Undefined, UsageError, CheckFailed, InternalError); empty on success.
  std::string error;
};

// A command of the page on the editor's program, named "playground.ad" in diagnostics.
struct PlaygroundRequest {
  // "run", "trace", "diff", "den", "plot" (`adlang plot` without -o: the samples), or
  // "trace-dot" (`adlang trace --format dot`, with each node's adjoint when `wrt` is given).
  std::string command;
  std::string source;
  std::string env;                   // NAME=VALUE lines (--env)
  std::string precision = "double";  // --precision
  std::string wrt;                   // diff, trace-dot, plot: --wrt
  std::string dir;                   // diff, trace-dot: --dir (the cotangent), if not empty
  double from = -1, to = 1;          // plot: --from, --to
  unsigned samples = 201;            // plot: --samples
  double fuel = -1;                  // --fuel; negative: the CLI's default for the precision
};
PlaygroundResult run_playground(const PlaygroundRequest& request);

// `adlang check` from the page: `property` empty for all of them; on `count` random programs
// from `seed`, or, when `editor` is set, on the program `source` with the inputs `env`
// (`adlang check playground.ad --env ...`). `progress` is told the property's counts so far and
// its number of programs, as `adlang check` tells its progress line (driver/check_command.cpp):
// the page's progress bar, and the table it shows when Stop ends the run.
struct PlaygroundCheck {
  std::string property;
  std::uint64_t count = 300;
  std::uint64_t seed = 1;
  std::string precision = "double";
  bool editor = false;
  std::string source, env;
};
PlaygroundResult check_playground(const PlaygroundCheck& check,
                                  const checker::ProgressFn& progress);

// The names of the properties of `adlang check`, one a line, in the order it runs them.
std::string playground_properties();

// The fuel of a run when --fuel is not given (default_fuel, driver/command_options.hpp) at
// `precision` ("double", "50", "100", "exact"); -1 for another text.
double playground_default_fuel(const std::string& precision);

}  // namespace adlang
