// Start-up (docs/performance.md, "Start-up"): `adlang` is built twice from cli/main.cpp. The lean
// `adlang` links only the libraries every command uses; adlang-full, beside it, also links
// CPython (the .py front end and pyrewrite), OpenMPI (`mpirun -n N adlang ...`), Graphviz's
// library (graph pictures), libedit (the REPL), xeus (the Jupyter kernel) and cpp-httplib
// (`serve`). The lean adlang hands a command that needs one of them over to adlang-full by exec,
// with the same arguments, environment and process, before it has read standard input or
// written anything: the command then behaves exactly as if adlang-full had been started.
#pragma once

namespace adlang::cli {

// The file name of the full build, in the lean adlang's directory.
inline constexpr const char* kFullBuildName = "adlang-full";

// Lean adlang: remembers the command line, and hands the command over to adlang-full at once
// when its arguments show that it needs a library the lean adlang does not link (under mpirun; a
// .py file; pyrewrite, repl, kernel, serve; graph pictures; the top-level help, which lists every
// subcommand). Commands that reach such a library some other way are handed over when they
// reach it (cli/full_build_handover.cpp).
void hand_over_if_needed(int argc, char** argv);

// Lean adlang: replaces this process by adlang-full with the remembered command line. `needs`
// names what adlang-full has, for the message when it cannot be started (exit 5).
[[noreturn]] void hand_over_to_full_build(const char* needs);

}  // namespace adlang::cli
