// The flags of `adlang den` and `adlang check`: the denotational evaluator (Fig. 7) and the
// conformance checker (the paper's theorems as random tests), whose functions are the driver's
// (driver/commands.hpp).
//
// Each adds its flags to `app`; when it runs (during app.parse()) it sets `exit_code` to its
// command function's. cli/subcommands.cpp lists them.
#pragma once

namespace CLI {
class App;  // <CLI/CLI.hpp>, included by the files that add options: it is heavy to compile
}  // namespace CLI

namespace adlang {

void register_den_command(CLI::App& app, int& exit_code);
// Also makes the properties run only when named (the export's) known to `--property`.
void register_check_command(CLI::App& app, int& exit_code);

}  // namespace adlang
