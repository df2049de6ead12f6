// adlang run: ordinary evaluation of a program (Figs. 2-3).
#include "cli/command_runner.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/json.hpp"
#include "semantics/compiled_eval.hpp"

namespace adlang {

int run_command(const CommonOptions& opts, std::ostream& out, std::ostream& err) {
  if (opts.derivation) return derivation_command(opts, false, out, err);
  std::shared_ptr<SourceFile> file;
  return run_guarded(opts.json, out, err, file, [&] {
    return with_precision(opts.precision, [&]<class S>() {
      auto p = load_program<S>(opts, file);
      ValueEnv<S> rho = p->input_env();
      EvalContext cx(eval_options(opts), p->names);
      Value<S> v = evaluate(p->term, rho, cx);
      Type t = p->term.type();
      if (opts.json) {
        out << "{\"value\": " << print_value_json<S>(t, v.data())
            << ", \"text\": " << json::quote(print_value<S>(t, v))
            << ", \"type\": " << json::quote(to_string(t)) << ", \"calls\": " << cx.calls << "}\n";
      } else {
        out << print_value<S>(t, v) << "\n";
      }
      return int(kExitOk);
    });
  });
}

}  // namespace adlang
