// The `adlang` subcommands as functions: each writes its output to `out`, diagnostics to
// `err`, and returns the exit code (support/exit_codes.hpp). The front ends (cli/, web/) only
// gather the options. Given a `result` (driver/command_result.hpp), a command also records
// there what it computed (value, type, trace, derivative, pictures) and how it failed; the
// session (driver/session.hpp) passes one.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "checker/runner.hpp"
#include "driver/command_options.hpp"
#include "driver/command_result.hpp"

namespace adlang {

// adlang run: the value of the program (ordinary evaluation, Figs. 2-3).
int run_command(const RunCommandOptions& opts, std::ostream& out, std::ostream& err,
                CommandResult* result = nullptr);
// adlang run on the compiled evaluator (the REPL's runs).
int run_command(const CommonOptions& opts, std::ostream& out, std::ostream& err,
                CommandResult* result = nullptr);

// adlang graph: the program's tagged dataflow graph as DOT, SVG or PNG, with --stats the
// graph's counts and those of one run.
int graph_command(const GraphCommandOptions& opts, std::ostream& out, std::ostream& err);

// adlang trace: the trace term of the program (symbolic evaluation, Figs. 4-5).
int trace_command(const TraceOptions& opts, std::ostream& out, std::ostream& err,
                  CommandResult* result = nullptr);

// adlang diff: the trace C, the derivative dir.R_v(x:T. C) for the input x = --wrt (Fig. 6),
// and its value.
int diff_command(const DiffOptions& opts, std::ostream& out, std::ostream& err,
                 CommandResult* result = nullptr);

// adlang run --derivation / adlang trace --derivation: the derivation of the evaluation
// judgement phi | rho |- M => V (Figs. 2-3), or of phi | rho |- M ~> C when `symbolic`
// (Figs. 4-5), recorded from the reference evaluators.
int derivation_command(const CommonOptions& opts, bool symbolic, std::ostream& out,
                       std::ostream& err, CommandResult* result = nullptr);

// adlang trace --format dot|svg|png: the trace as a graph with each node's value (and with
// --wrt, its adjoint), drawn by Graphviz. Given a `result` and no -o, an SVG or PNG is drawn
// into memory: each page one of result->pictures.
int trace_picture_command(const TraceOptions& opts, std::ostream& out, std::ostream& err,
                          CommandResult* result = nullptr);

// adlang plot: samples the program, its derivative by rd and central differences over an
// interval, writes the table to `out` and the chart (gnuplot) to opts.output, or with
// opts.picture_in_result into result->pictures.
int plot_command(const PlotOptions& opts, std::ostream& out, std::ostream& err,
                 CommandResult* result = nullptr);

// adlang fmt: the program printed back after a front-end step (driver/fmt_command.cpp).
int fmt_command(const FmtOptions& opts, std::ostream& out, std::ostream& err);
// "parse", "desugar", "resolve".
std::optional<FmtStep> parse_fmt_step(const std::string& s);

struct DenOptions : CommonOptions {
  std::uint64_t max_approximant = std::uint64_t(1) << 16;
};

// adlang den: [[program]] gamma (Fig. 7), gamma the --env inputs.
int den_command(const DenOptions& opts, std::ostream& out, std::ostream& err,
                CommandResult* result = nullptr);

struct CheckOptions {
  std::vector<std::string> properties;  // empty: the default set
  std::uint64_t count = 1000;
  std::uint64_t seed = 1;
  unsigned max_size = 0;  // 0: the default size
  unsigned shard_index = 0, shard_count = 1;
  // Threads that check programs at once (checker::RunOptions::jobs); 0: one.
  unsigned jobs = 0;
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
int check_command(const CheckOptions& opts, std::ostream& out, std::ostream& err,
                  CommandResult* result = nullptr);

// The properties of `adlang check` on one program (`adlang check FILE`, the REPL's `:check E`):
// its term with the inputs `program.env`, once per property (all, or `properties`); one line per
// property: pass, FAIL with the differing results, both undefined, or not applicable and why.
// Exit 0 when none fails, 4 when one does, 2 for an unknown property.
int check_one_program(const CommonOptions& program, const std::vector<std::string>& properties,
                      bool linear_r, std::ostream& out, std::ostream& err,
                      CommandResult* result = nullptr);

}  // namespace adlang
