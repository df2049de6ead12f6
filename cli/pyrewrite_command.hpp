// The `adlang pyrewrite` subcommand: rewrite a single-GPU TensorFlow training script (or the one
// script of a directory that holds the training loop) into a Horovod script.
#pragma once

namespace CLI {
class App;
}

namespace adlang::cli {

// Adds the `pyrewrite` subcommand to `app`; when it runs it sets `exit_code` (docs/design.md Sec.
// 8: 0 success, 2 usage, 3 the script cannot be parsed or rewritten).
void register_pyrewrite_command(CLI::App& app, int& exit_code);

}  // namespace adlang::cli
