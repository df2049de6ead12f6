// The table of cli/subcommands.hpp. Compiled into each executable (not the cli library), since
// adlang-full has rows the lean adlang does not: the Jupyter kernel's (ADLANG_WITH_KERNEL) and
// serve's (its HTTP library links OpenSSL, zlib and brotli; ADLANG_LEAN), which it hands over.
#include "cli/subcommands.hpp"

#include "cli/checker_commands.hpp"
#include "cli/conform_commands.hpp"
#ifdef ADLANG_WITH_KERNEL
#include "cli/kernel_command.hpp"
#endif
#include "cli/language_commands.hpp"
#include "cli/pyrewrite_command.hpp"
#include "cli/serve_command.hpp"

namespace adlang::cli {

namespace {

using enum BudgetFlags;

const Subcommand kSubcommands[] = {
    {"run", true, MemoryAndTimeout, &register_run_command},
    {"graph", true, None, &register_graph_command},
    {"trace", true, MemoryAndTimeout, &register_trace_command},
    {"diff", true, MemoryAndTimeout, &register_diff_command},
    {"plot", true, MemoryAndTimeout, &register_plot_command},
    {"fmt", true, MemoryOnly, &register_fmt_command},
    {"repl", false, None, &register_repl_command},
    {"pyrewrite", false, MemoryOnly, &register_pyrewrite_command},
    {"den", true, MemoryAndTimeout, &register_den_command},
    {"check", true, MemoryAndTimeout, &register_check_command},
    {"export", false, None, &register_export_command},
    {"conform", false, None, &register_conform_command},
#ifdef ADLANG_WITH_KERNEL
    {"kernel", false, None, &register_kernel_command},
#endif
#ifndef ADLANG_LEAN
    {"serve", false, None, &register_serve_command},
#endif
};

}  // namespace

std::span<const Subcommand> subcommands() {
  return kSubcommands;
}

}  // namespace adlang::cli
