// adlang trace --format dot|svg|png: the trace term (Figs. 4-5) as a computation graph with
// each node's value and, with --wrt, its adjoint (viz/trace_graph.hpp), as DOT or drawn by
// Graphviz's dot; a long trace on pages of kTracePageOperations operations, each a file
// (--page N: one of them).
#include <fstream>
#include <string>
#include <vector>

#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "lang/mentioned_names.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/exit_codes.hpp"
#include "viz/trace_graph.hpp"
#include "viz/trace_graph_dot.hpp"

namespace adlang {

namespace {

// The file of page k of a picture drawn on several pages: page 1 into the output's own name,
// page k > 1 with -k before its extension (t.svg, t-2.svg). Standard output (an empty name)
// stays so.
std::string trace_page_file(const std::string& output, std::size_t k) {
  if (k == 1 || output.empty()) return output;
  std::size_t slash = output.rfind('/');
  std::size_t dot = output.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == 0 ||
      (slash != std::string::npos && dot == slash + 1)) {
    dot = output.size();
  }
  return output.substr(0, dot) + "-" + std::to_string(k) + output.substr(dot);
}

}  // namespace

int trace_picture_command(const TraceOptions& opts, std::ostream& out, std::ostream& err,
                          CommandResult* result) {
  std::shared_ptr<SourceFile> file;
  // SVG or PNG without -o, for a caller that takes the pictures as bytes (the session).
  const bool in_memory = result && opts.format != "dot" && opts.output.empty();
  return run_guarded(
      false, out, err, file,
      [&] {
        if (opts.format != "dot" && opts.output.empty() && !in_memory) {
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
            adjoints = AdjointRequest{wrt.name, wrt.type,
                                      cotangent_term<S>(opts.dir, traced.trace.type())};
          }
          TraceGraph g = trace_graph<S>(traced.trace, rho, mentioned_names(p->term), adjoints, cx);
          const std::size_t pages = trace_graph_pages(g);
          if (opts.page > pages) {
            throw CommandFailure(kExitUsage, "adlang: error: --page " + std::to_string(opts.page) +
                                                 ": the trace is drawn on " +
                                                 std::to_string(pages) +
                                                 (pages == 1 ? " page\n" : " pages\n"));
          }
          std::vector<std::size_t> drawn;
          for (std::size_t k = 1; k <= pages; ++k)
            if (opts.page == 0 || opts.page == k) drawn.push_back(k);
          std::vector<std::string> files;
          const std::string what = opts.wrt
                                       ? "the trace as a graph, with each node's value and its "
                                         "adjoint for " +
                                             *opts.wrt
                                       : "the trace as a graph, with each node's value";
          for (std::size_t k : drawn) {
            std::string dot = trace_graph_dot(g, k - 1);
            if (in_memory) {
              result->pictures.push_back(Picture{
                  opts.format, draw_into_memory({"dot", "-T" + opts.format}, dot, "graphviz"),
                  k == 1 ? what : what + ", page " + std::to_string(k)});
              continue;
            }
            std::string path = opts.page == 0 ? trace_page_file(opts.output, k) : opts.output;
            files.push_back(path);
            if (opts.format == "dot" && path.empty()) {
              out << dot;  // several pages: several graphs, one after the other
            } else if (opts.format == "dot") {
              std::ofstream f(path, std::ios::binary);
              f << dot;
              if (!f.flush())
                throw CommandFailure(kExitUsage, "adlang: error: cannot write '" + path + "'\n");
            } else {
              draw_with({"dot", "-T" + opts.format, "-o", path}, dot, "graphviz");
            }
          }
          if (pages > 1 && opts.page == 0 && !opts.output.empty()) {
            err << "adlang: the trace is drawn on " << pages << " pages of at most "
                << kTracePageOperations << " operations:";
            for (const std::string& f : files)
              err << " " << f;
            err << "\n";
          }
          return int(kExitOk);
        });
      },
      result);
}

}  // namespace adlang
