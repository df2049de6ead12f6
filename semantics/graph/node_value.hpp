// The value rules of the graph's strict nodes (docs/graph.md), shared by the executor of one
// process (semantics/graph/executor.hpp) and the partitioned executor
// (semantics/graph/partitioned_executor.hpp): what a node computes from live inputs.
#pragma once

#include <cstdint>
#include <optional>

#include "semantics/eval_context.hpp"
#include "semantics/graph/graph.hpp"
#include "semantics/undefined.hpp"
#include "semantics/value.hpp"

namespace adlang::graph {

// Add: the built-in addition's result outside double precision's range.
Undefined sum_out_of_range(SourceLoc loc);

// W.rd_V(x:T. N) on the host: the redex of an Rd node on its inputs (one double per input
// scalar, in the order of p.inputs), by the compiled evaluator (symbolic evaluation and R,
// Fig. 2) with at most `fuel` calls; `calls` receives the calls it made, also when it throws.
// `calls_before`, the calls the run made before, only counts in messages ("out of fuel after
// N function calls" counts the run's calls, not the evaluation's). Throws Undefined.
Value<double> evaluate_rd(const RdProgram& p, const double* in, const EvalOptions& eval,
                          std::uint64_t fuel, std::uint64_t calls_before, NameSupply& names,
                          std::uint64_t& calls);

// A strict node (Const, BoolConst, Add, Op, Pred, Sync, Gate, Rd) on live inputs: writes its
// outputs and returns nullopt, or returns its undefinedness. Rd's calls are added to `calls`.
std::optional<Undefined> strict_node_value(const Node& n, const double* in, double* out,
                                           const EvalOptions& eval, std::uint64_t fuel,
                                           NameSupply& names, std::uint64_t& calls);

}  // namespace adlang::graph
