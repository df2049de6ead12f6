// adlang den: the denotational meaning of a program (Fig. 7), computed by
// semantics/denotational_eval independently of the operational evaluators.
#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/json.hpp"
#include "semantics/denotational_eval.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

int den_command(const DenOptions& opts, std::ostream& out, std::ostream& err,
                CommandResult* result) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(
      opts.json, out, err, file,
      [&] {
        return with_precision(opts.precision, [&]<class S>() {
          auto p = load_program<S>(opts, file);
          DenEnv<S> gamma;
          for (const ProgramInput<S>& in : p->inputs)
            gamma.emplace_back(in.name, in.value);
          DenotationOptions o;
          o.predicates = opts.predicates;
          o.unfold = opts.unfold;
          o.fuel = opts.fuel.value_or(default_fuel(opts.precision));
          o.max_rd_nesting = opts.max_rd_nesting;
          o.max_approximant = opts.max_approximant;
          DenotationStats stats;
          Value<S> v = denote(p->term, gamma, o, &stats);
          Type t = p->term.type();
          if (result) {
            result->value = print_value<S>(t, v);
            result->type = to_string(t);
          }
          if (opts.json) {
            out << "{\"value\": " << print_value_json<S>(t, v.data())
                << ", \"text\": " << json::quote(print_value<S>(t, v))
                << ", \"type\": " << json::quote(to_string(t))
                << ", \"approximant\": " << stats.approximant << ", \"calls\": " << stats.calls
                << ", \"jacobian_columns\": " << stats.jacobian_columns << "}\n";
          } else {
            out << print_value<S>(t, v) << "\n";
          }
          return int(kExitOk);
        });
      },
      result);
}

}  // namespace adlang
