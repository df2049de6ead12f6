// The `adlang` subcommands as functions: each writes its output to `out`, diagnostics to
// `err`, and returns the exit code (cli/exit_codes.hpp). cli/main.cpp only parses flags.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "cli/command_options.hpp"

namespace adlang {

// adlang run: the value of the program (ordinary evaluation, Figs. 2-3).
int run_command(const RunCommandOptions& opts, std::ostream& out, std::ostream& err);
// adlang run on the compiled evaluator (the REPL's runs).
int run_command(const CommonOptions& opts, std::ostream& out, std::ostream& err);

// adlang graph: the program's tagged dataflow graph as DOT, SVG or PNG, with --stats the
// graph's counts and those of one run.
int graph_command(const GraphCommandOptions& opts, std::ostream& out, std::ostream& err);

// adlang trace: the trace term of the program (symbolic evaluation, Figs. 4-5).
int trace_command(const TraceOptions& opts, std::ostream& out, std::ostream& err);

// adlang diff: the trace C, the derivative dir.R_v(x:T. C) for the input x = --wrt (Fig. 6),
// and its value.
int diff_command(const DiffOptions& opts, std::ostream& out, std::ostream& err);

// adlang run --derivation / adlang trace --derivation: the derivation of the evaluation
// judgement phi | rho |- M => V (Figs. 2-3), or of phi | rho |- M ~> C when `symbolic`
// (Figs. 4-5), recorded from the reference evaluators.
int derivation_command(const CommonOptions& opts, bool symbolic, std::ostream& out,
                       std::ostream& err);

// adlang trace --format dot|svg|png: the trace as a graph with each node's value (and with
// --wrt, its adjoint), drawn by Graphviz.
int trace_picture_command(const TraceOptions& opts, std::ostream& out, std::ostream& err);

// adlang plot: samples the program, its derivative by rd and central differences over an
// interval, writes the table to `out` and the chart (gnuplot) to opts.output.
int plot_command(const PlotOptions& opts, std::ostream& out, std::ostream& err);

// adlang fmt: the program printed back after a front-end step (cli/fmt_command.cpp).
int fmt_command(const FmtOptions& opts, std::ostream& out, std::ostream& err);
// "parse", "desugar", "resolve".
std::optional<FmtStep> parse_fmt_step(const std::string& s);

}  // namespace adlang
