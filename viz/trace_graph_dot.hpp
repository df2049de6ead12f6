// A trace graph (viz/trace_graph.hpp) in Graphviz's DOT language: one record per value, as
// micrograd draws them ({ name | value | adjoint }), fed by a small node for the operation
// that computed it; inputs and the result are shaded.
#pragma once

#include <string>

#include "viz/trace_graph.hpp"

namespace adlang {

std::string trace_graph_dot(const TraceGraph& g);

}  // namespace adlang
