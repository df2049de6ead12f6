// `adlang kernel -f CONNECTION_FILE`: the Jupyter kernel process (xeus over ZeroMQ), and
// `adlang kernel install [--user | --prefix DIR]`: its kernelspec (cli/kernelspec.hpp).
// docs/kernel.md.
#pragma once

#include <CLI/CLI.hpp>

namespace adlang {

// Adds `kernel` (with `install`) to `app`; when one of them runs (during app.parse()) it
// stores its exit code in `exit_code`, which otherwise is left as it was.
void register_kernel_command(CLI::App& app, int& exit_code);

}  // namespace adlang
