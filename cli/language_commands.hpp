// The subcommands over one program (run, graph, trace, diff, plot, fmt) and the REPL: each adds
// its flags to `app` and, when it runs (during app.parse()), sets `exit_code` to its command
// function's (driver/commands.hpp). cli/subcommands.cpp lists them with every other subcommand.
#pragma once

namespace CLI {
class App;  // <CLI/CLI.hpp>, included by the files that add options: it is heavy to compile
}  // namespace CLI

namespace adlang {

void register_run_command(CLI::App& app, int& exit_code);
void register_graph_command(CLI::App& app, int& exit_code);
void register_trace_command(CLI::App& app, int& exit_code);
void register_diff_command(CLI::App& app, int& exit_code);
void register_plot_command(CLI::App& app, int& exit_code);
void register_fmt_command(CLI::App& app, int& exit_code);
void register_repl_command(CLI::App& app, int& exit_code);

}  // namespace adlang
