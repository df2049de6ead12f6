// Options of the `adlang` subcommands, filled in by cli/main.cpp (CLI11) and read by the
// command functions (cli/commands.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/derivation_format.hpp"
#include "lang/printer.hpp"
#include "lang/source.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/scalar.hpp"

namespace adlang {

// Which R differentiates traces (--ad).
enum class AdMode {
  Linear,  // ad/linear_reverse_deriv.hpp: reverse accumulation, output linear in the trace
  Paper,   // ad/reverse_deriv.hpp: Fig. 6 literally (the reference; exponential when nested)
};

// The default R step budgets: the paper's R needs ~2^n steps for n nested lets, so its budget
// stops runaway nesting early (250,000 steps and the evaluation of their output take about 3 s
// here: docs/robustness.md); the linear R's work is linear in the trace, and its budget is a
// memory guard.
inline constexpr std::uint64_t kPaperDerivativeSteps = 250'000;
inline constexpr std::uint64_t kLinearDerivativeSteps = 200'000'000;

struct CommonOptions {
  std::string file;
  // The program text when it does not come from `file` (the REPL); `file` is then unused.
  std::shared_ptr<SourceFile> source;
  std::vector<std::string> env;  // NAME=VALUE
  Precision precision = Precision::Double;
  PredicateMode predicates = PredicateMode::Strict;
  std::uint64_t fuel = EvalOptions{}.fuel;
  std::optional<std::uint64_t> unfold;
  std::uint64_t max_trace = EvalOptions{}.max_trace_nodes;
  std::uint64_t max_rd_nesting = EvalOptions{}.max_rd_nesting;
  std::optional<std::uint64_t> max_derivative_steps;  // default: by `ad`, as above
  AdMode ad = AdMode::Linear;
  bool json = false;
  // --derivation (run, trace): print the derivation of the judgement instead of the result.
  std::optional<DerivationView> derivation;
  std::uint64_t max_judgements = 2'000'000;  // recorded at most (--derivation-max-judgements)
};

// The default trace budget of the commands that print the trace (trace, diff): printing costs
// several microseconds per trace step, so a trace of 500,000 steps prints in about 4 s here
// (docs/robustness.md). `run` keeps EvalOptions' budget: it evaluates traces, it does not print
// them.
inline constexpr std::uint64_t kPrintedTraceSteps = 500'000;

struct TraceOptions : CommonOptions {
  TraceOptions() { max_trace = kPrintedTraceSteps; }
  PrintStyle style = PrintStyle::Concrete;
  std::string format = "text";     // text, or a picture of the trace: dot, svg, png
  std::string output;              // -o: the picture's file (dot: standard output if empty)
  std::optional<std::string> wrt;  // pictures: also each node's adjoint for this input
  std::optional<std::string> dir;  // the cotangent (default 1 for a real result)
};

// adlang plot: the program as a function of one input, its derivative by rd and central
// differences.
struct PlotOptions : CommonOptions {
  std::string wrt;
  double from = -1, to = 1;
  std::size_t samples = 201;
  std::string output;  // .svg or .png
};

struct DiffOptions : CommonOptions {
  DiffOptions() { max_trace = kPrintedTraceSteps; }
  std::string wrt;
  std::optional<std::string> dir;  // the cotangent; defaults to 1 for a real result
  PrintStyle style = PrintStyle::Concrete;
};

}  // namespace adlang
