#include "cli/command_runner.hpp"

#include <new>

#include "cli/exit_codes.hpp"
#include "cli/json.hpp"
#include "lang/diagnostics.hpp"
#include "lang/stack.hpp"
#include "lang/term_size.hpp"

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

EvalOptions eval_options(const CommonOptions& opts) {
  EvalOptions e;
  e.predicates = opts.predicates;
  // The compiled evaluator for every precision; the reference one under --unfold (Fig. 8).
  e.evaluator = Evaluator::Compiled;
  e.fuel = opts.fuel;
  e.unfold = opts.unfold;
  e.max_trace_nodes = opts.max_trace;
  use_ad(e, opts.ad);
  e.max_derivative_steps = opts.max_derivative_steps.value_or(
      opts.ad == AdMode::Paper ? kPaperDerivativeSteps : kLinearDerivativeSteps);
  return e;
}

int run_guarded(bool json, std::ostream& out, std::ostream& err, std::shared_ptr<SourceFile>& file,
                const std::function<int()>& body) {
  int code = kExitInternalError;
  auto guarded = [&] {
    try {
      code = body();
    } catch (const CommandFailure& e) {
      report(json, out, err, e.code() == kExitCompileError ? "compile" : "usage", e.message());
      code = e.code();
    } catch (const CompileError& e) {
      report(json, out, err, "compile", render(e.diagnostic(), file.get()), e.diagnostic().loc);
      code = kExitCompileError;
    } catch (const Undefined& e) {
      Diagnostic d{Severity::Error, e.loc(), std::string("undefined: ") + e.what(), e.notes()};
      report(json, out, err, "undefined", render(d, file.get(), "adlang"), e.loc());
      code = kExitUndefined;
    } catch (const StackExhausted& e) {
      std::string msg = std::string("adlang: error: undefined: ") + e.what() +
                        " (the evaluator's stack is exhausted; the recursion may not "
                        "terminate)\n";
      report(json, out, err, "undefined", msg);
      code = kExitUndefined;
    } catch (const std::bad_alloc&) {
      report(json, out, err, "resources",
             "adlang: error: out of memory (a trace or derivative is too large; lower "
             "--max-trace or --max-derivative-steps)\n");
      code = kExitUndefined;
    } catch (const InternalError& e) {
      report(json, out, err, "internal",
             std::string("adlang: ") + e.what() +
                 "\nthis is a bug in adlang; please report it "
                 "with the program that triggered it\n");
      code = kExitInternalError;
    } catch (const std::exception& e) {
      report(json, out, err, "internal", std::string("adlang: internal error: ") + e.what() + "\n");
      code = kExitInternalError;
    }
  };
  run_on_large_stack(guarded);
  return code;
}

}  // namespace adlang
