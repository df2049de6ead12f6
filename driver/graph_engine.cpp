#include "driver/graph_engine.hpp"

#include <sstream>

#include "driver/command_runner.hpp"
#include "driver/json.hpp"
#include "driver/program_loader.hpp"
#include "semantics/graph/lower.hpp"
#include "support/exit_codes.hpp"
#include "support/threads.hpp"

namespace adlang {

int run_on_graph(const RunCommandOptions& opts, std::ostream& out, std::ostream& err,
                 std::shared_ptr<SourceFile>& file) {
  if (opts.precision != Precision::Double)
    throw CommandFailure(kExitUsage,
                         "adlang: error: the graph engines compute in double precision; drop "
                         "--precision or use --engine compiled\n");
  if (opts.unfold)
    throw CommandFailure(kExitUsage,
                         "adlang: error: --unfold (the limited language of Fig. 8) is evaluated by "
                         "the reference evaluator only; use --engine reference\n");
  if (opts.threads < 1 || opts.threads > 256)
    throw CommandFailure(kExitUsage, "adlang: error: --threads must be between 1 and 256\n");
  if (!kThreadsAvailable && opts.threads > 1)
    throw CommandFailure(kExitUsage,
                         "adlang: error: --threads: this build of adlang runs the "
                         "graph at one thread (no threads in WebAssembly)\n");
  GraphProgram gp = load_graph_program(opts, file, opts.rd);
  check_printable(*gp.program);
  const graph::Graph& g = gp.graph;
  graph::GraphOptions go;
  go.engine =
      opts.engine == RunEngine::GraphDynamic ? graph::Engine::Dynamic : graph::Engine::Static;
  go.threads = opts.threads;
  go.max_frames = opts.max_frames;
  go.deadness = opts.propagate_dead ? graph::Deadness::Propagate : graph::Deadness::Elide;
  go.eval = eval_options(opts);
  graph::GraphStats stats;
  Value<double> v;
  try {
    v = graph::run_graph(g, gp.inputs, go, gp.program->names, &stats);
  } catch (const Undefined&) {
    if (opts.stats) err << graph_stats_text(g, &stats);
    throw;
  }
  print_run_result(out, opts.json, *gp.program, v, stats.calls);
  if (opts.stats) err << graph_stats_text(g, &stats);
  return int(kExitOk);
}

GraphProgram load_graph_program(const CommonOptions& opts, std::shared_ptr<SourceFile>& file,
                                graph::RdLowering rd) {
  GraphProgram gp;
  gp.program = load_program<double>(opts, file);
  std::vector<std::pair<Name, Type>> names;
  for (const ProgramInput<double>& in : gp.program->inputs) {
    names.emplace_back(in.name, in.type);
    gp.inputs.push_back(in.value);
  }
  gp.graph = graph::lower_to_graph(gp.program->term, names, rd);
  return gp;
}

void print_run_result(std::ostream& out, bool json, const LoadedProgram<double>& p,
                      const Value<double>& v, std::uint64_t calls) {
  Type t = p.term.type();
  if (json) {
    out << "{\"value\": " << print_value_json<double>(t, v.data())
        << ", \"text\": " << json::quote(print_result(p, v))
        << ", \"type\": " << json::quote(to_string(t)) << ", \"calls\": " << calls << "}\n";
  } else {
    out << print_result(p, v) << "\n";
  }
}

std::string graph_stats_text(const graph::Graph& g, const graph::GraphStats* run) {
  std::ostringstream o;
  std::vector<std::size_t> kinds = graph::count_by_kind(g);
  o << "nodes: " << g.nodes.size() << "\n";
  for (int k = 0; k < graph::kNodeKinds; ++k)
    if (kinds[k] > 0)
      o << "  " << graph::to_string(static_cast<graph::NodeKind>(k)) << ": " << kinds[k] << "\n";
  o << "bodies: " << g.bodies.size() << "\n";
  o << "call sites: " << g.sites.size() << "\n";
  if (g.inlined_rds() > 0) o << "rds inlined: " << g.inlined_rds() << "\n";
  if (run) {
    o << "frames created: " << run->frames_created << "\n";
    o << "peak live frames: " << run->peak_live_frames << "\n";
    o << "tokens: " << run->tokens << "\n";
    o << "dead tokens: " << run->dead_tokens << "\n";
    o << "calls: " << run->calls << "\n";
    if (run->bodies_copied) o << "bodies copied: " << run->bodies_copied << "\n";
    if (run->workers > 1)
      o << "workers taking part: " << run->workers_taking_part << " of " << run->workers << "\n";
    if (g.store_slots > 0) {
      o << "saved values: " << run->saved_values << "\n";
      o << "peak saved values: " << run->peak_saved_values << " (" << run->peak_saved_bytes
        << " bytes with their tags)\n";
    }
  }
  return o.str();
}

}  // namespace adlang
