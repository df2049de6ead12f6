// adlang trace --format dot|svg|png: the trace term (Figs. 4-5) as a computation graph with
// each node's value and, with --wrt, its adjoint (viz/trace_graph.hpp), as DOT or drawn by
// Graphviz's dot.
#include <fstream>

#include "cli/command_runner.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "semantics/symbolic_eval.hpp"
#include "viz/trace_graph.hpp"
#include "viz/trace_graph_dot.hpp"

namespace adlang {

int trace_picture_command(const TraceOptions& opts, std::ostream& out, std::ostream& err) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    if (opts.format != "dot" && opts.output.empty()) {
      throw CommandFailure(kExitUsage, "adlang: error: --format " + opts.format +
                                           " writes a file: give it with -o FILE\n");
    }
    return with_precision(opts.precision, [&]<class S>() {
      auto p = load_program<S>(opts, file);
      ValueEnv<S> rho = p->input_env();
      EvalContext cx(eval_options(opts), p->names);
      Traced<S> traced = symbolic_eval(p->term, rho, nullptr, cx);
      std::optional<AdjointRequest> adjoints;
      if (opts.wrt) {
        const ProgramInput<S>& wrt = input_named(*p, *opts.wrt);
        adjoints =
            AdjointRequest{wrt.name, wrt.type, cotangent_term<S>(opts.dir, traced.trace.type())};
      }
      TraceGraph g = trace_graph<S>(traced.trace, rho, adjoints, cx);
      std::string dot = trace_graph_dot(g);
      if (opts.format == "dot") {
        if (opts.output.empty()) {
          out << dot;
          return int(kExitOk);
        }
        std::ofstream f(opts.output, std::ios::binary);
        f << dot;
        if (!f.flush()) {
          throw CommandFailure(kExitUsage, "adlang: error: cannot write '" + opts.output + "'\n");
        }
        return int(kExitOk);
      }
      draw_with({"dot", "-T" + opts.format, "-o", opts.output}, dot, "graphviz");
      return int(kExitOk);
    });
  });
}

}  // namespace adlang
