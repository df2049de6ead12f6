// A trace graph (viz/trace_graph.hpp) in Graphviz's DOT language, top to bottom: one record
// per value, as micrograd draws them ({ name | value | adjoint }, to 4 significant digits, in
// full in the tooltip), fed by a small node for the operation that computed it, its edges
// labelled where the operands' order matters; inputs and the result are shaded.
#pragma once

#include <cstddef>
#include <string>

#include "viz/trace_graph.hpp"

namespace adlang {

// A trace of more operations than fit a notebook cell is drawn on pages: its operations in
// evaluation order, this many to a page; a page shows the values it uses from earlier pages
// dashed, with the page that computes them.
inline constexpr std::size_t kTracePageOperations = 16;

// The number of pages of g (1 for at most kTracePageOperations operations).
std::size_t trace_graph_pages(const TraceGraph& g);

// Page `page` (from 0) of g.
std::string trace_graph_dot(const TraceGraph& g, std::size_t page = 0);

}  // namespace adlang
