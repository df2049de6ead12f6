// adlang trace: symbolic evaluation of a program to its trace term (Figs. 4-5).
#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/json.hpp"
#include "lang/term_size.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

int trace_command(const TraceOptions& opts, std::ostream& out, std::ostream& err,
                  CommandResult* result) {
  if (opts.derivation) return derivation_command(opts, true, out, err, result);
  if (opts.format != "text") return trace_picture_command(opts, out, err, result);
  std::shared_ptr<SourceFile> file;
  return run_guarded(
      opts.json, out, err, file,
      [&] {
        return with_precision(opts.precision, [&]<class S>() {
          auto p = load_program<S>(opts, file);
          ValueEnv<S> rho = p->input_env();
          EvalContext cx(eval_options(opts), p->names);
          Traced<S> t = symbolic_eval(p->term, rho, nullptr, cx);
          TermSize size = term_size(t.trace);
          std::string text = printable_term(t.trace, opts.style);
          Type type = t.trace.type();
          if (result) {
            result->trace = text;
            result->type = to_string(type);
          }
          if (opts.json) {
            out << "{\"trace\": " << json::quote(text)
                << ", \"type\": " << json::quote(to_string(type)) << ", \"size\": " << size.tree
                << ", \"value\": " << print_value_json<S>(type, t.value.data()) << "}\n";
          } else {
            out << text << "\n";
          }
          return int(kExitOk);
        });
      },
      result);
}

}  // namespace adlang
