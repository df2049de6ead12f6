// adlang diff: the program's reverse derivative with respect to one input. The program is
// traced (Figs. 4-5) to C, with the input x left free; then W.R_V(x:T. C) of Fig. 6 is built
// for V the input's value and W the cotangent --dir, printed, and evaluated.
#include <cstdio>

#include "ad/reverse_deriv.hpp"
#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/json.hpp"
#include "lang/term_size.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/exit_codes.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

namespace {

std::string size_text(const TermSize& s) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.0f nodes", s.tree);
  return buf;
}

}  // namespace

int diff_command(const DiffOptions& opts, std::ostream& out, std::ostream& err,
                 CommandResult* result) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(
      opts.json, out, err, file,
      [&] {
        return with_precision(opts.precision, [&]<class S>() {
          auto p = load_program<S>(opts, file);
          const ProgramInput<S>* wrt = &input_named(*p, opts.wrt);
          ValueEnv<S> rho = p->input_env();
          EvalContext cx(eval_options(opts), p->names);
          Traced<S> traced = symbolic_eval(p->term, rho, nullptr, cx);
          Type u = traced.trace.type();

          Term w = cotangent_term<S>(opts.dir, u);  // W
          // The point V: the input's value as a term (or the input itself when it has none).
          const S* data = wrt->value.data();
          Term v = value_term<S>(wrt->type, data).value_or(mk::var(wrt->name, wrt->type));
          Term d;
          try {
            d = cx.options.reverse_deriv(w, v, wrt->name, wrt->type, traced.trace, p->names,
                                         cx.derivative_steps_left(), &cx.derivative);
          } catch (const DerivativeTooLarge& e) {
            throw Undefined(
                UndefinedKind::TraceSize, {}, e.what(),
                {"raise the limit with " + setting_hint(Setting::MaxDerivativeSteps, "N")});
          }
          Value<S> value = evaluate(d, rho, cx);
          TermSize csize = term_size(traced.trace), dsize = term_size(d);
          std::string ctext = printable_term(traced.trace, opts.style);
          std::string dtext = printable_term(d, opts.style);
          std::string header = print_term(w, PrintStyle::Concrete) + ".R[" +
                               print_term(v, PrintStyle::Concrete) + "](" + wrt->name.str() + ": " +
                               to_string(wrt->type) + ". C)";
          if (result) {
            result->trace = ctext;
            result->derivative = dtext;
            result->value = print_value<S>(wrt->type, value);
            result->type = to_string(wrt->type);
          }
          if (opts.json) {
            out << "{\"trace\": " << json::quote(ctext) << ", \"trace_size\": " << csize.tree
                << ", \"derivative\": " << json::quote(dtext)
                << ", \"derivative_size\": " << dsize.tree
                << ", \"derivative_distinct_nodes\": " << dsize.dag
                << ", \"value\": " << print_value_json<S>(wrt->type, value.data())
                << ", \"text\": " << json::quote(print_value<S>(wrt->type, value))
                << ", \"type\": " << json::quote(to_string(wrt->type)) << "}\n";
          } else {
            out << "-- trace C (" << size_text(csize) << "):\n"
                << ctext << "\n"
                << "-- derivative " << header << " (" << size_text(dsize) << "):\n"
                << dtext << "\n"
                << "-- value:\n"
                << print_value<S>(wrt->type, value) << "\n";
          }
          return int(kExitOk);
        });
      },
      result);
}

}  // namespace adlang
