// Pictures of the tagged graph in Graphviz's DOT language, drawn like the thesis's figures:
// one cluster per function body, Call_i / Return_i numbered by call site, Switch (T/F ports)
// and Merge, Call -> Return control edges dashed.
#pragma once

#include <string>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

// The DOT text of `g` (deterministic: goldens compare it).
std::string to_dot(const Graph& g);

}  // namespace adlang::graph
