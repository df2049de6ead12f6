// Pictures of the tagged graph in Graphviz's DOT language, drawn like the thesis's figures:
// one cluster per function body, Call_i / Return_i numbered by call site, Switch (T/F ports)
// and Merge, Call -> Return control edges dashed, and a legend of the node kinds drawn.
#pragma once

#include <string>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

// The DOT text of `g` (deterministic: goldens compare it).
std::string to_dot(const Graph& g);

// The legend cluster of to_dot: what each kind of node `g` has does, and the dashed edges.
std::string dot_legend(const Graph& g);

// A node's label and Graphviz shape in these pictures (shared with the partitioned pictures).
std::string dot_label(const Graph& g, const Node& n);
const char* dot_shape(NodeKind k);
std::string dot_escape(const std::string& s);

}  // namespace adlang::graph
