// A stand-alone `adlang`-like executable with only the `pyrewrite` subcommand, for tests before
// cli/main.cpp wires register_pyrewrite_command in.
#include <CLI/CLI.hpp>

#include "cli/pyrewrite_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"adlang (pyrewrite only)"};
  app.require_subcommand(1);
  int exit_code = 0;
  adlang::cli::register_pyrewrite_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return exit_code;
}
