// The reference executor of the tagged graph: one node instance at a time (thesis Sec. 3.2;
// docs/graph.md, "The reference executor").
//
// A work list of node instances (node, frame): an instance fires when its inputs with the same
// tag have arrived, by the firing rules every executor shares (firing_rules.hpp, node_value.hpp)
// and nothing else: no blocks, no schedule, no threads, no fast path. It is the executable
// statement of the semantics that executor.hpp's compiled blocks must agree with, value and
// statistics (the property graph-ref-agrees, checker/properties/graph.cpp).
//
// It takes run_graph's arguments and gives its result: main's value, or the earliest
// undefinedness (in evaluation order) thrown as Undefined; an exhausted --timeout or
// --max-memory, or GraphOptions::bound, as run_graph reports them. It honours
// GraphOptions::deadness, eval (fuel, predicates, what Rd nodes need), max_frames and bound;
// engine, threads and schedule do not apply. Its statistics count node firings as run_graph's
// do (tokens, dead tokens, calls, frames created, values saved); a frame is live from its entry
// until its last output has been sent (run_graph also keeps it until its blocks have run, so the
// peaks of live frames, and the --max-frames budget near its limit, can differ).
#pragma once

#include <vector>

#include "lang/name.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/graph.hpp"
#include "semantics/value.hpp"

namespace adlang::graph {

Value<double> run_graph_reference(const Graph& g, const std::vector<Value<double>>& inputs,
                                  const GraphOptions& options, NameSupply& names,
                                  GraphStats* stats = nullptr);

}  // namespace adlang::graph
