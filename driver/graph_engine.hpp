// adlang run --engine graph|graph-dynamic: the program lowered to the tagged dataflow graph
// and executed there (semantics/graph), shared by `adlang run` and `adlang graph --stats`.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "driver/command_options.hpp"
#include "driver/program_loader.hpp"
#include "lang/source.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/graph.hpp"
#include "semantics/graph/lower.hpp"

namespace adlang {

// A program read, type-checked and lowered to the graph, with its input values.
struct GraphProgram {
  std::unique_ptr<LoadedProgram<double>> program;
  graph::Graph graph;
  std::vector<Value<double>> inputs;
};

// Loads `opts.file` (double precision) and lowers it, with its rds lowered as `rd` says.
GraphProgram load_graph_program(const CommonOptions& opts, std::shared_ptr<SourceFile>& file,
                                graph::RdLowering rd);

// The result line of `adlang run`: the value, or with `json` the JSON object with its calls.
void print_run_result(std::ostream& out, bool json, const LoadedProgram<double>& p,
                      const Value<double>& v, std::uint64_t calls);

// Loads, lowers and runs the program; prints its value (or JSON) to `out`, and with
// opts.stats the execution counts to `err`. Returns the exit code; throws like the other
// commands (run_guarded maps the exceptions).
int run_on_graph(const RunCommandOptions& opts, std::ostream& out, std::ostream& err,
                 std::shared_ptr<SourceFile>& file);

// The counts of `adlang graph --stats` / `adlang run --stats`, one per line.
std::string graph_stats_text(const graph::Graph& g, const graph::GraphStats* run);

}  // namespace adlang
