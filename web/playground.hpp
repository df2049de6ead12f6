// The playground's one entry point (docs/playground.md): a command of the CLI run on a
// program's text, with the options the page offers, and what the CLI would have printed.
#pragma once

#include <string>

namespace adlang {

struct PlaygroundResult {
  std::string out;  // standard output
  std::string err;  // standard error (diagnostics)
  int exit_code = 0;
};

// `command` is "run", "trace", "diff", "den", or "trace-dot" (`adlang trace --format dot`, with
// each node's adjoint when `wrt` is given). `env` holds NAME=VALUE lines (--env), `precision`
// is a --precision value, `wrt` the input of diff (--wrt). The program is named
// "playground.ad" in diagnostics.
PlaygroundResult run_playground(const std::string& command, const std::string& source,
                                const std::string& env, const std::string& precision,
                                const std::string& wrt);

}  // namespace adlang
