// adlang run --derivation, adlang trace --derivation: the program is evaluated by the
// reference evaluators with a derivation recorder (semantics/derivation_recorder.hpp), and the
// record is arranged into the rules of Figs. 2-5 (semantics/derivation.hpp) and printed.
#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "semantics/derivation.hpp"
#include "semantics/derivation_recorder.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

int derivation_command(const CommonOptions& opts, bool symbolic, std::ostream& out,
                       std::ostream& err, CommandResult* result) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(
      opts.json, out, err, file,
      [&] {
        return with_precision(opts.precision, [&]<class S>() {
          auto p = load_program<S>(opts, file);
          ValueEnv<S> rho = p->input_env();
          EvalOptions eo = eval_options(opts);
          eo.evaluator = Evaluator::Reference;  // the evaluator that follows the figures
          EvalContext cx(eo, p->names);
          DerivationRecorder recorder(opts.max_judgements);
          cx.recorder = &recorder;
          DerivationEnv inputs;
          for (const ProgramInput<S>& in : p->inputs)
            inputs.emplace_back(in.name, print_value<S>(in.type, in.value));
          Derivation d;
          if (symbolic) {
            symbolic_eval(p->term, rho, nullptr, cx);
            d = symbolic_derivation(recorder.root(), inputs);
          } else {
            ordinary_eval(p->term, rho, nullptr, cx);
            d = ordinary_derivation(recorder.root(), inputs, p->names);
          }
          out << render_derivation(d, *opts.derivation);
          return int(kExitOk);
        });
      },
      result);
}

}  // namespace adlang
