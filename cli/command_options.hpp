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

// --predicates: "strict" or "total" as given; not given (empty), a .py program runs under
// TensorFlow's and Python's total comparisons (docs/python.md) and a .ad program under the
// paper's strict ones.
inline PredicateMode predicate_mode(const std::string& given, const std::string& file) {
  if (given == "total") return PredicateMode::Total;
  if (given == "strict") return PredicateMode::Strict;
  bool py = file.size() >= 3 && file.compare(file.size() - 3, 3, ".py") == 0;
  return py ? PredicateMode::Total : PredicateMode::Strict;
}

struct TraceOptions : CommonOptions {
  PrintStyle style = PrintStyle::Concrete;
};

struct DiffOptions : CommonOptions {
  std::string wrt;
  std::optional<std::string> dir;  // the cotangent; defaults to 1 for a real result
  PrintStyle style = PrintStyle::Concrete;
};

}  // namespace adlang
