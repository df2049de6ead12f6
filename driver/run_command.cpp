// adlang run: ordinary evaluation of a program (Figs. 2-3), by the compiled evaluator, the
// reference evaluator, or the tagged dataflow graph (static or dynamic).
#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/graph_engine.hpp"
#include "driver/json.hpp"
#include "support/exit_codes.hpp"
#ifndef ADLANG_NO_MPI
#include "driver/partitioned_run.hpp"
#endif
#include "semantics/compiled_eval.hpp"

namespace adlang {

int run_command(const RunCommandOptions& opts, std::ostream& out, std::ostream& err,
                CommandResult* result) {
  if (opts.derivation) return derivation_command(opts, false, out, err, result);
#ifdef ADLANG_NO_MPI
  // The playground (docs/playground.md) has no MPI: the partitioned graph is the CLI's.
  if (opts.partitions > 0) {
    const std::string message = "--partitions needs MPI, which this build of adlang does not have";
    err << "adlang: error: " << message << "\n";
    if (result) result->fail(ErrorKind::Usage, message, "adlang: error: " + message + "\n");
    return kExitUsage;
  }
#else
  if (opts.partitions > 0) return run_partitioned_command(opts, out, err);
#endif
  std::shared_ptr<SourceFile> file;
  return run_guarded(
      opts.json, out, err, file,
      [&] {
        if (opts.engine == RunEngine::Graph || opts.engine == RunEngine::GraphDynamic)
          return run_on_graph(opts, out, err, file);
        return with_precision(opts.precision, [&]<class S>() {
          auto p = load_program<S>(opts, file);
          check_printable(*p);
          ValueEnv<S> rho = p->input_env();
          EvalOptions eo = eval_options(opts);
          if (opts.engine == RunEngine::Reference) eo.evaluator = Evaluator::Reference;
          EvalContext cx(eo, p->names);
          Value<S> v = evaluate(p->term, rho, cx);
          Type t = p->term.type();
          if (result) {
            result->value = print_result(*p, v);
            result->type = to_string(t);
          }
          if (opts.json) {
            out << "{\"value\": " << print_value_json<S>(t, v.data())
                << ", \"text\": " << json::quote(print_result(*p, v))
                << ", \"type\": " << json::quote(to_string(t)) << ", \"calls\": " << cx.calls
                << "}\n";
          } else {
            out << print_result(*p, v) << "\n";
          }
          return int(kExitOk);
        });
      },
      result);
}

int run_command(const CommonOptions& opts, std::ostream& out, std::ostream& err,
                CommandResult* result) {
  RunCommandOptions r;
  static_cast<CommonOptions&>(r) = opts;
  return run_command(r, out, err, result);
}

}  // namespace adlang
