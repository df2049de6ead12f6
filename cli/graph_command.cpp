// adlang graph: draws the program's tagged dataflow graph (DOT; SVG and PNG by Graphviz's
// library), and with --stats prints its counts and those of one static run.
#include <fstream>

#include "cli/command_runner.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/graph_engine.hpp"
#include "cli/graphviz_render.hpp"
#include "cli/partitioned_run.hpp"
#include "cli/program_loader.hpp"
#include "lang/diagnostics.hpp"
#include "semantics/graph/dot.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/graph/partition.hpp"

namespace adlang {

int graph_command(const GraphCommandOptions& opts, std::ostream& out, std::ostream& err) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    RunCommandOptions ro;
    ro.file = opts.file;
    ro.env = opts.env;
    ro.fuel = opts.fuel;
    ro.max_frames = opts.max_frames;
    ro.predicates = opts.predicates;
    // A partitioned picture shows the graph that partitioned runs execute: rd on the host.
    GraphProgram gp =
        load_graph_program(ro, file, opts.partitions > 0 ? graph::RdLowering::Host : opts.rd);
    const graph::Graph& g = gp.graph;
    std::string dot = opts.partitions > 0
                          ? graph::to_dot(partition_for(g, opts.place, gp.program->default_place,
                                                        opts.partitions))
                          : graph::to_dot(g);
    if (opts.format == "dot") {
      if (opts.output.empty()) {
        out << dot;
      } else {
        std::ofstream f(opts.output);
        f << dot;
        if (!f)
          throw CommandFailure(kExitUsage, "adlang: error: cannot write '" + opts.output + "'\n");
      }
    } else {
      render_graphviz(dot, opts.format, opts.output, out);
    }
    if (opts.stats) {
      graph::GraphOptions go;
      go.max_frames = opts.max_frames;
      go.deadness = opts.propagate_dead ? graph::Deadness::Propagate : graph::Deadness::Elide;
      go.eval = eval_options(ro);
      graph::GraphStats stats;
      try {
        graph::run_graph(g, gp.inputs, go, gp.program->names, &stats);
      } catch (const Undefined&) {
        err << graph_stats_text(g, &stats);
        throw;
      }
      (opts.output.empty() ? err : out) << graph_stats_text(g, &stats);
    }
    return int(kExitOk);
  });
}

}  // namespace adlang
