// The `adlang den` and `adlang check` subcommands: the denotational evaluator
// (Fig. 7) and the conformance checker (the paper's theorems as random tests).
//
// cli/main.cpp registers them with register_checker_commands(); when one of them runs (during
// app.parse()) it stores its exit code in `exit_code`, which otherwise stays negative:
//
//   int checker_exit = -1;
//   register_checker_commands(app, checker_exit);
//   ... app.parse(argc, argv) ...
//   if (checker_exit >= 0) return checker_exit;
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "checker/runner.hpp"
#include "cli/command_options.hpp"

namespace CLI {
class App;  // <CLI/CLI.hpp>, included by the files that add options: it is heavy to compile
}  // namespace CLI

namespace adlang {

struct DenOptions : CommonOptions {
  std::uint64_t max_approximant = std::uint64_t(1) << 16;
};

// adlang den: [[program]] gamma (Fig. 7), gamma the --env inputs.
int den_command(const DenOptions& opts, std::ostream& out, std::ostream& err);

struct CheckOptions {
  std::vector<std::string> properties;  // empty: the default set
  std::uint64_t count = 1000;
  std::uint64_t seed = 1;
  unsigned max_size = 0;  // 0: the default size
  unsigned shard_index = 0, shard_count = 1;
  Precision precision = Precision::Double;
  PredicateMode predicates = PredicateMode::Strict;
  bool linear_r = false;  // --ad linear: every property with the linear R
  bool json = false;
  bool progress = true;  // a progress line on stderr (only when it is a terminal)
  bool list = false;     // list the properties and exit
  // A program to check instead of random ones (`adlang check FILE --env x=1`), and its inputs;
  // `source`, when set, is the file's text (as CommonOptions::source).
  std::string file;
  std::shared_ptr<SourceFile> source;
  std::vector<std::string> env;
  // Told the property's counts so far and its programs in total (at most every 200 ms, and at
  // the end of each property), in place of the terminal's progress line (the playground's
  // progress bar, and its table of the counts when Stop ends the run).
  checker::ProgressFn on_progress;
};

// adlang check: runs the properties on random programs and prints the summary table and any
// shrunk counterexample. Exit 0 when all pass, 4 when one fails, 2 for bad options.
int check_command(const CheckOptions& opts, std::ostream& out, std::ostream& err);

// The properties of `adlang check` on one program (`adlang check FILE`, the REPL's `:check E`):
// its term with the inputs `program.env`, once per property (all, or `properties`); one line per
// property: pass, FAIL with the differing results, both undefined, or not applicable and why.
// Exit 0 when none fails, 4 when one does, 2 for an unknown property.
int check_one_program(const CommonOptions& program, const std::vector<std::string>& properties,
                      bool linear_r, std::ostream& out, std::ostream& err);

// Adds `den` and `check` to `app`; see the comment at the top of this file.
void register_checker_commands(CLI::App& app, int& exit_code);

}  // namespace adlang
