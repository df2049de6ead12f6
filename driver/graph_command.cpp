// adlang graph: draws the program's tagged dataflow graph (DOT; SVG and PNG by Graphviz's
// library), with the program's parameter names and a legend of the node kinds, and with --stats
// prints its counts and those of one static run. Drawing needs no inputs: the graph's shape
// does not depend on their values.
#include <algorithm>
#include <fstream>

#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/graph_engine.hpp"
#include "driver/graphviz_render.hpp"
#include "driver/partitioned_run.hpp"
#include "driver/program_loader.hpp"
#include "lang/diagnostics.hpp"
#include "lang/type_checker.hpp"
#include "semantics/graph/dot.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/graph/partition.hpp"
#include "support/exit_codes.hpp"

namespace adlang {
namespace {

// Loads and lowers the program; `assumed` are the inputs given the value 0 (a real) in
// ro.env. A program that needs another type for one of them is told to give it with --env.
GraphProgram load_assuming_real_inputs(const RunCommandOptions& ro,
                                       std::shared_ptr<SourceFile>& file,
                                       const GraphCommandOptions& opts,
                                       const std::vector<std::string>& assumed) {
  try {
    // A partitioned picture shows the graph that partitioned runs execute: rd on the host.
    return load_graph_program(ro, file, opts.partitions > 0 ? graph::RdLowering::Host : opts.rd);
  } catch (const CommandFailure& e) {
    if (assumed.empty() || e.code() != kExitCompileError) throw;
    std::string names;
    for (const std::string& x : assumed)
      names += (names.empty() ? "" : ", ") + x;
    throw CommandFailure(e.code(), e.message() + "adlang: note: the inputs without --env (" +
                                       names + ") were taken as reals; give an input of " +
                                       "another type with --env NAME=VALUE\n");
  }
}

}  // namespace

int graph_command(const GraphCommandOptions& opts, std::ostream& out, std::ostream& err) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    RunCommandOptions ro;
    ro.file = opts.file;
    ro.env = opts.env;
    // The graph's shape does not depend on the inputs' values: an input that --env does not
    // give is drawn as a real. --stats runs the graph, and needs them all.
    std::vector<std::string> assumed;
    if (!opts.stats) {
      file = read_source(opts.file);
      ParsedFile parsed = parse_file(*file);
      for (const Name& x : program_inputs(parsed.syntax)) {
        auto given = [&](const std::string& binding) {
          return binding.rfind(x.str() + "=", 0) == 0;
        };
        bool in_script = std::any_of(parsed.default_env.begin(), parsed.default_env.end(),
                                     [&](const auto& e) { return e.first == x.str(); });
        if (in_script || std::any_of(ro.env.begin(), ro.env.end(), given)) continue;
        ro.env.push_back(x.str() + "=0");
        assumed.push_back(x.str());
      }
    }
    GraphProgram gp = load_assuming_real_inputs(ro, file, opts, assumed);
    ro.fuel = opts.fuel;
    ro.max_frames = opts.max_frames;
    ro.predicates = opts.predicates;
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
