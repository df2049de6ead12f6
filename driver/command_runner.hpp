// Shared machinery of the commands: run a command body on a large stack and turn every way it
// can fail into a rendered message and an exit code (never an uncaught exception).
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "driver/command_options.hpp"
#include "driver/command_result.hpp"
#include "driver/program_loader.hpp"
#include "lang/near_miss.hpp"
#include "lang/printer.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/scalar.hpp"
#include "semantics/undefined.hpp"
#include "semantics/value.hpp"
#include "support/exit_codes.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

// Runs body() on a large stack. Maps CommandFailure, CompileError, Undefined, StackExhausted,
// InternalError and std::bad_alloc to their kinds (driver/error_kind.hpp) and exit codes,
// writing the message to `err` (as a JSON object on `out` when `json`) and, given a `result`,
// recording the failure there with its message and location. The body sets `file` once it has
// read the program, so that errors found later are shown with their source line.
int run_guarded(bool json, std::ostream& out, std::ostream& err, std::shared_ptr<SourceFile>& file,
                const std::function<int()>& body, CommandResult* result = nullptr);

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

// A closed value as a term: literals, * and pairs. A real whose text is not a decimal literal
// (an exact rational such as 1/3) has no such term: nullopt.
template <class S>
std::optional<Term> value_term(Type t, const S*& data) {
  switch (t.kind()) {
    case TypeKind::Real: {
      std::string text = ScalarTraits<S>::to_text(*data++);
      if (!is_literal_text(text)) return std::nullopt;
      return mk::literal(text);
    }
    case TypeKind::Unit:
      return mk::unit();
    case TypeKind::Pair: {
      auto a = value_term<S>(t.first(), data);
      auto b = value_term<S>(t.second(), data);
      if (!a || !b) return std::nullopt;
      return mk::pair(*a, *b);
    }
  }
  return std::nullopt;
}

// The cotangent W of a derivative of a result of type u: --dir (a value of type u), or 1
// when u is real. CommandFailure (usage) otherwise.
template <class S>
Term cotangent_term(const std::optional<std::string>& dir, Type u);

// The input named `name` (--wrt); CommandFailure (usage) if the program has none.
template <class S>
const ProgramInput<S>& input_named(const LoadedProgram<S>& p, const std::string& name) {
  for (const ProgramInput<S>& in : p.inputs)
    if (in.name.str() == name) return in;
  std::vector<std::string> inputs;
  for (const ProgramInput<S>& in : p.inputs)
    inputs.push_back(in.name.str());
  std::optional<std::string> near = did_you_mean(name, inputs);
  throw CommandFailure(kExitUsage, "adlang: error: " + setting_hint(Setting::Wrt, name) +
                                       ": the program has no input of that name\n" +
                                       (near ? "note: " + *near + "\n" : ""));
}

// Runs a drawing tool (argv) with `input`; CommandFailure (usage) with its messages and the
// Debian package that provides it when it fails.
void draw_with(const std::vector<std::string>& argv, const std::string& input,
               const std::string& package);
// The same for a tool that writes the picture on its standard output: its bytes.
std::string draw_into_memory(const std::vector<std::string>& argv, const std::string& input,
                             const std::string& package);

// Terms with more nodes (as a tree) than this are not printed: printing expands shared
// subterms, and R's output can be exponentially larger as a tree than in memory.
inline constexpr double kMaxPrintedNodes = 2e6;

// The term printed, or a one-line comment saying why it is not (too large).
std::string printable_term(const Term& t, PrintStyle style);

}  // namespace adlang
