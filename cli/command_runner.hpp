// Shared machinery of the commands: run a command body on a large stack and turn every way it
// can fail into a rendered message and an exit code (never an uncaught exception).
#pragma once

#include <functional>
#include <ostream>

#include "cli/command_options.hpp"
#include "cli/program_loader.hpp"
#include "lang/printer.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/undefined.hpp"

namespace adlang {

// Runs body() on a large stack. Maps CommandFailure, CompileError, Undefined, StackExhausted,
// InternalError and std::bad_alloc to their exit codes, writing the message to `err` (as a
// JSON object on `out` when `json`). The body sets `file` once it has read the program, so
// that errors found later are shown with their source line.
int run_guarded(bool json, std::ostream& out, std::ostream& err, std::shared_ptr<SourceFile>& file,
                const std::function<int()>& body);

// EvalOptions from the command-line options.
EvalOptions eval_options(const CommonOptions& opts);

// Calls f.template operator()<S>() for the scalar type of `p`.
template <class F>
int with_precision(Precision p, F&& f) {
  switch (p) {
    case Precision::Double:
      return f.template operator()<double>();
    case Precision::Digits50:
      return f.template operator()<Mpfr50>();
    case Precision::Digits100:
      return f.template operator()<Mpfr100>();
    case Precision::Exact:
      return f.template operator()<Rational>();
  }
  return f.template operator()<double>();
}

// Terms with more nodes (as a tree) than this are not printed: printing expands shared
// subterms, and R's output can be exponentially larger as a tree than in memory.
inline constexpr double kMaxPrintedNodes = 2e6;

// The term printed, or a one-line comment saying why it is not (too large).
std::string printable_term(const Term& t, PrintStyle style);

}  // namespace adlang
