#include "driver/partitioned_run.hpp"

#include <sstream>
#include <stdexcept>

#include "checker/check_ranks.hpp"
#include "driver/command_runner.hpp"
#include "driver/graph_engine.hpp"
#include "lang/diagnostics.hpp"
#include "semantics/graph/partition_on_rank.hpp"
#include "semantics/graph/placement.hpp"
#include "support/exit_codes.hpp"

namespace adlang {
namespace {

class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
};

std::string row(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (std::uint64_t x : v)
    s += " " + std::to_string(x);
  return s;
}

}  // namespace

graph::Partitioned partition_for(const graph::Graph& g, const std::vector<std::string>& place,
                                 const std::vector<std::string>& fallback,
                                 std::uint32_t partitions) {
  if (partitions < 1 || partitions > 1024)
    throw CommandFailure(kExitUsage, "adlang: error: --partitions must be between 1 and 1024\n");
  try {
    std::vector<graph::PlaceSpec> specs;
    for (const std::string& s : place.empty() ? fallback : place)
      specs.push_back(graph::parse_place(s));
    return graph::partition_graph(g, graph::place_nodes(g, specs, partitions), partitions);
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    if (what.rfind("--place", 0) != 0) what = "--place: " + what;
    throw CommandFailure(kExitUsage, "adlang: error: " + what + "\n");
  }
}

std::string partitioned_stats_text(const graph::Partitioned& p, const graph::PartitionedStats& st) {
  std::ostringstream o;
  o << "partitions: " << p.parts.size() << "\n";
  o << "channels (Send/Recv pairs): " << p.channels.size() << "\n";
  for (std::size_t r = 0; r < p.parts.size(); ++r) {
    std::size_t copies = 0;
    for (const graph::PartNode& n : p.parts[r].nodes)
      copies += n.kind == graph::PartKind::Copy || n.kind == graph::PartKind::SiteCopy;
    const graph::GraphStats& g = st.per_rank[r];
    o << "partition " << r << ": nodes " << p.parts[r].nodes.size() << " (state machine copies "
      << copies << "), frames " << g.frames_created << ", peak live frames " << g.peak_live_frames
      << ", tokens " << g.tokens << ", dead tokens " << g.dead_tokens << ", calls " << g.calls
      << "\n";
  }
  o << "messages sent (row: from, column: to):\n";
  for (std::size_t r = 0; r < p.parts.size(); ++r)
    o << "  " << r << ":" << row(st.messages[r]) << "\n";
  o << "bytes sent:\n";
  for (std::size_t r = 0; r < p.parts.size(); ++r)
    o << "  " << r << ":" << row(st.bytes[r]) << "\n";
  o << "dead tokens sent:\n";
  for (std::size_t r = 0; r < p.parts.size(); ++r)
    o << "  " << r << ":" << row(st.dead_messages[r]) << "\n";
  return o.str();
}

int run_partitioned_command(const RunCommandOptions& opts, std::ostream& out, std::ostream& err) {
  CheckRanks ranks = check_ranks();
  NullBuffer null_buffer;
  std::ostream null(&null_buffer);
  // Every rank reads, checks and partitions the program the same way; rank 0 speaks for all.
  std::ostream& o = ranks.rank == 0 ? out : null;
  std::ostream& e = ranks.rank == 0 ? err : null;
  std::shared_ptr<SourceFile> file;
  int code = run_guarded(opts.json, o, e, file, [&] {
    if (opts.engine != RunEngine::Graph)
      throw CommandFailure(kExitUsage,
                           "adlang: error: --partitions runs the static graph: use --engine "
                           "graph\n");
    if (opts.precision != Precision::Double)
      throw CommandFailure(kExitUsage,
                           "adlang: error: the graph engines compute in double precision; drop "
                           "--precision or use --engine compiled\n");
    if (opts.threads != 1)
      throw CommandFailure(kExitUsage,
                           "adlang: error: --threads and --partitions exclude each other (a "
                           "partition runs on one thread)\n");
    if (ranks.size > 1 && static_cast<std::uint32_t>(ranks.size) != opts.partitions)
      throw CommandFailure(kExitUsage, "adlang: error: --partitions " +
                                           std::to_string(opts.partitions) + " under mpirun -n " +
                                           std::to_string(ranks.size) +
                                           ": give as many partitions as processes\n");
    if (!(opts.progress_timeout > 0))
      throw CommandFailure(kExitUsage, "adlang: error: --progress-timeout must be positive\n");
    if (opts.unfold)
      throw CommandFailure(kExitUsage,
                           "adlang: error: --unfold (the limited language of Fig. 8) is evaluated "
                           "by the reference evaluator only; use --engine reference\n");
    // The store of reverse mode is one process's: a partitioned graph evaluates rd on the host.
    GraphProgram gp = load_graph_program(opts, file, graph::RdLowering::Host);
    check_printable(*gp.program);
    graph::Partitioned p =
        partition_for(gp.graph, opts.place, gp.program->default_place, opts.partitions);
    graph::PartitionedOptions po;
    po.graph.max_frames = opts.max_frames;
    po.graph.deadness = graph::Deadness::Propagate;
    po.graph.eval = eval_options(opts);
    graph::PartitionedStats stats;
    Value<double> v;
    auto report = [&] {
      if (opts.stats) e << graph_stats_text(gp.graph, nullptr) << partitioned_stats_text(p, stats);
    };
    std::uint64_t calls = 0;
    try {
      if (ranks.size == 1) {
        v = graph::run_partitioned(p, gp.inputs, po, gp.program->names, &stats);
      } else {
        std::vector<std::pair<std::uint32_t, graph::Message>> results =
            run_partition_on_rank(p, gp.inputs, po, gp.program->names, ranks.rank, ranks.size,
                                  opts.progress_timeout, stats);
        if (ranks.rank != 0) return int(kExitOk);  // rank 0's code is broadcast below
        v = graph::assemble_result(gp.graph, results);
      }
    } catch (const Undefined&) {
      report();
      throw;
    }
    for (const graph::GraphStats& s : stats.per_rank)
      calls += s.calls;
    print_run_result(o, opts.json, *gp.program, v, calls);
    report();
    return int(kExitOk);
  });
  return broadcast_exit_code(ranks, code);
}

}  // namespace adlang
