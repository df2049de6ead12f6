// Options of the `adlang` subcommands, filled in by cli/main.cpp (CLI11) and read by the
// command functions (cli/commands.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lang/printer.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/scalar.hpp"

namespace adlang {

// Which R differentiates traces (--ad).
enum class AdMode {
  Linear,  // ad/linear_reverse_deriv.hpp: reverse accumulation, output linear in the trace
  Paper,   // ad/reverse_deriv.hpp: Fig. 6 literally (the reference; exponential when nested)
};

// The default R step budgets: the paper's R needs ~2^n steps for n nested lets, so its budget
// stops runaway nesting early; the linear R's work is linear in the trace, and its budget is a
// memory guard.
inline constexpr std::uint64_t kPaperDerivativeSteps = 1'000'000;
inline constexpr std::uint64_t kLinearDerivativeSteps = 200'000'000;

struct CommonOptions {
  std::string file;
  std::vector<std::string> env;  // NAME=VALUE
  Precision precision = Precision::Double;
  PredicateMode predicates = PredicateMode::Strict;
  std::uint64_t fuel = EvalOptions{}.fuel;
  std::optional<std::uint64_t> unfold;
  std::uint64_t max_trace = EvalOptions{}.max_trace_nodes;
  std::optional<std::uint64_t> max_derivative_steps;  // default: by `ad`, as above
  AdMode ad = AdMode::Linear;
  bool json = false;
};

// The front-end steps `adlang fmt --after` prints the program after.
enum class FmtStep { Parse, Desugar, Resolve };

struct FmtOptions {
  std::string file;
  FmtStep after = FmtStep::Parse;
  std::vector<std::string> env;  // NAME=VALUE: the inputs' types (after desugar or resolve)
};

struct TraceOptions : CommonOptions {
  PrintStyle style = PrintStyle::Concrete;
};

struct DiffOptions : CommonOptions {
  std::string wrt;
  std::optional<std::string> dir;  // the cotangent; defaults to 1 for a real result
  PrintStyle style = PrintStyle::Concrete;
};

}  // namespace adlang
