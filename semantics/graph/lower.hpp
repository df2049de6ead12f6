// Lowering of the typed core IR to the tagged static dataflow graph (thesis Secs. 4.2-5.2;
// docs/graph.md). Every function body is lowered once, local letrecs included (their bodies
// have no free ordinary variables, Fig. 1, so they lift); the main term is the entry body
// whose parameters are the program's inputs.
#pragma once

#include <utility>
#include <vector>

#include "lang/term.hpp"
#include "semantics/graph/graph.hpp"

namespace adlang::graph {

// The graph of a type-checked program whose free variables are `inputs`. Literals are read
// as doubles (the graph runs in double precision).
Graph lower_to_graph(const Term& program, const std::vector<std::pair<Name, Type>>& inputs);

}  // namespace adlang::graph
