#include "driver/command_runner.hpp"

#include <new>

#include "driver/json.hpp"
#include "lang/diagnostics.hpp"
#include "lang/term_size.hpp"
#include "semantics/value.hpp"
#include "support/exit_codes.hpp"
#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"
#include "support/stack.hpp"
#include "viz/external_tool.hpp"

#include <cstdio>

namespace adlang {

namespace {

void report(bool json, std::ostream& out, std::ostream& err, const char* kind,
            const std::string& text, SourceLoc loc = {}) {
  if (json) {
    out << "{\"error\": {\"kind\": " << json::quote(kind) << ", \"message\": " << json::quote(text);
    if (loc.known()) out << ", \"line\": " << loc.line << ", \"col\": " << loc.col;
    out << "}}\n";
  } else {
    err << text;
  }
}

}  // namespace

std::string printable_term(const Term& t, PrintStyle style) {
  TermSize size = term_size(t);
  if (size.tree > kMaxPrintedNodes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", size.tree);
    return std::string("-- not printed: the term has ") + buf + " nodes (" +
           std::to_string(size.dag) + " distinct)";
  }
  return print_term(t, style);
}

std::uint64_t default_fuel(Precision p) {
  // CPU time per call of an endless recursion (fact(1e308), docs/cli.md): 0.29 us in double,
  // 1.3 us at 50 digits, 1.5 us at 100, 2.6 us in exact rationals; each default lasts about
  // 3 s of CPU.
  switch (p) {
    case Precision::Double:
      return EvalOptions{}.fuel;
    case Precision::Digits50:
    case Precision::Digits100:
      return 2'000'000;
    case Precision::Exact:
      return 1'000'000;
  }
  return EvalOptions{}.fuel;
}

EvalOptions eval_options(const CommonOptions& opts) {
  EvalOptions e;
  e.predicates = opts.predicates;
  // The compiled evaluator for every precision; the reference one under --unfold (Fig. 8).
  e.evaluator = Evaluator::Compiled;
  e.fuel = opts.fuel.value_or(default_fuel(opts.precision));
  e.unfold = opts.unfold;
  e.max_trace_nodes = opts.max_trace;
  e.max_rd_nesting = opts.max_rd_nesting;
  e.max_rd_trace_nodes = opts.max_rd_trace;
  use_ad(e, opts.ad);
  e.max_derivative_steps = opts.max_derivative_steps.value_or(
      opts.ad == AdMode::Paper ? kPaperDerivativeSteps : kLinearDerivativeSteps);
  return e;
}

int run_guarded(bool json, std::ostream& out, std::ostream& err, std::shared_ptr<SourceFile>& file,
                const std::function<int()>& body, CommandResult* result) {
  int code = kExitInternalError;
  // Each failure is decided here once: its kind (and so its exit code), its message and where
  // it points, and the text printed for it.
  auto failed = [&](ErrorKind kind, const std::string& message, const std::string& rendered,
                    SourceLoc loc = {}) {
    report(json, out, err, json_kind(kind), rendered, loc);
    code = exit_code_of(kind);
    if (!result) return;
    CommandDiagnostic d{message, std::nullopt, 0, 0, rendered};
    if (loc.known() && file) {
      SourceOrigin o = file->origin_of(loc.line);
      d.origin = o.name;
      d.line = o.line;
      d.col = loc.col;
    }
    result->fail(kind, std::move(d));
  };
  auto guarded = [&] {
    try {
      code = body();
    } catch (const CommandFailure& e) {
      failed(e.code() == kExitCompileError ? ErrorKind::Compile : ErrorKind::Usage,
             e.summary().value_or(e.message()), e.message(), e.loc());
    } catch (const CompileError& e) {
      failed(ErrorKind::Compile, e.diagnostic().message, render(e.diagnostic(), file.get()),
             e.diagnostic().loc);
    } catch (const Undefined& e) {
      Diagnostic d{Severity::Error, e.loc(), std::string("undefined: ") + e.what(), e.notes()};
      failed(ErrorKind::Undefined, d.message, render(d, file.get(), "adlang"), e.loc());
    } catch (const StackExhausted& e) {
      std::string msg = std::string("undefined: ") + e.what() +
                        " (the evaluator's stack is exhausted; the recursion may not "
                        "terminate)";
      failed(ErrorKind::Undefined, msg, "adlang: error: " + msg + "\n");
    } catch (const BudgetExceeded& e) {
      std::string msg = std::string("undefined: ") + e.what();
      std::string text = "adlang: error: " + msg + "\n";
      for (const std::string& n : e.notes())
        text += "note: " + n + "\n";
      failed(ErrorKind::Resources, msg, text);
    } catch (const std::bad_alloc&) {
      std::string msg = "out of memory (a trace or derivative is too large; lower " +
                        setting_hint(Setting::MaxTrace, "N") + " or " +
                        setting_hint(Setting::MaxDerivativeSteps, "N") + ")";
      failed(ErrorKind::Resources, msg, "adlang: error: " + msg + "\n");
    } catch (const InternalError& e) {
      failed(ErrorKind::Internal, e.what(),
             std::string("adlang: ") + e.what() +
                 "\nthis is a bug in adlang; please report it "
                 "with the program that triggered it\n");
    } catch (const std::exception& e) {
      std::string msg = std::string("internal error: ") + e.what();
      failed(ErrorKind::Internal, msg, "adlang: " + msg + "\n");
    }
  };
  run_on_large_stack(guarded);
  if (result) result->exit_code = code;
  return code;
}

namespace {

// The tool's failure, with its messages and the Debian package that provides it.
void throw_unless_drawn(const ToolResult& r, const std::string& tool, const std::string& package) {
  if (r.exit_code == 0) return;
  throw CommandFailure(kExitUsage, "adlang: error: " + tool + " failed" +
                                       (r.messages.empty() ? std::string() : ": " + r.messages) +
                                       "\nnote: drawing needs " + tool + " (Debian: " + package +
                                       ")\n");
}

}  // namespace

void draw_with(const std::vector<std::string>& argv, const std::string& input,
               const std::string& package) {
  throw_unless_drawn(run_tool(argv, input), argv[0], package);
}

std::string draw_into_memory(const std::vector<std::string>& argv, const std::string& input,
                             const std::string& package) {
  ToolResult r = run_tool(argv, input, true);
  throw_unless_drawn(r, argv[0], package);
  return std::move(r.output);
}

template <class S>
Term cotangent_term(const std::optional<std::string>& dir, Type u) {
  if (dir) {
    ParsedValue<S> v;
    try {
      v = parse_value<S>(*dir);
    } catch (const ValueSyntaxError& e) {
      throw CommandFailure(kExitUsage, std::string("adlang: error: --dir: ") + e.what() + "\n");
    }
    if (v.type != u) {
      throw CommandFailure(kExitUsage, "adlang: error: --dir has type " + to_string(v.type) +
                                           " but the program's result has type " + to_string(u) +
                                           "\n");
    }
    const S* data = v.value.data();
    auto term = value_term<S>(v.type, data);
    if (!term) throw CommandFailure(kExitUsage, "adlang: error: --dir is not a decimal value\n");
    return *term;
  }
  if (u.is_real()) return mk::literal("1");
  throw CommandFailure(kExitUsage, "adlang: error: the program's result has type " + to_string(u) +
                                       ": give a cotangent of that type with --dir\n");
}

template Term cotangent_term<double>(const std::optional<std::string>&, Type);
template Term cotangent_term<Mpfr50>(const std::optional<std::string>&, Type);
template Term cotangent_term<Mpfr100>(const std::optional<std::string>&, Type);
template Term cotangent_term<Rational>(const std::optional<std::string>&, Type);

}  // namespace adlang
